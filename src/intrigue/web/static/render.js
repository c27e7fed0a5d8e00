// Renders an observation's UI components generically (docs/protocol.md, "UI components").
// Used live by the room page and read-only by the replay page. No game-specific code: a
// game shows itself through the component kinds below and its table data (art, words).

import {h, fill} from "./dom.js";
import {card, cardColour, playerColour, playerName, term} from "./cards.js";
import {decisionPanel} from "./decision.js";
import {gameText, gameWord, listOf, t} from "./i18n.js";
import {icon} from "./art.js";
import {colourNames, logLines} from "./events.js";

export {card};

const KNOWN = new Set(["phase", "turn", "text", "board", "hand", "options", "character_card", "result", "timer"]);

/** Context shared by the pieces of one render. */
function context(view, ctx) {
  const names = new Set(view.players || []);
  const seatOf = (name) => Math.max(0, (view.players || []).indexOf(name));
  return {...ctx, table: ctx.table || {messages: {}}, names, seatOf, you: view.you};
}

function text(c, field, x) {
  return gameText(x.table, c[field], c.msg && c.msg[field], x.names);
}

function indicators(view, byKind, x) {
  const phase = byKind("phase")[0];
  const turn = byKind("turn")[0];
  // The heading agrees with the tile marked "turn": a turn indicator drawn in an earlier phase
  // may still name the last player (Skull's "Ada's turn" over Basil's tile marked turn).
  const active = byKind("board").flatMap((b) => b.players || []).filter((row) => row.active);
  // A game that sends no turn indicator (Liar's Dice, Spyfall) still marks one tile "turn": say it above the table too.
  const turnName = active.length === 1 ? active[0].name : turn && turn.player ? turn.player : null;
  const phaseName = (phase && phase.name) || (view.phase && view.phase.name) || "";
  // Whose turn first, then what happens in it: "Your turn · Choose an action" reads as a heading.
  return h("div", {class: "indicators"},
    turnName && !view.over
      ? h("p", {class: "turn" + (turnName === view.you ? " yours" : ""), dataset: {kind: "turn"}},
          turnName === view.you ? t("turn.yours") : colourNames(t("turn.of", {player: turnName}), view))
      : null,
    // Once the match is over the result says so: the last phase's name ("Challenge Begins") misleads.
    view.over ? null : h("p", {class: "phase", dataset: {kind: "phase"}}, gameText(x.table, phaseName, null, x.names)),
    x.phaseTimer || null);
}

function winnersLine(winners, x) {
  if (!winners || !winners.length) return null;
  return h("p", {class: "winners"}, t(winners.length > 1 ? "result.winners" : "result.winner"), " ",
    winners.map((name, i) => [i ? ", " : "", playerName(name, x.seatOf(name), "strong")]));
}

/** The last lines of the log, under the winner: what ended the match (the recent-events strip says it on a phone):
 * every line the last move wrote (a game's final scores, one line a player), at least three, at most ten. */
function ending(view, x) {
  const all = logLines(x.table, view);
  const last = all.length ? all[all.length - 1].version : null;
  const lastMove = all.filter((line) => line.version === last).length;
  const lines = all.slice(-Math.min(10, Math.max(3, lastMove)));
  if (!lines.length) return null;
  return h("div", {class: "ending", dataset: {kind: "ending"}},
    h("h3", {}, t("result.ending")),
    h("ol", {}, lines.map((line) => h("li", {}, colourNames(line.text, view)))));
}

