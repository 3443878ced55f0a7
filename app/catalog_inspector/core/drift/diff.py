"""Drift between two catalogs: what was added, removed, changed (down to a JSON pointer) and moved.

Plain data and pure functions, Qt-free and SDK-free: the runtime runs them off
the GUI thread, the CLI's `diff` and `check` print them, the duplicates view
diffs two definitions of one name with the same engine.

A change is one JSON Patch-like operation on one item's top-level `field`, at
`pointer` (RFC 6901) inside that field's value ("" when the whole value
changed), with the old and the new value and a severity with its reason in words.

Severities and their reasons come from `core.drift.severity`, which judges each
change by where its pointer lands and what it does there.

Equality is Python's (`1 == 1.0 == True`), the price of comparing whole items
with the C-level `==` first; the diff only recurses where that finds a difference.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from catalog_inspector.core.catalog import LIST_KINDS, LIST_NAMES
from catalog_inspector.core.drift.severity import (
    ABSENT,
    BREAKING,
    INFO,
    SCHEMA_FIELDS,
    SCHEMA_LISTS,
    SCHEMA_MAPS,
    SCHEMA_ONE,
    ItemJudge,
    Op,
    Severity,
    describe_pointer,
    escape,
    segments,
    worst_of,
)
from catalog_inspector.core.steps import EVERY, Steps, run_whole

__all__ = [
    "ABSENT",
    "CatalogDiff",
    "Change",
    "ItemChange",
    "ListDiff",
    "Move",
    "Severity",
    "apply_changes",
    "describe_pointer",
    "diff_catalogs",
    "diff_catalogs_steps",
    "diff_item",
    "diff_list",
    "diff_list_steps",
]


def _json(value: Any) -> Any:
    return None if value is ABSENT else value


@dataclass(frozen=True)
class Change:
    """One difference inside one item.

    Attributes:
        field: the item's top-level key (`inputSchema`, `description`, `annotations` …).
        pointer: RFC 6901 pointer into that field's value; "" for the whole value.
        op: "add" (old is ABSENT), "remove" (new is ABSENT) or "replace".
        old/new: the values at the pointer, ABSENT where there was none.
        severity/reason: how much it matters, and why in words.
    """

    field: str
    pointer: str
    op: Op
    old: Any
    new: Any
    severity: Severity
    reason: str

    def to_json(self) -> dict[str, Any]:
        """`{field, pointer, op, old, new, severity, reason}`; an ABSENT side is `null`."""
        return {
            "field": self.field,
            "pointer": self.pointer,
            "op": self.op,
            "old": _json(self.old),
            "new": _json(self.new),
            "severity": self.severity.value,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class ItemChange:
    """A changed item (matched by its key: name, URI or URI template) and every difference in it."""

    key: str
    changes: tuple[Change, ...]

    @property
    def severity(self) -> Severity:
        """The worst of its changes (info for none)."""
        return worst_of(change.severity for change in self.changes) or INFO

    def to_json(self) -> dict[str, Any]:
        """`{name, changes: [...]}` (`name` is the key whatever the list)."""
        return {"name": self.key, "changes": [change.to_json() for change in self.changes]}


@dataclass(frozen=True)
class Move:
    """An item whose place among the items both catalogs share changed (info).

    The indices count only the shared items, in each catalog's order.
    """

    key: str
    old_index: int
    new_index: int


@dataclass(frozen=True)
class ListDiff:
    """One list's drift. `added`/`removed` keep the whole items (the JSON form lists their keys)."""

    list_name: str
    added: tuple[dict[str, Any], ...] = ()
    removed: tuple[dict[str, Any], ...] = ()
    changed: tuple[ItemChange, ...] = ()
    moved: tuple[Move, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.moved)

    def severities(self) -> Iterable[Severity]:
        """One severity per change, removed item (breaking), added item and move (info)."""
        for item in self.changed:
            yield from (change.severity for change in item.changes)
        yield from (BREAKING for _ in self.removed)
        yield from (INFO for _ in range(len(self.added) + len(self.moved)))

    def to_json(self) -> dict[str, Any]:
        """`{added: [keys], removed: [keys], changed: [...], moved: [{name, old_index, new_index}]}`."""
        return {
            "added": [_key(self.list_name, item) for item in self.added],
            "removed": [_key(self.list_name, item) for item in self.removed],
            "changed": [item.to_json() for item in self.changed],
            "moved": [{"name": m.key, "old_index": m.old_index, "new_index": m.new_index} for m in self.moved],
        }


