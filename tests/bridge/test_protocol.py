"""The page's message table (site/engine/protocol.js) and the engine's (spades.bridge.HANDLERS)
name the same messages, and agree on which ones change the session.

protocol.js is read as text (no JavaScript engine needed): its MESSAGES table has one
entry per line, ``name: { args: "...", result: "...", changes: true|false },``.
"""
from __future__ import annotations

import re
from pathlib import Path

from spades import bridge

PROTOCOL = Path(__file__).resolve().parents[2] / "site" / "engine" / "protocol.js"
ENTRY = re.compile(r"^\s+(\w+): \{ args: \"[^\"]*\", result: \"[^\"]*\", changes: (true|false) \},$", re.M)


def page_messages() -> dict[str, bool]:
    text = PROTOCOL.read_text(encoding="utf-8")
    table = text[text.index("export const MESSAGES"):]
    table = table[:table.index("});")]
    found = {name: changes == "true" for name, changes in ENTRY.findall(table)}
    # every line of the table is an entry the pattern read (none silently skipped)
    body = [line for line in table.splitlines()[1:] if line.strip()]
    assert len(found) == len(body), body
    return found


def test_every_page_message_is_an_engine_message():
    missing = sorted(set(page_messages()) - set(bridge.HANDLERS))
    assert not missing, f"protocol.js names messages spades.bridge does not handle: {missing}"


def test_every_engine_message_is_named_in_protocol_js():
    unnamed = sorted(set(bridge.HANDLERS) - set(page_messages()))
    assert not unnamed, f"spades.bridge handles messages protocol.js does not name: {unnamed}"


def test_session_changing_messages_agree():
    changes = {name for name, flag in page_messages().items() if flag}
    assert changes == set(bridge.CHANGES)


def test_every_engine_message_is_documented_in_the_bridge_docstring():
    doc = bridge.__doc__ or ""
    undocumented = sorted(name for name in bridge.HANDLERS if f"``{name}" not in doc)
    assert not undocumented, undocumented
