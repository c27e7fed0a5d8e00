// Card faces: a label and a colour. Known labels get their game's colour; any other
// label gets a stable colour from its name, so a new game needs no entry here.

const COLOURS = {
  // Coup
  duke: "#6a3d9a",
  assassin: "#2b2b2b",
  captain: "#1f5c99",
  ambassador: "#2e7d4f",
  contessa: "#b0262f",
  inquisitor: "#8a6d1f",
  // BANG! card colours (blue-bordered equipment vs brown-bordered cards are by name)
  "bang!": "#9c2a1c",
  "missed!": "#3b6e3b",
  beer: "#a36a12",
  // DSFGS roles
  agent: "#1f5c99",
  mole: "#9c2a1c",
};

/** The name part of a label: "BANG! 10D" → "bang!", "Barrel QS" → "barrel". */
export function cardName(label) {
  return String(label)
    .replace(/\s+(10|[2-9AJQK])[SHDC♠♥♦♣]$/i, "")
    .trim()
    .toLowerCase();
}

export function cardColour(label) {
  const name = cardName(label);
  if (COLOURS[name]) return COLOURS[name];
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return `hsl(${hash % 360} 42% 32%)`;
}