@dataclass(frozen=True)
class CatalogDiff:
    """Drift of every list between two catalogs, in `LIST_NAMES` order.

    `not_compared`: the lists left out because a walk on either side did not judge them (it failed or was
    rejected there): nothing is known of their drift, which is neither "none" nor "all removed"."""

    lists: Mapping[str, ListDiff]
    not_compared: tuple[str, ...] = ()

    def _list(self, name: str) -> ListDiff:
        return self.lists.get(name) or ListDiff(name)

    @property
    def empty(self) -> bool:
        return all(one.empty for one in self.lists.values())

    def worst(self) -> Severity | None:
        """The highest severity of any change (removed items are breaking, added and moved info)."""
        return worst_of(s for one in self.lists.values() for s in one.severities())

    def counts(self) -> dict[Severity, int]:
        """How many changes of each severity (an added or removed item counts as one)."""
        counts = dict.fromkeys(Severity, 0)
        for one in self.lists.values():
            for severity in one.severities():
                counts[severity] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        """The tools' `added`/`removed`/`changed`/`moved` at the top, and the same under
        `resources`, `resource_templates` and `prompts`; `summary` counts by severity."""
        out = self._list("tools").to_json()
        for name in LIST_NAMES:
            if name != "tools":
                out[name] = self._list(name).to_json()
        out["summary"] = {severity.value: n for severity, n in self.counts().items()}
        if self.not_compared:
            out["not_compared"] = list(self.not_compared)
        return out


# --- matching and moves -------------------------------------------------------------------------


def _key(list_name: str, item: Mapping[str, Any]) -> str:
    # Not `lists.item_key`: an item without its key (a server's mistake) still diffs, under "".
    return str(item.get(LIST_KINDS[list_name].key_field, ""))


def diff_list(list_name: str, old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]) -> ListDiff:
    """One list's drift, matching items by the list's key. Linear in the catalog's size (moves: n log n).

    A key repeated within one side is matched by its first item; later repeats are ignored.
    """
    return run_whole(diff_list_steps(list_name, old, new))


def diff_list_steps(
    list_name: str, old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]
) -> Steps[ListDiff]:
    """`diff_list` in small steps (`core.steps`)."""
    old_by_key: dict[str, Mapping[str, Any]] = {}
    for count, item in enumerate(old, 1):
        old_by_key.setdefault(_key(list_name, item), item)
        if count % EVERY == 0:
            yield
    new_by_key: dict[str, Mapping[str, Any]] = {}
    for count, item in enumerate(new, 1):
        new_by_key.setdefault(_key(list_name, item), item)
        if count % EVERY == 0:
            yield
    added = yield from _only_in(new_by_key, old_by_key)
    removed = yield from _only_in(old_by_key, new_by_key)
    changed: list[ItemChange] = []
    for count, (key, item) in enumerate(new_by_key.items(), 1):
        before = old_by_key.get(key)
        if before is not None and before != item:  # the C-level compare; recurse only where it differs
            changes = diff_item(list_name, before, item)
            if changes:
                changed.append(ItemChange(key, changes))
            yield  # a deep item's diff can be long: a step of its own
        elif count % EVERY == 0:
            yield
    moved = yield from _moves(old_by_key, new_by_key)
    return ListDiff(list_name, added, removed, tuple(changed), moved)


def _only_in(
    these: Mapping[str, Mapping[str, Any]], others: Mapping[str, Mapping[str, Any]]
) -> Steps[tuple[dict[str, Any], ...]]:
    """Copies of the items of `these` whose key `others` lacks, in order."""
    found: list[dict[str, Any]] = []
    for count, (key, item) in enumerate(these.items(), 1):
        if key not in others:
            found.append(dict(item))
        if count % EVERY == 0:
            yield
    return tuple(found)


