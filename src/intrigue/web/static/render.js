// Renders an observation's UI components generically (docs/protocol.md, "UI components").
// Used live by the room page and read-only by the replay page. No game-specific code:
// a game shows itself through the component kinds below.

import {h, fill} from "./dom.js";
import {cardColour} from "./cards.js";

/**
 * A card: `label` null is face down. `secret` marks a card face down to the others
 * that this viewer may see (their own hand, or any hand in a fully revealed replay).
 */
export function card(label, {lost = false, secret = false, yours = false} = {}) {
  const classes = ["card", label === null ? "down" : "up"];
  if (lost) classes.push("lost");
  if (secret) classes.push("secret");
  const attrs = {class: classes.join(" "), dataset: {card: label === null ? "hidden" : label}};
  if (label === null) {
    return h("li", {...attrs, "aria-label": "face-down card"}, h("span", {class: "card-back", "aria-hidden": "true"}));
  }
  attrs.style = {"--card": cardColour(label)};
  const note = lost ? "lost" : secret ? (yours ? "only you" : "hidden") : null;
  return h("li", {...attrs, "aria-label": note ? `${label} (${note})` : label},
    h("span", {class: "card-label"}, label),
    note ? h("span", {class: "card-note"}, note) : null);
}

function playerBoard(row, view, hands) {
  const you = view.you !== null && row.name === view.you;
  const classes = ["player"];
  if (row.active) classes.push("active");
  if (!row.alive) classes.push("out");
  if (you) classes.push("you");
  // The board is public, so it shows hidden cards face down; a hand component this viewer
  // may see (their own; every hand in a revealed replay) says what they are, in order.
  const hand = hands.find((c) => c.player === row.name && !c.title);
  const secret = hand ? [...(hand.cards || [])] : [];
  const cards = (row.cards || []).map((c) => {
    if (c.label === null && secret.length) return card(secret.shift(), {secret: true, yours: you});
    return card(c.label, {lost: c.lost});
  });
  return h("article", {class: classes.join(" "), dataset: {player: row.name}, "aria-label": `${row.name}${row.alive ? "" : " (out)"}`},
    h("header", {class: "player-head"},
      h("span", {class: "player-name"}, row.name),
      you ? h("span", {class: "badge badge-you"}, "you") : null,
      row.active ? h("span", {class: "badge badge-turn"}, "turn") : null,
      row.alive ? null : h("span", {class: "badge badge-out"}, "out")),
    (row.stats || []).length
      ? h("dl", {class: "stats"}, (row.stats || []).map((s) =>
          h("div", {class: "stat", dataset: {stat: s.label}}, h("dt", {}, s.label), h("dd", {}, String(s.value)))))
      : null,
    cards.length ? h("ul", {class: "cards", "aria-label": `${row.name}'s cards`}, cards) : null,
    (row.tags || []).length ? h("ul", {class: "tags"}, row.tags.map((t) => h("li", {class: "tag"}, t))) : null,
    (row.table || []).length
      ? h("ul", {class: "table-cards", "aria-label": "on the table"}, row.table.map((t) => card(t)))
      : null);
}

function handView(component, view) {
  const lost = component.lost || [];
  return h("section", {class: "hand", dataset: {kind: "hand", player: component.player || ""}},
    h("h3", {}, component.title || (component.player ? `${component.player}'s hand` : "Hand")),
    component.text ? h("p", {class: "muted"}, component.text) : null,
    h("ul", {class: "cards big"},
      (component.cards || []).map((c) => card(c, {secret: true, yours: component.player === view.you})),
      lost.map((c) => card(c, {lost: true}))));
}

function optionButtons(options, onChoose) {
  // Options sharing a first word ("Steal Blake", "Steal Casey") sit on a row of their own;
  // the others share the first row.
  const groups = new Map();
  for (const option of options) {
    const word = option.split(" ")[0];
    if (!groups.has(word)) groups.set(word, []);
    groups.get(word).push(option);
  }
  const singles = [...groups.values()].filter((g) => g.length === 1).flat();
  const rows = [singles, ...[...groups.values()].filter((g) => g.length > 1)].filter((g) => g.length);
  return h("div", {class: "options", role: "group", "aria-label": "Your options"},
    rows.map((group) => h("div", {class: "option-row"},
      group.map((option) => h("button", {
        type: "button", class: "option", dataset: {option},
        disabled: !onChoose,
        onclick: onChoose ? (event) => onChoose(option, event.currentTarget) : null,
      }, option)))));
}

