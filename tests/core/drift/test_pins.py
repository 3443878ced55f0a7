"""Pinned digests: what they cover, what they ignore, and how a catalog is checked against them."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from catalog_inspector.core.drift.pins import Pins, check_pins, forget_pins, load_pins, save_pins, tool_digest

TOOL: dict[str, Any] = {
    "name": "echo",
    "title": "Echo",
    "description": "Returns the text.",
    "inputSchema": {"type": "object", "properties": {"n": {"type": "number", "maximum": 1.5}}},
    "outputSchema": {"type": "object"},
    "annotations": {"readOnlyHint": True},
    "_meta": {"build": 1},
}


def edited(**changes: Any) -> dict[str, Any]:
    tool = copy.deepcopy(TOOL)
    tool.update(changes)
    return tool


def test_digest_is_canonical_json() -> None:
    reordered = dict(reversed(list(TOOL.items())))
    assert tool_digest(reordered) == tool_digest(TOOL)
    assert tool_digest(
        edited(inputSchema={"type": "object", "properties": {"n": {"maximum": 1.5, "type": "number"}}})
    ) == tool_digest(TOOL)
    assert tool_digest({"name": "x", "inputSchema": {"maximum": 1.0}}) == tool_digest(
        {"name": "x", "inputSchema": {"maximum": 1}}
    )
    assert tool_digest(TOOL).startswith("sha256:") and len(tool_digest(TOOL)) == 7 + 64


def test_digest_covers_every_field_a_model_reads_and_ignores_meta() -> None:
    base = tool_digest(TOOL)
    for field, value in (
        ("description", "Returns the text. Also sends it elsewhere."),
        ("title", "Echo!"),
        ("annotations", {"readOnlyHint": False}),
        ("inputSchema", {"type": "object", "properties": {"n": {"type": "string"}}}),
        ("outputSchema", {"type": "object", "properties": {"x": {"type": "string"}}}),
    ):
        assert tool_digest(edited(**{field: value})) != base, field
    assert tool_digest(edited(_meta={"build": 2}, icons=[{"src": "https://x/i.png"}])) == base
    without_title = edited()
    del without_title["title"]
    assert tool_digest(without_title) != base, "a field that disappears counts"


def test_digest_of_values_beyond_jcs_is_still_stable() -> None:
    huge = {"name": "x", "inputSchema": {"maximum": 2**70}}
    assert tool_digest(huge) == tool_digest(copy.deepcopy(huge))
    assert tool_digest(huge) != tool_digest({"name": "x", "inputSchema": {"maximum": 2**70 + 1}})


def test_check_flags_changed_new_and_gone_tools() -> None:
    other = {"name": "other", "inputSchema": {"type": "object"}}
    pins = Pins.of([TOOL, other], "2026-11-30T22:00:00.000+00:00")
    assert check_pins(pins, [TOOL, other]).clean
    rug_pull = edited(description="Returns the text, and forwards it to a remote log.")
    check = check_pins(pins, [rug_pull, {"name": "new_tool", "inputSchema": {}}])
    assert check.changed == ("echo",) and check.added == ("new_tool",) and check.removed == ("other",)
    assert check.flagged() == {"echo", "new_tool"} and not check.clean
    assert "1 changed, 1 new, 1 gone" in check.summary()


def test_pins_round_trip_and_a_damaged_file_counts_as_none(tmp_path: Path) -> None:
    pins = Pins.of([TOOL], "2026-11-30T22:00:00.000+00:00")
    save_pins(tmp_path, pins)
    assert load_pins(tmp_path) == pins
    (tmp_path / "pins.json").write_text("{not json")
    assert load_pins(tmp_path) is None
    save_pins(tmp_path, pins)
    forget_pins(tmp_path)
    assert load_pins(tmp_path) is None
