// The room page: one WebSocket (docs/protocol.md), the live table, seats, log and chat.
// Seat tokens live in localStorage under intrigue:token:<ROOM>; without one you watch.

import {h, fill, $, toast} from "./dom.js";
import {api, savedToken, saveToken, forgetToken, savedName, saveName, botLabel, roomCodeFromPath} from "./api.js";
import {renderView, renderLog, Countdown} from "./render.js";

const code = roomCodeFromPath("/room/").toUpperCase();
const state = {
  token: savedToken(code),
  welcome: null,      // the server's welcome: seat, name, spectator
  room: null,         // the latest room message
  view: null,         // the latest observation
  timer: null,
  games: {},          // game id → GET /api/games entry (for min players)
  socket: null,
  retries: 0,
  closing: false,     // true while we close the socket on purpose
  gone: false,        // the room does not exist
  voted: false,
};
const countdown = new Countdown();

const shareUrl = `${location.origin}/room/${encodeURIComponent(code)}`;
$("#share-link").value = shareUrl;
$("#copy-link").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(shareUrl);
    toast("Link copied", "info");
  } catch (err) {
    $("#share-link").select();
  }
});
$("#room-title").textContent = `Room ${code}`;

// ---------------------------------------------------------------- socket

function setConnection(kind, text) {
  const node = $("#connection");
  node.dataset.state = kind;
  node.textContent = text;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  state.socket = socket;
  state.welcome = null;
  setConnection("connecting", state.retries ? "reconnecting…" : "connecting…");
  socket.addEventListener("open", () => {
    const hello = {type: "hello", room: code};
    if (state.token) hello.token = state.token;
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (err) {
      return;
    }
    handle(message);
  });
  socket.addEventListener("close", () => {
    if (state.socket !== socket) return;
    if (state.gone) return;
    if (state.closing) {
      state.closing = false;
      connect();
      return;
    }
    state.retries += 1;
    setConnection("offline", "reconnecting…");
    setTimeout(connect, Math.min(5000, 300 * 2 ** Math.min(state.retries, 5)));
  });
}

function reconnectNow() {
  state.closing = true;
  if (state.socket) state.socket.close();
}

function send(message) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
    toast("Not connected yet; try again in a moment.");
    return false;
  }
  state.socket.send(JSON.stringify(message));
  return true;
}

setInterval(() => {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send('{"type":"ping"}');
}, 20000);

// ---------------------------------------------------------------- messages

function handle(message) {
  switch (message.type) {
    case "welcome":
      // The server follows every welcome with the room's recent chat: start the list afresh.
      if (!state.welcome || state.welcome.room !== message.room || state.chatFrom !== state.socket) {
        fill($("#chat"));
        state.chatFrom = state.socket;
      }
      state.welcome = message;
      state.retries = 0;
      setConnection("online", message.spectator ? "watching" : "connected");
      renderSeats();
      renderBar();
      renderChatForm();
      break;
    case "room":
      if (state.room && state.room.match !== message.match) state.voted = false;
      state.room = message;
      state.baseTitle = `${message.title || message.game} · ${code} · Intrigue`;
      document.title = state.baseTitle;
      $("#room-title").textContent = `${message.title || message.game} · Room ${code}`;
      loadGame(message.game);
      renderSeats();
      renderBar();
      if (!state.view || message.status === "waiting") renderWaiting();
      break;
    case "view":
      state.view = message.view;
      state.match = message.match;
      countdown.set(message.timer);
      renderTable();
      renderLog($("#log"), message.view);
      renderBar();
      renderFlow();
      break;
    case "chat":
      addChat(message);
      break;
    case "error":
      onError(message);
      break;
    default:
      break;
  }
}

