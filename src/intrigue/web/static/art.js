// Card art: a small set of icons drawn for Intrigue (48×48, one colour: currentColor).
// A game's table data maps its card names to these icon names ("art": {"Duke": "crown"}),
// so the client holds no game's names. Shapes are static data built with createElementNS.

const NS = "http://www.w3.org/2000/svg";

const S = {fill: "none", stroke: "currentColor", "stroke-width": "3", "stroke-linecap": "round", "stroke-linejoin": "round"};
const F = {fill: "currentColor"};

/** name → list of [tag, attributes]. */
const ICONS = {
  // -- Coup's court
  crown: [["path", {...F, d: "M8 34 L6 14 L16 22 L24 10 L32 22 L42 14 L40 34 Z"}], ["rect", {...F, x: 8, y: 37, width: 32, height: 5, rx: 1.5}],
    ["circle", {...F, cx: 6, cy: 12, r: 2.5}], ["circle", {...F, cx: 24, cy: 8, r: 2.5}], ["circle", {...F, cx: 42, cy: 12, r: 2.5}]],
  dagger: [["path", {...F, d: "M24 3 L28 10 L28 30 L20 30 L20 10 Z"}], ["rect", {...F, x: 13, y: 30, width: 22, height: 4, rx: 2}],
    ["rect", {...F, x: 21.5, y: 34, width: 5, height: 9, rx: 1.5}], ["circle", {...F, cx: 24, cy: 45, r: 2.5}]],
  anchor: [["circle", {...S, cx: 24, cy: 9, r: 4}], ["path", {...S, d: "M24 13 V42 M15 20 H33 M8 30 C10 38 17 42 24 42 C31 42 38 38 40 30 M8 30 L5 34 M8 30 L12 33 M40 30 L43 34 M40 30 L36 33"}]],
  scroll: [["path", {...S, d: "M14 8 H36 C39 8 40 10 40 13 V38 M14 8 C11 8 9 10 9 13 V15 H14 M14 8 V40 C14 43 12 44 10 44 H32 C35 44 36 42 36 40 V38 H40"}],
    ["path", {...S, d: "M19 18 H33 M19 25 H33 M19 32 H29"}]],
  fan: [["path", {...F, d: "M24 40 L6 18 C12 10 18 8 24 8 C30 8 36 10 42 18 Z"}], ["path", {fill: "none", stroke: "var(--card-ink, #fff)", "stroke-width": "1.6", d: "M24 40 L14 12 M24 40 L24 8 M24 40 L34 12"}],
    ["circle", {...F, cx: 24, cy: 41, r: 3}]],
  eye: [["path", {...S, d: "M4 24 C12 12 36 12 44 24 C36 36 12 36 4 24 Z"}], ["circle", {...F, cx: 24, cy: 24, r: 6}]],
  // -- BANG! roles and people
  star: [["path", {...F, d: "M24 4 L29 17 L43 17 L32 26 L36 40 L24 32 L12 40 L16 26 L5 17 L19 17 Z"}], ["circle", {fill: "var(--card-ink, #fff)", cx: 24, cy: 23, r: 4}]],
  badge: [["path", {...F, d: "M24 4 L40 10 V24 C40 34 32 40 24 44 C16 40 8 34 8 24 V10 Z"}], ["path", {fill: "var(--card-ink, #fff)", d: "M24 14 L27 21 L34 21 L28.5 25.5 L30.5 32 L24 28 L17.5 32 L19.5 25.5 L14 21 L21 21 Z"}]],
  mask: [["path", {...F, d: "M4 18 C14 14 34 14 44 18 C44 26 38 30 32 28 C28 27 26 25 24 25 C22 25 20 27 16 28 C10 30 4 26 4 18 Z"}],
    ["path", {...S, d: "M10 34 C16 40 32 40 38 34"}]],
  loner: [["circle", {...F, cx: 24, cy: 12, r: 7}], ["path", {...F, d: "M10 44 C10 30 16 23 24 23 C32 23 38 30 38 44 Z"}], ["path", {...S, d: "M6 6 L42 42"}]],
  magnifier: [["circle", {...S, cx: 20, cy: 20, r: 12}], ["path", {...S, "stroke-width": "5", d: "M29 29 L42 42"}]],
  mole: [["path", {...F, d: "M6 34 C6 20 16 12 26 12 C36 12 42 20 42 28 C42 34 38 38 32 38 H12 C8 38 6 36 6 34 Z"}], ["circle", {fill: "var(--card-ink, #fff)", cx: 33, cy: 22, r: 2.5}],
    ["path", {...S, d: "M42 28 L46 27 M12 38 L9 44 M30 38 L30 44"}]],
  person: [["circle", {...F, cx: 24, cy: 13, r: 8}], ["path", {...F, d: "M8 44 C8 30 15 24 24 24 C33 24 40 30 40 44 Z"}]],
  // -- BANG! cards
  gun: [["path", {...F, d: "M6 14 H40 V22 H24 L21 26 H17 L16 22 H6 Z"}], ["path", {...F, d: "M12 22 H22 L18 40 H8 Z"}], ["circle", {...F, cx: 43, cy: 18, r: 2}]],
  burst: [["path", {...F, d: "M24 3 L28 16 L41 10 L33 21 L46 26 L32 29 L37 42 L25 33 L16 45 L17 31 L3 30 L15 22 L7 10 L20 15 Z"}]],
  shield: [["circle", {...S, cx: 24, cy: 24, r: 16}], ["circle", {...S, cx: 24, cy: 24, r: 8}], ["path", {...S, "stroke-width": "4", d: "M30 6 L42 2 M34 10 L45 9"}]],
  mug: [["path", {...F, d: "M10 12 H32 V40 C32 42 31 43 29 43 H13 C11 43 10 42 10 40 Z"}], ["path", {...S, d: "M32 18 H38 C41 18 41 34 38 34 H32"}],
    ["path", {...F, d: "M8 12 C8 6 14 5 16 8 C18 4 26 4 28 8 C30 6 34 7 34 12 Z"}]],
  hand: [["path", {...F, d: "M14 44 V22 C14 20 18 20 18 22 V10 C18 8 22 8 22 10 V8 C22 6 26 6 26 8 V10 C26 8 30 8 30 10 V14 C30 12 34 12 34 14 V30 C34 38 30 44 24 44 Z"}]],
  lasso: [["ellipse", {...S, cx: 26, cy: 16, rx: 16, ry: 9}], ["path", {...S, d: "M14 22 C12 30 18 34 14 44"}]],
  wagon: [["rect", {...F, x: 6, y: 10, width: 30, height: 20, rx: 3}], ["path", {...S, d: "M36 22 H44"}], ["circle", {...S, cx: 13, cy: 36, r: 6}], ["circle", {...S, cx: 31, cy: 36, r: 6}]],
  chest: [["rect", {...F, x: 6, y: 18, width: 36, height: 22, rx: 2}], ["path", {...F, d: "M6 18 C6 8 42 8 42 18 Z"}], ["rect", {fill: "var(--card-ink, #fff)", x: 21, y: 20, width: 6, height: 8, rx: 1}]],
  store: [["path", {...F, d: "M4 18 L8 8 H40 L44 18 Z"}], ["rect", {...S, x: 8, y: 20, width: 32, height: 22}], ["rect", {...F, x: 20, y: 28, width: 8, height: 14}]],
  doors: [["path", {...S, d: "M8 8 V42 M40 8 V42"}], ["path", {...F, d: "M10 14 H23 V34 C18 36 14 36 10 34 Z M25 14 H38 V34 C34 36 30 36 25 34 Z"}]],
  duel: [["path", {...S, "stroke-width": "4", d: "M8 8 L36 36 M40 8 L12 36"}], ["path", {...S, d: "M30 38 L38 30 M18 38 L10 30"}]],
  feather: [["path", {...F, d: "M36 4 C20 8 12 20 12 34 L16 30 C18 22 24 14 36 4 Z M36 4 C30 20 24 28 16 34 C26 32 34 22 36 4 Z"}], ["path", {...S, d: "M14 32 L8 44"}]],
  gatling: [["rect", {...F, x: 10, y: 12, width: 32, height: 4, rx: 2}], ["rect", {...F, x: 10, y: 19, width: 32, height: 4, rx: 2}], ["rect", {...F, x: 10, y: 26, width: 32, height: 4, rx: 2}],
    ["rect", {...F, x: 4, y: 10, width: 8, height: 22, rx: 2}], ["path", {...S, d: "M8 32 L4 44 M8 32 L14 44"}]],
  barrel: [["path", {...F, d: "M12 6 H36 C40 16 40 32 36 42 H12 C8 32 8 16 12 6 Z"}], ["path", {fill: "none", stroke: "var(--card-ink, #fff)", "stroke-width": "2.5", d: "M10 16 H38 M10 32 H38"}]],
  scope: [["circle", {...S, cx: 24, cy: 24, r: 16}], ["path", {...S, d: "M24 4 V16 M24 32 V44 M4 24 H16 M32 24 H44"}], ["circle", {...F, cx: 24, cy: 24, r: 3}]],
  horse: [["path", {...F, d: "M14 44 C14 34 16 28 20 24 L12 22 C10 20 12 16 16 16 L24 10 L26 4 L30 9 C38 12 42 20 40 30 C38 38 36 42 36 44 Z"}], ["circle", {fill: "var(--card-ink, #fff)", cx: 26, cy: 14, r: 2}]],
  bars: [["rect", {...S, x: 6, y: 6, width: 36, height: 36, rx: 3}], ["path", {...S, d: "M16 6 V42 M24 6 V42 M32 6 V42 M6 24 H42"}]],
  dynamite: [["rect", {...F, x: 10, y: 16, width: 8, height: 28, rx: 2}], ["rect", {...F, x: 20, y: 16, width: 8, height: 28, rx: 2}], ["rect", {...F, x: 30, y: 16, width: 8, height: 28, rx: 2}],
    ["path", {...S, d: "M24 16 C24 10 30 10 32 6"}], ["path", {...F, d: "M34 2 L36 6 L40 5 L37 8 L39 12 L35 9 L32 11 L33 7 Z"}]],
  rifle: [["path", {...F, d: "M2 18 H34 V22 H2 Z"}], ["path", {...F, d: "M30 16 H38 L46 28 L42 32 L34 24 H30 Z"}], ["path", {...S, d: "M24 22 C24 27 28 27 28 23"}]],
  // -- generic
  coin: [["circle", {...F, cx: 24, cy: 24, r: 18}], ["circle", {fill: "none", stroke: "var(--card-ink, #fff)", "stroke-width": "2.5", cx: 24, cy: 24, r: 12}]],
  heart: [["path", {...F, d: "M24 42 C10 32 4 24 4 16 C4 9 9 5 15 5 C19 5 22 7 24 10 C26 7 29 5 33 5 C39 5 44 9 44 16 C44 24 38 32 24 42 Z"}]],
  clock: [["circle", {...S, cx: 24, cy: 26, r: 17}], ["path", {...S, d: "M24 16 V26 L31 31 M19 4 H29"}]],
};

/** An icon as an SVG element (decorative: hidden from screen readers), or null for an unknown name. */
export function icon(name, {title = null, className = "art"} = {}) {
  const shapes = ICONS[name];
  if (!shapes) return null;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 48 48");
  svg.setAttribute("class", className);
  svg.setAttribute("focusable", "false");
  if (title) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", title);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  for (const [tag, attrs] of shapes) {
    const node = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    svg.appendChild(node);
  }
  return svg;
}

export const ICON_NAMES = Object.keys(ICONS);
