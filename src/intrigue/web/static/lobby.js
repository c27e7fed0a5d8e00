// The lobby: list games and open rooms, create a room, join one.

import {h, fill, $, toast} from "./dom.js";
import {api, saveToken, savedName, saveName, saveTutorial, botWords, forgetToken, tokenKey} from "./api.js";
import {gameTable, gameText, hasString, setupI18n, t} from "./i18n.js";
import {setupTools} from "./prefs.js";
import {openSheet} from "./sheet.js";

const lobby = {games: [], bots: [], tables: {}};

function humanize(key) {
  const words = key.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An option's name: the client's own (timers), else the game's catalog, else the key in words. */
function optionName(game, key) {
  if (hasString(`lobbyoption.${key}`)) return t(`lobbyoption.${key}`);
  const table = lobby.tables[game.id];
  return table && table.messages[key] ? table.messages[key] : humanize(key);
}

function title(game) {
  return gameText(lobby.tables[game.id], game.title);
}

function summary(game) {
  return game.summary ? gameText(lobby.tables[game.id], game.summary) : "";
}

function selectedGame() {
  return lobby.games.find((g) => g.id === $("#game").value);
}

/** Bot kinds that can play `game` (a kind without a `games` list plays any game), easiest first. */
function botKinds(game) {
  const order = {easy: 0, normal: 1, hard: 2};
  return lobby.bots.filter((b) => !b.games || !game || b.games.includes(game.id))
    .sort((a, b) => (order[a.difficulty] ?? 1) - (order[b.difficulty] ?? 1));
}

function addBotRow() {
  const game = selectedGame();
  const kinds = botKinds(game);
  if (!kinds.length) return;
  const rows = $("#bots");
  const index = rows.children.length + 1;
  const kind = h("select", {class: "bot-kind", "aria-label": t("lobby.botkind", {n: index})},
    kinds.map((b) => h("option", {value: b.kind}, hasString(`botkind.${b.kind}`)
      ? t(`botkind.${b.kind}`) : botWords(b.kind, lobby.bots))));
  const personality = h("select", {class: "bot-personality", "aria-label": t("lobby.botstyle", {n: index})});
  const refresh = () => {
    const bot = lobby.bots.find((b) => b.kind === kind.value);
    const options = (bot && bot.personalities) || [];
    fill(personality, h("option", {value: ""}, options.length ? t("lobby.anystyle") : "—"),
      options.map((p) => h("option", {value: p}, t(`personality.${p}`))));
    personality.disabled = !options.length;
  };
  kind.addEventListener("change", refresh);
  refresh();
  rows.appendChild(h("li", {class: "bot-row"}, kind, personality,
    h("button", {type: "button", class: "quiet", "aria-label": t("lobby.removebot", {n: index}),
      onclick: (event) => { event.currentTarget.closest("li").remove(); }}, t("lobby.remove"))));
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
    const name = optionName(game, key);
    if (typeof value === "boolean") {
      return h("label", {class: "check"}, h("input", {id, type: "checkbox", dataset: {option: key, type: "bool"}, checked: value}),
        ` ${name}`);
    }
    const timer = key.endsWith("_timer");
    if (typeof value === "number" || value === null || timer) {
      return h("div", {class: "option-field"},
        h("label", {for: id}, timer ? t("lobby.seconds", {name}) : name),
        h("input", {id, type: "number", min: timer ? "1" : null, step: "1", value: value === null ? "" : value,
          placeholder: timer ? t(isPrivate ? "lobby.off" : "lobby.required") : "",
          dataset: {option: key, type: "number"}}),
        timer && isPrivate ? h("span", {class: "muted small"}, t("lobby.notimer")) : null);
    }
    const choices = (game.choices || {})[key];
    if (choices) {  // a fixed set of values: a list, each value in the game's words
      const table = lobby.tables[game.id];
      return h("div", {class: "option-field"},
        h("label", {for: id}, name),
        h("select", {id, dataset: {option: key, type: "text"}},
          choices.map((choice) => h("option", {value: choice, selected: choice === value},
            table && table.messages[choice] ? table.messages[choice] : humanize(String(choice))))));
    }
    return h("div", {class: "option-field"},
      h("label", {for: id}, name),
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
  $("#game-summary").textContent = `${t("lobby.players", {min: game.min_players, max: game.max_players})} ${summary(game)}`;
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
    toast(t("lobby.cannotcreate", {error: err.message}));
    button.disabled = false;
  }
}

// The guided game asked for before a name was typed: Enter in the name field starts it (it submitted
// the room form, and a newcomer who asked to learn Coup found themselves alone in a waiting room).
let pendingLearn = null;

/** "Learn to play": a guided first game of `game` against bots, in a practice room with the coach. */
async function learn(game, button) {
  const name = $("#name").value.trim();
  if (!name) {
    pendingLearn = {game, button};
    toast(t("lobby.learnname"));
    $("#name").focus();
    return;
  }
  button.disabled = true;
  try {
    const created = await api("POST", `/api/games/${encodeURIComponent(game.id)}/tutorial`, {name});
    saveName(name);
    saveToken(created.room, created.token);
    saveTutorial(created.room, game.id);
    location.href = created.url || `/room/${created.room}`;
  } catch (err) {
    toast(t("lobby.cannotlearn", {error: err.message}));
    button.disabled = false;
  }
}

/** One short button per game with a guided first game, under the "Learn to play" heading: the
 * game's name shows, "Learn to play <game>" is what a screen reader says. */
function renderLearn() {
  const teachable = lobby.games.filter((g) => g.tutorial);
  $("#learn").hidden = !teachable.length;
  fill($("#learn-games"), teachable.map((g) => h("button", {type: "button", class: "learn-game", dataset: {learn: g.id},
    "aria-label": t("lobby.learngame", {game: title(g)}), onclick: (event) => learn(g, event.currentTarget)}, title(g))));
}

/** The rooms this browser holds a seat in (their tokens are kept), not yet over: a private game against bots
 * is listed nowhere else, and a newcomer who came back to the lobby could not find their way back to it. */
async function renderMine() {
  const prefix = tokenKey("");
  const codes = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key && key.startsWith(prefix)) codes.push(key.slice(prefix.length));
    }
  } catch (err) {
    return;
  }
  const rooms = (await Promise.all(codes.slice(0, 20).map(async (code) => {
    try {
      return await api("GET", `/api/rooms/${encodeURIComponent(code)}`);
    } catch (err) {
      if (err.status === 404) forgetToken(code);  // the room is closed: its seat is gone
      return null;
    }
  }))).filter((room) => room && room.status !== "finished");
  $("#mine").hidden = !rooms.length;
  fill($("#my-rooms"), rooms.map((room) => {
    const game = lobby.games.find((g) => g.id === room.game);
    return h("li", {class: "room-item", dataset: {room: room.room}},
      h("div", {},
        h("strong", {}, `${game ? title(game) : room.title || room.game} · ${room.room}`),
        h("span", {class: `badge status-${room.status}`}, t(`status.${room.status}`))),
      h("a", {class: "button", href: `/room/${encodeURIComponent(room.room)}`}, t("lobby.back")));
  }));
}

