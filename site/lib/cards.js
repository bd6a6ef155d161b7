// cards.js: card faces and backs as inline SVG (own artwork, no fonts or images
// fetched). Cards are drawn in a 60 x 84 box and scale with CSS; the rank and
// suit index sits in the top-left corner so overlapped cards stay readable.
// Court cards carry a portrait (faces.js).
// These functions only draw: names and rules come from i18n.js and the engine.
import { svgEl } from "./dom.js";

import { courtFace } from "./faces.js";

/** The ranks drawn with a picture (faces.js). */
const COURT = ["J", "Q", "K"];

// Suit shapes in a 100 x 100 box.
const SUIT_PATHS = {
  H: "M50 90C22 68 4 52 4 31 4 15 16 5 29 5c9 0 17 5 21 14 4-9 12-14 21-14 13 0 25 10 25 26 0 21-18 37-46 59z",
  D: "M50 3 88 50 50 97 12 50z",
  S: "M50 4C78 30 96 44 96 62c0 13-10 23-23 23-9 0-16-4-20-11 1 10 5 17 14 22H33c9-5 13-12 14-22-4 7-11 11-20 11C14 85 4 75 4 62 4 44 22 30 50 4z",
  C: "M31 27a19 19 0 1 0 38 0a19 19 0 1 0 -38 0zM8 58a19 19 0 1 0 38 0a19 19 0 1 0 -38 0zM54 58a19 19 0 1 0 38 0a19 19 0 1 0 -38 0zM38 50a12 12 0 1 0 24 0a12 12 0 1 0 -24 0zM45 52Q45 82 30 96H70Q55 82 55 52z",
};

/** The house-rule jokers' card names (spades/cards.py JOKER_NAMES): Big Joker, Little Joker. */
const JOKER_CARDS = ["BJ", "LJ"];
/** The suit letter a joker's element carries (data-suit): neither a colour nor one of the four suits. */
const JOKER_SUIT = "J";

/** Whether `card` is a joker ("BJ", "LJ"). */
export function isJoker(card) {
  return JOKER_CARDS.includes(card);
}

