"""The rules rewritten to stay linear, each against an oracle written without the engine's shortcuts.

- the walk compares a subtree whole only near the top (`COMPARED_LEVELS`) and below that
  only goes inside: its ops equal those of a reference walk that compares every subtree
  first (the engine's old way, d × size on input nested d deep), at any such depth;
- `required` is compared through sets: gained and dropped names equal plain list scans;
- a property added is judged by its object's `required`, looked up once per object: the
  verdict equals a lookup of that object's own list, found by following the pointer;
- a prompt's arguments are looked up by name once per item: judging all the ops of an
  item with one `ItemJudge` gives what judging each op on its own gives.

Speed is the benchmark's business (`tests/benchmarks/bench_diff.py`, its scaling check).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_inspector.core.drift import diff as engine
from catalog_inspector.core.drift.diff import (
    ABSENT,
    _child_kind,
    _field_kind,
    _Kind,
    diff_item,
)
from catalog_inspector.core.drift.severity import classify, segments
from tests.core.drift.diff_cases import BREAKING, INFO
from tests.core.drift.test_diff_properties import PROMPTS, SCHEMAS, item_pairs, mutated, schemas_over

Op = tuple[str, str, str, Any, Any]  # field, pointer, op, old, new


def _pointer(path: list[str]) -> str:
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in path)


def _reference(old: Any, new: Any, kind: _Kind, path: list[str], field: str, out: list[Op]) -> None:
    """The walk as it was: every pair of values is compared whole before the walk goes inside it."""
    if isinstance(old, dict) and isinstance(new, dict) and kind is not _Kind.OPAQUE:
        kind = _Kind.SCHEMA if kind is _Kind.SCHEMA_LIST else kind
        for key, value in old.items():
            if key not in new:
                out.append((field, _pointer([*path, key]), "remove", value, ABSENT))
            elif value != new[key]:
                _reference(value, new[key], _child_kind(kind, key), [*path, key], field, out)
        out.extend((field, _pointer([*path, k]), "add", ABSENT, v) for k, v in new.items() if k not in old)
    elif isinstance(old, list) and isinstance(new, list) and kind in (_Kind.LIST, _Kind.SCHEMA_LIST):
        element = _Kind.SCHEMA if kind is _Kind.SCHEMA_LIST else _Kind.VALUE
        common = min(len(old), len(new))
        for i in range(common):
            if old[i] != new[i]:
                _reference(old[i], new[i], element, [*path, str(i)], field, out)
        out.extend(
            (field, _pointer([*path, str(i)]), "remove", old[i], ABSENT) for i in range(len(old) - 1, common - 1, -1)
        )
        out.extend((field, _pointer([*path, str(i)]), "add", ABSENT, new[i]) for i in range(common, len(new)))
    else:
        out.append((field, _pointer(path), "replace", old, new))


def _reference_ops(list_name: str, old: dict[str, Any], new: dict[str, Any]) -> list[Op]:
    out: list[Op] = []
    for field, value in old.items():
        if field not in new:
            out.append((field, "", "remove", value, ABSENT))
        elif value != new[field]:
            _reference(value, new[field], _field_kind(list_name, field), [], field, out)
    out.extend((field, "", "add", ABSENT, value) for field, value in new.items() if field not in old)
    return out


def _ops(list_name: str, old: dict[str, Any], new: dict[str, Any], compared_levels: int) -> list[Op]:
    """The engine's ops, with subtrees compared whole down to `compared_levels` only."""
    kept = engine.COMPARED_LEVELS
    engine.COMPARED_LEVELS = compared_levels
    try:
        return [(c.field, c.pointer, c.op, c.old, c.new) for c in diff_item(list_name, old, new)]
    finally:
        engine.COMPARED_LEVELS = kept


LEVELS = st.sampled_from([0, 1, 2, 5, engine.COMPARED_LEVELS])
# A sibling only has to differ from its neighbours: small schemas (twelve levels of full ones took 20 s a run).
SIBLINGS = st.recursive(st.booleans() | schemas_over(st.just({})), schemas_over, max_leaves=3)


@settings(deadline=None, max_examples=300)
@given(item_pairs(), LEVELS)
def test_the_walk_finds_the_same_ops_in_the_same_order_as_comparing_every_subtree_first(
    case: tuple[str, Any, Any], levels: int
) -> None:
    list_name, old, new = case
    assert _ops(list_name, old, new, levels) == _reference_ops(list_name, old, new)


