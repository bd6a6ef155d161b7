// faces.js: the court cards' pictures (jack, queen, king), our own SVG drawn in the 60 x 84
// card box. Each face is a framed, double-headed portrait, as on printed decks: the upper half
// holds the figure and a small upright suit sign, the lower half the same turned round, so the
// card reads the same either way up. The robe takes the suit's colour (currentColor: the
// four-colour deck recolours it); skin, gold and outlines are fixed colours, and the three
// ranks differ in shape as well as in detail (crown and beard, tiara and long hair, cap and
// feather), so no face depends on colour to be told apart.

import { svgEl } from "./dom.js";

/** The portrait's frame in the card box. */
const FRAME = { x: 13, y: 8.5, w: 34, h: 67 };
/** The figure is drawn a little larger than its paths, about the middle line, to fill the frame. */
const FIGURE_SCALE = 1.14;
/** The card's middle line: the lower half is the upper turned round it. */
const MID_Y = 42;
const GOLD = "#e2a92b";
const SKIN = "#f6dcc0";
const LINE = "#3b2a1e";
const HAIR = { J: "#8a5a2b", Q: "#d49a2a", K: "#ecebe6" };

const path = (d, fill, extra = {}) => svgEl("path", { d, fill, stroke: LINE, "stroke-width": 0.45, "stroke-linejoin": "round", ...extra });

/** The headdress of each rank, above a head centred at (30, 25). */
const HEADDRESS = {
  K: () => [path("M24.2 20.6 23.6 14.4 26.9 17.3 30 13 33.1 17.3 36.4 14.4 35.8 20.6z", GOLD),
    svgEl("circle", { cx: 30, cy: 16.4, r: 0.9, fill: "currentColor" })],
  Q: () => [path("M24.6 20.4Q30 14.6 35.4 20.4L34.4 21.2Q30 18.4 25.6 21.2z", GOLD),
    svgEl("circle", { cx: 30, cy: 17, r: 1.1, fill: "currentColor", stroke: LINE, "stroke-width": 0.35 })],
  J: () => [path("M24.3 21.4Q24.8 15.6 30.6 15.7Q35.7 16 35.8 21.4z", "currentColor"),
    path("M34.6 17.6Q39.8 13.8 40.6 10.6Q38.2 15.8 35.2 19z", GOLD)],
};

/** Hair behind the face: a queen's long hair, a king's and jack's short. */
function hair(rank) {
  if (rank === "Q") return path("M24.3 23Q23.4 31 21.6 33.6L26.2 31.4 33.8 31.4 38.4 33.6Q36.6 31 35.7 23z", HAIR.Q);
  return path("M24.4 22.6Q24.4 28.4 26 29.6L34 29.6Q35.6 28.4 35.6 22.6z", HAIR[rank]);
}

/** What the figure holds beside its shoulder: a sceptre, a flower, a halberd. */
function held(rank) {
  if (rank === "K") {
    return [svgEl("line", { x1: 40.2, y1: 19, x2: 40.2, y2: 41, stroke: LINE, "stroke-width": 1.1 }),
      path("M38.4 19.6 40.2 16.2 42 19.6 40.2 21z", GOLD)];
  }
  if (rank === "Q") {
    return [svgEl("line", { x1: 19.6, y1: 26, x2: 19.6, y2: 41, stroke: LINE, "stroke-width": 0.7 }),
      svgEl("circle", { cx: 19.6, cy: 25.2, r: 2.4, fill: GOLD, stroke: LINE, "stroke-width": 0.45 }),
      svgEl("circle", { cx: 19.6, cy: 25.2, r: 0.9, fill: "currentColor" })];
  }
  return [svgEl("line", { x1: 41, y1: 14, x2: 41, y2: 41, stroke: LINE, "stroke-width": 0.8 }),
    path("M41 12.6 42.8 16.4 41 18.6 39.2 16.4z", "#c9ced6")];
}

/** The upper half: robe, collar, face, hair, headdress, what is held, and the suit sign. */
function half(rank, pip) {
  const g = svgEl("g", { class: "court-half" });
  const fig = svgEl("g", { transform: `translate(30 ${MID_Y}) scale(${FIGURE_SCALE}) translate(-30 -${MID_Y})` });
  figure(rank, fig);
  g.append(fig);
  g.append(pip(FRAME.x + 1.4, FRAME.y + 1.4, 6.5));
  return g;
}

/** The figure of `rank` (upper half, before scaling) into group `g`. */
function figure(rank, g) {
  g.append(...held(rank));
  // shoulders and robe in the suit's colour, a gold collar and trim
  g.append(path("M17.6 42Q17.4 33.6 23.2 31.4L30 30.4 36.8 31.4Q42.6 33.6 42.4 42z", "currentColor"));
  g.append(path("M17.8 42Q17.8 34.4 22.6 32L25.4 31.2 26.6 42z", "#fff", { opacity: 0.3, stroke: "none" }));
  g.append(path("M33.4 42 34.6 31.2 37.4 32Q42.2 34.4 42.2 42z", "#000", { opacity: 0.18, stroke: "none" }));
  g.append(path("M25 31Q30 37.2 35 31L33.4 30.6Q30 34 26.6 30.6z", GOLD));
  g.append(svgEl("line", { x1: 30, y1: 35, x2: 30, y2: 42, stroke: GOLD, "stroke-width": 1.2 }));
  g.append(hair(rank));
  g.append(svgEl("ellipse", { cx: 30, cy: 25, rx: 4.6, ry: 5.2, fill: SKIN, stroke: LINE, "stroke-width": 0.45 }));
  // eyes and mouth; the king's beard
  g.append(svgEl("circle", { cx: 28.3, cy: 24.4, r: 0.55, fill: LINE }), svgEl("circle", { cx: 31.7, cy: 24.4, r: 0.55, fill: LINE }));
  if (rank === "K") g.append(path("M26 26.6Q30 33.6 34 26.6Q30 28.6 26 26.6z", HAIR.K));
  else g.append(path("M28.6 27.6Q30 28.5 31.4 27.6", "none", { "stroke-width": 0.5 }));
  g.append(...HEADDRESS[rank]());
}

/**
 * A court card's picture for `rank` ("J", "Q", "K"): the frame and both halves, as one group.
 * `pip(x, y, size)` draws the card's suit sign upright at (x, y), `size` wide (cards.js).
 */
export function courtFace(rank, pip) {
  const g = svgEl("g", { class: `court-face court-${rank}` });
  g.append(svgEl("rect", { x: FRAME.x, y: FRAME.y, width: FRAME.w, height: FRAME.h, rx: 3, class: "court" }));
  const clip = svgEl("g");
  clip.append(half(rank, pip));
  const lower = svgEl("g", { transform: `rotate(180 30 ${MID_Y})` });
  lower.append(half(rank, pip));
  clip.append(lower);
  g.append(clip);
  g.append(svgEl("line", { x1: FRAME.x + 2, y1: MID_Y, x2: FRAME.x + FRAME.w - 2, y2: MID_Y, stroke: GOLD, "stroke-width": 0.6 }));
  g.append(svgEl("rect", { x: FRAME.x, y: FRAME.y, width: FRAME.w, height: FRAME.h, rx: 3, class: "court-edge", fill: "none", stroke: "currentColor", "stroke-width": 0.8 }));
  return g;
}
