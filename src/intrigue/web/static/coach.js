// The coach: a Hint button in the decision panel of a practice room (every other seat a bot).
//
// It asks the server (`{"type": "hint", "version"}`, docs/protocol.md) and shows the answer
// in the panel: the suggested option, marked on its button, and the reason in a sentence in
// the player's language (the game's catalog for a game's own reasons, the client's catalog
// for the search's figures, `coach.*`). A refusal (`error` with `"about": "hint"`) is said
// in the same place. The server decides what a practice room is; the button is only shown
// where the server would answer.

import {h} from "./dom.js";
import {tableHooks} from "./hooks.js";
import {currentLanguage, fill, gameTable, gameWord, hasString, optionWord, t} from "./i18n.js";

const coach = {
  room: null,      // the latest room message
  seat: null,      // this connection's seat (null: a spectator)
  view: null,
  table: null,     // the game's table data (its catalog)
  key: null,       // the decision the shown hint or error is about (the panel's data-key)
  shown: null,     // {option, reason} or {error}
  waiting: false,  // a hint was asked and not yet answered
};

/** Whether the server would answer a hint here (the room is checked again there). */
function practice() {
  const room = coach.room;
  if (!room || room.status !== "playing" || coach.seat === null || coach.seat === undefined) return false;
  return room.seats.every((s) => s.seat === coach.seat || Boolean(s.bot));
}

function names() {
  return new Set((coach.view && coach.view.players) || []);
}

/** A reason ({key, args, text}) in the player's language. */
export function reasonText(table, reason, players = new Set()) {
  const messages = (table && table.messages) || {};
  const args = {};
  for (const [name, value] of Object.entries(reason.args || {})) {
    if (typeof value === "number") args[name] = value.toLocaleString(currentLanguage());
    else if (name === "option" || name === "other") args[name] = optionWord(table, value, players);
    else args[name] = gameWord(table, value, players);
  }
  if (reason.key in messages) return fill(messages[reason.key], args);
  if (hasString(reason.key)) return t(reason.key, args);
  return reason.text;
}

function ask(button) {
  const view = coach.view;
  if (!view || coach.waiting) return;
  if (!tableHooks.send({type: "hint", version: view.version})) return;
  coach.waiting = true;
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  const says = button.parentNode.querySelector(".coach-says");
  says.textContent = t("coach.thinking");
  says.dataset.state = "thinking";
}

/** The coach's corner of the decision panel (built once per panel). */
function box() {
  const says = h("p", {class: "coach-says", id: "coach-says", "aria-live": "polite"});
  const button = h("button", {type: "button", class: "hint-button", "aria-describedby": "coach-says",
    title: t("coach.hinthelp"), onclick: (event) => ask(event.currentTarget)}, t("coach.hint"));
  return h("div", {class: "coach", role: "group", "aria-label": t("coach.label")}, button, says);
}

/** Mark the suggested option's button (or the action it sits behind, with its targets). */
function mark(panel, option) {
  for (const old of panel.querySelectorAll(".suggested")) old.classList.remove("suggested");
  if (!option) return;
  const direct = [...panel.querySelectorAll("[data-option]")].find((b) => b.dataset.option === option);
  const group = [...panel.querySelectorAll("[data-group]")]
    .find((b) => JSON.parse(b.dataset.options || "[]").includes(option));
  for (const node of [direct, group]) if (node) node.classList.add("suggested");
}

/** Put the coach's corner in the panel, showing what it last said about this decision. */
function render(panel) {
  if (!panel || !panel.classList.contains("mine")) return;
  const tools = panel.querySelector("[data-hook=decision-tools]");
  if (!tools) return;
  if (!practice()) {
    const stale = tools.querySelector(".coach");
    if (stale) stale.remove();
    return;
  }
  let corner = tools.querySelector(".coach");
  if (!corner) {
    corner = box();
    tools.appendChild(corner);
  }
  if (coach.key !== panel.dataset.key) {  // a new decision: the old hint does not apply
    coach.key = panel.dataset.key;
    coach.shown = null;
  }
  const button = corner.querySelector(".hint-button");
  const says = corner.querySelector(".coach-says");
  button.disabled = coach.waiting;
  if (!coach.waiting) button.removeAttribute("aria-busy");
  const shown = coach.shown;
  if (coach.waiting) {
    return;
  } else if (shown && shown.option) {
    const text = `${t("coach.suggests", {option: optionWord(coach.table, shown.option, names())})} — ` +
      reasonText(coach.table, shown.reason, names());
    if (says.textContent !== text) says.textContent = text;
    says.dataset.state = "hint";
    says.dataset.option = shown.option;
  } else if (shown && shown.error) {
    const text = hasString(`coach.err.${shown.error}`) ? t(`coach.err.${shown.error}`)
      : t("coach.err.other", {code: shown.error});
    if (says.textContent !== text) says.textContent = text;
    says.dataset.state = "error";
  } else if (says.textContent) {
    says.textContent = "";
    delete says.dataset.state;
  }
  mark(panel, shown && shown.option);
}

function currentPanel() {
  return document.querySelector("#table .decision.mine");
}

tableHooks.on("message", ({message}) => {
  if (message.type === "welcome") {
    coach.seat = message.spectator ? null : message.seat;
  } else if (message.type === "room") {
    coach.room = message;
  } else if (message.type === "hint" || (message.type === "error" && message.about === "hint")) {
    coach.waiting = false;
    coach.shown = message.type === "hint" ? {option: message.option, reason: message.reason}
      : {error: message.code};
    const panel = currentPanel();
    if (panel) coach.key = panel.dataset.key;
    render(panel);
  }
});

tableHooks.on("view", ({view, seat}) => {
  coach.view = view;
  coach.seat = seat;
  gameTable(view.game).then((table) => { coach.table = table; });
});

tableHooks.on("render", ({panel}) => {
  if (panel && coach.view) gameTable(coach.view.game).then((table) => {
    coach.table = table;
    render(panel);
  });
});