function results(view, byKind, x) {
  const finals = byKind("result").filter(() => view.over).map((r) =>
    h("section", {class: "result", dataset: {kind: "result"}},
      h("h2", {}, r.title ? text(r, "title", x) : t("result.over")),
      r.text && !(r.roles || []).length ? h("p", {}, text(r, "text", x)) : null,
      (r.roles || []).length ? h("ul", {class: "roles"}, r.roles.map((row) =>
        h("li", {}, playerName(row.player, x.seatOf(row.player), "strong"), " ", term(x.table, row.role)))) : null,
      winnersLine(r.winners && r.winners.length ? r.winners : view.winners, x),
      ending(view, x)));
  if (view.over && !finals.length) {
    finals.push(h("section", {class: "result", dataset: {kind: "result"}},
      h("h2", {}, t("result.over")), winnersLine(view.winners, x) || h("p", {class: "winners"}, t("result.nowinner")),
      ending(view, x)));
  }
  // Before the end a result is an interim outcome (the same tool shows both).
  const interim = byKind("result").filter(() => !view.over && (byKind("result")[0].title || byKind("result")[0].text)).map((r) =>
    h("section", {class: "interim", dataset: {kind: "interim-result"}},
      r.title ? h("h3", {}, text(r, "title", x)) : null, r.text ? h("p", {}, text(r, "text", x)) : null));
  return [finals, interim];
}

function texts(view, byKind, x) {
  // Once the match is over they are out of date ("Ada declares Tax" under "Basil wins!"): the result's
  // last lines of the log say what ended it.
  if (view.over) return null;
  // Each player in their colour, as in the log and the banners.
  const lines = byKind("text").filter((c) => c.text).map((c) =>
    h("p", {class: `line tone-${c.tone || "plain"}`, dataset: {kind: "text"}}, colourNames(text(c, "text", x), view)));
  const RECENT = 5;
  if (lines.length <= RECENT + 2) return h("div", {class: "texts"}, lines);
  return h("div", {class: "texts"},
    h("details", {class: "older"}, h("summary", {}, t("texts.earlier", {n: lines.length - RECENT})), lines.slice(0, -RECENT)),
    lines.slice(-RECENT));
}

/** Board rows in seat order starting with yours, so the table reads around from you. */
function fromYou(rows, you) {
  const at = rows.findIndex((row) => row.name === you);
  return at <= 0 ? rows : [...rows.slice(at), ...rows.slice(0, at)];
}

function statValue(stat, x) {
  const value = stat.value;
  // An empty list ("discards" before anything is discarded) reads "—", not a label with nothing;
  // a list's items are translated and separated as the language separates them.
  if (Array.isArray(value)) {
    return value.length ? listOf(value.map((v) => typeof v === "string" ? gameWord(x.table, v, x.names) : String(v)), "unit") : "—";
  }
  return typeof value === "string" ? gameWord(x.table, value, x.names) : String(value);
}

function playerTile(row, view, x, extras) {
  const you = view.you !== null && row.name === view.you;
  const index = x.seatOf(row.name);
  const classes = ["player"];
  if (row.active && !view.over) classes.push("active");
  if (!row.alive) classes.push("out");
  if (you) classes.push("you");
  const waiting = !view.over && (view.waiting || []).includes(row.name);
  // Your own unrevealed cards are shown once, big, in your hand below: not again here.
  const mineShownBelow = you && x.myHandShown;
  const secret = [...(extras.secret || [])];
  const before = x.previousCards.get(row.name) || [];
  const cards = (row.cards || []).flatMap((c, i) => {
    if (mineShownBelow && c.label === null) return [];
    const turning = c.label !== null && before[i] === null;
    if (c.label === null && secret.length) return [card(x.table, secret.shift(), {secret: true, yours: you})];
    return [card(x.table, c.label, {lost: c.lost, turning})];
  });
  const tags = row.tags || [];
  return h("article", {class: classes.join(" "), dataset: {player: row.name}, style: {"--pc": playerColour(index)},
    "aria-label": [row.name, you ? t("badge.you") : null, row.active && !view.over ? t("badge.turn") : null,
      row.alive ? null : t("badge.out")].filter(Boolean).join(", ")},
    h("header", {class: "player-head"},
      h("span", {class: "swatch", "aria-hidden": "true"}),
      h("span", {class: "player-name"}, row.name),
      you ? h("span", {class: "badge badge-you"}, t("badge.you")) : null,
      row.active && !view.over ? h("span", {class: "badge badge-turn"}, t("badge.turn")) : null,
      waiting && !row.active ? h("span", {class: "badge badge-wait"}, t("badge.deciding")) : null,
      row.alive ? null : h("span", {class: "badge badge-out"}, t("badge.out"))),
    (row.stats || []).length
      ? h("dl", {class: "stats"}, row.stats.filter((s) => !(x.sharedRole !== null && String(s.label).toLowerCase() === "role")).map((s) =>
          h("div", {class: "stat", dataset: {stat: s.label}},
            h("dt", {}, gameWord(x.table, s.label)), h("dd", {}, statValue(s, x)))))
      : null,
    cards.length ? h("ul", {class: "cards", "aria-label": t("board.cards", {player: row.name})}, cards) : null,
    tags.length || (extras.roles || []).length
      ? h("div", {class: "tags"}, tags.map((tag) => term(x.table, tag, {names: x.names})),
          (extras.roles || []).map((c) => h("span", {class: "tag role", title: text(c, "text", x)},
            (x.table.art || {})[c.title] ? icon(x.table.art[c.title]) : null, text(c, "title", x))))
      : null,
    (row.table || []).length
      ? h("ul", {class: "table-cards", "aria-label": t("board.inplay")}, row.table.map((c) =>
          h("li", {}, term(x.table, c, {className: "in-play"}))))
      : null);
}