/** Split "QH" into {rank: "Q", suit: "H"}; a joker is {rank: "BJ" | "LJ", suit: "J"}. */
export function parseCard(card) {
  if (isJoker(card)) return { rank: card, suit: JOKER_SUIT };
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

// A joker's emblem: a five-pointed star in a 100 x 100 box.
const STAR = "M50 4 61 38H97L68 59 79 94 50 73 21 94 32 59 3 38H39z";

/** A joker's face: its corner label ("BJ", "LJ" in the page's language) and a star; the Big Joker red. */
function jokerFace(card, label) {
  const svg = svgEl("svg", {
    viewBox: "0 0 60 84", class: `card-svg joker ${card === "BJ" ? "joker-big" : "joker-little"}`,
    "aria-hidden": "true", focusable: "false", preserveAspectRatio: "xMidYMid meet",
  });
  svg.appendChild(svgEl("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, class: "face" }));
  const size = label.length > 1 ? 11 : 15;
  svg.appendChild(text(label, 10, 15.5, size));
  const br = svgEl("g", { transform: "rotate(180 30 42)" });
  br.appendChild(text(label, 10, 15.5, size));
  svg.appendChild(br);
  svg.appendChild(svgEl("path", { d: STAR, transform: "translate(12 24) scale(0.36)", class: "pip" }));
  return svg;
}

function suitShape(suit, x, y, size, flip = false) {
  const s = size / 100;
  const t = flip
    ? `translate(${x + size} ${y + size}) rotate(180) scale(${s})`
    : `translate(${x} ${y}) scale(${s})`;
  return svgEl("path", { d: SUIT_PATHS[suit], transform: t, class: "pip" });
}

// Rank indexes ("K", "10", "D"...) are drawn by reference (<use>) to glyphs kept in one
// hidden sprite, so a card's DOM holds no text of its own: its accessible name is exactly
// its aria-label ("king of spades"), with no stray "K" beside it.
const GLYPH_SIZE = 10;
const SPRITE_ID = "card-glyphs";

function glyphId(str) {
  return `card-glyph-${[...str].map((c) => c.codePointAt(0).toString(16)).join("-")}`;
}

/** The hidden sprite's <defs>, where shared drawings (rank glyphs, the back) are kept. */
function spriteDefs() {
  let sprite = document.getElementById(SPRITE_ID);
  if (!sprite) {
    sprite = svgEl("svg", {
      id: SPRITE_ID, "aria-hidden": "true", focusable: "false", width: 0, height: 0,
      style: "position:absolute;width:0;height:0;overflow:hidden",
    }, [svgEl("defs")]);
    document.body.appendChild(sprite);
  }
  return sprite.firstChild;
}

function glyph(str) {
  const id = glyphId(str);
  const defs = spriteDefs();
  if (!document.getElementById(id)) {
    const node = svgEl("text", {
      id, x: 0, y: 0, "font-size": GLYPH_SIZE, "text-anchor": "middle", fill: "currentColor",
      "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif",
      "font-weight": "700",
    });
    if (str.length > 1) node.setAttribute("letter-spacing", String(-0.8 * GLYPH_SIZE / 12));
    node.textContent = str;
    defs.appendChild(node);
  }
  return id;
}

function text(str, x, y, size, anchor = "middle", cls = "idx") {
  const k = size / GLYPH_SIZE;
  return svgEl("use", { href: `#${glyph(str)}`, transform: `translate(${x} ${y}) scale(${k})`, class: cls });
}

// Pip layouts (centre x, centre y in the 60 x 84 card; flip for the lower half).
const COLS = { L: 21.5, C: 30, R: 38.5 };
const PIPS = {
  2: [["C", 18], ["C", 66, 1]],
  3: [["C", 18], ["C", 42], ["C", 66, 1]],
  4: [["L", 18], ["R", 18], ["L", 66, 1], ["R", 66, 1]],
  5: [["L", 18], ["R", 18], ["C", 42], ["L", 66, 1], ["R", 66, 1]],
  6: [["L", 18], ["R", 18], ["L", 42], ["R", 42], ["L", 66, 1], ["R", 66, 1]],
  7: [["L", 18], ["R", 18], ["C", 30], ["L", 42], ["R", 42], ["L", 66, 1], ["R", 66, 1]],
  8: [["L", 18], ["R", 18], ["C", 30], ["L", 42], ["R", 42], ["C", 54, 1], ["L", 66, 1], ["R", 66, 1]],
  9: [["L", 18], ["R", 18], ["L", 34], ["R", 34], ["C", 42], ["L", 50, 1], ["R", 50, 1], ["L", 66, 1], ["R", 66, 1]],
  10: [["L", 18], ["R", 18], ["C", 26], ["L", 34], ["R", 34], ["L", 50, 1], ["R", 50, 1], ["C", 58, 1], ["L", 66, 1], ["R", 66, 1]],
};

/**
 * An SVG card face. `label` is the short rank text ("10", "Q"...) from i18n.
 * The SVG is decorative (aria-hidden): the button around it carries the name.
 */
function cardFace(card, label) {
  if (isJoker(card)) return jokerFace(card, label);
  const { rank, suit } = parseCard(card);
  const svg = svgEl("svg", {
    viewBox: "0 0 60 84", class: `card-svg suit-${suit}`, "aria-hidden": "true",
    focusable: "false", preserveAspectRatio: "xMidYMid meet",
  });
  svg.appendChild(svgEl("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, class: "face" }));
  // corner index, top-left (what stays visible when cards overlap) and bottom-right
  const small = label.length > 1 ? 12 : 15;
  const lx = label.length > 1 ? 8.5 : 9;
  svg.appendChild(text(label, lx, 15.5, small));
  svg.appendChild(suitShape(suit, 3, 18.5, 12));
  const br = svgEl("g", { transform: "rotate(180 30 42)" });
  br.appendChild(text(label, lx, 15.5, small));
  br.appendChild(suitShape(suit, 3, 18.5, 12));
  svg.appendChild(br);

  const n = rank === "T" ? 10 : Number(rank);
  if (rank === "A") {
    svg.appendChild(suitShape(suit, 16, 28, 28));
  } else if (COURT.includes(rank)) {
    // court card: a double-headed portrait (faces.js), its suit signs upright in the upper half
    svg.appendChild(courtFace(rank, (x, y, size) => suitShape(suit, x, y, size)));
  } else if (PIPS[n]) {
    for (const [col, cy, flip] of PIPS[n]) {
      svg.appendChild(suitShape(suit, COLS[col] - 5.5, cy - 5.5, 11, Boolean(flip)));
    }
  }
  return svg;
}

const BACK_ID = "card-back";

/** The back's drawing, made once in the hidden sprite (a table shows up to 52 backs at once,
 * and each is then one <use> of it: a deal or a play redraws a few nodes, not thousands). */
function backSymbol() {
  if (document.getElementById(BACK_ID)) return;
  const symbol = svgEl("symbol", { id: BACK_ID, viewBox: "0 0 60 84" });
  symbol.appendChild(svgEl("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, fill: "#fff", stroke: "#9aa3a0", "stroke-width": 0.8 }));
  symbol.appendChild(svgEl("rect", { x: 4, y: 4, width: 52, height: 76, rx: 3, fill: "#1f3c88" }));
  let d = "";
  for (let y = 8; y < 80; y += 8) {
    for (let x = 8 + ((y / 8) % 2) * 4; x < 54; x += 8) d += `M${x} ${y - 3}l3 3-3 3-3-3z`;
  }
  symbol.appendChild(svgEl("path", { d, fill: "rgba(255, 255, 255, 0.2)" }));
  const pip = suitShape("S", 22, 34, 16);
  pip.setAttribute("fill", "rgba(255, 255, 255, 0.7)");
  symbol.appendChild(pip);
  spriteDefs().appendChild(symbol);
}

/** A card back (decorative). */
export function cardBack() {
  backSymbol();
  return svgEl("svg", {
    viewBox: "0 0 60 84", class: "card-svg back", "aria-hidden": "true", focusable: "false",
  }, [svgEl("use", { href: `#${BACK_ID}` })]);
}

/** A card's element (`tag`, class "card", data-suit) holding its face with corner `label`. */
export function cardElement(card, label, tag = "div") {
  const node = document.createElement(tag);
  node.className = "card";
  node.dataset.suit = parseCard(card).suit;
  node.appendChild(cardFace(card, label));
  return node;
}
