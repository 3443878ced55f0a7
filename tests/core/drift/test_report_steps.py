"""The drift report in small steps: the same report as made whole, in many small steps at catalog size."""

from __future__ import annotations

from typing import Any

import pytest

from catalog_inspector.core.catalog import LIST_NAMES, ListResult, PageRecord, Snapshot
from catalog_inspector.core.drift import (
    Pins,
    Severity,
    build_report,
    build_report_steps,
    check_pins,
    check_pins_steps,
    collisions,
    collisions_steps,
    counts_steps,
    diff_catalogs,
    rows_of,
)
from catalog_inspector.core.steps import EVERY, run_whole
from tests.helpers import steps_taken

_RANK = {Severity.BREAKING: 0, Severity.WARNING: 1, Severity.INFO: 2}


def _tool(name: str, description: str = "d", required: tuple[str, ...] = ()) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"}}}
    if required:
        schema["required"] = list(required)
    return {"name": name, "description": description, "inputSchema": schema}


def _snapshot(tools: list[dict[str, Any]], taken_at: str = "2026-12-03T10:00:00.000+00:00") -> Snapshot:
    names = tuple(t["name"] for t in tools[:100])
    first = PageRecord(0, None, "c1", len(names), names, 1_000, 1.0)
    lists = {name: ListResult("complete") for name in LIST_NAMES}
    lists["tools"] = ListResult("complete", tuple(tools), (first,))
    return Snapshot("complete", None, {"name": "srv", "version": "1"}, {}, None, lists, {}, taken_at)


def _refresh(n: int) -> tuple[Snapshot, Snapshot]:
    old = [_tool(f"tool_{i:05d}") for i in range(n)]
    new = [_tool(f"tool_{i:05d}", "edited" if i % 10 == 0 else "d") for i in reversed(range(n))]
    new.append(_tool("brand_new"))
    new[5] = _tool(new[5]["name"], required=("a",))  # a required argument added: breaking
    return _snapshot(old), _snapshot(new[:-2] + new[-1:], "2026-12-03T11:00:00+00:00")  # one tool removed


def test_a_ten_thousand_tool_report_is_the_same_whole_or_in_steps_and_takes_many_small_ones() -> None:
    old, new = _refresh(10_000)
    taken, stepped = steps_taken(build_report_steps(old, new))
    whole = build_report(old, new)
    assert stepped == whole and stepped.rows == whole.rows
    assert stepped.diff is not None and stepped.counts == stepped.diff.counts() and stepped.worst is Severity.BREAKING
    # Several passes over 10,000 tools and about as many rows, EVERY items a step: never one long step.
    assert taken >= 4 * 10_000 // EVERY, taken


@pytest.mark.parametrize(
    "edit, worst",
    [
        (lambda tools: tools, None),  # nothing changed: no severity at all
        (lambda tools: tools[::-1], Severity.INFO),  # only moves
        (lambda tools: [_tool(t["name"], "other words") for t in tools], Severity.WARNING),
        (lambda tools: tools[1:], Severity.BREAKING),
    ],
)
def test_the_worst_change_and_the_counts_worked_out_in_steps_are_the_diffs_own(edit: Any, worst: Any) -> None:
    tools = [_tool(f"t{i}") for i in range(30)]
    report = run_whole(build_report_steps(_snapshot(tools), _snapshot(edit(tools))))
    assert report.diff is not None
    assert report.worst is worst and report.worst == report.diff.worst()
    assert report.counts == report.diff.counts() and list(report.counts) == list(Severity)
    assert run_whole(counts_steps(report.diff)) == report.diff.counts(), "as a comparison counts them"


def test_rows_come_worst_first_keeping_list_and_item_order_within_a_severity() -> None:
    old, new = _refresh(1_000)
    diff = diff_catalogs({"tools": old.tools.items}, {"tools": new.tools.items})
    rows = rows_of(diff)
    assert [row.severity for row in rows] == sorted((row.severity for row in rows), key=_RANK.__getitem__)
    # What a stable sort by severity of the rows in the diff's own order gives: the order before steps.
    unsorted = [row for row in rows if row.what == "removed"]
    unsorted += [row for row in rows if row.what == "changed"]
    unsorted += [row for row in rows if row.what == "added"]
    unsorted += [row for row in rows if row.what == "moved"]
    assert rows == sorted(unsorted, key=lambda row: _RANK[row.severity])
    assert rows[0].what == "removed" and rows[-1].what == "moved"


def test_an_approval_check_takes_a_step_a_digest_and_finds_the_same() -> None:
    tools = [_tool(f"t{i}") for i in range(50)]
    pins = Pins.of(tools, "2026-12-03T10:00:00.000+00:00")
    edited = [_tool("t0", "changed"), *tools[1:40], _tool("fresh", "new")]  # not a body seen before: not a rename
    taken, check = steps_taken(check_pins_steps(pins, edited))
    # One step per item: each is digested (a new one too, to find a rename).
    assert check == check_pins(pins, edited) and taken == 41
    assert (
        check.changed == ("t0",)
        and check.added == ("fresh",)
        and check.removed == tuple(f"t{i}" for i in range(40, 50))
    )
    catalog = Snapshot("complete", None, {}, {}, None, {
        name: ListResult("complete", tuple(tools) if name == "tools" else ()) for name in LIST_NAMES
    })  # fmt: skip
    assert run_whole(Pins.of_snapshot_steps(catalog, pins.approved_at)).items == pins.items


def test_collisions_in_steps_are_the_same() -> None:
    catalogs = {"a": [f"t{i}" for i in range(1_000)], "b": ["t5", "other", "t5"], "c": ["t5", "t999"]}
    taken, found = steps_taken(collisions_steps(catalogs))
    assert found == collisions(catalogs) == {"t5": ("a", "b", "c"), "t999": ("a", "c")}
    assert taken >= 1_000 // EVERY
