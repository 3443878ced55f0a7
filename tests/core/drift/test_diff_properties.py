"""Invariants of the diff over generated items (hypothesis): it is empty on equal input, mirrors
itself when the sides swap, and its changes rebuild the new side from the old one.

The oracles here are independent of the engine: a plain mapping by key rebuilt from the
list diff, and a quadratic longest-increasing-subsequence for the number of moves.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_inspector.core.catalog import LIST_KINDS, LIST_NAMES
from catalog_inspector.core.drift.diff import ABSENT, Change, apply_changes, diff_item, diff_list

# Keys with the two characters RFC 6901 escapes, and the names the engine treats specially.
KEYS = st.sampled_from(["a", "b", "a/b", "~x", "~1", "0", "type", "items", "properties", "anyOf", "required"])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.sampled_from(["", "s", "string", "x/y"])
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)

TYPES = st.sampled_from(["string", "integer", "number", "boolean", "object", "array", "null"])
NAMES = st.sampled_from(["x", "y", "z", "a/b", "q~"])


def schemas_over(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "type": TYPES | st.lists(TYPES, min_size=1, max_size=3, unique=True),
            "description": st.sampled_from(["d", "e"]),
            "properties": st.dictionaries(NAMES, inner, max_size=3),
            "required": st.lists(NAMES, max_size=3, unique=True),
            "items": inner | st.lists(inner, max_size=2),
            "anyOf": st.lists(inner, max_size=3),
            "enum": st.lists(st.sampled_from(["a", "b", 1, None]), max_size=3),
            "minimum": st.integers(0, 3),
            "maxLength": st.integers(0, 3),
            "pattern": st.sampled_from(["^a", "^b"]),
            "additionalProperties": st.booleans() | inner,
            "$defs": st.dictionaries(NAMES, inner, max_size=2),
            "default": JSON,
        },
    )


SCHEMAS = st.recursive(st.booleans() | schemas_over(st.just({})), schemas_over, max_leaves=12)
HINTS = st.fixed_dictionaries(
    {},
    optional={
        h: st.booleans() for h in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint", "title")
    },
)


def tools(name: st.SearchStrategy[str] = st.just("t")) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"name": name, "inputSchema": SCHEMAS},
        optional={
            "title": st.sampled_from(["T", "U"]),
            "description": st.sampled_from(["d", "e"]),
            "outputSchema": SCHEMAS,
            "annotations": HINTS,
            "_meta": JSON,
            "icons": st.lists(st.fixed_dictionaries({"src": st.sampled_from(["a", "b"])}), max_size=2),
        },
    )


ARGUMENTS = st.lists(
    st.fixed_dictionaries(
        {"name": NAMES}, optional={"required": st.booleans(), "description": st.sampled_from(["d", "e"])}
    ),
    max_size=3,
)
PROMPTS = st.fixed_dictionaries({"name": st.just("p")}, optional={"arguments": ARGUMENTS, "description": JSON})
# Any item of any list, with the fields the engine walks specially holding arbitrary JSON.
FIELDS = st.sampled_from(["inputSchema", "outputSchema", "annotations", "arguments", "icons", "_meta", "uri", "k"])
ANY_ITEMS = st.dictionaries(FIELDS, JSON, max_size=5)


def mutated(draw: st.DrawFn, value: Any, top: bool = False) -> Any:
    """`value` with one thing changed somewhere deep inside: a key or element dropped, added or redrawn."""
    if top:  # an item stays a dict
        how = "descend" if value else "add"
    else:
        how = draw(st.sampled_from(["descend"] * 5 + ["drop", "add", "redraw"]))
    if isinstance(value, dict) and value and how in ("descend", "drop"):
        key = draw(st.sampled_from(sorted(value)))
        rest = {k: v for k, v in value.items() if k != key}
        return rest if how == "drop" else {**value, key: mutated(draw, value[key])}
    if isinstance(value, list) and value and how in ("descend", "drop"):
        i = draw(st.integers(0, len(value) - 1))
        return value[:i] + ([] if how == "drop" else [mutated(draw, value[i])]) + value[i + 1 :]
    if isinstance(value, dict) and how == "add":
        return {**value, draw(KEYS | NAMES): draw(JSON)}
    if isinstance(value, list) and how == "add":
        return [*value, draw(JSON)]
    return draw(JSON)


@st.composite
def item_pairs(draw: st.DrawFn) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """(list name, old, new): new is old changed deep inside a few times, or with fields redrawn, or unrelated."""
    list_name, items = draw(
        st.sampled_from([("tools", tools()), ("prompts", PROMPTS)])
        | st.tuples(st.sampled_from(LIST_NAMES), st.just(ANY_ITEMS))
    )
    old = draw(items)
    how = draw(st.sampled_from(["deep", "deep", "fields", "unrelated"]))
    if how == "unrelated":
        return list_name, old, draw(items)
    if how == "deep":
        new = old
        for _ in range(draw(st.integers(1, 3))):
            new = mutated(draw, new, top=True)
        return list_name, old, new
    new = copy.deepcopy(old)
    other = draw(items)
    for field in draw(st.lists(st.sampled_from(sorted(set(old) | set(other))), max_size=3)) if old or other else ():
        if field in other:
            new[field] = other[field]
        else:
            new.pop(field, None)
    return list_name, old, new


def signature(changes: tuple[Change, ...]) -> dict[tuple[str, str], tuple[str, Any, Any]]:
    out = {(c.field, c.pointer): (c.op, c.old, c.new) for c in changes}
    assert len(out) == len(changes), "one change per (field, pointer)"
    return out


MIRROR = {"add": "remove", "remove": "add", "replace": "replace"}


@settings(deadline=None, max_examples=300)
@given(item_pairs())
def test_changes_rebuild_the_new_item_from_the_old_and_leave_both_alone(case: tuple[str, Any, Any]) -> None:
    list_name, old, new = case
    old_copy, new_copy = copy.deepcopy(old), copy.deepcopy(new)
    changes = diff_item(list_name, old, new)
    assert apply_changes(old, changes) == new
    assert (old, new) == (old_copy, new_copy)
    assert bool(changes) == (old != new)
    for change in changes:
        assert (change.old is ABSENT) == (change.op == "add")
        assert (change.new is ABSENT) == (change.op == "remove")
        assert change.reason


@settings(deadline=None)
@given(item_pairs())
def test_an_item_diffed_with_itself_or_a_copy_has_no_changes(case: tuple[str, Any, Any]) -> None:
    list_name, old, _ = case
    assert diff_item(list_name, old, old) == ()
    assert diff_item(list_name, old, copy.deepcopy(old)) == ()


@settings(deadline=None, max_examples=200)
@given(item_pairs())
def test_swapping_the_sides_mirrors_every_change(case: tuple[str, Any, Any]) -> None:
    list_name, old, new = case
    forward = signature(diff_item(list_name, old, new))
    backward = signature(diff_item(list_name, new, old))
    assert set(forward) == set(backward)
    for place, (op, before, after) in forward.items():
        assert backward[place] == (MIRROR[op], after, before)


def keyed(list_name: str) -> st.SearchStrategy[list[dict[str, Any]]]:
    """A list of items with unique keys drawn from a small pool, so two lists share some."""
    key_field = LIST_KINDS[list_name].key_field
    keys = st.lists(st.sampled_from([f"k{i}" for i in range(8)]), unique=True, max_size=8)
    body = (
        tools()
        if list_name == "tools"
        else st.dictionaries(st.sampled_from(["title", "arguments", "_meta"]), JSON, max_size=2)
    )
    return keys.flatmap(lambda ks: st.tuples(*(body for _ in ks)).map(lambda items: [
        {**item, key_field: k} for k, item in zip(ks, items, strict=True)
    ]))  # fmt: skip


def lis_length(sequence: list[int]) -> int:
    best = [1] * len(sequence)
    for i in range(len(sequence)):
        for j in range(i):
            if sequence[j] < sequence[i]:
                best[i] = max(best[i], best[j] + 1)
    return max(best, default=0)


@settings(deadline=None, max_examples=100)
@given(st.sampled_from(LIST_NAMES).flatmap(lambda name: st.tuples(st.just(name), keyed(name), keyed(name))))
def test_a_list_diff_rebuilds_the_new_list_by_key_and_moves_only_what_lost_its_order(
    case: tuple[str, list[dict[str, Any]], list[dict[str, Any]]],
) -> None:
    list_name, old, new = case
    key_field = LIST_KINDS[list_name].key_field
    result = diff_list(list_name, old, new)
    rebuilt = {item[key_field]: item for item in old}
    for item in result.removed:
        del rebuilt[item[key_field]]
    for item in result.added:
        assert item[key_field] not in rebuilt
        rebuilt[item[key_field]] = item
    for change in result.changed:
        rebuilt[change.key] = apply_changes(rebuilt[change.key], change.changes)
    assert rebuilt == {item[key_field]: item for item in new}

    shared_old = [item[key_field] for item in old if any(item[key_field] == n[key_field] for n in new)]
    shared_new = [item[key_field] for item in new if item[key_field] in shared_old]
    assert (result.moved == ()) == (shared_old == shared_new)
    assert len(result.moved) == len(shared_old) - lis_length([shared_old.index(k) for k in shared_new])
    moved = {m.key for m in result.moved}
    assert [k for k in shared_old if k not in moved] == [k for k in shared_new if k not in moved]
    for move in result.moved:
        assert shared_old[move.old_index] == move.key == shared_new[move.new_index]
    assert diff_list(list_name, old, copy.deepcopy(old)).empty


@settings(deadline=None, max_examples=100)
@given(item_pairs())
def test_swapping_the_lists_swaps_added_and_removed(case: tuple[str, Any, Any]) -> None:
    list_name, first, second = case
    key_field = LIST_KINDS[list_name].key_field
    old = [{**first, key_field: "a"}, {**second, key_field: "b"}]
    new = [{**second, key_field: "b"}, {**first, key_field: "c"}]
    forward, backward = diff_list(list_name, old, new), diff_list(list_name, new, old)
    assert forward.added == backward.removed and forward.removed == backward.added
    assert [c.key for c in forward.changed] == [c.key for c in backward.changed]