function handSection(component, view, x, title) {
  const lost = component.lost || [];
  const yours = component.player === view.you;
  // A player's cards are secret (seen by this viewer only); a pool with no player (BANG!'s General Store) is face up.
  const secret = Boolean(component.player);
  return h("section", {class: "hand" + (yours ? " my-hand" : ""), dataset: {kind: "hand", player: component.player || ""}},
    h("h3", {}, title),
    component.text ? h("p", {class: "muted"}, text(component, "text", x)) : null,
    (component.cards || []).length || lost.length ? h("ul", {class: "cards big"},
      (component.cards || []).map((c) => card(x.table, c, {secret, yours})),
      lost.map((c) => card(x.table, c, {lost: true}))) : null);
}

function sameMultiset(a, b) {
  return a.length === b.length && [...a].sort().join("\u0000") === [...b].sort().join("\u0000");
}

/**
 * Fill `root` with the view. ctx: `table` (the game's table data), `onChoose(option, button)`
 * (absent on replays), `countdown` (an element for the decision panel), `timer` (the view
 * message's timer), `previous` (the previous view, to turn over newly revealed cards).
 */
export function renderView(root, view, ctx = {}) {
  const x = context(view, ctx);
  const components = view.components || [];
  const byKind = (kind) => components.filter((c) => c.kind === kind);
  const hands = byKind("hand");
  // Which cards were face down before, per player, so a revealed one turns over.
  x.previousCards = new Map();
  if (ctx.previous && ctx.previous.version < view.version) {
    for (const board of (ctx.previous.components || []).filter((c) => c.kind === "board")) {
      for (const row of board.players || []) x.previousCards.set(row.name, (row.cards || []).map((c) => c.label));
    }
  }
  const myHand = hands.find((c) => c.player === view.you && view.you !== null);
  x.myHandShown = Boolean(myHand && (myHand.cards || []).length);
  x.myHand = myHand ? myHand.cards || [] : [];
  x.phaseTimer = ctx.timer && ctx.timer.kind === "phase" && !(view.decision && (view.decision.options || []).length)
    ? ctx.countdown : null;

  // The decision panel: the first options component this seat sees gives the prompt.
  const promptComponent = byKind("options")[0] || null;
  const previousPanel = root.querySelector(":scope .decision.mine");
  let panel = decisionPanel(view, {...x, prompt: promptComponent}, previousPanel);
  const choose = promptComponent && promptComponent.choose ? promptComponent.choose.from || [] : null;
  if (!panel && !view.over && (view.waiting || []).length) {
    // Contract: waiting may name more players than are acting (a secret decision): say who
    // the table waits for, never who is acting.
    panel = h("section", {class: "decision", "aria-label": t("decision.waitingtitle")},
      h("div", {class: "decision-head"},
        h("p", {class: "waiting"}, t("decision.waiting", {players: listOf(view.waiting)})),
        x.phaseTimer ? null : ctx.countdown || null));
  }

  const characters = byKind("character_card");
  const boardRows = byKind("board").flatMap((b) => b.players || []);
  const onBoard = new Set(boardRows.map((r) => r.name));
  const statValues = new Map(boardRows.map((r) => [r.name, new Set((r.stats || []).map((s) => String(s.value)))]));
  const rolesOf = new Map();
  const looseCharacters = [];
  for (const c of characters) {
    if (c.player && onBoard.has(c.player)) {
      // A role shown about a player is a badge on their tile (once, not as another box).
      const shown = statValues.get(c.player);
      const parts = String(c.title || "").split(" · ");
      if (parts.every((p) => shown.has(p))) continue;
      if (!rolesOf.has(c.player)) rolesOf.set(c.player, []);
      if (!rolesOf.get(c.player).some((o) => o.title === c.title)) rolesOf.get(c.player).push(c);
    } else {
      looseCharacters.push(c);
    }
  }
  // A role every player shares ("Player" in Skull) tells nobody anything: not shown on every tile.
  x.sharedRole = null;
  if (boardRows.length > 1) {
    const roleOf = (row) => {
      const stat = (row.stats || []).find((s) => String(s.label).toLowerCase() === "role");
      return stat ? String(stat.value) : null;
    };
    const first = roleOf(boardRows[0]);
    if (first !== null && boardRows.every((row) => roleOf(row) === first)) x.sharedRole = first;
    const titles = boardRows.map((row) => (rolesOf.get(row.name) || []).map((c) => c.title));
    for (const title of titles[0]) {
      if (titles.every((list) => list.includes(title))) {
        for (const [player, list] of rolesOf) rolesOf.set(player, list.filter((c) => c.title !== title));
      }
    }
  }
  const characterViews = looseCharacters.map((c) =>
    h("section", {class: "character", dataset: {kind: "character_card"}, style: {"--card": cardColour(x.table, c.title || "")}},
      (x.table.art || {})[c.title] ? icon(x.table.art[c.title]) : null,
      h("h3", {}, text(c, "title", x)),
      c.player ? h("p", {class: "muted"}, c.player) : null,
      c.text ? h("p", {}, text(c, "text", x)) : null));

  const boards = byKind("board").map((b) =>
    h("section", {class: "board", dataset: {kind: "board"}, "aria-label": t("board.players")},
      fromYou(b.players || [], view.you).map((row) => {
        const hand = hands.find((c) => c.player === row.name && !c.title);
        return playerTile(row, view, x, {secret: hand ? hand.cards || [] : [], roles: rolesOf.get(row.name)});
      })));

  // Hands: yours once (big, unless the decision panel already lays your cards out to pick),
  // any other you may see (a draw, a shop); a pool the decision shows is not shown twice.
  const pickingFromHand = panel && panel.querySelector && panel.querySelector(".pool [data-card]") && myHand;
  // Your lost cards lie face up on your tile like everyone's: not again under "Your cards".
  const myRow = boardRows.find((r) => r.name === view.you);
  const lostOnTile = Boolean(myHand && myRow && (myRow.cards || []).filter((c) => c.lost).length >= (myHand.lost || []).length);
  const lostOf = (c) => (c === myHand && lostOnTile ? [] : c.lost || []);
  // Once the match is over every card lies face up on the tiles, yours too: not again under "Your cards".
  const faceUpOnTile = myRow ? (myRow.cards || []).filter((c) => c.label !== null && !c.lost).map((c) => c.label) : [];
  const handViews = hands.filter((c) => {
    if (choose && sameMultiset(c.cards || [], choose)) return false;
    if (c === myHand && view.over && (c.cards || []).length && sameMultiset(c.cards, faceUpOnTile)) return false;
    if (c === myHand && pickingFromHand && !lostOf(c).length) return false;
    if (c.title && panel && panel.querySelector && (c.cards || []).length &&
        (c.cards || []).every((label) => panel.querySelector(`.pool [data-card="${CSS.escape(label)}"]`))) return false;
    if (c.player && c.player !== view.you && !c.title && onBoard.has(c.player)) return false; // shown on its tile
    return (c.cards || []).length || lostOf(c).length || c.text;
  }).map((c) => handSection({...c, lost: lostOf(c)}, view, x, c === myHand ? t("hand.yours")
    : c.title ? gameText(x.table, c.title, c.msg && c.msg.title, x.names)
      : c.player ? t("hand.of", {player: c.player}) : t("hand.cards")));

  const others = components.filter((c) => !KNOWN.has(c.kind)).map((c) =>
    h("section", {class: "unknown", dataset: {kind: c.kind}},
      h("h3", {}, c.title ? text(c, "title", x) : c.kind),
      Object.entries(c).filter(([k, v]) => !["key", "kind", "title", "msg"].includes(k) && typeof v !== "object")
        .map(([k, v]) => h("p", {}, `${gameWord(x.table, k)}: ${gameWord(x.table, String(v), x.names)}`))));

  const [finals, interim] = results(view, byKind, x);
  // The same decision's panel is kept, but refilling the table takes it out of the page for a
  // moment, which drops the keyboard's focus: give it back (others' votes arrive while you decide).
  const focused = panel && panel === previousPanel && panel.contains(document.activeElement) ? document.activeElement : null;
  root.dataset.version = String(view.version);
  root.dataset.over = String(Boolean(view.over));
  root.dataset.mine = String(Boolean(view.decision && (view.decision.options || []).length));
  fill(root,
    indicators(view, byKind, x),
    finals,
    interim,
    texts(view, byKind, x),
    characterViews,
    boards,
    handViews.length ? h("div", {class: "hands"}, handViews) : null,
    others,
    panel);
  if (focused && document.activeElement !== focused && panel.contains(focused)) focused.focus({preventScroll: true});
  if (ctx.hooks) ctx.hooks.emit("render", {root, view, panel});
}

