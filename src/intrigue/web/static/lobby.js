// The lobby: list games and open rooms, create a room, join one.

import {h, fill, $, toast} from "./dom.js";
import {api, saveToken, savedName, saveName, botLabel} from "./api.js";

const lobby = {games: [], bots: []};

function humanize(key) {
  const words = key.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function selectedGame() {
  return lobby.games.find((g) => g.id === $("#game").value);
}

/** Bot kinds that can play `game` (a kind without a `games` list plays any game). */
function botKinds(game) {
  return lobby.bots.filter((b) => !b.games || !game || b.games.includes(game.id));
}

function addBotRow() {
  const game = selectedGame();
  const kinds = botKinds(game);
  if (!kinds.length) return;
  const rows = $("#bots");
  const index = rows.children.length + 1;
  const kind = h("select", {class: "bot-kind", "aria-label": `Bot ${index} kind`},
    kinds.map((b) => h("option", {value: b.kind}, b.kind)));
  const personality = h("select", {class: "bot-personality", "aria-label": `Bot ${index} personality`});
  const refresh = () => {
    const bot = lobby.bots.find((b) => b.kind === kind.value);
    const options = (bot && bot.personalities) || [];
    fill(personality, h("option", {value: ""}, options.length ? "any personality" : "—"),
      options.map((p) => h("option", {value: p}, p)));
    personality.disabled = !options.length;
  };
  kind.addEventListener("change", refresh);
  refresh();
  rows.appendChild(h("li", {class: "bot-row"}, kind, personality,
    h("button", {type: "button", class: "quiet", "aria-label": `Remove bot ${index}`,
      onclick: (event) => { event.currentTarget.closest("li").remove(); }}, "Remove")));
}

function renderOptions() {
  const game = selectedGame();
  const box = $("#options");
  if (!game) return fill(box);
  const isPrivate = $("#private").checked;
  // Keep what the user typed when the form is redrawn (e.g. ticking "private").
  const typed = box.dataset.game === game.id ? collectOptions() : {};
  box.dataset.game = game.id;
  fill(box, Object.entries(game.options || {}).map(([key, fallback]) => {
    const value = key in typed && typeof typed[key] === typeof fallback ? typed[key] : fallback;
    const id = `opt-${key}`;
    if (typeof value === "boolean") {
      return h("label", {class: "check"}, h("input", {id, type: "checkbox", dataset: {option: key, type: "bool"}, checked: value}),
        ` ${humanize(key)}`);
    }
    const timer = key.endsWith("_timer");
    if (typeof value === "number" || value === null || timer) {
      return h("div", {class: "option-field"},
        h("label", {for: id}, humanize(key) + (timer ? " (seconds)" : "")),
        h("input", {id, type: "number", min: timer ? "1" : null, step: "1", value: value === null ? "" : value,
          placeholder: timer ? (isPrivate ? "off" : "required") : "",
          dataset: {option: key, type: "number"}}),
        timer && isPrivate ? h("span", {class: "muted small"}, "Leave empty for no timer.") : null);
    }
    return h("div", {class: "option-field"},
      h("label", {for: id}, humanize(key)),
      h("input", {id, type: "text", value: String(value), dataset: {option: key, type: "text"}}));
  }));
}

function onGameChange() {
  const game = selectedGame();
  if (!game) return;
  const seats = $("#seats");
  seats.min = game.min_players;
  seats.max = game.max_players;
  const current = Number(seats.value) || 4;
  seats.value = Math.min(game.max_players, Math.max(game.min_players, current));
  $("#game-summary").textContent = `${game.min_players}–${game.max_players} players. ${game.summary || ""}`;
  fill($("#bots"));
  renderOptions();
}

function collectOptions() {
  const options = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const key = input.dataset.option;
    if (input.dataset.type === "bool") options[key] = input.checked;
    else if (input.dataset.type === "number") options[key] = input.value === "" ? null : Number(input.value);
    else options[key] = input.value;
  }
  return options;
}

async function createRoom(event) {
  event.preventDefault();
  const name = $("#name").value.trim();
  const game = selectedGame();
  if (!name || !game) return;
  const bots = [...document.querySelectorAll("#bots .bot-row")].map((row) => {
    const bot = {kind: row.querySelector(".bot-kind").value};
    const personality = row.querySelector(".bot-personality").value;
    if (personality) bot.personality = personality;
    return bot;
  });
  const body = {game: game.id, name, seats: Number($("#seats").value), bots,
    options: collectOptions(), private: $("#private").checked};
  const button = $("#create-room");
  button.disabled = true;
  try {
    const created = await api("POST", "/api/rooms", body);
    saveName(name);
    saveToken(created.room, created.token);
    location.href = created.url || `/room/${created.room}`;
  } catch (err) {
    toast(`Could not create the room: ${err.message}`);
    button.disabled = false;
  }
}

async function refreshRooms() {
  let rooms;
  try {
    rooms = await api("GET", "/api/rooms");
  } catch (err) {
    fill($("#rooms"), h("li", {class: "muted"}, `Rooms unavailable: ${err.message}`));
    return;
  }
  if (!rooms.length) {
    fill($("#rooms"), h("li", {class: "muted"}, "No open rooms. Create one!"));
    return;
  }
  fill($("#rooms"), rooms.map((room) => {
    const taken = room.seats.filter((s) => s.name !== null || s.bot);
    const people = taken.map((s) => (s.bot ? `${s.name} (${botLabel(s.bot)})` : s.name)).join(", ");
    return h("li", {class: "room-item", dataset: {room: room.room}},
      h("div", {},
        h("strong", {}, `${room.title || room.game} · ${room.room}`),
        h("span", {class: `badge status-${room.status}`}, room.status),
        h("p", {class: "muted small"}, `${taken.length}/${room.seats.length} seated: ${people || "nobody yet"}`)),
      h("a", {class: "button", href: `/room/${encodeURIComponent(room.room)}`},
        room.status === "waiting" && taken.length < room.seats.length ? "Join" : "Watch"));
  }));
}

async function start() {
  $("#name").value = savedName();
  try {
    [lobby.games, lobby.bots] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/bots")]);
  } catch (err) {
    toast(`The server is not answering: ${err.message}`);
    return;
  }
  fill($("#game"), lobby.games.map((g) => h("option", {value: g.id}, g.title)));
  fill($("#games"), lobby.games.map((g) =>
    h("li", {}, h("strong", {}, g.title), ` ${g.min_players}–${g.max_players} players. `,
      h("span", {class: "muted"}, g.summary || ""), " ",
      h("a", {href: `/api/games/${encodeURIComponent(g.id)}/graph.svg`, target: "_blank", rel: "noopener"},
        "phase graph"))));
  onGameChange();
  $("#game").addEventListener("change", onGameChange);
  $("#private").addEventListener("change", renderOptions);
  $("#add-bot").addEventListener("click", addBotRow);
  $("#create").addEventListener("submit", createRoom);
  $("#join-code").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = $("#code").value.trim().toUpperCase();
    if (code) location.href = `/room/${encodeURIComponent(code)}`;
  });
  refreshRooms();
  setInterval(refreshRooms, 5000);
}

start();
