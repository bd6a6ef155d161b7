"""Friends at a hosted table over WebRTC, on loopback only.

The scenarios run in tests/browser/friends_driver.py, inside a network namespace that holds
only ``lo`` (``unshare -n``; the test needs root, as CI runs), with its own server and
Chromium: two pages (the host and a friend as partner, West and East computer players) and
three pages (two friends as opponents) connect by the manual exchange and play a whole hand;
every message a friend's page receives names no card but its own and those played; a
friend's malformed, huge, too frequent, illegal and other-seat messages leave the host's
match as it was; a friend drops, a computer player takes the seat, and a new invitation gives
it back; the host leaves and the friend keeps the last table, read-only, with a notice.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
#: The whole driver, with every boot and connection, on a loaded two-core machine.
DRIVER_TIMEOUT_S = 400


@pytest.fixture(scope="module")
def seen(dist_dir, tmp_path_factory):
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("needs root, unshare and ip for a loopback-only network namespace")
    out = tmp_path_factory.mktemp("friends") / "friends.json"
    command = f"ip link set lo up && exec {sys.executable} {HERE / 'friends_driver.py'} {dist_dir} {out}"
    proc = subprocess.run(["unshare", "-n", "sh", "-c", command], capture_output=True, text=True,
                          timeout=DRIVER_TIMEOUT_S)
    result = json.loads(out.read_text()) if out.is_file() else {}
    assert proc.returncode == 0, (proc.stderr[-3000:], result)
    return result


def test_two_pages_connect_and_play_a_whole_hand(seen):
    assert seen["two"]["delays"], "the friend played no card"
    assert seen["setup"][0]["from_connect_ms"] > 0


def test_a_friend_is_sent_no_card_but_its_own_and_those_played(seen):
    assert seen["two"]["leaks"] == []
    assert seen["three"]["leaks"] == []


def test_a_friends_hostile_messages_change_nothing_on_the_host(seen):
    hostile = seen["hostile"]
    assert hostile["unchanged"] is True
    assert "bad_message" in hostile["codes"] and "not_your_turn" in hostile["codes"]
    assert "too_fast" in hostile["notices"] and "too_large" in hostile["notices"]


def test_a_dropped_friend_is_replaced_then_rejoins(seen):
    assert seen["after_drop_humans"] == [0]
    assert seen["after_rejoin_humans"] == [0, 2]


def test_the_host_leaving_leaves_the_last_table_read_only(seen):
    left = seen["host_left"]
    assert left["cards_shown"] == left["cards_before"] > 0
    assert left["enabled"] == 0
    assert "host" in left["notice"].lower()


def test_three_pages_play_a_whole_hand(seen):
    assert seen["three"]["delays"], "the friends played no card"
    assert seen["errors"] == []