/** A countdown that ticks locally between views; it says what kind of timer runs. */
export class Countdown {
  constructor({onLow = null} = {}) {
    this.label = h("span", {class: "countdown-label"});
    this.text = h("span", {class: "countdown-text"});
    this.fillBar = h("span", {class: "countdown-fill"});
    this.node = h("div", {class: "countdown", role: "timer", "aria-live": "off"},
      this.label, this.text, h("span", {class: "countdown-bar", "aria-hidden": "true"}, this.fillBar));
    this.deadline = null;
    this.total = null;
    this.onLow = onLow;
    this.warned = false;
    this.interval = setInterval(() => this.tick(), 200);
  }

  set(timer) {
    if (!timer || timer.seconds_left === null || timer.seconds_left === undefined) {
      this.deadline = null;
    } else {
      const deadline = performance.now() + timer.seconds_left * 1000;
      if (this.deadline === null || Math.abs(deadline - this.deadline) > 1500 || timer.kind !== this.kind) this.warned = false;
      this.deadline = deadline;
      this.total = timer.seconds || timer.seconds_left;
      this.kind = timer.kind || "turn";
      this.node.dataset.kind = this.kind;
      const labels = {turn: "timer.turn", window: "timer.window", grace: "timer.grace", phase: "timer.phase"};
      this.label.textContent = t(labels[this.kind] || "timer.turn");
    }
    this.tick();
  }

  tick() {
    if (this.deadline === null) {
      this.node.hidden = true;
      return;
    }
    this.node.hidden = false;
    const left = Math.max(0, (this.deadline - performance.now()) / 1000);
    this.text.textContent = t("timer.seconds", {n: Math.ceil(left)});
    this.node.dataset.left = left.toFixed(1);
    const low = left <= 5;
    this.node.classList.toggle("low", low);
    if (low && left > 0 && !this.warned) {
      this.warned = true;
      if (this.onLow) this.onLow(this.kind);
    }
    this.fillBar.style.width = `${Math.min(100, (100 * left) / (this.total || 1))}%`;
  }
}