@st.composite
def deep_pairs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A schema nested a few levels deep with siblings at every level, changed somewhere inside, often at the bottom."""
    depth = draw(st.integers(1, 12))  # two segments a level: some reach below COMPARED_LEVELS
    leaf: Any = draw(SCHEMAS)
    old = leaf
    # The levels' siblings come from a few drawn once: a recursive draw for every sibling of every level cost
    # most of the test's time (17 s a run), and a sibling only has to differ from its neighbours.
    pool = draw(st.lists(SIBLINGS, min_size=1, max_size=4))
    for level in range(depth):
        siblings = draw(st.dictionaries(st.sampled_from(["a", "b", "c"]), st.sampled_from(pool), max_size=3))
        old = {"type": "object", "properties": {**siblings, f"down{level}": old}}
    new = mutated(draw, old, top=True)
    return {"name": "t", "inputSchema": old}, {"name": "t", "inputSchema": new}


@pytest.mark.long
@settings(deadline=None, max_examples=200)
@given(deep_pairs(), LEVELS)
def test_a_deep_schema_with_siblings_diffs_as_the_reference_walk_does(case: tuple[Any, Any], levels: int) -> None:
    old, new = case
    assert _ops("tools", old, new, levels) == _reference_ops("tools", old, new)


NAME_LISTS = st.lists(st.sampled_from(["a", "b", "c", "d", "e/f", "g~"]), max_size=6)


@settings(deadline=None, max_examples=300)
@given(NAME_LISTS, NAME_LISTS, st.sampled_from(["inputSchema", "outputSchema"]))
def test_gained_and_dropped_required_names_are_what_plain_list_scans_find(
    before: list[str], after: list[str], field: str
) -> None:
    old = {"name": "t", "inputSchema": {}, field: {"type": "object", "required": before}}
    new = {"name": "t", "inputSchema": {}, field: {"type": "object", "required": after}}
    found = [c for c in diff_item("tools", old, new) if c.pointer == "/required"]
    if before == after:
        assert found == []
        return
    (change,) = found
    gained = [name for name in after if name not in before]
    dropped = [name for name in before if name not in after]
    io = "input" if field == "inputSchema" else "output"
    first, second = (gained, dropped) if io == "input" else (dropped, gained)
    if not first and not second:
        assert (change.severity, change.reason) == (INFO, f"required of the {io} schema reordered")
        return
    names = first or second
    assert change.severity is (BREAKING if first else INFO)
    assert change.reason.startswith(f"{'new required ' if io == 'input' and first else ''}{io} propert")
    assert ", ".join(f"'{name}'" for name in names) in change.reason


PROPERTY_NAMES = st.lists(st.sampled_from(["p", "q", "r", "s/t", "u~"]), unique=True, max_size=5)


@st.composite
def objects_gaining_properties(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """Objects nested in properties and items, each gaining properties, with `required` lists at every level."""

    def level(depth: int) -> tuple[dict[str, Any], dict[str, Any]]:
        had, gained = draw(PROPERTY_NAMES), draw(PROPERTY_NAMES)
        old_props = {name: {"type": "string"} for name in had}
        new_props = {**old_props, **{name: {"type": "integer"} for name in gained if name not in old_props}}
        old = {"type": "object", "properties": old_props}
        new = {"type": "object", "properties": new_props, "required": draw(PROPERTY_NAMES)}
        if depth and draw(st.booleans()):
            inner_old, inner_new = level(depth - 1)
            how = draw(st.sampled_from(["property", "items"]))
            if how == "items":
                old["properties"]["list"] = {"type": "array", "items": inner_old}
                new["properties"]["list"] = {"type": "array", "items": inner_new}
            else:
                old["properties"]["inner"], new["properties"]["inner"] = inner_old, inner_new
        return old, new

    old, new = level(3)
    return {"name": "t", "inputSchema": old}, {"name": "t", "inputSchema": new}


def _holder_of(schema: Any, pointer: str) -> Any:
    """The object an added property's pointer (`…/properties/NAME`) adds it to, followed step by step."""
    node = schema
    for part in segments(pointer)[:-2]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


@settings(deadline=None, max_examples=300)
@given(objects_gaining_properties())
def test_a_property_added_is_breaking_exactly_when_its_own_object_requires_it(case: tuple[Any, Any]) -> None:
    old, new = case
    added = [c for c in diff_item("tools", old, new) if c.op == "add" and segments(c.pointer)[-2:-1] == ["properties"]]
    for change in added:
        name = segments(change.pointer)[-1]
        required = _holder_of(new["inputSchema"], change.pointer).get("required", [])
        assert (change.severity is BREAKING) == (name in required), change


@settings(deadline=None, max_examples=300)
@given(item_pairs() | st.tuples(st.just("prompts"), PROMPTS, PROMPTS))
def test_one_judge_for_all_of_an_items_ops_judges_each_as_it_would_alone(case: tuple[str, Any, Any]) -> None:
    list_name, old, new = case
    for change in diff_item(list_name, old, new):
        alone = classify(
            list_name, change.field, tuple(segments(change.pointer)), change.op, change.old, change.new, old, new
        )
        assert (change.severity, change.reason) == alone
