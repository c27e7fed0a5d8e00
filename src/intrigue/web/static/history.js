// The list of finished matches, each linking to its replay.

import {h, fill, $} from "./dom.js";
import {api} from "./api.js";

export function when(stamp) {
  if (!stamp) return "";
  const date = new Date(stamp);
  return Number.isNaN(date.getTime()) ? String(stamp) : date.toLocaleString();
}

async function start() {
  const body = $("#matches tbody");
  let matches;
  const titles = {};
  try {
    for (const game of await api("GET", "/api/games")) titles[game.id] = game.title;
  } catch (err) {
    /* ids stand in for titles */
  }
  try {
    matches = await api("GET", "/api/matches?status=finished");
  } catch (err) {
    fill(body, h("tr", {}, h("td", {colspan: 7}, `Could not load the matches: ${err.message}`)));
    return;
  }
  if (!matches.length) {
    fill(body, h("tr", {}, h("td", {colspan: 7, class: "muted"}, "No finished games yet.")));
    return;
  }
  // data-label names each cell for the phone layout, where rows become cards.
  fill(body, matches.map((m) => h("tr", {dataset: {match: m.match}},
    h("td", {dataset: {label: "#"}}, String(m.match)),
    h("td", {dataset: {label: "Game"}}, titles[m.game] || m.game),
    h("td", {dataset: {label: "Players"}}, (m.players || []).join(", ")),
    h("td", {dataset: {label: "Winner"}}, (m.winners || []).join(", ")),
    h("td", {dataset: {label: "Finished"}}, when(m.finished)),
    h("td", {dataset: {label: "Moves"}}, String(m.moves ?? "")),
    h("td", {}, h("a", {class: "button", href: `/replay/${encodeURIComponent(m.match)}`}, "Replay")))));
}

start();