def _moves(old: Mapping[str, object], new: Mapping[str, object]) -> Steps[tuple[Move, ...]]:
    """The shared keys outside a longest increasing subsequence of their old places, in new order."""
    old_shared: list[str] = []
    old_place: dict[str, int] = {}
    for key in old:
        if key in new:
            old_place[key] = len(old_shared)
            old_shared.append(key)
            if len(old_shared) % EVERY == 0:
                yield
    sequence: list[int] = []
    for count, key in enumerate(new, 1):
        place = old_place.get(key)
        if place is not None:
            sequence.append(place)
        if count % EVERY == 0:
            yield
    # Patience sorting: tails[k] is the smallest old place ending an increasing run of length k+1.
    tails: list[int] = []
    tail_at: list[int] = []
    previous = [-1] * len(sequence)
    for i, value in enumerate(sequence):
        k = bisect_left(tails, value)
        if k == len(tails):
            tails.append(value)
            tail_at.append(i)
        else:
            tails[k] = value
            tail_at[k] = i
        previous[i] = tail_at[k - 1] if k else -1
        if i % EVERY == 0:
            yield
    kept = set()
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        kept.add(i)
        i = previous[i]
        if len(kept) % EVERY == 0:
            yield
    moves: list[Move] = []
    for new_index, value in enumerate(sequence):
        if new_index not in kept:
            moves.append(Move(old_shared[value], value, new_index))
            if len(moves) % EVERY == 0:
                yield
    return tuple(moves)


def diff_catalogs(
    old: Mapping[str, Sequence[Mapping[str, Any]]],
    new: Mapping[str, Sequence[Mapping[str, Any]]],
    skip: Collection[str] = (),
) -> CatalogDiff:
    """Drift of every list but those in `skip` (`not_compared`); a list missing on one side counts as empty there."""
    return run_whole(diff_catalogs_steps(old, new, skip))


def diff_catalogs_steps(
    old: Mapping[str, Sequence[Mapping[str, Any]]],
    new: Mapping[str, Sequence[Mapping[str, Any]]],
    skip: Collection[str] = (),
) -> Steps[CatalogDiff]:
    """`diff_catalogs` in small steps (`core.steps`)."""
    lists: dict[str, ListDiff] = {}
    for name in LIST_NAMES:
        if name not in skip:
            lists[name] = yield from diff_list_steps(name, old.get(name, ()), new.get(name, ()))
    return CatalogDiff(lists, tuple(name for name in LIST_NAMES if name in skip))


# --- the structural diff ------------------------------------------------------------------------


class _Kind(Enum):
    """How the walk treats a value: what its dict entries and array elements are."""

    VALUE = "value"  # plain JSON: dicts key by key, arrays as whole values
    LIST = "list"  # an array compared index by index (a prompt's arguments, icons)
    SCHEMA = "schema"  # a JSON schema: its keys are keywords
    SCHEMA_MAP = "schema_map"  # name → schema (properties, $defs …)
    SCHEMA_LIST = "schema_list"  # an array of schemas (anyOf, prefixItems, `items` as an array)
    OPAQUE = "opaque"  # compared whole even when a dict (default, const, examples)


_OPAQUE = frozenset({"enum", "const", "default", "examples", "required", "type"})


def _child_kind(kind: _Kind, key: str) -> _Kind:
    if kind is _Kind.SCHEMA:
        if key in SCHEMA_MAPS:
            return _Kind.SCHEMA_MAP
        if key in SCHEMA_LISTS or key == "items":  # `items` as a dict is walked as one schema
            return _Kind.SCHEMA_LIST
        if key in SCHEMA_ONE:
            return _Kind.SCHEMA
        return _Kind.OPAQUE if key in _OPAQUE else _Kind.VALUE
    return _Kind.SCHEMA if kind is _Kind.SCHEMA_MAP else _Kind.VALUE


def _field_kind(list_name: str, field: str) -> _Kind:
    if field in SCHEMA_FIELDS:
        return _Kind.SCHEMA
    if field == "icons" or (field == "arguments" and list_name == "prompts"):
        return _Kind.LIST
    return _Kind.VALUE


_Raw = tuple[tuple[str, ...], Op, Any, Any]