function onError(message) {
  if (message.code === "no_room") {
    state.gone = true;
    setConnection("offline", "no such room");
    fill($("#table"), h("section", {class: "notice"},
      h("h2", {}, `There is no room ${code}`),
      h("p", {}, "It may have been closed. "), h("a", {href: "/"}, "Back to the lobby")));
    state.socket.close();
    return;
  }
  if (message.code === "bad_token" && !state.welcome) {
    // A token this room does not know (e.g. an old room with the same code): watch instead.
    forgetToken(code);
    state.token = null;
    toast("Your saved seat is not valid in this room any more; you are watching.");
    reconnectNow();
    return;
  }
  if (message.code === "stale_version") {
    toast("The table changed before your choice arrived: choose again.", "info");
  } else {
    toast(message.message || message.code);
  }
  // A refused choice changes nothing: let the player choose again.
  for (const button of document.querySelectorAll("button.option")) {
    button.disabled = false;
    button.classList.remove("chosen");
  }
}

async function loadGame(id) {
  if (state.games[id] !== undefined) return;
  state.games[id] = null;
  try {
    for (const game of await api("GET", "/api/games")) state.games[game.id] = game;
    renderWaiting();
  } catch (err) {
    /* the waiting text just lacks the minimum */
  }
}

// ---------------------------------------------------------------- rendering

function mySeat() {
  return state.welcome && !state.welcome.spectator ? state.welcome.seat : null;
}

function renderSeats() {
  const room = state.room;
  if (!room) return;
  const me = mySeat();
  const votes = new Set((room.rematch && room.rematch.votes) || []);
  const showVotes = room.rematch && (room.rematch.needed || []).length && isOver();
  fill($("#seats"), room.seats.map((seat) => {
    const open = seat.name === null && !seat.bot;
    return h("li", {class: "seat" + (seat.seat === me ? " me" : "") + (open ? " open" : ""), dataset: {seat: seat.seat}},
      h("span", {class: "dot " + (seat.connected ? "on" : "off"), title: seat.connected ? "connected" : "not connected",
        "aria-label": seat.connected ? "connected" : "not connected"}),
      h("span", {class: "seat-name"}, open ? "open seat" : seat.name),
      seat.bot ? h("span", {class: "badge badge-bot"}, botLabel(seat.bot)) : null,
      seat.seat === room.host ? h("span", {class: "badge"}, "host") : null,
      seat.seat === me ? h("span", {class: "badge badge-you"}, "you") : null,
      showVotes && votes.has(seat.seat) ? h("span", {class: "badge badge-vote"}, "rematch ✓") : null,
      seat.left ? h("span", {class: "muted small"}, "left") :
        !open && !seat.bot && !seat.connected ? h("span", {class: "muted small"}, "offline") : null);
  }));
  const welcome = state.welcome;
  $("#you-are").textContent = !welcome ? "" : welcome.spectator
    ? "You are watching as a spectator."
    : `You are ${welcome.name}, seat ${welcome.seat + 1}.`;
}

// Spectators follow the game on its phase graph (the flow is public; the phase is in every view).
function renderFlow() {
  const panel = $("#flow");
  const view = state.view;
  const watching = !state.welcome || state.welcome.spectator;
  panel.hidden = !(watching && view);
  if (panel.hidden) return;
  const src = `/api/games/${encodeURIComponent(view.game)}/graph.svg?highlight=${view.phase.id}`;
  if ($("#flow-img").getAttribute("src") !== src) {
    $("#flow-img").setAttribute("src", src);
    $("#flow-link").setAttribute("href", src);
  }
}

function isOver() {
  return (state.view && state.view.over) || (state.room && state.room.status === "finished");
}

function renderBar() {
  const bar = $("#room-bar");
  const room = state.room;
  if (!room) return fill(bar);
  const me = mySeat();
  const items = [];
  const openSeats = room.seats.filter((s) => s.name === null && !s.bot).length;
  if (state.welcome && state.welcome.spectator) {
    if (room.status === "waiting" && openSeats > 0) {
      items.push(joinForm());
    } else {
      items.push(h("p", {class: "spectating"}, "You are watching this game."));
    }
  }
  if (me !== null && room.status === "waiting") {
    if (me === room.host) {
      items.push(h("button", {type: "button", class: "primary", id: "start", onclick: () => send({type: "start", token: state.token})},
        "Start the game"));
    } else {
      const host = room.seats.find((s) => s.seat === room.host);
      items.push(h("p", {}, `Waiting for ${host && host.name ? host.name : "the host"} to start the game.`));
    }
  }
  if (me !== null && isOver() && room.rematch) {
    const votes = (room.rematch.votes || []).length;
    const needed = (room.rematch.needed || []).length;
    const voted = (room.rematch.votes || []).includes(me) || state.voted;
    items.push(h("button", {type: "button", class: "primary", id: "rematch", disabled: voted,
      onclick: () => { if (send({type: "rematch", token: state.token})) { state.voted = true; renderBar(); } }},
      voted ? `Rematch: you voted (${votes}/${needed})` : `Vote for a rematch (${votes}/${needed})`));
  }
  if (me !== null && room.status !== "finished") {
    items.push(h("button", {type: "button", class: "quiet", id: "leave", onclick: leave},
      room.status === "waiting" ? "Leave room" : "Leave (the timer plays for you)"));
  }
  fill(bar, items);
}

