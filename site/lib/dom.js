// dom.js: the few DOM helpers every page uses, in one place with one meaning each:
// `$` finds by CSS selector, `byId` by id, `el` / `svgEl` / `textEl` make elements.

const SVG_NS = "http://www.w3.org/2000/svg";

/** The first element matching the CSS selector `sel` inside `root` (the document by default), or null. */
export const $ = (sel, root = document) => root.querySelector(sel);

/** The element whose id is `id`, or null. */
export const byId = (id) => document.getElementById(id);

/** Set `attrs` on `node`, then its content: an array of children, or a text (undefined: none). */
function fill(node, attrs, content) {
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (Array.isArray(content)) node.append(...content);
  else if (content !== undefined) node.textContent = content;
  return node;
}

/** An HTML element `tag` with the attributes `attrs` and `content` (a text or an array of children). */
export const el = (tag, attrs = {}, content) => fill(document.createElement(tag), attrs, content);

/** An SVG element `name` with the attributes `attrs` and `content` (a text or an array of children). */
export const svgEl = (name, attrs = {}, content) => fill(document.createElementNS(SVG_NS, name), attrs, content);

/** A `tag` element holding `text`, with class `cls` (either may be left out). */
export function textEl(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}
