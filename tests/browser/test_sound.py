"""The table's sounds (game/sound.js): a card laid down and a trick swept away are heard, the
player's setting silences them at once, and a framed table stays silent unless its author asks
for sound (``sound=1``). Web Audio is replaced by a recorder (FAKE_AUDIO_JS): what is checked is
which sounds the page asks for, and that no audio context is ever made where none may play."""
from __future__ import annotations

import pytest
from driver import BOOT_MS, QUERY, TEST_FILES, act, assert_clean, next_action, play_until, tool

pytestmark = pytest.mark.browser

SOUND_FRAMES = TEST_FILES + "sound-frames.html"
SETTINGS_KEY = "spades.settings.v1"
#: sound.js's filter sweeps start here: a card's slap, a trick's brush (Hz).
CARD_HZ, TRICK_HZ = 2600, 1800

#: A Web Audio stand-in that records each sound started (window.__sounds: "card" | "trick")
#: and each audio context made (window.__contexts).
FAKE_AUDIO_JS = """(() => {
  window.__sounds = [];
  window.__contexts = 0;
  class Param { setValueAtTime(v) { if (this.first === undefined) this.first = v; } exponentialRampToValueAtTime() {} }
  class Node {
    constructor() { this.frequency = new Param(); this.Q = new Param(); this.gain = new Param(); }
    connect(next) { this.next = next; return next; }
  }
  class Source extends Node {
    start() { const hz = this.next.frequency.first; window.__sounds.push(hz === %(card)d ? 'card' : hz === %(trick)d ? 'trick' : String(hz)); }
    stop() {}
  }
  class FakeContext {
    constructor() { window.__contexts += 1; this.state = 'running'; this.currentTime = 0; this.sampleRate = 8000; this.destination = {}; }
    createBuffer(c, n) { const data = new Float32Array(n); return { getChannelData: () => data }; }
    createBufferSource() { return new Source(); }
    createBiquadFilter() { return new Node(); }
    createGain() { return new Node(); }
    resume() { return Promise.resolve(); }
  }
  window.AudioContext = FakeContext;
  window.webkitAudioContext = undefined;
})();""" % {"card": CARD_HZ, "trick": TRICK_HZ}

SOUNDS_JS = "() => window.__sounds.slice()"
TRICK_HEARD = "() => window.__sounds.includes('trick')"


def test_cards_and_tricks_are_heard_and_the_setting_silences_them(page, site_url):
    # a player who asks for reduced motion: nothing travels, yet every card and trick is heard
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(script=FAKE_AUDIO_JS)
    page.goto(site_url + QUERY.format(seed=5).replace("speed=0", "speed=fast"))
    page.wait_for_selector("body[data-phase='bid']", timeout=BOOT_MS)
    assert page.evaluate("() => window.__contexts") == 0      # nothing before the player's first touch
    play_until(page, lambda p, a: p.evaluate(TRICK_HEARD))
    heard = page.evaluate(SOUNDS_JS)
    first_trick = heard[: heard.index("trick") + 1]
    assert first_trick == ["card"] * 4 + ["trick"], heard      # four cards laid, then the sweep
    assert page.evaluate("() => window.__contexts") == 1
    # Settings: sound off, kept; the next cards are silent
    tool(page, "settings")
    page.wait_for_selector("#settings-dialog[open]")
    assert page.is_checked("#sound-on")
    page.uncheck("#sound-on")
    page.keyboard.press("Escape")
    assert page.evaluate(f"() => JSON.parse(localStorage.getItem('{SETTINGS_KEY}')).sound") is False
    before = len(page.evaluate(SOUNDS_JS))
    played = page.locator(".trick-slot .card").count()
    action = play_until(page, lambda p, a: a["kind"] == "play")
    act(page, action)
    page.wait_for_function("(n) => document.querySelectorAll('.trick-slot .card').length !== n", arg=played)
    next_action(page)                                         # the computer players have answered
    assert len(page.evaluate(SOUNDS_JS)) == before
    assert_clean(page)


def test_a_framed_table_is_silent_unless_its_author_asks(page, site_url):
    page.add_init_script(script=FAKE_AUDIO_JS)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + SOUND_FRAMES)
    frames = {}
    for name in ("quiet", "heard"):
        frame = page.frame(name=name)
        frame.wait_for_selector("body[data-phase='bid']", timeout=BOOT_MS)
        frames[name] = frame
    for frame in frames.values():                             # each player bids and plays on
        play_until(frame, lambda f, a: f.locator(".trick-slot .card").count() >= 2 and a["kind"] == "play")
        act(frame, next_action(frame))
    frames["heard"].wait_for_function("() => window.__sounds.filter((s) => s === 'card').length >= 3")
    assert frames["quiet"].evaluate("() => [window.__contexts, window.__sounds.length]") == [0, 0]
    assert_clean(page)