/** Board rows in seat order starting with yours, so the table reads around from you. */
function fromYou(rows, you) {
  const at = rows.findIndex((row) => row.name === you);
  return at <= 0 ? rows : [...rows.slice(at), ...rows.slice(0, at)];
}

function winnersLine(winners) {
  if (!winners || !winners.length) return null;
  return h("p", {class: "winners"}, `Winner${winners.length > 1 ? "s" : ""}: ${winners.join(", ")}`);
}

/**
 * The option buttons, reused from the previous render when the same decision offers the
 * same options: a view that arrives between a press and its release must not swallow the click.
 */
function keptButtons(root, options, onChoose, decision) {
  const key = JSON.stringify([decision.phase, decision.kind, options, Boolean(onChoose)]);
  const previous = root.querySelector(":scope > .decision .options");
  if (previous && previous.dataset.key === key && !previous.querySelector(".chosen")) return previous;
  const node = optionButtons(options, onChoose);
  node.dataset.key = key;
  return node;
}

/**
 * Fill `root` with the view. `ctx.onChoose(option, button)` makes option buttons live
 * (absent on replays); `ctx.countdown` is an element to put in the decision panel.
 */
export function renderView(root, view, ctx = {}) {
  const components = view.components || [];
  const byKind = (kind) => components.filter((c) => c.kind === kind);
  const known = new Set(["phase", "turn", "text", "board", "hand", "options", "character_card", "result", "timer"]);

  const phase = byKind("phase")[0];
  const turn = byKind("turn")[0];
  const turnName = turn ? turn.player : null;
  const indicators = h("div", {class: "indicators"},
    h("span", {class: "phase", dataset: {kind: "phase"}},
      h("span", {class: "muted"}, "Phase "), (phase && phase.name) || (view.phase && view.phase.name) || ""),
    turnName && !view.over
      ? h("span", {class: "turn" + (turnName === view.you ? " yours" : ""), dataset: {kind: "turn"}},
          turnName === view.you ? "Your turn" : `${turnName}'s turn`)
      : null);

  // A result is the winner banner once the match is over; before that (a game may show
  // interim outcomes with the same tool) it is a plain notice among the texts.
  const results = byKind("result").filter(() => view.over).map((r) =>
    h("section", {class: "result", dataset: {kind: "result"}, role: "status"},
      h("h2", {}, r.title || "Game over"),
      r.text ? h("p", {}, r.text) : null,
      winnersLine(r.winners && r.winners.length ? r.winners : view.winners)));
  const interim = byKind("result").filter(() => !view.over).map((r) =>
    h("section", {class: "interim", dataset: {kind: "interim-result"}},
      h("h3", {}, r.title || ""), r.text ? h("p", {}, r.text) : null));
  if (view.over && !results.length) {
    results.push(h("section", {class: "result", dataset: {kind: "result"}, role: "status"},
      h("h2", {}, "Game over"),
      winnersLine(view.winners) || h("p", {class: "winners"}, "No winner")));
  }

  // Text lines: the latest few in full, older ones folded away.
  const lines = byKind("text").map((t) =>
    h("p", {class: `line tone-${t.tone || "plain"}`, dataset: {kind: "text"}}, t.text));
  const RECENT = 6;
  const texts = lines.length > RECENT + 2
    ? [h("details", {class: "older"}, h("summary", {}, `${lines.length - RECENT} earlier lines`), lines.slice(0, -RECENT)),
       lines.slice(-RECENT)]
    : lines;
  const characters = byKind("character_card").map((c) =>
    h("section", {class: "character", dataset: {kind: "character_card"}, style: {"--card": cardColour(c.title || "")}},
      h("h3", {}, c.title || ""),
      c.player ? h("p", {class: "muted"}, c.player) : null,
      h("p", {}, c.text || "")));

  // The decision panel: the prompt, the countdown and this seat's options.
  const decision = view.decision;
  const options = (decision && decision.options) || [];
  const prompt = byKind("options")[0];
  let panel = null;
  if (options.length) {
    panel = h("section", {class: "decision mine", dataset: {kind: "options"}, "aria-label": "Your decision"},
      h("div", {class: "decision-head"},
        h("h2", {}, (prompt && prompt.prompt) || "Your choice"), ctx.countdown || null),
      keptButtons(root, options, ctx.onChoose, decision));
  } else if (!view.over && (view.waiting || []).length) {
    // In a secret decision `waiting` lists everyone who could be acting, not the actors.
    panel = h("section", {class: "decision", "aria-label": "Waiting"},
      h("div", {class: "decision-head"},
        h("p", {class: "waiting"}, `Waiting for ${view.waiting.join(", ")}`), ctx.countdown || null));
  } else if (!view.over && ctx.countdown && ctx.countdown.dataset.kind === "phase") {
    // A timer phase nobody can end early: only its countdown.
    panel = h("section", {class: "decision", "aria-label": "Waiting"},
      h("div", {class: "decision-head"}, h("p", {class: "waiting"}, "Waiting for the time to run out"),
        ctx.countdown));
  }

  const hands = byKind("hand");
  const boards = byKind("board").map((b) =>
    h("section", {class: "board", dataset: {kind: "board"}, "aria-label": "Players"},
      fromYou(b.players || [], view.you).map((row) => playerBoard(row, view, hands))));
  // Your hand (and any other hand you may see, e.g. an exchange draw) in full size.
  const handViews = hands.map((c) => handView(c, view));

  const others = components.filter((c) => !known.has(c.kind)).map((c) =>
    h("section", {class: "unknown", dataset: {kind: c.kind}},
      h("h3", {}, c.title || c.kind),
      Object.entries(c).filter(([k, v]) => !["key", "kind", "title"].includes(k) && typeof v !== "object")
        .map(([k, v]) => h("p", {}, `${k}: ${v}`))));

  root.dataset.version = String(view.version);
  root.dataset.over = String(Boolean(view.over));
  fill(root,
    indicators,
    results,
    interim,
    h("div", {class: "texts"}, texts),
    characters,
    panel,
    handViews.length ? h("div", {class: "hands"}, handViews) : null,
    boards,
    others);
}