async function refreshRooms() {
  let rooms;
  try {
    rooms = await api("GET", "/api/rooms");
  } catch (err) {
    fill($("#rooms"), h("li", {class: "muted"}, t("lobby.roomsunavailable", {error: err.message})));
    return;
  }
  if (!rooms.length) {
    fill($("#rooms"), h("li", {class: "muted"}, t("lobby.norooms")));
    return;
  }
  fill($("#rooms"), rooms.map((room) => {
    const taken = room.seats.filter((s) => s.name !== null || s.bot);
    const people = taken.map((s) => (s.bot ? `${s.name} (${botWords(s.bot, lobby.bots)})` : s.name)).join(", ");
    const game = lobby.games.find((g) => g.id === room.game);
    return h("li", {class: "room-item", dataset: {room: room.room}},
      h("div", {},
        h("strong", {}, `${game ? title(game) : room.title || room.game} · ${room.room}`),
        h("span", {class: `badge status-${room.status}`}, t(`status.${room.status}`)),
        h("p", {class: "muted small"}, t("lobby.seated", {n: taken.length, total: room.seats.length,
          people: people || t("lobby.nobody")}))),
      h("a", {class: "button", href: `/room/${encodeURIComponent(room.room)}`},
        room.status === "waiting" && taken.length < room.seats.length ? t("lobby.join") : t("lobby.watch")));
  }));
}

async function start() {
  await setupI18n();
  setupTools($("#tools"));
  if (!$("#name").value) $("#name").value = savedName();  // never over what was typed while the page loaded
  try {
    [lobby.games, lobby.bots] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/bots")]);
  } catch (err) {
    toast(t("lobby.noserver", {error: err.message}));
    return;
  }
  const tables = await Promise.all(lobby.games.map((g) => gameTable(g.id)));
  lobby.games.forEach((g, i) => { lobby.tables[g.id] = tables[i]; });
  fill($("#game"), lobby.games.map((g) => h("option", {value: g.id}, title(g))));
  fill($("#games"), lobby.games.map((g) =>
    h("li", {}, h("strong", {}, title(g)), ` ${t("lobby.players", {min: g.min_players, max: g.max_players})} `,
      h("span", {class: "muted"}, summary(g)), " ",
      h("button", {type: "button", class: "link", dataset: {rules: g.id},
        onclick: () => openSheet(lobby.tables[g.id], title(g))}, t("lobby.rules")), " ",
      h("a", {href: `/api/games/${encodeURIComponent(g.id)}/graph.svg`, target: "_blank", rel: "noopener"},
        t("lobby.graph")))));
  renderLearn();
  renderMine();
  onGameChange();
  $("#game").addEventListener("change", onGameChange);
  $("#private").addEventListener("change", renderOptions);
  $("#add-bot").addEventListener("click", addBotRow);
  $("#create").addEventListener("submit", createRoom);
  $("#name").addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !pendingLearn || !$("#name").value.trim()) return;
    event.preventDefault();
    learn(pendingLearn.game, pendingLearn.button);
  });
  // Anything else set in the room form means a room after all: Enter creates it again.
  $("#create").addEventListener("change", (event) => { if (event.target.id !== "name") pendingLearn = null; });
  $("#join-code").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = $("#code").value.trim().toUpperCase();
    if (code) location.href = `/room/${encodeURIComponent(code)}`;
  });
  refreshRooms();
  setInterval(refreshRooms, 5000);
}

start();
