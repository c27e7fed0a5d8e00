// Cards, player colours and explained words. Everything game-specific comes from the
// game's table data (docs/protocol.md, "The table data"): which icon a card name shows
// ("art"), its colour ("colours"), how a label splits into name, rank and suit ("cards"),
// and what a card or character does ("about"). A game without table data still shows
// every card, with a stable colour from its name.

import {h} from "./dom.js";
import {icon} from "./art.js";
import {cardParts, gameText, gameWord, t} from "./i18n.js";

/** The name part of a label ("BANG! 10D" → "BANG!"), by the game's card pattern. */
export function cardName(table, label) {
  const parts = cardParts(table, label);
  return parts ? parts.name : String(label);
}

export function cardColour(table, label) {
  const name = cardName(table, label);
  const colours = (table && table.colours) || {};
  if (colours[name]) return colours[name];
  let hash = 0;
  for (const ch of name.toLowerCase()) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return `hsl(${hash % 360} 42% 32%)`;
}

/** What a card, character or role does, in the language (or null). */
export function explain(table, word) {
  const about = (table && table.about) || {};
  const name = cardName(table, word);
  const text = about[name] ?? about[word];
  return text ? gameText(table, text) : null;
}

/** A player's colour: one of ten, by seat (the same on the board, in the log and in chat). */
export function playerColour(index) {
  return `var(--p${((index % 10) + 10) % 10})`;
}

/** A player's name in their colour. */
export function playerName(name, index, tag = "span") {
  return h(tag, {class: "pname", style: {"--pc": playerColour(index)}}, name);
}

/**
 * A card. `label` null is face down. `secret`: face down to the others, seen by this viewer.
 * `turning`: it was just revealed (it turns over). Returns an <li> unless `tag` says otherwise.
 */
export function card(table, label, {lost = false, secret = false, yours = false, turning = false, tag = "li",
  extra = {}} = {}) {
  const classes = ["card", label === null ? "down" : "up"];
  // A catalog may mark where a long compound breaks with soft hyphens (U+00AD, "Gemischt\u00adwaren\u00adladen"):
  // the label breaks there, so only the parts between them need to fit.
  const longest = label === null ? 0
    : Math.max(...gameWord(table, cardName(table, label)).split(/[\s\u00ad]+/).map((w) => w.length));
  // Long words are set smaller so that they fit a phone's small cards ("Ambassadeur", "Renegado").
  if (longest > 7) classes.push(longest > 10 ? "long longer" : "long");
  if (lost) classes.push("lost");
  if (secret) classes.push("secret");
  if (turning) classes.push("turning");
  const attrs = {class: classes.join(" "), dataset: {card: label === null ? "hidden" : label}, ...extra};
  if (label === null) {
    return h(tag, {...attrs, "aria-label": t("card.facedown"), role: tag === "li" ? null : "img"},
      h("span", {class: "card-back", "aria-hidden": "true"}));
  }
  const parts = cardParts(table, label);
  const name = parts ? parts.name : label;
  const shown = gameWord(table, name);
  const art = (table && table.art && table.art[name]) || null;
  const note = lost ? t("card.lost") : secret ? t(yours ? "card.onlyyou" : "card.hidden") : null;
  const about = explain(table, name);
  const spoken = [shown, parts ? `${parts.rank}${parts.symbol}` : null, note].filter(Boolean).join(", ");
  attrs.style = {"--card": cardColour(table, label)};
  if (about) attrs.title = `${shown}: ${about}`;
  return h(tag, {...attrs, "aria-label": spoken, role: tag === "li" ? null : "img"},
    parts ? h("span", {class: "card-corner" + (parts.red ? " red" : ""), "aria-hidden": "true"}, `${parts.rank}${parts.symbol}`) : null,
    art ? icon(art) : null,
    h("span", {class: "card-label", "aria-hidden": "true"}, shown),
    note ? h("span", {class: "card-note", "aria-hidden": "true"}, note) : null);
}

/** A word (a character, a role, a card in play) that explains itself on hover, focus or tap. */
export function term(table, word, {names = null, className = "tag"} = {}) {
  const shown = gameWord(table, word, names);
  const about = names && names.has(word) ? null : explain(table, word);
  if (!about) return h("span", {class: className}, shown);
  const tip = h("span", {class: "tip", role: "tooltip"}, about);
  const button = h("button", {type: "button", class: `${className} term`, "aria-expanded": "false",
    "aria-label": `${shown}: ${about}`,
    onclick: (event) => {
      const open = event.currentTarget.getAttribute("aria-expanded") !== "true";
      event.currentTarget.setAttribute("aria-expanded", String(open));
    },
    onblur: (event) => event.currentTarget.setAttribute("aria-expanded", "false")}, shown);
  return h("span", {class: "term-wrap"}, button, tip);
}
