// embed.js: the one-line embed for tutorial authors. On the author's page:
//
//   <script src="SITE/embed.js" async></script>
//   <div data-spades-game data-seed="42" data-partner="hard"></div>
//   <div data-spades-viewer data-hand="Dealer: W&#10;S: …" data-quiz="36,40,47"></div>
//
// Each marked element gets an iframe of the site (embed.html for a game, viewer.html for a
// hand) as wide as the element, whose height follows the frame's content: the frame posts
// {type: "spades:size", height} (lib/frame-size.js) and a message is taken only from that
// iframe's own window, from the site's origin, in exactly that shape. The data attributes
// are the pages' URL parameters (docs/embedding.md), each checked here; an unknown
// attribute or a malformed value is left out with a console warning. A plain script (not a
// module), since it runs on the author's page, and standalone: it imports nothing.
(() => {
  "use strict";

  const script = document.currentScript;
  if (!script || !script.src) return;
  /** The site's address: the folder embed.js is served from. */
  const SITE = new URL(".", script.src);
  const SIZE_MESSAGE = "spades:size";
  /** The tallest a frame may be made (a bound, whatever a frame says). */
  const MAX_HEIGHT = 4000;
  const MIN_HEIGHT = 120;
  /** The height a frame starts with, before its page has told its own. */
  const START_HEIGHT = { game: 560, viewer: 480 };
  /** A game frame's starting height as a share of its width (bounded), the table's own shape. */
  const GAME_SHAPE = 0.75;
  const GAME_HEIGHT = [420, 760];
  const DONE = "spadesEmbedded";           // data-spades-embedded: already made
  const MARK = { game: "spadesGame", viewer: "spadesViewer" };

  const yes = (v) => v === "" || v === "1" || v === "true";
  const oneOf = (...names) => (v) => names.includes(v);
  const matches = (re) => (v) => re.test(v);
  const LEVEL = oneOf("easy", "normal", "hard");
  const LANG = oneOf("en", "de", "es", "hu", "pt", "ro", "ru");
  /** A flag: present (or "1", "true") turns it on, "0"/"false" leaves it off. */
  const FLAG = { check: (v) => yes(v) || v === "0" || v === "false", value: (v) => (yes(v) ? "1" : null) };
  const as = (check) => ({ check, value: (v) => v });

  /** Each kind's attributes (dataset names) → the URL parameter, its check, and its value. */
  const PARAMS = {
    game: {
      seed: ["seed", as(matches(/^[A-Za-z0-9_-]{1,40}$/))],
      partner: ["partner", as(LEVEL)],
      opponents: ["opponents", as(LEVEL)],
      rules: ["rules", as(matches(/^[A-Za-z0-9.,=_-]{1,200}$/))],
      lang: ["lang", as(LANG)],
      speed: ["speed", as(oneOf("instant", "slow", "normal", "fast", "0", "1"))],
      compact: ["compact", FLAG],
      sound: ["sound", FLAG],
      id: ["id", as(matches(/^[A-Za-z0-9_.-]{1,64}$/))],
    },
    viewer: {
      hand: ["hand", as((v) => v.trim().length > 0 && v.length <= 20000)],
      src: ["src", as((v) => { try { return new URL(v, SITE).origin === SITE.origin; } catch { return false; } })],
      analyse: ["analyse", FLAG],
      quiz: ["quiz", as(matches(/^\d{1,3}(,\d{1,3})*$/))],
      lang: ["lang", as(LANG)],
    },
  };
  /** Attributes that shape the frame itself rather than the page's address. */
  const FRAME_ATTRS = {
    title: (v) => v.trim().length > 0 && v.length <= 200,
    height: (v) => /^\d{2,4}$/.test(v) && Number(v) >= MIN_HEIGHT && Number(v) <= MAX_HEIGHT,
    step: (v) => /^\d{1,3}$/.test(v),
  };
  const DEFAULT_TITLE = { game: "Spades", viewer: "Spades hand viewer" };

  const warn = (el, text) => console.warn(`Spades embed: ${text}`, el);
  /** A dataset name as the attribute's own (`spadesGame` → `data-spades-game`). */
  const attrName = (key) => `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

  /** The frame's address and its own settings from element `el` of `kind`. */
  function read(el, kind) {
    const query = new URLSearchParams();
    const frame = {};
    for (const [key, raw] of Object.entries(el.dataset)) {
      if (key === MARK[kind] || key === DONE) continue;
      const param = Object.hasOwn(PARAMS[kind], key) ? PARAMS[kind][key] : null;
      const own = Object.hasOwn(FRAME_ATTRS, key) ? FRAME_ATTRS[key] : null;
      if (!param && !own) {
        warn(el, `unknown attribute ${attrName(key)} ignored`);
        continue;
      }
      const ok = param ? param[1].check(raw) : own(raw);
      if (!ok) {
        warn(el, `${attrName(key)}="${raw.slice(0, 40)}" is not a valid value; ignored`);
        continue;
      }
      if (own) frame[key] = raw;
      else {
        const value = param[1].value(raw);
        if (value !== null) query.set(param[0], value);
      }
    }
    const page = kind === "game" ? "embed.html" : "viewer.html";
    const hash = kind === "viewer" && frame.step ? `#step=${frame.step}` : "";
    return { url: new URL(`${page}?${query}${hash}`, SITE).href, frame };
  }

  /** The frames made so far, by their window: where a size message may come from. */
  const frames = new Map();

  function make(el, kind) {
    el.dataset[DONE] = "1";
    const { url, frame } = read(el, kind);
    const iframe = document.createElement("iframe");
    iframe.src = url;
    iframe.title = frame.title || DEFAULT_TITLE[kind];
    iframe.setAttribute("allow", "clipboard-write");
    iframe.loading = "lazy";
    const width = el.getBoundingClientRect().width;
    const start = frame.height ? Number(frame.height)
      : kind === "game" ? Math.round(Math.min(GAME_HEIGHT[1], Math.max(GAME_HEIGHT[0], width * GAME_SHAPE)))
        : START_HEIGHT[kind];
    iframe.style.cssText = `display:block;width:100%;border:0;height:${start}px`;
    el.replaceChildren(iframe);
    // a game fills its frame, so it only ever asks for more than it starts with; a viewer flows
    frames.set(iframe, { floor: kind === "game" ? start : MIN_HEIGHT });
  }

  /** A size message, taken only from one of our frames' own window, from the site, in its exact shape. */
  function onMessage(event) {
    if (event.origin !== SITE.origin) return;
    const data = event.data;
    if (!data || typeof data !== "object" || Object.getPrototypeOf(data) !== Object.prototype) return;
    const keys = Object.keys(data);
    if (keys.length !== 2 || data.type !== SIZE_MESSAGE || !Number.isInteger(data.height)) return;
    for (const [iframe, { floor }] of frames) {
      if (iframe.contentWindow !== event.source) continue;
      const height = Math.min(MAX_HEIGHT, Math.max(floor, data.height));
      if (Math.abs(iframe.getBoundingClientRect().height - height) >= 1) iframe.style.height = `${height}px`;
      return;
    }
  }

  function scan() {
    for (const kind of Object.keys(MARK)) {
      for (const el of document.querySelectorAll(`[${attrName(MARK[kind])}]:not([${attrName(DONE)}])`)) make(el, kind);
    }
  }

  window.addEventListener("message", onMessage);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
})();
