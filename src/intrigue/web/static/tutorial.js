// The guided first game: the steps of the game's tutorial (GET /api/games/{game}/tutorial),
// one at a time, in a card above the table (tableHooks.overlay()).
//
// Active in a room the lobby's "Learn to play" opened (it leaves `intrigue:tutorial:<ROOM>`
// in localStorage), for that room's first match only; progress is kept there too, so a
// reload resumes the same step. Each step (docs/web-client.md, "The guided first game"):
// - waits until its `when` holds (by default, for a `choose` step: that option is offered
//   to you): the view's `phase` name, an option it `offers` (exact, or a regex starting
//   with ^), a `log` entry that has the given fields and is newer than the step before (than
//   the view where you pressed its Next, or the last view that offered its option);
// - `choose`: marks that option on the table ("Show me" moves the focus to it: to the next
//   player to pick, for a team) and ends when the option is no longer offered (you chose it,
//   or the moment passed);
// - `next`: ends with the Next button (the last step's says "Got it");
// - waits only while the bots play: if you get a decision it does not expect, or the match's
//   version passes its `by`, the game went its own way: the card says so (`astray`) and
//   stops guiding.
// The step's text is announced in a live region; every control is a button.

import {h} from "./dom.js";
import {api, roomCodeFromPath, tutorialKey} from "./api.js";
import {tableHooks} from "./hooks.js";
import {fill, gameTable, gameText, t} from "./i18n.js";

const code = roomCodeFromPath("/room/").toUpperCase();
const KEY = tutorialKey(code);

const guide = {
  progress: null,   // {game, match, step, shown, seen, offered, since, astray, closed}
  tutorial: null,   // the steps
  table: null,
  view: null,
  card: null,       // the overlay's elements
};

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "null");
  } catch (err) {
    return null;
  }
}

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(guide.progress));
  } catch (err) {
    /* private mode: the guide lasts this page */
  }
}

/** The value at a dotted path of the view ("players.1", "state.players.0.coins"). */
function at(view, path) {
  let value = view;
  for (const part of String(path).split(".")) {
    if (value === null || value === undefined) return "";
    value = value[part];
  }
  return value ?? "";
}

function argsOf(step, view) {
  const args = {};
  for (const [name, path] of Object.entries(step.args || {})) args[name] = at(view, path);
  return args;
}

function options(view) {
  return (view.decision && view.decision.options) || [];
}

function offered(pattern, view) {
  if (!pattern) return false;
  if (pattern.startsWith("^")) {
    const re = new RegExp(pattern);
    return options(view).some((o) => re.test(o));
  }
  return options(view).includes(pattern);
}

/** The option a `choose` step asks for, as offered now (a regex step: the first that fits). */
function target(step, view) {
  if (!step.choose) return null;
  const wanted = fill(step.choose, argsOf(step, view));
  if (!wanted.startsWith("^")) return wanted;
  const re = new RegExp(wanted);
  return options(view).find((o) => re.test(o)) || wanted;
}

function ready(step, view, since) {
  const when = step.when;
  if (!when) return step.choose ? offered(target(step, view), view) : true;
  if (when.phase && view.phase.name !== when.phase) return false;
  if (when.offers && !offered(fill(when.offers, argsOf(step, view)), view)) return false;
  if (when.log) {
    const fits = (line) => line.version > since && Object.entries(when.log).every(([k, v]) => line[k] === v);
    if (!(view.log || []).some(fits)) return false;
  }
  return true;
}

