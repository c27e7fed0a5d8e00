// Every string the browser shows, in the player's language.
//
// Two kinds of catalogs, both plain JSON data:
// - the client's own strings: /static/i18n/<lang>.json, by id ("lobby.create": "Create a room"),
//   with {placeholders};
// - a game's strings: GET /api/games/<game>/table?lang=<lang> ("messages"), keyed by the text
//   exactly as the game sends it (a phase name, a prompt, a log template, a card name).
// Game text is translated from its data (a log line's key and args, a component's msg),
// never by parsing the English.

export const LANGUAGES = {en: "English", de: "Deutsch", fr: "Français", es: "Español", zh: "中文"};

const state = {lang: "en", ui: {}, fallback: {}, tables: new Map()};

function pickLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem("intrigue:lang");
  } catch (err) {
    saved = null;
  }
  if (saved && LANGUAGES[saved]) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = String(wanted).slice(0, 2).toLowerCase();
    if (LANGUAGES[code]) return code;
  }
  return "en";
}

async function fetchJson(path) {
  const response = await fetch(path, {headers: {accept: "application/json"}});
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

/** Load the client's catalog for the chosen language (English fills any gap) and translate the page. */
export async function setupI18n() {
  state.lang = pickLanguage();
  const [fallback, ui] = await Promise.all([
    fetchJson("/static/i18n/en.json"),
    state.lang === "en" ? Promise.resolve(null) : fetchJson(`/static/i18n/${state.lang}.json`).catch(() => null),
  ]);
  state.fallback = fallback;
  state.ui = ui || fallback;
  document.documentElement.lang = state.lang === "zh" ? "zh-Hans" : state.lang;
  translatePage();
  return state.lang;
}

export function currentLanguage() {
  return state.lang;
}

export function setLanguage(code) {
  if (!LANGUAGES[code]) return;
  try {
    localStorage.setItem("intrigue:lang", code);
  } catch (err) {
    /* private mode: the choice lasts this page */
  }
  location.reload();
}

const pluralRules = new Map();

/** The plural category of `n` in the page's language ("one", "other", …: Intl.PluralRules). */
export function pluralOf(n) {
  if (!pluralRules.has(state.lang)) pluralRules.set(state.lang, new Intl.PluralRules(state.lang));
  return pluralRules.get(state.lang).select(n);
}

/**
 * Resolve ICU plural blocks, "{count, plural, =0 {no card} one {# card} other {# cards}}": the
 * form for the value's category in the language (an exact "=n" first, else "other"), with
 * "#" the number as `value` renders it. A block whose value is not a number is left as is.
 */
function plurals(template, args, value) {
  const head = /\{\s*([\w.]+)\s*,\s*plural\s*,/g;
  let out = "";
  let from = 0;
  for (let found = head.exec(template); found; found = head.exec(template)) {
    const forms = {};
    let at = head.lastIndex;
    for (;;) {
      const selector = /^\s*(=\d+|zero|one|two|few|many|other)\s*\{/.exec(template.slice(at));
      if (!selector) break;
      let depth = 1;
      let end = at + selector[0].length;
      for (; end < template.length && depth; end += 1) {
        if (template[end] === "{") depth += 1;
        else if (template[end] === "}") depth -= 1;
      }
      forms[selector[1]] = template.slice(at + selector[0].length, end - 1);
      at = end;
    }
    const close = /^\s*\}/.exec(template.slice(at));
    const n = Number(args[found[1]]);
    if (!close || !("other" in forms) || args[found[1]] === "" || !Number.isFinite(n)) continue;
    const form = forms[`=${n}`] ?? forms[pluralOf(n)] ?? forms.other;
    out += template.slice(from, found.index) + form.replace(/#/g, () => value(n));
    from = at + close[0].length;
    head.lastIndex = from;
  }
  return out + template.slice(from);
}

/** Replace {name} placeholders (after plural blocks); `value(v)` renders each value. */
export function fill(template, args = {}, value = (v) => String(v)) {
  return plurals(String(template), args, value).replace(/\{([^{}]+)\}/g, (whole, name) => {
    const key = name.trim();
    return key in args ? value(args[key]) : whole;
  });
}

/** Whether the client's catalog has a string `id`. */
export function hasString(id) {
  return id in state.ui || id in state.fallback;
}

/** What to show for a refusal from the server (docs/protocol.md's error codes): its own message,
 * which is exact but English, on an English page; elsewhere the code's line in the language, when
 * the catalogs have one (`error.<code>`). */
export function refusal(code, message) {
  const id = `error.${code}`;
  if (state.lang !== "en" && id in state.ui) return t(id);
  return message || (id in state.fallback ? t(id) : code);
}

/** A client string by id. */
export function t(id, args = {}) {
  const template = state.ui[id] ?? state.fallback[id];
  if (template === undefined) {
    console.warn(`i18n: no string ${id}`);
    return id;
  }
  return fill(template, args, (v) => (typeof v === "number" ? v.toLocaleString(state.lang) : String(v)));
}

/** Translate the static page: data-i18n (text), data-i18n-placeholder, data-i18n-label (aria-label), data-i18n-title. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = t(node.dataset.i18nPlaceholder);
  for (const node of root.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
}

/** "a, b and c" in the language. */
export function listOf(items, type = "conjunction") {
  const texts = items.map(String);
  try {
    const said = new Intl.ListFormat(state.lang, {style: "long", type}).format(texts);
    // Chinese "unit" lists have no separator at all ("AriaAdaBasil"): use the enumeration comma.
    if (texts.length > 1 && said === texts.join("")) return texts.join(state.lang.startsWith("zh") ? "、" : ", ");
    return said;
  } catch (err) {
    return texts.join(", ");
  }
}

// ------------------------------------------------------------------ a game's table data

/** The game's table data in this language (rules drawer, card art, messages); cached. */
export function gameTable(game) {
  if (!state.tables.has(game)) {
    const empty = {game, messages: {}, sheet: {sections: []}, art: {}, cards: null, about: {}};
    state.tables.set(game, fetchJson(`/api/games/${encodeURIComponent(game)}/table?lang=${state.lang}`)
      .then((data) => ({...empty, ...data}))
      .catch(() => empty));
  }
  return state.tables.get(game);
}

const patterns = new WeakMap();

/** A card label split by the game's card pattern (table.cards): {name, rank, suit, symbol, red}, or null. */
export function cardParts(table, label) {
  const spec = table && table.cards;
  if (!spec || !spec.pattern || typeof label !== "string") return null;
  let re = patterns.get(spec);
  if (!re) {
    re = new RegExp(spec.pattern);
    patterns.set(spec, re);
  }
  const found = re.exec(label);
  if (!found || !found.groups) return null;
  const {name, rank, suit} = found.groups;
  return {name, rank, suit, symbol: (spec.suits || {})[suit] || suit, red: (spec.red || []).includes(suit)};
}

/** One word or name of the game in the language (a card label keeps its rank and suit symbol). */
export function gameWord(table, text, names = null) {
  if (typeof text !== "string") return typeof text === "number" ? text.toLocaleString(state.lang) : String(text ?? "");
  if (names && names.has(text)) return text;
  const messages = (table && table.messages) || {};
  if (text in messages) return messages[text];
  const card = cardParts(table, text);
  if (card) return `${messages[card.name] ?? card.name} ${card.rank}${card.symbol}`;
  return text;
}

/**
 * A text the game sent, in the language. `msg` ({key, args}) is the template it was made
 * from; without it the text itself is looked up. Player names (`names`) are never translated.
 */
export function gameText(table, text, msg = null, names = null) {
  const messages = (table && table.messages) || {};
  const value = (v) => {
    if (Array.isArray(v)) return listOf(v.map((item) => gameWord(table, item, names)), "unit");
    if (v === "") return "—";  // an empty list the game wrote out ("stack: " in Skull) reads as a dash, as on a tile
    if (typeof v === "boolean") return messages[v ? "yes" : "no"] ?? (v ? "yes" : "no");
    return gameWord(table, v, names);
  };
  if (msg && typeof msg.key === "string") return fill(messages[msg.key] ?? msg.key, msg.args || {}, value);
  if (text === null || text === undefined) return "";
  return gameWord(table, String(text), names);
}

const forms = new WeakMap();

/**
 * An option string in the language: a word or card as such, else by the option forms the
 * game's table data declares ("options": [[regex, template], ...], e.g. "^Steal (?<target>.+)$"
 * → "Steal {target}"): the template is translated and each part filled in (a `cards` part
 * is a comma-separated list of cards).
 */
export function optionWord(table, option, names = null) {
  if (typeof option !== "string") return gameWord(table, option, names);
  const messages = (table && table.messages) || {};
  if ((names && names.has(option)) || option in messages || cardParts(table, option)) return gameWord(table, option, names);
  let compiled = forms.get(table);
  if (!compiled) {
    compiled = ((table && table.options) || []).map(([pattern, key]) => [new RegExp(pattern), key]);
    if (table) forms.set(table, compiled);
  }
  for (const [re, key] of compiled) {
    const found = re.exec(option);
    if (!found) continue;
    const args = {};
    for (const [group, value] of Object.entries(found.groups || {})) {
      if (value === undefined) continue;
      args[group] = group === "cards" ? listOf(value.split(", ").map((c) => gameWord(table, c, names)), "unit")
        : gameWord(table, value, names);
    }
    return fill(messages[key] ?? key, args);
  }
  return gameWord(table, option, names);
}

/** Whether the game's catalog knows `text` (a term worth explaining, for instance). */
export function knows(table, text) {
  return Boolean(table && table.messages && text in table.messages);
}
