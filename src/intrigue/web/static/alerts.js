// Alerts when it becomes your turn and when 5 seconds are left: a sound (made with
// WebAudio, no files; mutable), a vibration on phones, and an opt-in browser notification
// while the page is in the background. Preferences live in localStorage.

const PREFS = {sound: "intrigue:sound", notify: "intrigue:notify"};

function read(key, fallback) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : value === "on";
  } catch (err) {
    return fallback;
  }
}

function write(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch (err) {
    /* the choice lasts this page */
  }
}

let audio = null;

/** Browsers allow sound and vibration only once the page was clicked or typed in. */
function touched() {
  return navigator.userActivation ? navigator.userActivation.hasBeenActive : Boolean(audio);
}

function context() {
  if (!audio) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    audio = new Context();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// Browsers start audio only after a gesture: the first click or key wakes it.
for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, () => { if (soundOn()) context(); }, {once: true, capture: true});
}

/** Play notes: [[frequency Hz, start s, length s], ...]. The page's data-sounds counts what it played. */
function play(notes, kind) {
  if (!soundOn() || !touched()) return;
  const ctx = context();
  if (!ctx) return;
  document.documentElement.dataset.sounds = String(Number(document.documentElement.dataset.sounds || 0) + 1);
  document.documentElement.dataset.lastSound = kind;
  const now = ctx.currentTime;
  for (const [frequency, start, length] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.18, now + start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.05);
  }
}

export function soundOn() {
  return read(PREFS.sound, true);
}

export function setSound(on) {
  write(PREFS.sound, on);
  if (on) context();
}

export function notifyOn() {
  return read(PREFS.notify, false) && "Notification" in window && Notification.permission === "granted";
}

/** Ask the browser's permission (a click must call this); true if notifications will show. */
export async function setNotify(on) {
  if (!on) {
    write(PREFS.notify, false);
    return false;
  }
  if (!("Notification" in window)) return false;
  const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  write(PREFS.notify, answer === "granted");
  return answer === "granted";
}

/** It is your turn: chime, buzz, and a notification if the page is hidden. */
export function yourTurn(title, body) {
  play([[660, 0, 0.16], [880, 0.14, 0.26]], "turn");
  if (navigator.vibrate && touched()) navigator.vibrate([120, 60, 120]);
  if (notifyOn() && document.hidden) {
    try {
      new Notification(title, {body, tag: "intrigue-turn"});
    } catch (err) {
      /* some browsers only notify from a service worker */
    }
  }
}

/** Five seconds left to decide. */
export function timeRunningOut() {
  play([[520, 0, 0.09], [520, 0.18, 0.09]], "low");
  if (navigator.vibrate && touched()) navigator.vibrate(80);
}