/** Move through the steps as far as this view allows (Next steps wait for their button). */
function advance(view) {
  const p = guide.progress;
  const steps = guide.tutorial.steps;
  while (!p.astray && p.step < steps.length) {
    const step = steps[p.step];
    if (!p.shown) {
      if (!ready(step, view, p.since)) {
        // A step waits only while the bots play: a decision of yours it does not expect, or a
        // version past its `by`, means the game has left the script.
        if (options(view).length || (step.by !== undefined && view.version > step.by)) p.astray = true;
        break;
      }
      p.shown = true;
      p.seen = false;
      p.offered = null;
    }
    if (step.next) break;
    if (offered(target(step, view), view)) {
      p.seen = true;
      p.offered = view.version;
      break;
    }
    if (!p.seen) break;
    p.step += 1;
    p.shown = false;
    // What happened since the option was last offered (your choice and what it set off) is news
    // to the next step's `log`, even when it arrived in the same view as the step's end.
    p.since = p.offered ?? view.version;
  }
  save();
}

function finish() {
  guide.progress.closed = true;
  save();
  draw();
}

function next() {
  const p = guide.progress;
  if (p.astray || p.step >= guide.tutorial.steps.length - 1) {
    finish();
    return;
  }
  p.step += 1;
  p.shown = false;
  p.since = guide.view ? guide.view.version : p.since;
  advance(guide.view);
  draw();
}

/** The options a step asks for: one, or all those its regex fits. */
function wanted(step, view) {
  if (!step || !step.choose) return [];
  const pattern = fill(step.choose, argsOf(step, view));
  if (!pattern.startsWith("^")) return [pattern];
  const re = new RegExp(pattern);
  return options(view).filter((o) => re.test(o));
}

/** The controls that lead to `option` in the panel: its button, the action it sits behind (a
 * row of targets), the card it is played with (tap the card, then the option), or the players
 * it picks (tap their chips, then Confirm: the option is their names joined by ", "). */
function controls(panel, view, option) {
  const about = ((view.components || []).find((c) => c.kind === "options") || {}).about || {};
  const it = about[option] || {};
  const card = it.card || ((it.cards || []).length === 1 ? it.cards[0] : null);
  const picks = (view.decision && view.decision.pick && view.decision.pick.count) ? option.split(", ") : [];
  const found = [];
  for (const node of panel.querySelectorAll("button[data-option], button[data-group], button[data-card], button[data-pick]")) {
    if (node.dataset.option === option) found.push(node);
    else if (node.dataset.group && JSON.parse(node.dataset.options || "[]").includes(option)) found.push(node);
    else if (card && node.dataset.card === card && !node.disabled && node.getAttribute("aria-disabled") !== "true") found.push(node);
    else if (node.dataset.pick && picks.includes(node.dataset.pick)) found.push(node);
  }
  return found;
}

function showMe() {
  const step = guide.tutorial.steps[guide.progress.step];
  const view = guide.view;
  const panel = document.querySelector("#table .decision.mine");
  const choices = wanted(step, view);
  if (!panel || !choices.length) return;
  const find = () => controls(panel, view, choices[0]);
  let button = find().find((node) => node.dataset.option === choices[0]);
  // Players to pick: the next chip of the team not yet picked (Confirm once they all are).
  if (!button && choices.length === 1) button = find().find((node) => node.dataset.pick && node.getAttribute("aria-pressed") !== "true");
  if (!button && choices.length === 1) {  // open the row of targets, or tap the card, first
    const opener = find().find((node) => node.dataset.group || node.dataset.card);
    const open = opener && (opener.getAttribute("aria-expanded") === "true" || opener.getAttribute("aria-pressed") === "true");
    if (opener && !open) opener.click();
    button = find().find((node) => node.dataset.option === choices[0]) || opener;
  }
  // A step that lets you pick among several (a card to lose): the first of them, untouched.
  button = button || choices.flatMap((option) => controls(panel, view, option))[0];
  if (button) {
    button.scrollIntoView({block: "nearest"});
    button.focus();
  }
}