function joinForm() {
  const input = h("input", {id: "join-name", type: "text", maxlength: "24", required: true, autocomplete: "nickname",
    value: savedName(), placeholder: "Your name"});
  return h("form", {class: "join-form", onsubmit: async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    try {
      const joined = await api("POST", `/api/rooms/${encodeURIComponent(code)}/join`, {name});
      saveName(name);
      saveToken(code, joined.token);
      state.token = joined.token;
      reconnectNow();
    } catch (err) {
      toast(`Could not join: ${err.message}`);
    }
  }},
  h("label", {for: "join-name"}, "Your name"), input,
  h("button", {type: "submit", class: "primary", id: "join"}, "Take a seat"));
}

async function leave() {
  if (state.room && state.room.status === "playing" &&
      !window.confirm("Leave this game? Your seat stays at the table and the game's default choices are played for you; you cannot come back to it.")) {
    return;
  }
  try {
    await api("POST", `/api/rooms/${encodeURIComponent(code)}/leave`, {token: state.token});
  } catch (err) {
    toast(`Could not leave: ${err.message}`);
    return;
  }
  forgetToken(code);
  location.href = "/";
}

function renderWaiting() {
  const room = state.room;
  if (!room || (state.view && room.status !== "waiting")) return;
  const seated = room.seats.filter((s) => s.name !== null || s.bot).length;
  const game = state.games[room.game];
  const minimum = room.min_players || (game && game.min_players);
  delete $("#table").dataset.version;
  fill($("#table"), h("section", {class: "notice waiting-room"},
    h("h2", {}, room.status === "waiting" ? "Waiting for players" : "Loading the table…"),
    h("p", {}, `${seated} of ${room.seats.length} seats taken.` +
      (minimum ? ` ${room.title || room.game} needs at least ${minimum} players.` : "")),
    h("p", {}, "Share the invite link so friends can join, or watch."),
    game && game.summary ? h("p", {class: "muted"}, game.summary) : null));
}

function renderTable() {
  const view = state.view;
  const canChoose = mySeat() !== null && !view.over;
  // A mark in the tab's title when a decision waits for you (the tab may be in the background).
  const waiting = canChoose && view.decision && (view.decision.options || []).length > 0;
  const base = state.baseTitle || document.title.replace(/^● /, "");
  document.title = waiting ? `● ${base}` : base;
  renderView($("#table"), view, {
    countdown: countdown.node,
    onChoose: canChoose ? choose : null,
  });
}

function choose(option, button) {
  const sent = send({type: "choose", token: state.token, version: state.view.version, option});
  if (!sent) return;
  for (const other of document.querySelectorAll("button.option")) other.disabled = true;
  button.classList.add("chosen");
}

// ---------------------------------------------------------------- chat

function addChat(message) {
  const list = $("#chat");
  list.appendChild(h("li", {class: "chat-line"},
    h("strong", {class: "chat-from"}, message.from || "?"), h("span", {class: "chat-text"}, ` ${message.text}`)));
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

function renderChatForm() {
  const spectator = !state.welcome || state.welcome.spectator;
  const input = $("#chat-text");
  input.disabled = spectator;
  input.placeholder = spectator ? "Take a seat to chat" : "Say something…";
  $("#chat-form button").disabled = spectator;
}

$("#chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("#chat-text");
  const text = input.value.trim();
  if (!text) return;
  if (send({type: "chat", token: state.token, text})) input.value = "";
});

connect();
