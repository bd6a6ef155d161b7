"""Friends at a hosted table over WebRTC, driven like players: run inside a network namespace
that holds only ``lo`` (test_friends_rtc.py starts it with ``unshare -n``), so every ICE check
stays on 127.0.0.1. Serves dist/ itself, starts its own Chromium with
``--allow-loopback-in-peer-connection``, runs the scenarios and writes what it saw as JSON.

    python friends_driver.py DIST OUT.json

Every message a guest's page receives is recorded (an init script wraps the data channel's
``message`` event); the host's save is read from its localStorage.
"""
from __future__ import annotations

import json
import re
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from conftest import CHROMIUM_ARGS, find_chromium  # noqa: E402
from harness_server import serving  # noqa: E402

#: Loopback candidates are allowed, and shown as addresses rather than mDNS names (nothing in
#: the namespace could resolve those); headless Chromium enumerates interfaces for a page only
#: once it may use media (granted at once here, no device is opened).
ARGS = [*CHROMIUM_ARGS, "--allow-loopback-in-peer-connection", "--disable-features=WebRtcHideLocalIpsWithMdns",
        "--use-fake-ui-for-media-stream"]
QUERY = "?seed=7&speed=0&partner=easy&opponents=easy&hold=1500"
SAVE_KEY = "spades.save.v1"
TIMEOUT = 60_000
CARD = re.compile(r'"((?:[2-9TJQKA][CDHS])|BJ|LJ)"')

#: Recorded in every page: messages a data channel delivers, the channels, and when a card
#: first shows in the trick (epoch ms).
RECORD_JS = """
(() => {
  window.__received = [];
  window.__channels = [];
  window.__shown = {};
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    if (this instanceof RTCDataChannel && !window.__channels.includes(this)) window.__channels.push(this);
    if (this instanceof RTCDataChannel && type === 'message') {
      const inner = fn;
      fn = function (ev) { window.__received.push(ev.data); return inner.call(this, ev); };
    }
    return add.call(this, type, fn, opts);
  };
  const now = () => performance.timeOrigin + performance.now();
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('#trick [data-card]')) {
      const c = el.dataset.card;
      if (!(c in window.__shown)) window.__shown[c] = now();
    }
  }).observe(document, {subtree: true, childList: true});
})();
"""

NEXT_JS = """() => {
  if (document.body.dataset.phase === 'over') return {kind: 'over'};
  const dlg = document.querySelector('#sheet-dialog');
  if (dlg && dlg.open) return {kind: 'continue'};
  if (document.querySelector('dialog[open]')) return null;
  const b = document.querySelector("#bid-panel:not([hidden]) button[data-bid='3']:enabled")
    || document.querySelector("#bid-panel:not([hidden]) button[data-bid]:enabled");
  if (b) return {kind: 'bid', bid: b.dataset.bid};
  const c = document.querySelector('#hand button[data-card]:enabled');
  if (c) return {kind: 'play', card: c.dataset.card};
  return null;
}"""


