// qr.js: a code drawn as a QR code (SVG), for a phone's camera. The encoding is uqr's (the npm
// package pinned in site/package-lock.json, copied into dist/vendor/ by the build).
import { encode } from "../../vendor/uqr.mjs";

const SVG = "http://www.w3.org/2000/svg";
/** The quiet zone around the code, in modules (the standard asks for four). */
const BORDER = 4;

/** `text` as a QR code: an <svg role="img"> named `label`; its version in `data-version`. */
export function qrCode(text, label) {
  const { data, size, version } = encode(text, { ecc: "L", border: BORDER });
  let path = "";
  data.forEach((row, y) => row.forEach((on, x) => {
    if (on) path += `M${x} ${y}h1v1h-1z`;
  }));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.classList.add("qr");
  svg.dataset.version = String(version);
  const bg = document.createElementNS(SVG, "rect");
  bg.setAttribute("width", String(size));
  bg.setAttribute("height", String(size));
  bg.setAttribute("fill", "#fff");
  const fg = document.createElementNS(SVG, "path");
  fg.setAttribute("d", path);
  fg.setAttribute("fill", "#000");
  svg.append(bg, fg);
  return svg;
}
