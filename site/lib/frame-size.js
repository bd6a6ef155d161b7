// frame-size.js: a page shown in an author's frame tells its parent how tall its content is,
// so embed.js (the one-line embed) can size the frame to it. The message is
// {type: FRAME_SIZE_MESSAGE, height} with a whole number of CSS pixels; it carries nothing
// but that height, so it is sent to any parent origin ("*"); the parent checks who sent it.

/** The message's type, as embed.js expects it. */
export const FRAME_SIZE_MESSAGE = "spades:size";

/** The content's height of a page that flows (the viewer): its root element's own height. */
export const flowHeight = () => Math.ceil(document.documentElement.getBoundingClientRect().height);

/** The height a page that fills its viewport (the game) needs: what it would scroll to. */
export const fillHeight = () => document.documentElement.scrollHeight;

/**
 * When this page is in a frame, post `measure()` to the parent now and whenever the page's
 * layout changes size (only when the height changed). Does nothing at the top level.
 */
export function reportFrameSize(measure) {
  if (window.parent === window || typeof ResizeObserver === "undefined") return;
  let sent = -1;
  const send = () => {
    const height = measure();
    if (height === sent || !Number.isFinite(height)) return;
    sent = height;
    window.parent.postMessage({ type: FRAME_SIZE_MESSAGE, height }, "*");
  };
  const watcher = new ResizeObserver(send);
  watcher.observe(document.documentElement);
  watcher.observe(document.body);
  for (const child of document.body.children) watcher.observe(child);
  send();
}
