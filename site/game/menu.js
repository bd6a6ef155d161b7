// menu.js: the game menu's fold on a narrow screen. A phone shows Hint, Undo and "More";
// "More" opens the rest of the menu (Last trick, Score sheet, Settings, New match,
// Statistics, Rules) as a list of buttons a thumb can hit, and closes it again on a choice,
// on Escape (focus back on "More") or on a tap elsewhere. A wide screen shows every button
// and never the toggle (style.css). The buttons keep their data-action: app.js runs them.

const $ = (sel, root = document) => root.querySelector(sel);

/** Wire the fold of the menu `nav` (the page's `.tools`). */
export function initMenu(nav = $(".topbar .tools")) {
  const toggle = $("[data-role='menu-toggle']", nav);
  const more = $("#tools-more", nav);
  if (!toggle || !more) return;
  const setOpen = (open) => {
    nav.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
  };
  toggle.addEventListener("click", () => {
    const open = !nav.classList.contains("open");
    setOpen(open);
    if (open) {
      const first = more.querySelector("button:enabled, a[href]");
      if (first) first.focus();
    }
  });
  // a choice closes the fold (the dialog it opens takes the focus)
  more.addEventListener("click", (ev) => {
    if (ev.target.closest("button, a")) setOpen(false);
  });
  nav.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && nav.classList.contains("open")) {
      ev.preventDefault();
      setOpen(false);
      toggle.focus();
    }
  });
  nav.addEventListener("focusout", (ev) => {
    if (nav.classList.contains("open") && ev.relatedTarget && !nav.contains(ev.relatedTarget)) setOpen(false);
  });
  document.addEventListener("pointerdown", (ev) => {
    if (nav.classList.contains("open") && !nav.contains(ev.target)) setOpen(false);
  });
}