def open_page(browser, url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script(RECORD_JS)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    page.goto(url)
    return page


def host_page(browser, base, who):
    page = open_page(browser, f"{base}index.html{QUERY}&host={who}")
    page.wait_for_selector("#friends-dialog[open] .invite-seat[data-state='invited']")
    return page


def invitation(host, seat):
    box = f"#friends-dialog .invite-seat[data-seat='{seat}']"
    host.wait_for_selector(f"{box}[data-state='invited'], {box}[data-state='computer'], {box}[data-state='held']")
    code = host.input_value(f"{box} [data-role='invite-code']")
    link = host.get_attribute(f"{box} [data-role='invite-link']", "href")
    version = int(host.get_attribute(f"{box} svg.qr", "data-version"))
    return code, link, version


def join(browser, host, seat):
    """A friend opens the host's invitation for ``seat`` and the host pastes the answer."""
    if not host.is_visible("#friends-dialog"):
        host.click(".tools [data-role='menu-toggle']") if not host.is_visible("[data-action='invite']") else None
        host.click("[data-action='invite']")
    _, link, _ = invitation(host, seat)
    started = time.perf_counter()
    guest = open_page(browser, link)
    guest.wait_for_function("document.querySelector('[data-role=answer-code]').value.length > 0")
    answer = guest.input_value("[data-role='answer-code']")
    box = f"#friends-dialog .invite-seat[data-seat='{seat}']"
    host.fill(f"{box} [data-role='answer-input']", answer)
    clicked = time.perf_counter()
    host.click(f"{box} [data-action='connect']")
    guest.wait_for_selector("body[data-role='guest']")
    done = time.perf_counter()
    host.wait_for_selector(f"{box}[data-state='connected']")
    return guest, {"from_link_ms": (done - started) * 1000, "from_connect_ms": (done - clicked) * 1000,
                   "answer_chars": len(answer)}


def close_invites(host):
    if host.is_visible("#friends-dialog"):
        host.click("[data-action='close-friends']")


def play_hand(pages, guests):
    """Every page acts when it can, until the host's first hand is scored. Returns the guest
    plays' delays: click -> card shown on every page (ms)."""
    host = pages[0]
    delays = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        acted = False
        for page in pages:
            nxt = page.evaluate(NEXT_JS)
            if not nxt:
                continue
            if nxt["kind"] == "continue" and page is host:
                return delays
            if nxt["kind"] == "continue":
                page.click("#sheet-dialog [data-action='continue']")
            elif nxt["kind"] == "bid":
                page.click(f"#bid-panel button[data-bid='{nxt['bid']}']")
            elif nxt["kind"] == "play":
                card = nxt["card"]
                at = page.evaluate("performance.timeOrigin + performance.now()")
                try:  # the table may have moved on between the look and the click: look again
                    page.click(f"#hand button[data-card='{card}']:enabled", timeout=3000)
                except Exception:  # noqa: BLE001 - Playwright's timeout
                    continue
                if page in guests:
                    for other in pages:
                        other.wait_for_function(f"'{card}' in window.__shown")
                    delays.append(max(p.evaluate(f"window.__shown['{card}']") for p in pages) - at)
            acted = True
        if not acted:
            time.sleep(0.05)
    raise AssertionError("the hand did not end")


def leaks(page, seat):
    """Cards a guest was sent that were neither its own nor played by then (per message)."""
    own: set[str] = set()
    played: set[str] = set()
    found = []
    for text in page.evaluate("window.__received"):
        msg = json.loads(text)
        state = msg.get("state") or (msg.get("result") if isinstance(msg.get("result"), dict) else None)
        if isinstance(state, dict) and "hand" in state:
            if state.get("phase") == "bid" and len(state["hand"]) == 13:
                own, played = set(state["hand"]), set()
            own |= set(state["hand"])
            for trick in (state.get("trick"), state.get("last_trick")):
                played |= {c for _, c in (trick or {}).get("plays", [])}
        event = msg.get("event") or {}
        if event.get("card"):
            played.add(event["card"])
        for trick in [event.get("trick")]:
            played |= {c for _, c in (trick or {}).get("plays", [])}
        named = set(CARD.findall(text))
        extra = named - own - played
        if extra:
            found.append({"t": msg.get("t"), "cards": sorted(extra)})
    return found


def host_save(host):
    return host.evaluate(f"localStorage.getItem('{SAVE_KEY}')")


def hostile(guest, host):
    """A guest's page sends what a player's page never would; the host's match must not change."""
    host.wait_for_selector("#bid-panel button[data-bid]:enabled")  # the host's turn: the table is still
    before = host_save(host)
    sent = [
        "not json", "[]", json.dumps({"t": "play", "id": 1, "card": "AS", "seat": 0}),
        json.dumps({"t": "bid", "id": 2, "n": 99}), json.dumps({"t": "new_match", "id": 3}),
        json.dumps({"t": "play", "id": 4, "card": "ZZ"}), "x" * 5000,
        json.dumps({"t": "bid", "id": 5, "n": 3}),  # not this seat's turn (the host's is next)
    ]
    guest.evaluate("(msgs) => { const ch = window.__channels.find((c) => c.readyState === 'open'); for (const m of msgs) ch.send(m); }", sent)
    # a flood: far more than the burst allows, at once
    guest.evaluate("() => { const ch = window.__channels.find((c) => c.readyState === 'open'); for (let i = 0; i < 60; i++) ch.send(JSON.stringify({t: 'sync', id: 100 + i})); }")
    guest.wait_for_function("window.__received.some((m) => m.includes('too_fast'))")
    guest.wait_for_function("window.__received.filter((m) => m.includes('\"reply\"')).length >= 6")
    time_wait = time.monotonic() + 2
    while time.monotonic() < time_wait:  # the replies still on their way are answered by then
        if guest.evaluate("window.__received.filter((m) => m.includes('\"t\":\"reply\"')).length") >= 14:
            break
        time.sleep(0.1)
    codes = guest.evaluate("window.__received.map((m) => JSON.parse(m)).filter((m) => m.t === 'reply' && !m.ok).map((m) => m.error.code)")
    notices = guest.evaluate("window.__received.map((m) => JSON.parse(m)).filter((m) => m.t === 'notice').map((m) => m.code)")
    return {"unchanged": host_save(host) == before, "codes": codes, "notices": notices}


def main(dist: str, out: str) -> None:
    result: dict = {}
    try:
        run(dist, out, result)
    finally:
        Path(out).write_text(json.dumps(result, indent=1))


def run(dist: str, out: str, result: dict) -> None:
    from playwright.sync_api import sync_playwright

    with serving(Path(dist)) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(pw), args=ARGS)
        # -- two pages: the host and a friend as partner; West and East computer players
        t0 = time.perf_counter()
        host = host_page(browser, base, "partner")
        result["host_ready_ms"] = (time.perf_counter() - t0) * 1000
        code, link, version = invitation(host, 2)
        result["invite"] = {"code_chars": len(code), "link_chars": len(link), "qr_version": version}
        host.screenshot(path=str(Path(out).with_name("friends-invite.png")))
        guest, setup = join(browser, host, 2)
        result["setup"] = [setup]
        close_invites(host)
        guest.wait_for_selector("#hand button[data-card]")
        guest.screenshot(path=str(Path(out).with_name("friends-guest.png")))
        result["two"] = {"delays": play_hand([host, guest], [guest]), "leaks": leaks(guest, 2),
                         "guest_hand_seen": guest.evaluate("window.__received.length")}
        guest.click("#sheet-dialog [data-action='continue']") if guest.is_visible("#sheet-dialog") else None
        host.click("#sheet-dialog [data-action='continue']")
        result["hostile"] = hostile(guest, host)
        # -- drop and rejoin: the friend's page goes away; the seat is held, then a computer plays it
        guest.context.close()
        host.wait_for_selector(".invite-seat[data-seat='2'][data-state='computer']", state="attached")
        result["after_drop_humans"] = json.loads(host_save(host))["humans"]
        host.click(".invite-seat[data-seat='2'] [data-role='new-invite']") if host.is_visible(".invite-seat[data-seat='2'] [data-role='new-invite']") else None
        if not host.is_visible("#friends-dialog"):
            if not host.is_visible("[data-action='invite']"):
                host.click(".tools [data-role='menu-toggle']")
            host.click("[data-action='invite']")
        host.click(".invite-seat[data-seat='2'] [data-role='new-invite']")
        host.wait_for_function("document.querySelector(\".invite-seat[data-seat='2'] [data-role='invite-code']\").value.length > 0")
        back, setup = join(browser, host, 2)
        result["setup"].append(setup)
        result["after_rejoin_humans"] = json.loads(host_save(host))["humans"]
        # -- the host leaves: the friend keeps the last table, read-only, with a notice
        close_invites(host)
        back.wait_for_selector("#hand button[data-card]")
        cards_before = back.evaluate("document.querySelectorAll('#hand button[data-card]').length")
        host.context.close()
        back.wait_for_selector("body[data-host-left='1']")
        result["host_left"] = {
            "cards_shown": back.evaluate("document.querySelectorAll('#hand button[data-card]').length"),
            "cards_before": cards_before,
            "enabled": back.evaluate("document.querySelectorAll('#hand button[data-card]:enabled, #bid-panel button:enabled').length"),
            "notice": back.inner_text("#notices"),
        }
        back.context.close()
        # -- three pages: the host and two friends as opponents; North a computer player
        host = host_page(browser, base, "opponents")
        west, s1 = join(browser, host, 1)
        east, s3 = join(browser, host, 3)
        result["setup"] += [s1, s3]
        close_invites(host)
        result["three"] = {"delays": play_hand([host, west, east], [west, east]),
                           "leaks": leaks(west, 1) + leaks(east, 3)}
        errors = [e for p in (host, west, east) for e in p.errors]
        result["errors"] = errors
        browser.close()
    delays = result["two"]["delays"] + result["three"]["delays"]
    result["delay_ms"] = {"median": statistics.median(delays), "p95": sorted(delays)[int(0.95 * (len(delays) - 1))],
                          "n": len(delays)}


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
