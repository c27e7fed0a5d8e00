// The page's settings in the top bar: language, light or dark theme (the system's until
// chosen), and at the table the rules drawer, sound and notifications.

import {h} from "./dom.js";
import {LANGUAGES, currentLanguage, setLanguage, t} from "./i18n.js";
import {notifyOn, setNotify, setSound, soundOn} from "./alerts.js";

function systemDark() {
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
}

export function currentTheme() {
  let saved = null;
  try {
    saved = localStorage.getItem("intrigue:theme");
  } catch (err) {
    saved = null;
  }
  return saved === "light" || saved === "dark" ? saved : systemDark() ? "dark" : "light";
}

export function applyTheme() {
  document.documentElement.dataset.theme = currentTheme();
}

function toggle(id, on, labels, onChange) {
  const button = h("button", {type: "button", class: "tool", id, "aria-pressed": String(on)}, labels(on));
  button.addEventListener("click", async () => {
    const next = button.getAttribute("aria-pressed") !== "true";
    const really = await onChange(next);
    const now = really === undefined ? next : really;
    button.setAttribute("aria-pressed", String(now));
    button.textContent = labels(now);
  });
  return button;
}

/** Fill the top bar's tools. `table`: also the rules drawer button, sound and notifications. */
export function setupTools(container, {table = false, onRules = null} = {}) {
  applyTheme();
  if (window.matchMedia) {
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", applyTheme);
  }
  const language = h("select", {id: "language", class: "tool", "aria-label": t("tools.language")},
    Object.entries(LANGUAGES).map(([code, name]) => h("option", {value: code, selected: code === currentLanguage()}, name)));
  language.addEventListener("change", () => setLanguage(language.value));
  const theme = toggle("theme", currentTheme() === "dark", (dark) => t(dark ? "tools.dark" : "tools.light"), (dark) => {
    try {
      localStorage.setItem("intrigue:theme", dark ? "dark" : "light");
    } catch (err) {
      /* this page only */
    }
    applyTheme();
  });
  const items = [];
  if (table) {
    items.push(h("button", {type: "button", class: "tool primary-tool", id: "rules-button", onclick: onRules}, t("tools.rules")));
    items.push(toggle("sound", soundOn(), (on) => t(on ? "tools.soundon" : "tools.soundoff"), (on) => setSound(on)));
    if ("Notification" in window) {
      items.push(toggle("notify", notifyOn(), (on) => t(on ? "tools.notifyon" : "tools.notifyoff"), (on) => setNotify(on)));
    }
  }
  items.push(theme, language);
  container.replaceChildren(...items);
}

// The theme is applied as soon as a page's scripts load, before anything is fetched: the page
// never shows the other theme first (and a reload keeps the chosen one from its first frame).
applyTheme();