# How deep the walk compares a dict or array whole (C-level `==`) before going inside it. An
# equal subtree is skipped at C speed, but each compare covers everything below it, so one
# at every level made a schema nested d deep with wide siblings cost d × its size (n·d, and
# d grows with n). Up to this depth, where real schemas live, nothing is compared more than
# this many times; below it the walk only goes inside, and the cost stays linear at any depth.
COMPARED_LEVELS = 16


def _walk(old: Any, new: Any, kind: _Kind, at: list[str], out: list[_Raw]) -> None:
    """Append the ops that turn `old` into `new`, in an order that applies in sequence (`at`: the path here)."""
    into_dicts = isinstance(old, dict) and isinstance(new, dict) and kind is not _Kind.OPAQUE
    into_lists = isinstance(old, list) and isinstance(new, list) and kind in (_Kind.LIST, _Kind.SCHEMA_LIST)
    if not (into_dicts or into_lists):
        if old != new:
            out.append((tuple(at), "replace", old, new))
        return
    if len(at) < COMPARED_LEVELS and old == new:
        return
    if into_dicts:
        if kind is _Kind.SCHEMA_LIST:  # `items` as one schema
            kind = _Kind.SCHEMA
        for key, value in old.items():
            if key not in new:
                out.append(((*at, key), "remove", value, ABSENT))
            else:
                at.append(key)
                _walk(value, new[key], _child_kind(kind, key), at, out)
                at.pop()
        out.extend(((*at, key), "add", ABSENT, value) for key, value in new.items() if key not in old)
        return
    element = _Kind.SCHEMA if kind is _Kind.SCHEMA_LIST else _Kind.VALUE
    common = min(len(old), len(new))
    for i in range(common):
        at.append(str(i))
        _walk(old[i], new[i], element, at, out)
        at.pop()
    # Removals from the tail down, additions upwards: each index is valid when its turn comes.
    out.extend(((*at, str(i)), "remove", old[i], ABSENT) for i in range(len(old) - 1, common - 1, -1))
    out.extend(((*at, str(i)), "add", ABSENT, new[i]) for i in range(common, len(new)))


def diff_item(list_name: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[Change, ...]:
    """Every difference between two definitions of one item, with severities for `list_name`.

    Linear in the items' size: no value is compared more than `COMPARED_LEVELS` times,
    and the context an op is judged by is looked up once per item (`ItemJudge`).
    """
    if old == new:
        return ()
    raws: list[tuple[str, _Raw]] = []
    for field, value in old.items():
        if field not in new:
            raws.append((field, ((), "remove", value, ABSENT)))
        else:
            found: list[_Raw] = []
            _walk(value, new[field], _field_kind(list_name, field), [], found)
            raws.extend((field, raw) for raw in found)
    raws.extend((field, ((), "add", ABSENT, value)) for field, value in new.items() if field not in old)
    judge = ItemJudge(list_name, old, new)
    changes = []
    for field, (at, op, before, after) in raws:
        severity, reason = judge.classify(field, at, op, before, after)
        pointer = "".join("/" + escape(segment) for segment in at)
        changes.append(Change(field, pointer, op, before, after, severity, reason))
    return tuple(changes)


def apply_changes(item: Mapping[str, Any], changes: Iterable[Change]) -> dict[str, Any]:
    """`item` with the changes applied in order (a deep copy): `apply_changes(a, diff_item(k, a, b)) == b`.

    Raises:
        KeyError, IndexError, ValueError: a change does not fit the item.
    """
    result: dict[str, Any] = _unshared(dict(item))
    for change in changes:
        at = segments(change.pointer)
        parent: Any = result
        last: str | int = change.field
        for segment in [change.field, *at][:-1]:
            parent = parent[int(segment)] if isinstance(parent, list) else parent[segment]
        if at:
            last = int(at[-1]) if isinstance(parent, list) else at[-1]
        if change.op == "remove":
            del parent[last]
        elif change.op == "add" and isinstance(parent, list):
            assert isinstance(last, int)
            parent.insert(last, _unshared(change.new))
        else:
            parent[last] = _unshared(change.new)
    return result


def _unshared(value: Any) -> Any:
    # Not `copy.deepcopy`: it keeps two references to one object as one copy, so a
    # change applied at one pointer would show at the other.
    if isinstance(value, dict):
        return {key: _unshared(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_unshared(inner) for inner in value]
    return value