/** The game log, newest last. */
export function renderLog(list, view) {
  fill(list, (view.log || []).map((line) =>
    h("li", {dataset: {version: line.version}}, line.text)));
  list.scrollTop = list.scrollHeight;
}

/** A countdown that ticks locally between views. */
export class Countdown {
  constructor() {
    this.node = h("div", {class: "countdown", role: "timer", "aria-live": "off"},
      h("span", {class: "countdown-text"}), h("span", {class: "countdown-bar"}, h("span", {class: "countdown-fill"})));
    this.deadline = null;
    this.total = null;
    this.interval = setInterval(() => this.tick(), 200);
  }

  set(timer) {
    if (!timer || timer.seconds_left === null || timer.seconds_left === undefined) {
      this.deadline = null;
      this.node.dataset.kind = "";
    } else {
      this.deadline = performance.now() + timer.seconds_left * 1000;
      this.total = timer.seconds || timer.seconds_left;
      // "grace": timers are off, but a disconnected player is decided for after a grace period.
      this.node.title = timer.kind === "grace" ? "time before an absent player is decided for"
        : timer.kind === "phase" ? "time left in this phase" : "time left to decide";
      this.node.dataset.kind = timer.kind || "";
    }
    this.tick();
  }

  tick() {
    const text = this.node.querySelector(".countdown-text");
    const fillBar = this.node.querySelector(".countdown-fill");
    if (this.deadline === null) {
      this.node.hidden = true;
      return;
    }
    this.node.hidden = false;
    const left = Math.max(0, (this.deadline - performance.now()) / 1000);
    text.textContent = `${Math.ceil(left)} s`;
    this.node.dataset.left = left.toFixed(1);
    this.node.classList.toggle("low", left <= 5);
    fillBar.style.width = `${Math.min(100, (100 * left) / (this.total || 1))}%`;
  }
}
