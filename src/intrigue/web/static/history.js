// The list of finished matches, each linking to its replay.

import {h, fill, $} from "./dom.js";
import {api} from "./api.js";
import {currentLanguage, gameTable, gameText, setupI18n, t} from "./i18n.js";
import {setupTools} from "./prefs.js";

export function when(stamp) {
  if (!stamp) return "";
  const date = new Date(stamp);
  return Number.isNaN(date.getTime()) ? String(stamp) : date.toLocaleString(currentLanguage());
}

async function start() {
  await setupI18n();
  setupTools($("#tools"));
  document.title = `${t("history.title")} · Intrigue`;
  const body = $("#matches tbody");
  let matches;
  const titles = {};
  try {
    for (const game of await api("GET", "/api/games")) titles[game.id] = gameText(await gameTable(game.id), game.title);
  } catch (err) {
    /* ids stand in for titles */
  }
  try {
    matches = await api("GET", "/api/matches?status=finished");
  } catch (err) {
    fill(body, h("tr", {}, h("td", {colspan: 7}, t("history.error", {error: err.message}))));
    return;
  }
  if (!matches.length) {
    fill(body, h("tr", {}, h("td", {colspan: 7, class: "muted"}, t("history.none"))));
    return;
  }
  // data-label names each cell for the phone layout, where rows become cards.
  fill(body, matches.map((m) => h("tr", {dataset: {match: m.match}},
    h("td", {dataset: {label: "#"}}, String(m.match)),
    h("td", {dataset: {label: t("history.game")}}, titles[m.game] || m.game),
    h("td", {dataset: {label: t("history.players")}}, (m.players || []).join(", ")),
    h("td", {dataset: {label: t("history.winner")}}, (m.winners || []).join(", ")),
    h("td", {dataset: {label: t("history.finished")}}, when(m.finished)),
    h("td", {dataset: {label: t("history.moves")}}, String(m.moves ?? "")),
    h("td", {}, h("a", {class: "button", href: `/replay/${encodeURIComponent(m.match)}`,
      "aria-label": t("history.replayof", {n: m.match})}, t("history.replay"))))));
}

start();
