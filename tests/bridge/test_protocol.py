"""The protocol's one table (spades/bridge/protocol.py): the bridge's handlers follow it, and the
page reads the same table, written by the build as ``engine/messages.js``.

The written module is read as JSON between its fixed prefix and suffix (no JavaScript engine
needed); the site's own scripts are checked to name no message by a raw string.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import build_site
from spades import bridge
from spades.bridge import protocol

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
PREFIX = "export const PROTOCOL = Object.freeze("


def written_table(text: str) -> dict:
    body = text[text.index(PREFIX) + len(PREFIX):]
    assert body.rstrip().endswith(");"), body[-40:]
    return json.loads(body.rstrip()[:-2])


def test_the_handlers_are_exactly_the_tables_messages():
    assert list(bridge.HANDLERS) == [m.name for m in protocol.MESSAGES]
    assert {m.name for m in protocol.MESSAGES if m.changes} == bridge.CHANGES


def test_every_deadline_and_kind_is_known():
    for m in protocol.MESSAGES:
        assert m.deadline in protocol.DEADLINE_MS, m
        assert m.kind in (protocol.PLAY, protocol.ANALYSIS), m


def test_only_analysis_with_a_budget_is_sliced():
    """The engine worker spends a sliced message's budget in slices, asking again while the result
    is not finished: only an analysis message whose arguments hold the budget may be sliced."""
    sliced = [m for m in protocol.MESSAGES if m.sliced]
    assert [m.name for m in sliced] == ["analyse"]
    for m in sliced:
        assert m.kind == protocol.ANALYSIS and f"{protocol.BUDGET_ARG}?" in m.args and "finished" in m.result
    table = protocol.as_json()
    assert table["budget"] == {"arg": "budget", "min": 0, "max": 30}
    assert table["play_kind"] == protocol.PLAY


def test_the_page_reads_the_same_table(tmp_path):
    (tmp_path / "engine").mkdir()
    build_site.write_protocol(tmp_path)
    table = written_table((tmp_path / build_site.PROTOCOL_MODULE).read_text(encoding="utf-8"))
    assert table == protocol.as_json()
    assert set(table["messages"]) == set(bridge.HANDLERS)
    assert {n for n, m in table["messages"].items() if m["changes"]} == set(bridge.CHANGES)
    assert table["deadline_ms"]["analysis"] == 45_000


def test_the_page_reads_the_engines_1_0_0_description(tmp_path):
    """rules-words.js says what a house-rules combination changes against this description."""
    from spades import Rules

    (tmp_path / "engine").mkdir()
    build_site.write_protocol(tmp_path)
    text = (tmp_path / build_site.DEFAULT_RULES_MODULE).read_text(encoding="utf-8")
    prefix = "export const DEFAULT_RULES_DESCRIPTION = Object.freeze("
    body = text[text.index(prefix) + len(prefix):].rstrip()
    assert json.loads(body[:-2]) == Rules().to_dict()
    assert json.loads(body[:-2])["target"] == 500


def test_a_changed_table_is_seen(tmp_path, monkeypatch):
    """The comparison above can fail: a message dropped from the written table is noticed."""
    (tmp_path / "engine").mkdir()
    monkeypatch.setattr(protocol, "MESSAGES", protocol.MESSAGES[:-1])
    build_site.write_protocol(tmp_path)
    table = written_table((tmp_path / build_site.PROTOCOL_MODULE).read_text(encoding="utf-8"))
    assert set(table["messages"]) != set(bridge.HANDLERS)


@pytest.mark.parametrize("path", sorted(p for p in SITE.rglob("*.js") if "node_modules" not in p.parts),
                         ids=lambda p: str(p.relative_to(SITE)))
def test_no_script_names_a_message_by_a_raw_string(path):
    names = "|".join(m.name for m in protocol.MESSAGES)
    calls = re.compile(rf"""(?:call|send|request)\(\s*["']({names})["']|fn:\s*["']({names})["']""")
    assert not calls.findall(path.read_text(encoding="utf-8")), "use MSG.<NAME> from engine/protocol.js"


def test_every_engine_message_is_documented_in_the_bridge_docstring():
    doc = bridge.__doc__ or ""
    undocumented = sorted(name for name in bridge.HANDLERS if f"``{name}" not in doc)
    assert not undocumented, undocumented
