// Step forward and back through a finished match, from any seat or with everything shown.
// GET /api/matches/{match}/replay?step=N&seat=S|all (docs/protocol.md).

import {h, fill, $, toast} from "./dom.js";
import {api, roomCodeFromPath} from "./api.js";
import {renderView} from "./render.js";
import {renderLog} from "./events.js";
import {gameTable, gameText, optionWord, setupI18n, t} from "./i18n.js";
import {setupTools} from "./prefs.js";

const matchId = roomCodeFromPath("/replay/");
const params = new URLSearchParams(location.search);
const replay = {step: Number(params.get("step") || 0), seat: params.get("seat") || "all", moves: null, players: [],
  table: null, previous: null};
let request = 0;

function unwrap(answer) {
  // The answer is the observation, possibly wrapped with the step count.
  const view = answer && answer.view ? answer.view : answer;
  const moves = answer && (answer.moves ?? answer.steps ?? answer.total);
  return {view, moves: typeof moves === "number" ? moves : null};
}

function choiceText(choice, view) {
  const names = new Set(view.players || []);
  const option = optionWord(replay.table, choice.option, names);
  const how = {timeout: "replay.bytimeout", bot: "replay.bybot", left: "replay.byleft"}[choice.source];
  return t("replay.chose", {player: choice.player, option}) + (how ? ` ${t(how)}` : "");
}

async function show() {
  const mine = ++request;
  let answer;
  try {
    answer = await api("GET", `/api/matches/${encodeURIComponent(matchId)}/replay?step=${replay.step}&seat=${encodeURIComponent(replay.seat)}`);
  } catch (err) {
    if (mine === request) fill($("#table"), h("section", {class: "notice"}, h("h2", {}, t("replay.cannot")), h("p", {}, err.message),
      h("a", {href: "/history"}, t("nav.history"))));
    return;
  }
  if (mine !== request) return;
  const {view, moves} = unwrap(answer);
  if (!replay.table) replay.table = await gameTable(view.game);
  const choice = answer && answer.choice;
  $("#last-choice").textContent = choice ? choiceText(choice, view) : t("replay.deal");
  if (moves !== null) replay.moves = moves;
  if (!replay.players.length && view.players) {
    replay.players = view.players;
    fill($("#seat"), h("option", {value: "all"}, t("replay.everything")),
      view.players.map((name, seat) => h("option", {value: String(seat)}, t("replay.seat", {name, seat: seat + 1}))));
    $("#seat").value = replay.seat;
  }
  const title = t("replay.title", {game: gameText(replay.table, view.title || view.game), match: matchId});
  $("#replay-title").textContent = title;
  document.title = `${title} · Intrigue`;
  renderView($("#table"), view, {table: replay.table, previous: replay.previous});
  replay.previous = view;
  renderLog($("#log"), replay.table, view);
  controls();
  const url = new URL(location.href);
  url.searchParams.set("step", replay.step);
  url.searchParams.set("seat", replay.seat);
  history.replaceState(null, "", url);
}

function controls() {
  const max = replay.moves ?? replay.step;
  const slider = $("#step");
  slider.max = String(max);
  slider.value = String(replay.step);
  $("#step-label").textContent = t("replay.of", {step: replay.step, max});
  $("#first").disabled = $("#prev").disabled = replay.step <= 0;
  $("#last").disabled = $("#next").disabled = replay.step >= max;
}

function go(step) {
  const max = replay.moves ?? Infinity;
  replay.step = Math.max(0, Math.min(max, step));
  show();
}

async function start() {
  await setupI18n();
  setupTools($("#tools"));
  try {
    const finished = await api("GET", "/api/matches?status=finished");
    const entry = finished.find((m) => String(m.match) === String(matchId));
    if (entry && typeof entry.moves === "number") replay.moves = entry.moves;
  } catch (err) {
    toast(t("replay.nolist", {error: err.message}));
  }
  $("#first").addEventListener("click", () => go(0));
  $("#prev").addEventListener("click", () => go(replay.step - 1));
  $("#next").addEventListener("click", () => go(replay.step + 1));
  $("#last").addEventListener("click", () => go(replay.moves ?? replay.step));
  $("#step").addEventListener("input", (event) => go(Number(event.target.value)));
  $("#seat").addEventListener("change", (event) => { replay.seat = event.target.value; replay.previous = null; show(); });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea, button")) return;
    if (event.key === "ArrowLeft") go(replay.step - 1);
    if (event.key === "ArrowRight") go(replay.step + 1);
  });
  show();
}

start();
