// HTTP helpers for the lobby routes of docs/protocol.md, and the seat token store.

import {refusal, t} from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body) {
  const init = {method, headers: {accept: "application/json"}};
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", t("error.network"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    let message = error.message;
    if (!message && data && data.detail) {
      message = Array.isArray(data.detail)
        ? data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ")
        : String(data.detail);
    }
    const code = error.code || String(response.status);
    throw new ApiError(response.status, code, refusal(code, message || response.statusText));
  }
  return data;
}

export const tokenKey = (room) => `intrigue:token:${room}`;

export function savedToken(room) {
  try {
    return localStorage.getItem(tokenKey(room));
  } catch (err) {
    return null;
  }
}

export function saveToken(room, token) {
  localStorage.setItem(tokenKey(room), token);
}

export function forgetToken(room) {
  localStorage.removeItem(tokenKey(room));
}

export const tutorialKey = (room) => `intrigue:tutorial:${room}`;

/** Mark `room` as a guided first game of `game`: the room page's tutorial.js guides its first match. */
export function saveTutorial(room, game) {
  try {
    localStorage.setItem(tutorialKey(room), JSON.stringify({game, match: null, step: 0}));
  } catch (err) {
    /* without storage the room is still a practice room, with the coach */
  }
}

export function savedName() {
  return localStorage.getItem("intrigue:name") || "";
}

export function saveName(name) {
  localStorage.setItem("intrigue:name", name);
}

/**
 * A bot seat in words: "bot · hard" (with its style when it has one: "bot · normal, bold").
 * `kinds` is GET /api/bots, which gives each kind's difficulty (easy, normal, hard).
 */
export function botWords(spec, kinds = []) {
  if (!spec) return "";
  const [kind, personality] = String(spec).split(":");
  const known = kinds.find((k) => k.kind === kind);
  const difficulty = t(`difficulty.${(known && known.difficulty) || "normal"}`);
  const style = personality ? t(`personality.${personality}`) : null;
  return t(style ? "bot.labelstyle" : "bot.label", {difficulty, style});
}

export function roomCodeFromPath(prefix) {
  const rest = location.pathname.slice(location.pathname.indexOf(prefix) + prefix.length);
  return decodeURIComponent(rest.split("/")[0] || "");
}
