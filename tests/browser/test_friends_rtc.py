"""Friends at a hosted table over WebRTC, on loopback only, driven like players.

Chromium runs in a network namespace of its own that holds only ``lo`` (``unshare -n``: the
tests need root, as CI runs them), with a test server inside it: Playwright drives it over
its pipe, so the test process needs no way in. Every ICE candidate is then 127.0.0.1, and
nothing but the two codes passes between the pages. The host's pages are seeded with the
engine's memory snapshot (conftest's ``site_snapshot``): no cold boot.

- The invitation is short (a QR code of a low version) and withdrawn when unanswered; the
  invitation panel and the friend's answer are axe-clean; a damaged invitation is refused.
- Two pages (the host South, a friend North on a phone; West and East computer players)
  connect by the manual exchange and play a whole hand; the friend's page starts no engine;
  every message the friend's page receives names no card but its own (from the host's save:
  the deal) and those played; every card played shows on both tables.
- Quick reactions show at the sender's seat; faster ones than allowed are not shown.
- The friend drops: the seat is held, then a computer player takes it; a new invitation
  for that seat gives it back to the friend.
- The friend's malformed, huge, too frequent, illegal and other-seat messages leave the
  host's match as it was, each refused with its code.
- The host leaves: the friend keeps the last table, read-only, with a notice.
- Three pages (two friends as opponents, North a computer player) play a whole hand.

Figures (connection set-up, invitation length and QR version, click-to-card delay on
every table) are printed and written to tests/browser/screenshots/friends-report.json.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import CHROMIUM_ARGS, ReducedMotionBrowser, find_chromium
from engine_probe import engine_count
from driver import BLANK_PAGE, BOOT_MS, EN, SAVE_KEY, axe_blocking
from harness_server import SNAPSHOT_FILE
from snapshot_seed import SEED_SNAPSHOT_JS
from spades.session import Session

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
#: The test server's port inside the namespace (nothing else listens there).
PORT = 8000
#: Loopback candidates are allowed and shown as addresses, not mDNS names (nothing in the
#: namespace could resolve those); headless Chromium lists a page's interfaces only once it
#: may use media (granted at once here; no device is opened).
ARGS = [*CHROMIUM_ARGS, "--allow-loopback-in-peer-connection",
        "--disable-features=WebRtcHideLocalIpsWithMdns", "--use-fake-ui-for-media-stream"]
SEED = 7
#: A dropped friend's seat is held 1.5 s here (45 s for players).
QUERY = f"index.html?seed={SEED}&speed=0&partner=easy&opponents=easy&hold=1500"
#: The longest wait for one step of a table (a move, a connection) on a loaded machine.
STEP_MS = 60_000
CARD = re.compile(r'"((?:[2-9TJQKA][CDHS])|BJ|LJ)"')
REPORT: dict = {"setup": [], "delays": {}}

#: Runs inside the namespace: brings up lo, starts the test server there (it says "ready"
#: once it listens), then Chromium; stops the server when Chromium ends. Playwright's pipe
#: (fds 3 and 4) goes to Chromium only.
INNER_SH = """#!/bin/sh
ip link set lo up || exit 1
PYTHONPATH={root} {python} {server} {dist} {port} {snapshot} 3>&- 4>&- >{fifo} &
srv=$!
read ready <{fifo}
if [ "$ready" != ready ]; then kill $srv; exit 1; fi
{chromium} "$@"
rc=$?
kill $srv
exit $rc
"""

#: Recorded in every page: the messages a data channel delivers, the channels, the
#: connections, and when each card of the hand on show first shows on the table (epoch ms).
RECORD_JS = """
(() => {
  window.__received = [];
  window.__channels = [];
  window.__connections = [];
  const Connection = window.RTCPeerConnection;
  window.RTCPeerConnection = function (...args) {
    const pc = new Connection(...args);
    window.__connections.push(pc);
    return pc;
  };
  window.RTCPeerConnection.prototype = Connection.prototype;
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
    const hand = (document.querySelector("[data-role='hand-number']") || {}).textContent || '';
    if (hand !== window.__hand) {  // a new hand: its cards are shown anew
      window.__hand = hand;
      window.__shown = {};
    }
    for (const el of document.querySelectorAll('#trick [data-card]')) {
      const c = el.dataset.card;
      if (!(c in window.__shown)) window.__shown[c] = now();
    }
  }).observe(document, {subtree: true, childList: true});
})();
"""

#: What the person at a page can do now: Continue, a bid (3 when offered) or a playable card.
NEXT_JS = """() => {
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

#: On the host's page (its drawn seats are the real ones): the person to act (one of
#: ``people``), or the score sheet. Read once the last move shows there: every drawing of
#: a move draws whose turn it is with it.
TURN_JS = """(people) => {
  if (document.querySelector('#sheet-dialog').open) return {sheet: true};
  const to = document.querySelector('.seat.to-act');
  return to && people.includes(Number(to.dataset.seat)) ? {sheet: false, seat: Number(to.dataset.seat)} : null;
}"""

#: Sends raw text over the page's open data channel, as a hostile page would.
SEND_JS = """(msgs) => {
  const ch = window.__channels.find((c) => c.readyState === 'open');
  for (const m of msgs) ch.send(m);
}"""
#: The replies and notices a page received (parsed), from index ``start`` on.
FROM_HOST_JS = """(start) => window.__received.slice(start).map((m) => JSON.parse(m))
  .filter((m) => m.t === 'reply' || m.t === 'notice')"""
#: Whether a page has received replies to every request number in ``ids`` since ``start``.
ANSWERED_JS = """([start, ids]) => {
  const got = new Set(window.__received.slice(start).map((m) => JSON.parse(m)).filter((m) => m.t === 'reply').map((m) => m.id));
  return ids.every((id) => got.has(id));
}"""
#: Every card of the standard deck.
DECK = {rank + suit for rank in "23456789TJQKA" for suit in "CDHS"}


# ---------------------------------------------------------------- the namespace, the pages


@pytest.fixture(scope="module")
def rtc(playwright_instance, dist_dir, site_url, site_snapshot, tmp_path_factory, screenshot_dir):
    """A Chromium inside a loopback-only network namespace, with its test server there."""
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("needs root, unshare and ip for a loopback-only network namespace")
    folder = tmp_path_factory.mktemp("netns")
    snapshot = folder / "snapshot.bin"
    with urllib.request.urlopen(site_url + SNAPSHOT_FILE) as resp:
        snapshot.write_bytes(resp.read())
    fifo = folder / "ready"
    os.mkfifo(fifo)
    inner = folder / "inner.sh"
    q = shlex.quote
    inner.write_text(INNER_SH.format(
        root=q(str(ROOT)), python=q(sys.executable), server=q(str(HERE / "harness_server.py")),
        dist=q(str(dist_dir)), port=PORT, snapshot=q(str(snapshot)), fifo=q(str(fifo)),
        # the full browser: in the headless shell the friend's page never connects here
        chromium=q(find_chromium(playwright_instance, headless_shell=False))))
    outer = folder / "chromium"
    outer.write_text(f"#!/bin/sh\nexec unshare -n {q(str(inner))} \"$@\"\n")
    for script in (inner, outer):
        script.chmod(0o755)
    browser = ReducedMotionBrowser(playwright_instance.chromium.launch(executable_path=str(outer), args=ARGS))
    yield SimpleNamespace(browser=browser, base=f"http://127.0.0.1:{PORT}/", outside=site_url)
    browser.close()
    (screenshot_dir / "friends-report.json").write_text(json.dumps(REPORT, indent=1) + "\n")


#: A friend's phone.
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: Every session description a page's connections hold (its own and the other side's, as
#: rebuilt from the code).
DESCRIPTIONS_JS = """() => window.__connections.flatMap((pc) => [pc.localDescription, pc.remoteDescription])
  .filter(Boolean).map((d) => d.sdp)"""


def new_page(rtc, phone: bool = False):
    size = PHONE if phone else {"viewport": {"width": 1280, "height": 800}}
    context = rtc.browser.new_context(**size, service_workers="block")
    context.add_init_script(RECORD_JS)
    page = context.new_page()
    page.set_default_timeout(STEP_MS)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    return page


def open_host(rtc, site_snapshot, who: str, extra: str = ""):
    """A host's page (``?host=who``) with its invitations made: its engine restores the snapshot."""
    page = new_page(rtc)
    page.goto(rtc.base + BLANK_PAGE)
    page.evaluate(SEED_SNAPSHOT_JS, [site_snapshot, rtc.base + SNAPSHOT_FILE])
    started = time.perf_counter()
    page.goto(f"{rtc.base}{QUERY}&host={who}{extra}")
    page.wait_for_selector("#friends-dialog[open] .invite-seat[data-state='invited']", timeout=BOOT_MS)
    REPORT.setdefault("host_ready_ms", []).append(round((time.perf_counter() - started) * 1000))
    return page


def box(seat: int) -> str:
    return f"#friends-dialog .invite-seat[data-seat='{seat}']"


def show_invites(host) -> None:
    """Open the host's invitation panel from the menu, as a player would."""
    if host.is_visible("#friends-dialog"):
        return
    if not host.is_visible(".tools [data-action='invite']"):
        host.click(".tools [data-role='menu-toggle']")
    host.click(".tools [data-action='invite']")
    host.wait_for_selector("#friends-dialog[open]")


def close_invites(host) -> None:
    if host.is_visible("#friends-dialog"):
        host.click("#friends-dialog [data-action='close-friends']")
        host.wait_for_selector("#friends-dialog", state="hidden")


def invitation(host, seat: int) -> dict:
    """The invitation for ``seat`` as the panel shows it: code, link, QR version."""
    host.wait_for_function("(sel) => document.querySelector(sel).value.length > 0",
                           arg=f"{box(seat)} [data-role='invite-code']")
    code = host.input_value(f"{box(seat)} [data-role='invite-code']")
    return {"code": code, "link": host.get_attribute(f"{box(seat)} [data-role='invite-link']", "href"),
            "qr_version": int(host.get_attribute(f"{box(seat)} svg.qr", "data-version"))}


def join(rtc, host, seat: int, phone: bool = False):
    """A friend opens the invitation for ``seat``; the host pastes the answer and connects."""
    show_invites(host)
    link = invitation(host, seat)["link"]
    started = time.perf_counter()
    guest = new_page(rtc, phone)
    guest.goto(link.replace("#join=", "?speed=0#join="))  # the friend's own setting: Instant
    try:
        guest.wait_for_function("() => document.querySelector(\"[data-role='answer-code']\").value.length > 0")
    except Exception as exc:  # noqa: BLE001 - Playwright's timeout: say what the friend's page shows
        raise AssertionError(f"no answer: {guest.inner_text('#answer-dialog')!r} {guest.errors}") from exc
    answer = guest.input_value("[data-role='answer-code']")
    host.fill(f"{box(seat)} [data-role='answer-input']", answer)
    clicked = time.perf_counter()
    host.click(f"{box(seat)} [data-action='connect']")
    guest.wait_for_selector("body[data-role='guest']")
    done = time.perf_counter()
    host.wait_for_selector(f"{box(seat)}[data-state='connected']")
    REPORT["setup"].append({"seat": seat, "link_to_seated_ms": round((done - started) * 1000),
                            "connect_to_seated_ms": round((done - clicked) * 1000), "answer_chars": len(answer)})
    guest.wait_for_selector("#hand button[data-card]")
    # the host's engine decides everything: a friend's page starts no engine of its own
    assert engine_count(guest) == {"shared": 0, "dedicated": 0}
    return guest


def host_save(host) -> dict:
    return json.loads(host.evaluate(f"() => localStorage.getItem('{SAVE_KEY}')"))


# ---------------------------------------------------------------- playing


def act(page, action: dict) -> None:
    """Bid or play as a keyboard player does: the control focused, then Enter (a pointer's
    click waits for the fanned hand to hold still first)."""
    if action["kind"] == "bid":
        page.focus(f"#bid-panel button[data-bid='{action['bid']}']:enabled")
    else:
        page.focus(f"#hand button[data-card='{action['card']}']:enabled")
    page.keyboard.press("Enter")


#: What a table shows, for a failure's message.
TABLE_JS = """() => ({phase: document.body.dataset.phase, message: document.querySelector("[data-role='message']").textContent,
  toAct: (document.querySelector('.seat.to-act') || {dataset: {}}).dataset.seat, open: [...document.querySelectorAll('dialog[open]')].map((d) => d.id),
  hand: [...document.querySelectorAll('#hand button[data-card]')].map((b) => b.dataset.card + (b.disabled ? '' : '*')).join(' ')})"""


def tables(people: dict) -> dict:
    return {seat: {**page.evaluate(TABLE_JS), "errors": page.errors} for seat, page in people.items()}


def take_turns(host, people: dict, until=None, delays: list | None = None) -> dict:
    """Each person acts at their turn (as the host's table shows it) until the host's score
    sheet opens, or ``until(turn)`` holds for the turn about to be taken (returned). A
    friend's card is timed from its click to the card on every table (``delays``, ms)."""
    for _ in range(120):
        try:
            turn = host.wait_for_function(TURN_JS, arg=list(people), timeout=STEP_MS).json_value()
        except Exception as exc:  # noqa: BLE001 - Playwright's timeout: say what the tables show
            raise AssertionError(f"no turn came: {tables(people)}") from exc
        if turn["sheet"] or (until and until(turn)):
            return turn
        seat = turn["seat"]
        page = people[seat]
        action = page.wait_for_function(NEXT_JS, timeout=STEP_MS).json_value()
        assert action["kind"] in ("bid", "play"), action
        at = page.evaluate("() => performance.timeOrigin + performance.now()")
        act(page, action)
        if action["kind"] == "bid":
            host.wait_for_function("([seat, none]) => document.querySelector(`.seat[data-seat='${seat}'] .seat-bid`)"
                                   ".textContent !== none", arg=[seat, EN["seat.noBid"]], timeout=STEP_MS)
        else:
            for other in people.values():
                other.wait_for_function("(c) => c in window.__shown", arg=action["card"], timeout=STEP_MS)
            if seat != 0 and delays is not None:
                delays.append(max(p.evaluate("(c) => window.__shown[c]", action["card"]) for p in people.values()) - at)
    raise AssertionError("the hand did not end")


def continue_all(pages) -> None:
    for page in pages:
        page.wait_for_selector("#sheet-dialog[open]")
        page.click("#sheet-dialog [data-action='continue']")
        page.wait_for_selector("#sheet-dialog", state="hidden")


def deals(host) -> dict[int, list[list[str]]]:
    """Every hand's deal so far, by hand number, from the host's save (replayed)."""
    session = Session.from_json(json.dumps(host_save(host)))
    m = session.match
    out = {n + 1: [list(h) for h in rec.deal] for n, rec in enumerate(m.hands_played)}
    if m.phase != "over":
        out[m.hand_number] = [m.dealt(seat) for seat in range(4)]
    return out


def leaks(page, seat: int, dealt: dict) -> list[dict]:
    """Cards named in a message the friend at ``seat`` received that were neither dealt to it
    in that hand nor played by then."""
    hand_no, played, found = None, set(), []
    for text in page.evaluate("() => window.__received"):
        msg = json.loads(text)
        state = msg.get("state") if isinstance(msg.get("state"), dict) else None
        if state:
            if state["hand_number"] != hand_no:
                hand_no, played = state["hand_number"], set()
            for trick in (state.get("trick"), state.get("last_trick")):
                played |= {c for _, c in (trick or {}).get("plays", [])}
        event = msg.get("event") or {}
        if event.get("card"):
            played.add(event["card"])
        played |= {c for _, c in (event.get("trick") or {}).get("plays", [])}
        own = set(dealt[hand_no][seat]) if hand_no in dealt else set()
        extra = set(CARD.findall(text)) - own - played
        if extra:
            found.append({"t": msg.get("t"), "hand": hand_no, "cards": sorted(extra)})
    return found


def report_delays(name: str, delays: list[float]) -> None:
    ordered = sorted(delays)
    REPORT["delays"][name] = {"n": len(ordered), "median_ms": round(statistics.median(ordered)),
                              "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))])}
    print(f"\n{name}: click to card on every table {REPORT['delays'][name]}")


# ---------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def pair(rtc, site_snapshot):
    """The host (South) and a friend as partner (North, on a phone), connected; the tests
    below take it on in file order (a hand, reactions, a drop and the friend's return, hostile
    messages, the host leaving)."""
    host = open_host(rtc, site_snapshot, "partner")
    offer = invitation(host, 2)
    REPORT["invitation"] = {"code_chars": len(offer["code"]), "link_chars": len(offer["link"]),
                            "qr_version": offer["qr_version"]}
    # the invitation panel, as the host sees it (checked in the test below)
    invite_axe = axe_blocking(host)
    host.set_viewport_size(PHONE["viewport"])
    host.screenshot(path=str(HERE / "screenshots" / "friends-invite-phone.png"), full_page=True)
    host.set_viewport_size({"width": 1280, "height": 800})
    guest = join(rtc, host, 2, phone=True)
    close_invites(host)
    return SimpleNamespace(host=host, guest=guest, offer=offer, invite_axe=invite_axe)


def test_the_pages_reach_nothing_but_loopback(rtc, pair):
    assert pair.host.evaluate("(url) => fetch(url).then(() => 'reached', () => 'unreachable')", rtc.outside) == "unreachable"
    pair.host.errors.clear()  # (the refused request is logged as an error)
    for page in (pair.host, pair.guest):  # the descriptions made, and those rebuilt from the codes
        descriptions = page.evaluate(DESCRIPTIONS_JS)
        assert len(descriptions) == 2
        candidates = [line for sdp in descriptions for line in sdp.split("\r\n") if line.startswith("a=candidate")]
        assert candidates and all(" 127.0.0.1 " in c or " ::1 " in c for c in candidates), candidates


def test_the_invitation_is_short_and_its_screens_are_accessible(rtc, site_snapshot, pair, screenshot_dir):
    assert len(pair.offer["code"]) < 200 and pair.offer["qr_version"] <= 10, pair.offer
    assert pair.invite_axe == []
    # an invitation withdrawn after a second here (15 minutes for players)
    host = open_host(rtc, site_snapshot, "partner", extra="&expire=1000")
    offer = invitation(host, 2)
    # the friend's page: the answer, as text to copy and as a QR code
    guest = new_page(rtc, phone=True)
    guest.goto(offer["link"])
    guest.wait_for_selector("[data-role='answer-qr'] svg.qr")
    assert len(guest.input_value("[data-role='answer-code']")) < 200
    assert axe_blocking(guest) == []
    guest.screenshot(path=str(screenshot_dir / "friends-answer-phone.png"), full_page=True)
    # unanswered, the invitation is withdrawn: no answer can be pasted; a new one can be made
    host.wait_for_selector(f"{box(2)}[data-state='expired']")
    assert host.is_disabled(f"{box(2)} [data-action='connect']")
    assert EN["friends.code.expired"] in host.inner_text(f"{box(2)} [data-role='connect-error']")
    host.click(f"{box(2)} [data-role='new-invite']")  # (it too is withdrawn a second later)
    host.wait_for_function("([sel, old]) => document.querySelector(sel).value !== old",
                           arg=[f"{box(2)} [data-role='invite-code']", offer["code"]])
    # a damaged invitation is refused on the friend's page, in words
    bad = new_page(rtc)
    bad.goto(offer["link"].split("#join=")[0] + "#join=" + offer["code"][:40])
    bad.wait_for_function("(t) => document.querySelector(\"[data-role='answer-status']\").textContent === t",
                          arg=EN["friends.code.damaged"])
    assert host.errors == [] and guest.errors == [] and bad.errors == []
    for page in (host, guest, bad):
        page.context.close()


def test_two_people_play_a_whole_hand_and_the_friend_sees_only_its_own_cards(pair):
    host, guest = pair.host, pair.guest
    delays: list[float] = []
    # the friend's table on their phone: their seat at the bottom, named by compass
    assert guest.inner_text(".seat[data-seat='0'] .seat-name") == EN["seat.youAt"].format(seat=EN["viewer.seat.2"])
    assert axe_blocking(guest) == []
    take_turns(host, {0: host, 2: guest}, until=lambda turn: turn["seat"] == 2)
    guest.wait_for_function(NEXT_JS)
    guest.screenshot(path=str(HERE / "screenshots" / "friends-guest-phone.png"))
    assert take_turns(host, {0: host, 2: guest}, delays=delays)["sheet"]
    dealt = deals(host)
    assert leaks(guest, 2, dealt) == []
    every_card = {c for hand in dealt[1] for c in hand}
    for page in (host, guest):  # every card played showed on both tables
        page.wait_for_function("(n) => Object.keys(window.__shown).length >= n", arg=len(every_card))
        assert set(page.evaluate("() => Object.keys(window.__shown)")) == every_card
    assert len(delays) == 13
    report_delays("two pages", delays)
    guest.screenshot(path=str(HERE / "screenshots" / "friends-guest-sheet-phone.png"))
    continue_all([host, guest])
    assert host.errors == [] and guest.errors == []


def bubble(page, seat: int) -> str:
    """What drawn seat ``seat``'s bubble says now ("" when none shows)."""
    return page.evaluate("(seat) => { const b = document.querySelector(`.seat[data-seat='${seat}'] .bubble`);"
                         " return b && !b.hidden ? b.textContent : ''; }", seat)


def react(page, phrase: str) -> None:
    """Say ``phrase``: the "Say…" button on the player's seat, then the phrase."""
    page.click("[data-role='reactions-toggle']")
    page.click(f"[data-role='reactions'] button[data-phrase='{phrase}']")


# Records every change of the "Sorry!" reaction's disabled state (window.__rests), so the rest
# after a reaction is seen however long the test takes to look (the rest is 2.5 s).
WATCH_REST_JS = """() => {
  const b = document.querySelector("[data-role='reactions'] button[data-phrase='sorry']");
  window.__rests = [];
  new MutationObserver(() => window.__rests.push(b.disabled)).observe(b, { attributes: true, attributeFilter: ["disabled"] });
}"""


def test_quick_reactions_show_at_the_senders_seat_and_rest_between(pair):
    host, guest = pair.host, pair.guest
    guest.evaluate(WATCH_REST_JS)
    # the friend (North: drawn at the top of the host's table) says "Nice!"
    react(guest, "nice")
    host.wait_for_function("(t) => document.querySelector(\".seat[data-seat='2'] .bubble\")?.textContent.includes(t)",
                           arg=EN["react.nice"])
    assert EN["react.nice"] in bubble(guest, 0)  # and sees it at their own seat
    host.screenshot(path=str(HERE / "screenshots" / "friends-host-reaction.png"))
    assert guest.evaluate("() => window.__rests[0]") is True  # the phrases rest a while after one was said
    # the host (South: at the top of the friend's table) answers
    react(host, "thanks")
    guest.wait_for_function("(t) => document.querySelector(\".seat[data-seat='2'] .bubble\")?.textContent.includes(t)",
                            arg=EN["react.thanks"])
    # by keyboard: the list opens from its button, Escape closes it and gives focus back
    guest.focus("[data-role='reactions-toggle']")
    guest.keyboard.press("Enter")
    guest.wait_for_selector("#reaction-list button[data-phrase='nice']")
    assert axe_blocking(guest) == []
    guest.screenshot(path=str(HERE / "screenshots" / "friends-reactions-phone.png"))
    guest.keyboard.press("Escape")
    guest.wait_for_selector("#reaction-list", state="hidden")
    assert guest.evaluate("() => document.activeElement.dataset.role") == "reactions-toggle"
    # a page that sends reactions faster than allowed: the later one is not shown
    guest.wait_for_selector("[data-role='reactions'] button[data-phrase='sorry']:enabled", state="attached")  # rested
    assert guest.evaluate("() => window.__rests") == [True, False]
    start = guest.evaluate("() => window.__received.length")
    guest.evaluate(SEND_JS, [json.dumps({"t": "react", "id": 3001, "phrase": "sorry"}),
                             json.dumps({"t": "react", "id": 3002, "phrase": "well_played"})])
    guest.wait_for_function(ANSWERED_JS, arg=[start, [3001, 3002]])
    host.wait_for_function("(t) => document.querySelector(\".seat[data-seat='2'] .bubble\")?.textContent.includes(t)",
                           arg=EN["react.sorry"])
    assert EN["react.well_played"] not in bubble(host, 2)
    assert host.errors == [] and guest.errors == []


def test_a_dropped_friend_is_replaced_then_gets_the_seat_back(rtc, pair):
    host = pair.host
    pair.guest.context.close()
    show_invites(host)
    host.wait_for_selector(f"{box(2)}[data-state='computer']")  # held for 1.5 s, then a computer player
    assert host_save(host)["humans"] == [0]
    old = host.input_value(f"{box(2)} [data-role='invite-code']")
    host.click(f"{box(2)} [data-role='new-invite']")
    host.wait_for_function("([sel, old]) => document.querySelector(sel).value && document.querySelector(sel).value !== old",
                           arg=[f"{box(2)} [data-role='invite-code']", old])
    back = join(rtc, host, 2)
    assert host_save(host)["humans"] == [0, 2]
    close_invites(host)
    pair.guest = back
    # the friend plays on from where the table is
    take_turns(host, {0: host, 2: back}, until=lambda turn: turn["seat"] == 2)
    assert back.wait_for_function(NEXT_JS).json_value()["kind"] in ("bid", "play")


def test_a_friends_hostile_messages_change_nothing(pair):
    # the friend who came back: a fresh connection, whose burst (8) covers the 8 requests
    # below that reach the rate check before the flood, however fast they come
    host, guest = pair.host, pair.guest
    people = {0: host, 2: guest}
    start = guest.evaluate("() => window.__received.length")
    # at the friend's turn: an illegal move for its own seat (a card it does not hold, or a
    # blind nil the rules do not allow now)
    take_turns(host, people, until=lambda turn: turn["seat"] == 2)
    dealt = deals(host)
    before = host_save(host)
    phase = host.get_attribute("body", "data-phase")
    illegal = ({"t": "play", "id": 1001, "card": sorted(DECK - set(dealt[max(dealt)][2]))[0]} if phase == "play"
               else {"t": "bid", "id": 1001, "n": "blind"})
    guest.evaluate(SEND_JS, [json.dumps(illegal)])
    guest.wait_for_function(ANSWERED_JS, arg=[start, [1001]])
    assert host_save(host) == before
    # at the host's turn (the table waits for it): out of turn, another seat's move, not a
    # guest's message, malformed, a bad value, a card that does not exist, far too long
    take_turns(host, people, until=lambda turn: turn["seat"] == 0)
    before = host_save(host)
    sent = [
        json.dumps({"t": "bid", "id": 1002, "n": 3}),                      # not this seat's turn
        json.dumps({"t": "play", "id": 1003, "card": "AS", "seat": 0}),    # another seat's move
        json.dumps({"t": "new_match", "id": 1004}),                        # the host's own message
        "not json",
        json.dumps({"t": "bid", "id": 1005, "n": 99}),
        json.dumps({"t": "play", "id": 1006, "card": "ZZ"}),
        "x" * 5000,                                                        # far too long
    ]
    guest.evaluate(SEND_JS, sent)
    guest.wait_for_function(ANSWERED_JS, arg=[start, [1002, 1003, 1004, 1005, 1006]])
    guest.wait_for_function("(start) => window.__received.slice(start).some((m) => m.includes('too_large'))", arg=start)
    codes = {m["id"]: m["error"]["code"] if not m["ok"] else "accepted"
             for m in guest.evaluate(FROM_HOST_JS, start) if m["t"] == "reply"}
    assert codes[1001] in ("not_in_hand", "bid_not_allowed")
    assert codes[1002] == "not_your_turn"
    assert codes[1003] == codes[1004] == codes[1005] == codes[1006] == "bad_message"
    # a flood, far faster than the rate allows: dropped before the engine, each request answered
    flood = [json.dumps({"t": "sync", "id": 2000 + i}) for i in range(60)]
    guest.evaluate(SEND_JS, flood)
    guest.wait_for_function(ANSWERED_JS, arg=[start, [2000 + i for i in range(60)]])
    replies = [m for m in guest.evaluate(FROM_HOST_JS, start) if m["t"] == "reply" and (m["id"] or 0) >= 2000]
    refused = [m for m in replies if not m["ok"]]
    assert refused and {m["error"]["code"] for m in refused} == {"too_fast"}
    assert len(replies) - len(refused) <= 8  # at most the burst got through (to the engine's sync)
    notices = {m["code"] for m in guest.evaluate(FROM_HOST_JS, start) if m["t"] == "notice"}
    assert {"too_fast", "too_large"} <= notices
    assert host_save(host) == before
    assert host.errors == []


def test_the_host_leaving_leaves_the_last_table_read_only(pair):
    host, guest = pair.host, pair.guest
    cards = guest.evaluate("() => document.querySelectorAll('#hand button[data-card]').length")
    host.context.close()
    guest.wait_for_selector("body[data-host-left='1']")
    assert guest.evaluate("() => document.querySelectorAll('#hand button[data-card]').length") == cards > 0
    assert guest.evaluate("() => document.querySelectorAll('#hand button[data-card]:enabled, #bid-panel button:enabled').length") == 0
    assert EN["friends.hostLeft"] in guest.inner_text("body")
    guest.screenshot(path=str(HERE / "screenshots" / "friends-host-left.png"))
    assert guest.errors == []
    guest.context.close()


def test_three_pages_play_a_whole_hand(rtc, site_snapshot):
    host = open_host(rtc, site_snapshot, "opponents")
    west = join(rtc, host, 1)
    east = join(rtc, host, 3)
    close_invites(host)
    delays: list[float] = []
    assert take_turns(host, {0: host, 1: west, 3: east}, delays=delays)["sheet"]
    dealt = deals(host)
    assert leaks(west, 1, dealt) == [] and leaks(east, 3, dealt) == []
    assert len(delays) == 26
    report_delays("three pages", delays)
    for page in (host, west, east):
        assert page.errors == [], page.errors
        page.context.close()
