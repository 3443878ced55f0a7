"""Pinned digests: what they cover, what they ignore, and how a catalog is checked against them."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from catalog_inspector.core.catalog import ListResult, Snapshot
from catalog_inspector.core.drift.lockfile import (
    LOCK_FORMAT,
    forget_pins,
    load_pins,
    read_lockfile,
    save_pins,
    write_lockfile,
)
from catalog_inspector.core.drift.pins import Pins, check_pins, item_digest, tool_digest

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


def test_digest_covers_every_field_a_model_reads_and_meta_but_not_icons_or_volatile_meta() -> None:
    base = item_digest("tools", TOOL)
    for field, value in (
        ("description", "Returns the text. Also sends it elsewhere."),
        ("title", "Echo!"),
        ("annotations", {"readOnlyHint": False}),
        ("inputSchema", {"type": "object", "properties": {"n": {"type": "string"}}}),
        ("outputSchema", {"type": "object", "properties": {"x": {"type": "string"}}}),
        ("_meta", {"build": 2}),
        ("_meta", {"build": 1, "ui": {"resourceUri": "ui://evil/view"}}),  # a view swapped in: a rug pull
        ("execution", {"taskSupport": "required"}),
    ):
        assert item_digest("tools", edited(**{field: value})) != base, field
    volatile = {"build": 1, "progressToken": 7, "io.modelcontextprotocol/related-task": {"taskId": "t"}}
    assert item_digest("tools", edited(_meta=volatile, icons=[{"src": "https://x/i.png"}])) == base
    without_title = edited()
    del without_title["title"]
    assert item_digest("tools", without_title) != base, "a field that disappears counts"


def test_a_resource_digest_ignores_what_follows_its_content() -> None:
    resource = {"uri": "file:///a", "name": "a", "size": 10, "annotations": {"priority": 1, "lastModified": "x"}}
    moved_on = {**resource, "size": 11, "annotations": {"priority": 1, "lastModified": "y"}}
    assert item_digest("resources", moved_on) == item_digest("resources", resource)
    assert item_digest("resources", {**resource, "mimeType": "text/html"}) != item_digest("resources", resource)


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
    assert check.diffs[0].fields == ("description",) and check.diffs[0].words() == "changed: description"


def test_a_rename_is_one_change_of_what_was_approved() -> None:
    pins = Pins.of([TOOL], "2026-11-30T22:00:00.000+00:00")
    check = check_pins(pins, [edited(name="echo_v2")])
    assert check.renamed == (("echo", "echo_v2"),) and check.added == () and check.removed == ()
    assert check.flagged() == {"echo_v2"} and "1 renamed" in check.summary()
    assert check.diffs[0].words() == "renamed from echo (approved under that name)"
    # Renamed *and* changed is not the same tool: gone and new.
    check = check_pins(pins, [edited(name="echo_v2", description="Other.")])
    assert check.added == ("echo_v2",) and check.removed == ("echo",)


def _snapshot(**lists: list[dict[str, Any]]) -> Snapshot:
    results = {
        name: ListResult("complete", tuple(lists.get(name, ()))) if name in lists else ListResult("not_offered")
        for name in ("tools", "resources", "resource_templates", "prompts")
    }
    return Snapshot("complete", None, {"name": "demo", "version": "1"}, {}, None, results)


def test_every_list_is_pinned_and_a_list_not_walked_whole_is_not_compared() -> None:
    prompt = {"name": "greet", "description": "Say hi", "arguments": [{"name": "who"}]}
    resource = {"uri": "file:///a", "name": "a"}
    catalog = _snapshot(tools=[TOOL], prompts=[prompt], resources=[resource])
    pins = Pins.of_snapshot(catalog, "2026-12-01T00:00:00.000+00:00")
    assert [(pin.kind, pin.name) for pin in pins.items] == [
        ("tools", "echo"),
        ("resources", "file:///a"),
        ("prompts", "greet"),
    ]
    assert check_pins(pins, catalog).clean
    changed = _snapshot(tools=[TOOL], prompts=[{**prompt, "arguments": []}], resources=[resource])
    check = check_pins(pins, changed)
    assert [(d.kind, d.name, d.change, d.fields) for d in check.diffs] == [
        ("prompts", "greet", "changed", ("arguments",))
    ]
    assert check.flagged() == frozenset()  # the tree marks tools; the prompt is in the check all the same
    failed = replace(changed, lists={**changed.lists, "prompts": ListResult("failed")})
    assert check_pins(pins, failed).clean  # unknown is not gone


def test_a_reapproval_keeps_the_time_of_what_did_not_change() -> None:
    first = Pins.of_snapshot(_snapshot(tools=[TOOL, {"name": "b"}]), "2026-01-01T00:00:00.000+00:00")
    again = Pins.of_snapshot(
        _snapshot(tools=[TOOL, {"name": "b", "title": "B"}]), "2026-02-01T00:00:00.000+00:00", first
    )
    assert [pin.approved_at[:7] for pin in again.items] == ["2026-01", "2026-02"]


def test_the_lockfile_is_sorted_round_trips_and_names_what_is_wrong(tmp_path: Path) -> None:
    catalog = _snapshot(tools=[{"name": "zeta"}, TOOL], prompts=[{"name": "a"}])
    pins = Pins.of_snapshot(catalog, "2026-12-01T00:00:00.000+00:00")
    path = tmp_path / "mcp-catalog.lock.json"
    write_lockfile(path, pins)
    document = json.loads(path.read_text())
    assert document["format"] == LOCK_FORMAT and document["server"] == {"name": "demo", "version": "1"}
    assert [(i["kind"], i["name"]) for i in document["items"]] == [
        ("tools", "echo"),
        ("tools", "zeta"),
        ("prompts", "a"),
    ]
    assert set(document["items"][0]) == {"kind", "name", "digest", "approved_at", "body", "fields"}
    assert check_pins(read_lockfile(path), catalog).clean
    document["items"][1]["kind"] = "widgets"
    path.write_text(json.dumps(document))
    with pytest.raises(ValueError, match="item 1's kind 'widgets'"):
        read_lockfile(path)


def test_an_approval_from_before_meta_was_pinned_is_checked_its_own_way(tmp_path: Path) -> None:
    legacy = {"format": "mcp-catalog-pins/1", "approved_at": "2026-01-01", "digests": {"echo": tool_digest(TOOL)}}
    (tmp_path / "pins.json").write_text(json.dumps(legacy))
    pins = load_pins(tmp_path)
    assert pins is not None and pins.legacy
    assert check_pins(pins, [edited(_meta={"build": 99})]).clean  # not a false alarm after the upgrade
    assert check_pins(pins, [edited(description="x")]).changed == ("echo",)


def test_pins_round_trip_and_a_damaged_file_counts_as_none(tmp_path: Path) -> None:
    pins = Pins.of([TOOL], "2026-11-30T22:00:00.000+00:00")
    save_pins(tmp_path, pins)
    assert load_pins(tmp_path) == pins
    (tmp_path / "pins.json").write_text("{not json")
    assert load_pins(tmp_path) is None
    save_pins(tmp_path, pins)
    forget_pins(tmp_path)
    assert load_pins(tmp_path) is None
