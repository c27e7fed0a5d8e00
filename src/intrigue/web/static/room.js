// The room page: one WebSocket (docs/protocol.md), the live table, seats, log and chat.
// Seat tokens live in localStorage under intrigue:token:<ROOM>; without one you watch.

import {h, fill, $, toast} from "./dom.js";
import {api, savedToken, saveToken, forgetToken, savedName, saveName, roomCodeFromPath, botWords} from "./api.js";
import {renderView, Countdown} from "./render.js";
import {renderLog, renderRecent, Outcomes} from "./events.js";
import {gameTable, gameText, refusal, setupI18n, t} from "./i18n.js";
import {playerColour} from "./cards.js";
import {setupTools} from "./prefs.js";
import {openSheet} from "./sheet.js";
import {yourTurn, timeRunningOut} from "./alerts.js";
import {tableHooks} from "./hooks.js";
import "./coach.js";     // the Hint button in practice rooms (it listens to tableHooks)
import "./tutorial.js";  // the guided first game's overlay

const code = roomCodeFromPath("/room/").toUpperCase();
const state = {
  token: savedToken(code),
  welcome: null,      // the server's welcome: seat, name, spectator
  room: null,         // the latest room message
  view: null,         // the latest observation
  previous: null,     // the observation before it (to turn revealed cards over)
  timer: null,
  timeouts: [],
  table: null,        // the game's table data (rules drawer, art, messages)
  games: {},          // game id → GET /api/games entry
  bots: [],           // GET /api/bots (difficulty words)
  socket: null,
  retries: 0,
  closing: false,     // true while we close the socket on purpose
  gone: false,        // the room does not exist
  voted: false,
  decisionKey: null,  // the decision last alerted for
};
const countdown = new Countdown({onLow: () => {
  if (state.view && (state.view.decision?.options || []).length) timeRunningOut();
}});
let outcomes = null;

// ---------------------------------------------------------------- socket

function setConnection(kind, key) {
  const node = $("#connection");
  node.dataset.state = kind;
  node.textContent = t(key);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  state.socket = socket;
  state.welcome = null;
  setConnection("connecting", state.retries ? "conn.reconnecting" : "conn.connecting");
  socket.addEventListener("open", () => {
    // log_deltas: each view's log holds only the lines added since the view before it (mergeLog)
    const hello = {type: "hello", room: code, log_deltas: true};
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
    // One message at a time, in order (handling may wait for the game's table data).
    state.queue = (state.queue || Promise.resolve()).then(() => handle(message)).catch((err) => console.error(err));
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
    setConnection("offline", "conn.reconnecting");
    // The first try after 100 to 350 ms (a cluster's node died and the proxy sends us to another), then
    // backing off; always with jitter, so that the players of a dead node do not all come back at once.
    const delay = state.retries === 1 ? 100 + 250 * Math.random()
      : Math.random() * Math.min(5000, 300 * 2 ** Math.min(state.retries, 5));
    setTimeout(connect, delay);
  });
}

function reconnectNow() {
  state.closing = true;
  if (state.socket) state.socket.close();
}

function send(message) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
    toast(t("conn.notyet"));
    return false;
  }
  state.socket.send(JSON.stringify(message));
  return true;
}

setInterval(() => {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send('{"type":"ping"}');
}, 20000);

// ---------------------------------------------------------------- messages

// How many log lines a view carries (the last ones this seat may read).
const LOG_TAIL = 80;

// A view whose `log_after` is a version continues the view of that version, the one before it on this
// socket: its log holds only the lines added since, appended here to that view's lines (the last 80
// kept), so everything after this sees the whole log. `log_after: null`: the log is whole already.
function mergeLog(message) {
  const held = state.view;
  if (state.match !== message.match || !held || held.version !== message.log_after) {
    reconnectNow();  // not expected (a hello always brings a whole log): start afresh
    return false;
  }
  message.view.log = held.log.concat(message.view.log).slice(-LOG_TAIL);
  return true;
}