function build() {
  const layer = tableHooks.overlay();
  const title = h("h2", {id: "tutorial-title", tabindex: "-1"}, t("tutorial.title"));
  const count = h("span", {class: "tutorial-count muted"});
  const text = h("p", {class: "tutorial-text", id: "tutorial-text", "aria-live": "polite"});
  const show = h("button", {type: "button", class: "tutorial-show", onclick: showMe}, t("tutorial.showme"));
  const nextButton = h("button", {type: "button", class: "primary tutorial-next", onclick: next}, t("tutorial.next"));
  const end = h("button", {type: "button", class: "quiet tutorial-end", onclick: finish}, t("tutorial.end"));
  const card = h("section", {class: "tutorial", "aria-labelledby": "tutorial-title", dataset: {step: ""}},
    h("div", {class: "tutorial-head"}, title, count), text, h("div", {class: "tutorial-actions"}, show, nextButton, end));
  layer.replaceChildren(card);
  guide.card = {layer, card, title, count, text, show, next: nextButton, end};
}

/** Show the current step (or nothing when the guide is over). */
function draw() {
  const p = guide.progress;
  if (!p || !guide.tutorial || p.closed) {
    if (guide.card) guide.card.layer.replaceChildren();
    guide.card = null;
    for (const old of document.querySelectorAll(".coach-target")) old.classList.remove("coach-target");
    return;
  }
  if (!guide.card) build();
  const c = guide.card;
  const steps = guide.tutorial.steps;
  const step = steps[Math.min(p.step, steps.length - 1)];
  const hadFocus = c.card.contains(document.activeElement);
  let text;
  let id;
  if (p.astray) {
    text = gameText(guide.table, guide.tutorial.astray);
    id = "astray";
  } else if (!p.shown) {
    text = t("tutorial.watch");
    id = "watch";
  } else {
    const names = new Set(guide.view.players || []);
    text = gameText(guide.table, step.text, {key: step.text, args: argsOf(step, guide.view)}, names);
    id = step.id;
  }
  c.card.dataset.step = id;
  c.count.textContent = p.astray ? "" : t("tutorial.step", {n: Math.min(p.step + 1, steps.length), count: steps.length});
  if (c.text.textContent !== text) c.text.textContent = text;
  const asking = !p.astray && p.shown && step.choose;
  const last = p.astray || p.step >= steps.length - 1;
  c.show.hidden = !asking;
  c.next.hidden = !(p.astray || (p.shown && step.next));
  c.next.textContent = t(last ? "tutorial.done" : "tutorial.next");
  c.end.hidden = last && !c.next.hidden;
  if (hadFocus && !c.card.contains(document.activeElement)) {
    (!c.next.hidden ? c.next : !c.show.hidden ? c.show : c.title).focus();
  }
  highlight();
}

/** Mark what the current step asks for (after every render: the panel may be new). */
function highlight() {
  for (const old of document.querySelectorAll(".coach-target")) old.classList.remove("coach-target");
  const p = guide.progress;
  // (a reload renders the table before the steps have arrived: draw() marks it once they have)
  if (!p || p.closed || p.astray || !p.shown || !guide.view || !guide.tutorial) return;
  const panel = document.querySelector("#table .decision.mine");
  if (!panel) return;
  for (const option of wanted(guide.tutorial.steps[p.step], guide.view)) {
    for (const node of controls(panel, guide.view, option)) node.classList.add("coach-target");
  }
}

tableHooks.on("view", async ({view, match}) => {
  const progress = guide.progress || load();
  if (!progress || progress.closed) return;
  if (progress.match === null || progress.match === undefined) progress.match = match;
  if (progress.match !== match) {  // a rematch: the guided game is over
    guide.progress = {...progress, closed: true};
    save();
    draw();
    return;
  }
  guide.progress = {step: 0, shown: false, seen: false, since: 0, astray: false, closed: false, ...progress};
  guide.view = view;
  try {
    if (!guide.tutorial) guide.tutorial = await api("GET", `/api/games/${encodeURIComponent(progress.game || view.game)}/tutorial`);
    guide.table = await gameTable(view.game);
  } catch (err) {
    guide.progress.closed = true;
    return;
  }
  if (guide.view !== view) return;  // a newer view arrived meanwhile: it advances the guide
  advance(view);
  draw();
});

tableHooks.on("render", () => highlight());
