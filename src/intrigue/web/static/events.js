// What just happened: the game log in the player's language, the recent-events strip,
// outcome banners (a claim proven or caught, a block, a card lost, an elimination, a timer
// that ran out) with the revealed card turning over, and the live-region announcements.
//
// Log lines are translated from their data (docs/protocol.md): `key` + `args` (a template
// and its values), else `event` + its fields through the catalog entry "@<event>", else
// the line's own text looked up as a whole. Never by parsing the English.

import {h, fill} from "./dom.js";
import {card, playerColour} from "./cards.js";
import {fill as fillTemplate, gameText, gameWord, t} from "./i18n.js";

function names(view) {
  return new Set(view.players || []);
}

/** A log entry in the language. */
export function lineText(table, entry, view) {
  const players = names(view);
  const messages = (table && table.messages) || {};
  let text;
  if (typeof entry.key === "string") {
    text = gameText(table, entry.text, {key: entry.key, args: entry.args || {}}, players);
  } else if (entry.event && messages[`@${entry.event}`]) {
    const args = {};
    for (const [field, value] of Object.entries(entry)) {
      args[field] = Number.isInteger(value) && ["seat", "claimant", "target"].includes(field) && view.players
        ? view.players[value] : value;
    }
    text = fillTemplate(messages[`@${entry.event}`], args, (v) => gameWord(table, v, players));
  } else {
    text = gameText(table, entry.text, null, players);
  }
  if (entry.to && entry.to !== view.you) text = t("log.to", {player: entry.to, text});
  return text;
}

/** `text` with each player's name in their colour. */
export function colourNames(text, view) {
  const players = [...(view.players || [])].filter(Boolean).sort((a, b) => b.length - a.length);
  if (!players.length) return [text];
  const pattern = new RegExp(`(${players.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "g");
  return String(text).split(pattern).map((part, i) =>
    i % 2 ? h("span", {class: "pname", style: {"--pc": playerColour(view.players.indexOf(part))}}, part) : part);
}

function mentions(entry, player, view) {
  if (entry.seat !== undefined && view.players && view.players[entry.seat] === player) return true;
  return Object.values(entry.args || {}).some((v) => v === player || (Array.isArray(v) && v.includes(player)));
}

/** The log as lines: {version, text, entry}, with "(time ran out)" where the timer chose. */
export function logLines(table, view, timeouts = []) {
  const lines = (view.log || []).map((entry) => ({version: entry.version, text: lineText(table, entry, view), entry}));
  for (const timeout of timeouts) {
    const at = timeout.version + 1;
    const line = lines.find((l) => l.version === at && !l.timeout && mentions(l.entry, timeout.player, view));
    if (line) {
      line.text = `${line.text} ${t("log.timeout")}`;
      line.timeout = true;
    } else {
      const index = lines.findIndex((l) => l.version >= at);
      const synthetic = {version: at, text: t("log.timedout", {player: timeout.player}), entry: {}, timeout: true};
      if (index < 0) {
        if (!lines.length || lines[lines.length - 1].version >= at - 1) lines.push(synthetic);
      } else {
        lines.splice(index, 0, synthetic);
      }
    }
  }
  return lines;
}

/** The game log panel, newest last. */
export function renderLog(list, table, view, timeouts = []) {
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  fill(list, logLines(table, view, timeouts).map((line) =>
    h("li", {dataset: {version: line.version, timeout: line.timeout ? "true" : null}}, colourNames(line.text, view))));
  if (atBottom || !list.dataset.filled) list.scrollTop = list.scrollHeight;
  list.dataset.filled = "1";
}

/** The recent-events strip (the top of the table on a phone): the last lines. */
export function renderRecent(strip, table, view, timeouts = [], count = 3) {
  const lines = logLines(table, view, timeouts).slice(-count);
  fill(strip, lines.length ? h("ol", {}, lines.map((line) =>
    h("li", {dataset: {version: line.version}}, colourNames(line.text, view)))) : null);
}

/**
 * Banners on the table for the outcomes that matter, and what the live region says.
 * The first view a page gets (a reload) announces nothing old.
 */
export class Outcomes {
  constructor(slot, live) {
    this.slot = slot;
    this.live = live;
    this.seen = null;       // [match, version] last shown
    this.timeoutsSeen = new Set();
  }

  update(table, view, timeouts, matchId) {
    const first = !this.seen || this.seen[0] !== matchId;
    const since = first ? view.version : this.seen[1];
    this.seen = [matchId, view.version];
    if (first) {
      this.slot.replaceChildren();  // a rematch starts without the last match's banners
      for (const timeout of timeouts) this.timeoutsSeen.add(`${matchId}:${timeout.version}:${timeout.player}`);
      return;
    }
    // Once the match is over the winner's box says how it ended: a banner would float over the winner and
    // the rematch button on a phone, over the seats (who votes for a rematch) beside the table on a desktop.
    if (view.over) this.slot.replaceChildren();
    const said = [];
    for (const timeout of timeouts) {
      const key = `${matchId}:${timeout.version}:${timeout.player}`;
      if (this.timeoutsSeen.has(key)) continue;
      this.timeoutsSeen.add(key);
      if (!view.over) this.show(table, view, {tone: "info", title: t("banner.timeout"), icon: "clock"},
        t("log.timedout", {player: timeout.player}), "timeout");
    }
    for (const entry of view.log || []) {
      if (entry.version <= since) continue;
      const text = lineText(table, entry, view);
      if (entry.banner) {
        if (!view.over) this.show(table, view, entry.banner, text, entry.event || "outcome");
        said.push(text);
      }
    }
    if (said.length) this.say(said.join(" "));
  }

  show(table, view, banner, text, kind) {
    // a DSL title with {…} comes with its template (key) and values (args), translated as a line is
    const title = !banner.title ? "" : typeof banner.key === "string"
      ? gameText(table, banner.title, {key: banner.key, args: banner.args || {}}, names(view))
      : gameWord(table, banner.title);
    const node = h("div", {class: `banner tone-${banner.tone || "info"}`, dataset: {banner: kind}},
      banner.card ? card(table, banner.card, {tag: "div", turning: true}) : null,
      h("div", {class: "banner-text"}, title ? h("strong", {}, title) : null, h("span", {}, colourNames(text, view))),
      h("button", {type: "button", class: "quiet banner-close", "aria-label": t("banner.close"),
        onclick: () => node.remove()}, "×"));
    this.slot.appendChild(node);
    // On a phone the banner floats over the top of the screen, one at a time (the strip lists them all).
    const room = matchMedia("(max-width: 899px)").matches ? 1 : 3;
    while (this.slot.children.length > room) this.slot.firstChild.remove();
    setTimeout(() => node.remove(), 6000);
  }

  /** Put a sentence in the polite live region (screen readers read it once). */
  say(text) {
    this.live.textContent = "";
    setTimeout(() => { this.live.textContent = text; }, 30);
  }
}