async function handle(message) {
  if (message.type === "view" && message.log_after != null && !mergeLog(message)) return;
  tableHooks.emit("message", {message});
  switch (message.type) {
    case "welcome":
      // The server follows every welcome with the room's recent chat: start the list afresh (a
      // welcome comes again on the same socket when a cluster moves the room to another node).
      fill($("#chat"));
      state.chatBacklog = true;  // the recent chat that follows a welcome is not news
      state.welcome = message;
      state.retries = 0;
      setConnection("online", message.spectator ? "conn.watching" : "conn.online");
      renderSeats();
      renderBar();
      renderChatForm();
      break;
    case "room":
      state.chatBacklog = false;
      if (state.room && state.room.match !== message.match) state.voted = false;
      state.room = message;
      document.body.dataset.status = message.status;  // during a match the log comes first beside the table
      await loadGame(message.game);
      titles();
      renderSeats();
      markAway();
      renderBar();
      if (!state.view || message.status === "waiting") renderWaiting();
      break;
    case "view":
      if (state.match !== message.match) state.previous = null;
      else state.previous = state.view;
      state.view = message.view;
      state.match = message.match;
      state.timer = message.timer;
      state.timeouts = message.timeouts || [];
      countdown.set(message.timer);
      await loadGame(message.view.game);
      tableHooks.emit("view", {view: state.view, timer: state.timer, seat: mySeat(), match: state.match});
      renderTable();
      renderLog($("#log"), state.table, state.view, state.timeouts);
      renderRecent($("#recent"), state.table, state.view, state.timeouts);
      outcomes.update(state.table, state.view, state.timeouts, state.match);
      renderBar();
      if (state.newDecision) showHandAbove(state.newDecision);
      state.newDecision = null;
      renderFlow();
      if (state.view.over) tableHooks.emit("over", {view: state.view});
      // The match just ended: bring the winner and the rematch vote into sight (on a phone the
      // page is usually scrolled down to the decision panel).
      if (state.view.over && state.previous && !state.previous.over && $("#room-bar").getBoundingClientRect().top < 0) {
        $("#room-bar").scrollIntoView({block: "start"});
      }
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
  if (message.about) return;  // the answer to a feature's own request (a hint): the feature shows it
  if (message.code === "no_room") {
    state.gone = true;
    setConnection("offline", "conn.noroom");
    fill($("#table"), h("section", {class: "notice"},
      h("h2", {}, t("room.none", {code})),
      h("p", {}, t("room.closed")), h("a", {href: "/"}, t("nav.lobby"))));
    state.socket.close();
    return;
  }
  if (message.code === "bad_token" && !state.welcome) {
    // A token this room does not know (e.g. an old room with the same code): watch instead.
    forgetToken(code);
    state.token = null;
    toast(t("room.badtoken"));
    reconnectNow();
    return;
  }
  if (message.code === "stale_version") {
    toast(t("room.stale"), "info");
  } else {
    toast(refusal(message.code, message.message));
  }
  // A refused choice changes nothing: let the player choose again.
  for (const button of document.querySelectorAll("#table .decision.mine button.option")) {
    if (!button.dataset.unavailable) button.disabled = false;
    button.classList.remove("chosen");
  }
}

async function loadGame(id) {
  if (!state.table || state.table.game !== id) {
    state.table = await gameTable(id);
    if (state.rulesAsked) showRules();  // Rules pressed before the game's table had arrived
  }
  if (state.games[id] === undefined) {
    state.games[id] = null;
    try {
      for (const game of await api("GET", "/api/games")) state.games[game.id] = game;
      renderWaiting();
    } catch (err) {
      /* the waiting text just lacks the minimum */
    }
  }
}

// ---------------------------------------------------------------- rendering

function mySeat() {
  return state.welcome && !state.welcome.spectator ? state.welcome.seat : null;
}

function gameTitle() {
  const room = state.room;
  if (!room) return "";
  return gameText(state.table, room.title || room.game);
}

function titles() {
  const title = gameTitle();
  state.baseTitle = `${title} · ${code} · Intrigue`;
  document.title = state.baseTitle;
  const heading = $("#room-title");
  // "{game} · Room {code}" in two pieces: a phone wraps a long name between them, never inside the code.
  fill(heading, h("span", {class: "room-game"}, title), " · ", h("span", {class: "room-code"}, t("room.code", {code})));
  heading.title = t("room.title", {game: title, code});
}

function seatLabel(seat) {
  return seat.bot ? botWords(seat.bot, state.bots) : "";
}

function renderSeats() {
  const room = state.room;
  if (!room) return;
  const me = mySeat();
  const votes = new Set((room.rematch && room.rematch.votes) || []);
  const showVotes = room.rematch && (room.rematch.needed || []).length && isOver();
  fill($("#seats"), room.seats.map((seat) => {
    const open = seat.name === null && !seat.bot;
    return h("li", {class: "seat" + (seat.seat === me ? " me" : "") + (open ? " open" : ""), dataset: {seat: seat.seat},
      style: {"--pc": playerColour(seat.seat)}},
      h("span", {class: "dot " + (seat.connected ? "on" : "off"), role: "img",
        "aria-label": t(seat.connected ? "seats.connected" : "seats.offline")}),
      h("span", {class: "seat-name" + (open ? "" : " pname")}, open ? t("seats.open") : seat.name),
      seat.bot ? h("span", {class: "badge badge-bot"}, seatLabel(seat)) : null,
      seat.seat === room.host ? h("span", {class: "badge"}, t("badge.host")) : null,
      seat.seat === me ? h("span", {class: "badge badge-you"}, t("badge.you")) : null,
      showVotes && votes.has(seat.seat) ? h("span", {class: "badge badge-vote"}, t("badge.rematch")) : null,
      seat.left ? h("span", {class: "muted small"}, t("seats.left")) :
        !open && !seat.bot && !seat.connected ? h("span", {class: "muted small"}, t("seats.offline")) : null);
  }));
  const welcome = state.welcome;
  $("#you-are").textContent = !welcome ? "" : welcome.spectator
    ? t("seats.spectator")
    : t("seats.youare", {name: welcome.name, seat: welcome.seat + 1});
}

// Spectators follow the game on its phase graph (the flow is public; the phase is in every view).
function renderFlow() {
  const panel = $("#flow");
  const view = state.view;
  const watching = !state.welcome || state.welcome.spectator;
  panel.hidden = !(watching && view);
  if (panel.hidden) return;
  const src = `/api/games/${encodeURIComponent(view.game)}/graph.svg?highlight=${view.phase.id}`;
  $("#flow-img").alt = t("flow.alt", {phase: gameText(state.table, view.phase.name)});
  if ($("#flow-img").getAttribute("src") !== src) {
    $("#flow-img").setAttribute("src", src);
    $("#flow-link").setAttribute("href", src);
    $("#flow-link").setAttribute("aria-label", t("flow.open"));
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
      items.push(h("p", {class: "spectating"}, t("room.watching")));
    }
  }
  if (me !== null && room.status === "waiting") {
    if (me === room.host) {
      // Greyed until the game has enough players (the notice below says how many): pressed early it
      // answered with the server's refusal, in English whatever the page's language.
      const seated = room.seats.filter((s) => s.name !== null || s.bot).length;
      const game = state.games[room.game];
      const minimum = room.min_players || (game && game.min_players) || 0;
      items.push(h("button", {type: "button", class: "primary", id: "start", disabled: seated < minimum,
        onclick: () => send({type: "start", token: state.token})}, t("room.start")));
    } else {
      const host = room.seats.find((s) => s.seat === room.host);
      items.push(h("p", {}, t("room.waitinghost", {host: host && host.name ? host.name : t("room.host")})));
    }
  }
  if (me !== null && isOver() && room.rematch) {
    const votes = (room.rematch.votes || []).length;
    const needed = (room.rematch.needed || []).length;
    const voted = (room.rematch.votes || []).includes(me) || state.voted;
    // Against bots alone your vote is the only one: "Play again", not "Vote for a rematch (0/1)".
    const alone = needed === 1 && (room.rematch.needed || []).includes(me);
    items.push(h("button", {type: "button", class: "primary", id: "rematch", disabled: voted,
      onclick: () => { if (send({type: "rematch", token: state.token, match: state.match})) { state.voted = true; renderBar(); } }},
      voted ? t("room.voted", {votes, needed}) : alone ? t("room.playagain") : t("room.rematch", {votes, needed})));
  }
  // How to start something else: the lobby, for players and spectators alike.
  if (isOver() && state.view) items.push(h("a", {class: "button", id: "new-game", href: "/"}, t("room.newgame")));
  const leaving = me !== null && room.status !== "finished"
    ? h("button", {type: "button", class: "quiet leave", id: "leave", onclick: leave},
      t(room.status === "waiting" ? "room.leave" : "room.leaveplaying")) : null;
  // Before the start, leaving is a main choice; during a game it waits beside the seats.
  if (leaving && room.status === "waiting") items.push(leaving);
  fill($("#leave-slot"), room.status === "waiting" ? null : leaving);
  fill(bar, items);
}

function joinForm() {
  const input = h("input", {id: "join-name", type: "text", maxlength: "24", required: true, autocomplete: "nickname",
    value: savedName(), placeholder: t("room.yourname")});
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
      toast(t("room.cannotjoin", {error: err.message}));
    }
  }},
  h("label", {for: "join-name"}, t("room.yourname")), input,
  h("button", {type: "submit", class: "primary", id: "join"}, t("room.takeseat")));
}

async function leave() {
  if (state.room && state.room.status === "playing" && !window.confirm(t("room.leaveconfirm"))) return;
  try {
    await api("POST", `/api/rooms/${encodeURIComponent(code)}/leave`, {token: state.token});
  } catch (err) {
    toast(t("room.cannotleave", {error: err.message}));
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
  const full = seated === room.seats.length;
  const host = room.seats.find((s) => s.seat === room.host);
  const summary = game && game.summary ? gameText(state.table, game.summary) : "";
  delete $("#table").dataset.version;
  fill($("#table"), h("section", {class: "notice waiting-room"},
    h("h2", {}, room.status !== "waiting" ? t("room.loadingtable")
      // the host is not told to wait for themself: they are the one to press Start
      : full ? (mySeat() === room.host ? t("room.fullhost", {start: t("room.start")})
        : t("room.full", {host: host && host.name ? host.name : t("room.host")})) : t("room.waitingplayers")),
    h("p", {}, t("room.seated", {n: seated, total: room.seats.length}) +
      (minimum && !full ? ` ${t("room.minimum", {game: gameTitle(), n: minimum})}` : "")),
    full ? null : h("p", {}, t("room.share")),
    summary ? h("p", {class: "muted"}, summary) : null,
    h("p", {}, h("button", {type: "button", onclick: showRules}, t("room.learn", {game: gameTitle()})))));
}

function showRules() {
  // Pressed before the game's table (its rules sheet) has arrived, it opens when it does.
  state.rulesAsked = !state.table;
  if (state.table) openSheet(state.table, gameTitle());
}

function renderTable() {
  const view = state.view;
  const canChoose = mySeat() !== null && !view.over;
  const options = (view.decision && view.decision.options) || [];
  // A mark in the tab's title when a decision waits for you (the tab may be in the background).
  const waiting = canChoose && options.length > 0;
  const base = state.baseTitle || document.title.replace(/^● /, "");
  document.title = waiting ? `● ${base}` : base;
  renderView($("#table"), view, {
    table: state.table,
    countdown: countdown.node,
    timer: state.timer,
    previous: state.previous,
    onChoose: canChoose ? choose : null,
    hooks: tableHooks,
  });
  markAway();
  const opened = waiting && (!state.decisionKey || state.decisionKey[0] !== state.match ||
    state.decisionKey[1] !== view.decision.phase || state.decisionKey[2] !== JSON.stringify(options));
  state.decisionKey = waiting ? [state.match, view.decision.phase, JSON.stringify(options)] : null;
  if (opened) {
    const panel = $("#table .decision.mine");
    tableHooks.emit("decision", {view, panel, tools: panel && panel.querySelector("[data-hook=decision-tools]"),
      send: (option) => choose(option, null)});
    state.newDecision = panel;  // scrolled to once the strip and banners above the table are drawn
  }
}

// On a phone the decision panel, stuck to the bottom of the screen, covers the cards in your
// hand: a new decision scrolls them into sight just above it (unless you are reading the log
// or the chat further down the page).
function showHandAbove(panel) {
  const hand = $("#table .my-hand");
  if (!panel || !hand || !matchMedia("(max-width: 640px)").matches) return;
  // The guided game's card above the table says what to look at: it stays in sight.
  const guide = $("#table-overlay");
  if (guide && !guide.hidden && guide.childElementCount) return;
  const table = $("#table").getBoundingClientRect();
  if (table.top > innerHeight || table.bottom < 0) return;
  const cards = hand.getBoundingClientRect();
  const bar = panel.getBoundingClientRect();
  // The recent-events strip stays at the top of the screen (what just happened): the cards go below it.
  const strip = $("#recent");
  const top = strip.childElementCount && getComputedStyle(strip).position === "sticky"
    ? strip.getBoundingClientRect().height : 0;
  if (cards.top >= top && cards.bottom <= bar.top) return;
  window.scrollBy({top: Math.min(cards.bottom - bar.top + 8, cards.top - top - 8), behavior: "instant"});
}

// A player whose connection dropped (or who left) is marked on their tile too, so that the
// table knows why it waits: the seats list that says so is far below the table on a phone.
function markAway() {
  for (const old of document.querySelectorAll("#table .badge-away")) old.remove();
  if (!state.room || !state.view || state.view.over) return;
  for (const seat of state.room.seats) {
    if (seat.bot || seat.name === null || (seat.connected && !seat.left)) continue;
    const head = document.querySelector(`#table [data-kind=board] .player[data-player="${CSS.escape(seat.name)}"] .player-head`);
    if (head) head.appendChild(h("span", {class: "badge badge-away"}, t(seat.left ? "seats.left" : "seats.offline")));
  }
}

function choose(option, button) {
  // The match it is for: after a rematch the versions start again at 0 (docs/protocol.md).
  const sent = send({type: "choose", token: state.token, match: state.match, version: state.view.version, option});
  if (!sent) return;
  for (const other of document.querySelectorAll("#table .decision.mine button")) other.disabled = true;
  if (button) button.classList.add("chosen");
}

// ---------------------------------------------------------------- chat

function addChat(message) {
  const list = $("#chat");
  list.appendChild(h("li", {class: "chat-line"},
    h("strong", {class: "chat-from pname", style: {"--pc": playerColour(message.seat ?? 0)}}, message.from || "?"),
    h("span", {class: "chat-text"}, ` ${message.text}`)));
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
  if (!state.chatBacklog && message.seat !== mySeat()) peekChat(message);
}

// On a phone the chat is below the table: a line said while it is out of sight (below the
// screen's edge, or under the decision panel stuck to the bottom) is shown for a few seconds at
// the top of the screen (tap it to go to the chat). Screen readers already hear the chat's own
// live region, so the peek is hidden from them.
function peekChat(message) {
  const panel = $("#chat").closest(".panel");
  if (inSight($("#chat").lastElementChild)) return;
  document.querySelector(".chat-peek")?.remove();
  const peek = h("button", {type: "button", class: "chat-peek", "aria-hidden": "true", tabindex: "-1",
    onclick: () => {
      peek.remove();
      panel.scrollIntoView({block: "end"});
      $("#chat-text").focus({preventScroll: true});
    }},
  h("strong", {class: "pname", style: {"--pc": playerColour(message.seat ?? 0)}}, message.from || "?"),
  ` ${message.text}`);
  document.body.appendChild(peek);
  placePeek();
  setTimeout(() => peek.remove(), 6000);
}

/** Whether a person sees `node` now: inside the screen and not under something stuck over it. */
function inSight(node) {
  const box = node ? node.getBoundingClientRect() : null;
  if (!box || !box.height || box.top < 0 || box.bottom > innerHeight) return false;
  const hit = document.elementFromPoint(box.left + Math.min(16, box.width / 2), box.top + box.height / 2);
  return Boolean(hit && node.contains(hit));
}

// An outcome banner floats over the top of a phone's screen too: the chat line goes just under
// it (it covered the banner's title), and back up when the banner leaves.
function placePeek() {
  const peek = document.querySelector(".chat-peek");
  if (!peek) return;
  peek.style.top = "";
  const banners = $("#banners").getBoundingClientRect();
  const box = peek.getBoundingClientRect();
  if (banners.height && banners.left < box.right && banners.right > box.left
      && banners.top < box.bottom && banners.bottom > box.top) {
    peek.style.top = `${Math.round(banners.bottom + 6)}px`;
  }
}

function renderChatForm() {
  const spectator = !state.welcome || state.welcome.spectator;
  const input = $("#chat-text");
  input.disabled = spectator;
  input.placeholder = t(spectator ? "chat.seatfirst" : "chat.placeholder");
  $("#chat-form button").disabled = spectator;
}

// ---------------------------------------------------------------- start

// The turn alerts listen to the table's "decision" hook, like any other feature would.
tableHooks.on("decision", ({panel}) => {
  const prompt = panel && panel.querySelector("#decision-prompt");
  const sentence = prompt ? prompt.textContent : t("decision.yourchoice");
  yourTurn(t("alert.title", {game: gameTitle()}), sentence);
  $("#alert").textContent = t("alert.yourturn", {prompt: sentence});
});

async function start() {
  await setupI18n();
  setupTools($("#tools"), {table: true, onRules: showRules});
  setConnection("connecting", "conn.connecting");
  $("#room-title").textContent = t("room.code", {code});
  const shareUrl = `${location.origin}/room/${encodeURIComponent(code)}`;
  $("#share-link").value = shareUrl;
  $("#copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(shareUrl);
      toast(t("seats.copied"), "info");
    } catch (err) {
      $("#share-link").select();
    }
  });
  $("#chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#chat-text");
    const text = input.value.trim();
    if (!text) return;
    if (send({type: "chat", token: state.token, text})) input.value = "";
  });
  outcomes = new Outcomes($("#banners"), $("#announce"));
  new ResizeObserver(placePeek).observe($("#banners"));  // a banner comes or goes under a chat line
  tableHooks.provide({send: (message) => send({...message, token: state.token})});
  try {
    state.bots = await api("GET", "/api/bots");
  } catch (err) {
    state.bots = [];
  }
  connect();
}

start();
