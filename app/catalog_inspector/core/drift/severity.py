"""How much a change to a catalog item matters, and why in words: the rules behind `core.drift.diff`.

A change is judged by where its JSON pointer lands (`_locate` walks schema
keywords: properties, items, branches, definitions) and by what it does
there, as a caller of the item sees it:

    breaking  the caller's request or its reading of the result may now fail:
              an item removed; an input property removed, retyped or narrowed, newly
              required or newly constrained (lower maximum, higher minimum, pattern,
              enum, const, additionalProperties closed, an anyOf/oneOf branch gone);
              an output property removed, retyped or no longer required; the output
              schema removed; a prompt argument removed, renamed or newly required
    warning   what a model reads or what a host trusts changed: descriptions, titles,
              tool annotations (risky flips named first), a resource's MIME type or
              name, and any other schema keyword
    info      nothing that worked breaks: items added or moved, constraints relaxed,
              optional inputs and new outputs, `_meta`, `icons`, `size` and unknown fields
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from catalog_inspector.core.catalog import LIST_KINDS
from catalog_inspector.core.pointer import pointer_parts

__all__ = [
    "ABSENT",
    "BREAKING",
    "INFO",
    "SCHEMA_FIELDS",
    "SCHEMA_LISTS",
    "SCHEMA_MAPS",
    "SCHEMA_ONE",
    "WARNING",
    "ItemJudge",
    "Op",
    "Severity",
    "classify",
    "describe_pointer",
    "escape",
    "segments",
    "worst_of",
]


class Severity(StrEnum):
    BREAKING = "breaking"  # a caller that worked before may now fail
    WARNING = "warning"  # what a model reads or a host trusts changed; nothing fails by itself
    INFO = "info"  # nothing that worked breaks

    @property
    def rank(self) -> int:
        """2 for breaking, 1 for warning, 0 for info: `max(..., key=rank)` finds the worst."""
        return _RANK[self]


_RANK = {Severity.BREAKING: 2, Severity.WARNING: 1, Severity.INFO: 0}
BREAKING, WARNING, INFO = Severity.BREAKING, Severity.WARNING, Severity.INFO


def worst_of(severities: Iterable[Severity]) -> Severity | None:
    return max(severities, key=_RANK.__getitem__, default=None)


class _Absent:
    """The value on the side of a change where nothing was (an added or removed key)."""

    _instance: _Absent | None = None

    def __new__(cls) -> _Absent:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()

Op = Literal["add", "remove", "replace"]


SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
SCHEMA_ONE = frozenset(
    {
        "items", "additionalProperties", "additionalItems", "unevaluatedItems", "unevaluatedProperties",
        "contains", "propertyNames", "not", "if", "then", "else", "contentSchema",
    }
)  # fmt: skip


def escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def segments(pointer: str) -> list[str]:
    parts = pointer_parts(pointer)
    if parts is None:
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return parts


# --- reading a pointer --------------------------------------------------------------------------


SCHEMA_FIELDS = {"inputSchema": "input", "outputSchema": "output"}


@dataclass(frozen=True)
class _Spot:
    """Where a pointer into a schema lands.

    Attributes:
        path: readable steps to the schema it ends in or whose keyword it names ("order", "items", "[]").
        keyword: the keyword it names, None when it names a whole schema reached by `step`.
        rest: segments inside the keyword's value.
        step: how the last schema was reached: (kind, name) — ("property", "qty"), ("branch", "anyOf", "1") …
        holder: the pointer segments of the schema that holds `keyword` (or the last step).
    """

    path: tuple[str, ...]
    keyword: str | None
    rest: tuple[str, ...]
    step: tuple[str, ...]
    holder: tuple[str, ...]


def _locate(segments: Sequence[str]) -> _Spot:
    path: list[str] = []
    step: tuple[str, ...] = ()
    holder = 0
    i = 0
    while i < len(segments):
        s = segments[i]
        nxt = segments[i + 1] if i + 1 < len(segments) else None
        taken = 2
        if s in SCHEMA_MAPS and nxt is not None:
            step = ("property", nxt) if s == "properties" else ("map", s, nxt)
            path.extend([nxt] if s == "properties" else [f"{{{nxt}}}"] if s == "patternProperties" else [s, nxt])
        elif (s in SCHEMA_LISTS or s == "items") and nxt is not None and nxt.isdigit():
            branch = s not in ("items", "prefixItems")
            step = ("branch", s, nxt) if branch else ("tuple", s, nxt)
            path.append(f"{s}[{nxt}]" if branch else f"[{nxt}]")
        elif s in SCHEMA_ONE:
            taken = 1
            step = ("one", s)
            path.append({"items": "[]", "additionalProperties": "*", "unevaluatedProperties": "*"}.get(s, f"<{s}>"))
        else:
            return _Spot(tuple(path), s, tuple(segments[i + 1 :]), step, tuple(segments[:i]))
        holder = i
        i += taken
    return _Spot(tuple(path), None, (), step, tuple(segments[:holder]))


def _render(path: Sequence[str]) -> str:
    out = ""
    for part in path:
        out += part if part.startswith("[") or not out else "." + part
    return out


def describe_pointer(field: str, pointer: str) -> str:
    """A change's place in words: `inputSchema` `/properties/order/items/properties/qty/type` →
    "input property 'order[].qty', keyword 'type'"; other fields → "field /pointer"."""
    io = SCHEMA_FIELDS.get(field)
    if io is None:
        return f"{field} {pointer}" if pointer else field
    spot = _locate(segments(pointer))
    where = f"{io} property '{_render(spot.path)}'" if spot.path else f"the {io} schema"
    if spot.keyword is not None:
        where += f", keyword '{'/'.join((spot.keyword, *spot.rest))}'"
    return where


# --- severities ---------------------------------------------------------------------------------

_Verdict = tuple[Severity, str]
_VERB = {"add": "added", "remove": "removed", "replace": "changed"}


def _text(value: Any, limit: int = 60) -> str:
    if value is ABSENT:
        return "absent"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def classify(
    list_name: str, field: str, at: tuple[str, ...], op: Op, old: Any, new: Any,
    old_item: Mapping[str, Any], new_item: Mapping[str, Any],
) -> _Verdict:  # fmt: skip
    """How much one op matters, and why, given the whole item on both sides for context.

    For one op; an item's many ops go through one `ItemJudge`, which looks the context up once.
    """
    return ItemJudge(list_name, old_item, new_item).classify(field, at, op, old, new)


class ItemJudge:
    """Judges every op of one pair of definitions of an item, with the context they share looked up once.

    A property added to an object is judged by the object's `required` list, and each
    op on a prompt's arguments by the arguments of both sides by name. Looked up per
    op, n ops against n names made those rules quadratic (80,000 required names took
    40 s); here each object's required names and each side's arguments are made once.
    """

    def __init__(self, list_name: str, old_item: Mapping[str, Any], new_item: Mapping[str, Any]) -> None:
        self.list_name = list_name
        self.old_item = old_item
        self.new_item = new_item
        self._required: dict[tuple[str, tuple[str, ...]], frozenset[str]] = {}
        self._arguments: _Arguments | None = None

    def classify(self, field: str, at: tuple[str, ...], op: Op, old: Any, new: Any) -> _Verdict:
        """How much one op on `field`, at `at` inside it, matters, and why."""
        list_name, verb = self.list_name, _VERB[op]
        io = SCHEMA_FIELDS.get(field)
        if io is not None:
            if not at:
                return _whole_schema(io, op)
            return _schema_change(io, _locate(at), op, old, new, lambda holder: self._required_names(field, holder))
        if field == LIST_KINDS[list_name].key_field:
            return BREAKING, f"{field} {verb} from {_text(old)} to {_text(new)}: callers address the item by it"
        if field in ("description", "title") and not at:
            return WARNING, f"{field} {verb}"
        if field == "annotations" and list_name == "tools":
            return _annotation_change(at, op, old, new)
        if field == "arguments" and list_name == "prompts":
            return _argument_change(at, op, old, new, self._prompt_arguments())
        if field == "mimeType":
            return WARNING, f"MIME type {verb} from {_text(old)} to {_text(new)}"
        if field == "name":  # a resource's or template's name: what a model and a person see
            return WARNING, f"name {verb} from {_text(old)} to {_text(new)}"
        pointer = "".join("/" + escape(s) for s in at)
        return INFO, f"{field} {verb}" + (f" at {pointer}" if pointer else "")

    def _required_names(self, field: str, holder: tuple[str, ...]) -> frozenset[str]:
        """The names the new side's object at `holder` (inside `field`) requires."""
        key = (field, holder)
        if key not in self._required:
            self._required[key] = frozenset(_names(_resolve(self.new_item.get(field), (*holder, "required"))))
        return self._required[key]

    def _prompt_arguments(self) -> _Arguments:
        if self._arguments is None:
            old_args, new_args = self.old_item.get("arguments"), self.new_item.get("arguments")
            self._arguments = _Arguments(old_args, new_args, _arguments_by_name(old_args), _arguments_by_name(new_args))
        return self._arguments


def _whole_schema(io: str, op: Op) -> _Verdict:
    if io == "output":
        if op == "add":
            return INFO, "output schema added: results are now described"
        return BREAKING, f"output schema {_VERB[op]}: callers reading structured results lose their contract"
    if op == "remove":
        return BREAKING, "input schema removed: the tool no longer says what it accepts"
    return WARNING, f"input schema {_VERB[op]}"


def _resolve(root: Any, segments: Sequence[str]) -> Any:
    """The value at `segments` inside `root`, or None where the path does not lead."""
    node = root
    for segment in segments:
        if isinstance(node, dict):
            node = node.get(segment)
        elif isinstance(node, list) and segment.isdigit() and int(segment) < len(node):
            node = node[int(segment)]
        else:
            return None
    return node


def _names(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _quoted(names: Iterable[str]) -> str:
    return ", ".join(f"'{name}'" for name in names)


# The names the new side's object at these pointer segments requires (looked up once per object).
_RequiredOf = Callable[[tuple[str, ...]], frozenset[str]]


def _schema_change(io: str, spot: _Spot, op: Op, old: Any, new: Any, required_of: _RequiredOf) -> _Verdict:
    if spot.keyword is None:
        return _step_change(io, spot, op, old, new, required_of)
    keyword, subject = spot.keyword, _subject(io, spot.path)
    if spot.rest:
        inner = "/".join((keyword, *spot.rest))
        return WARNING, f"'{inner}' of {subject} {_VERB[op]}"
    if keyword in ("description", "title"):
        return WARNING, f"{keyword} of {subject} {_VERB[op]}"
    if keyword == "type":
        return _type_change(io, subject, old, new)
    if keyword == "required":
        return _required_change(io, spot.path, old, new)
    if keyword == "properties":
        return _properties_change(io, spot, op, old, new, required_of)
    if io == "output":
        return WARNING, f"'{keyword}' of {subject} {_VERB[op]}: {_text(old)} → {_text(new)}"
    if keyword in _UPPER | _LOWER and op == "replace":
        return _bound_change(keyword, subject, old, new)
    if keyword == "enum" and op == "replace":
        return _enum_change(subject, old, new)
    if keyword in _CONSTRAINTS and (op != "replace" or keyword in ("pattern", "const")):
        tighter, looser = _CONSTRAINTS[keyword]
        if op == "remove":
            return INFO, f"{subject} {looser} {_text(old)}"
        return BREAKING, f"{subject} {tighter} {_text(new)}" + (f" (was {_text(old)})" if op == "replace" else "")
    if keyword in ("$defs", "definitions") and op == "add":
        return INFO, f"{keyword} added to {subject}"
    return WARNING, f"'{keyword}' of {subject} {_VERB[op]}: {_text(old)} → {_text(new)}"


def _subject(io: str, path: Sequence[str]) -> str:
    return f"{io} property '{_render(path)}'" if path else f"the {io} schema"


def _step_change(io: str, spot: _Spot, op: Op, old: Any, new: Any, required_of: _RequiredOf) -> _Verdict:
    """A whole schema added, removed or replaced (by a non-dict) at a property, branch, `items` …"""
    subject, parent = _subject(io, spot.path), _subject(io, spot.path[:-1])
    kind = spot.step[0]
    if kind == "property":
        if op == "remove":
            return BREAKING, f"{subject} removed"
        if op == "add":
            if io == "output":
                return INFO, f"{subject} added"
            if spot.step[1] in required_of(spot.holder):
                return BREAKING, f"new required {subject}"
            return INFO, f"optional {subject} added"
        if io == "output":
            return BREAKING, f"{subject} retyped from {_text(old)} to {_text(new)}"
        return _openness_change(subject, old, new, "accepts any value", "rejects every value")
    if kind == "branch" and op != "replace":
        keyword, index = spot.step[1], spot.step[2]
        where = f"{keyword} branch {index} of {parent}"
        if io == "output":
            return WARNING, f"{where} {_VERB[op]}"
        narrows = (op == "remove") != (keyword == "allOf")
        return (BREAKING, f"{where} {_VERB[op]}: fewer values accepted") if narrows else (INFO, f"{where} {_VERB[op]}")
    if kind == "one" and spot.step[1] in ("additionalProperties", "unevaluatedProperties") and io == "input":
        return _openness_change(parent, old, new, "accepts extra properties", "rejects extra properties")
    if kind == "map" and spot.step[1] in ("$defs", "definitions"):
        name = spot.step[2]
        return (INFO, f"definition '{name}' added") if op == "add" else (WARNING, f"definition '{name}' {_VERB[op]}")
    return WARNING, f"{subject} {_VERB[op]}: {_text(old)} → {_text(new)}"


def _openness(value: Any) -> str:
    if value is ABSENT or value is True or value == {}:
        return "open"
    return "closed" if value is False else "schema" if isinstance(value, dict) else "other"


def _openness_change(subject: str, old: Any, new: Any, open_words: str, closed_words: str) -> _Verdict:
    """additionalProperties, or a property's schema, between absent/true, a schema and false."""
    before, after = _openness(old), _openness(new)
    if "other" in (before, after) or before == after:
        return WARNING, f"{subject} changed from {_text(old)} to {_text(new)}"
    if after == "closed" or before == "open":
        return BREAKING, f"{subject} now {closed_words if after == 'closed' else 'has to match a schema'}"
    return INFO, f"{subject} now {open_words if after == 'open' else 'allows more'}"


_UPPER = frozenset({"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"})
_LOWER = frozenset({"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"})


# A keyword that limits what an input accepts: (words when it is added or changed, words when removed).
_CONSTRAINTS = {
    "pattern": ("must now match pattern", "no longer has to match pattern"),
    "const": ("must now equal", "no longer has to equal"),
    "enum": ("now limited to", "no longer limited to"),
    **{k: (f"must now match {k}", f"no longer has to match {k}") for k in ("anyOf", "oneOf", "allOf")},
    **{k: (f"now has {k}", f"no longer has {k}") for k in _UPPER | _LOWER},
}


def _bound_change(keyword: str, subject: str, old: Any, new: Any) -> _Verdict:
    """A bound moved: breaking when it lets fewer values through."""
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (old, new))
    if not numbers:
        return WARNING, f"{keyword} of {subject} changed from {_text(old)} to {_text(new)}"
    lower = new < old
    moved = f"{keyword} of {subject} {'lowered' if lower else 'raised'} from {_text(old)} to {_text(new)}"
    return (BREAKING if lower == (keyword in _UPPER) else INFO), moved


def _types(value: Any) -> frozenset[str] | None:
    if isinstance(value, str):
        return frozenset({value})
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return frozenset(value)
    return None


def _type_text(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value) if isinstance(value, str) else _text(value)


def _type_change(io: str, subject: str, old: Any, new: Any) -> _Verdict:
    before, after = _types(old), _types(new)
    fmt = f"from {_type_text(old)} to {_type_text(new)}"
    if old is ABSENT and after is not None:
        return BREAKING, f"{subject} now restricted to type {_type_text(new)}"
    if new is ABSENT and before is not None:
        return (BREAKING if io == "output" else INFO), f"{subject} no longer restricted to type {_type_text(old)}"
    if before is None or after is None:
        return WARNING, f"type of {subject} changed {fmt}"
    if before == after:
        return INFO, f"type of {subject} reordered {fmt}"
    if io == "output":
        return BREAKING, f"{subject} retyped {fmt}"
    narrowed = any(t not in after and not (t == "integer" and "number" in after) for t in before)
    if not narrowed:
        return INFO, f"type of {subject} widened {fmt}"
    return BREAKING, (f"type of {subject} narrowed {fmt}" if after < before else f"{subject} retyped {fmt}")


def _required_change(io: str, path: Sequence[str], old: Any, new: Any) -> _Verdict:
    before, after = _names(old), _names(new)
    if (old is not ABSENT and not isinstance(old, list)) or (new is not ABSENT and not isinstance(new, list)):
        return WARNING, f"required of {_subject(io, path)} changed from {_text(old)} to {_text(new)}"
    before_set, after_set = frozenset(before), frozenset(after)  # sets: a list's `in` made this quadratic
    gained = [_render([*path, name]) for name in after if name not in before_set]
    dropped = [_render([*path, name]) for name in before if name not in after_set]
    s = "ies" if len(gained or dropped) > 1 else "y"
    if io == "input":
        if gained:
            return BREAKING, f"new required input propert{s} {_quoted(gained)}"
        if dropped:
            return INFO, f"input propert{s} {_quoted(dropped)} no longer required"
    else:
        if dropped:
            return BREAKING, f"output propert{s} {_quoted(dropped)} no longer required: results may omit it"
        if gained:
            return INFO, f"output propert{s} {_quoted(gained)} now required"
    return INFO, f"required of {_subject(io, path)} reordered"


def _properties_change(io: str, spot: _Spot, op: Op, old: Any, new: Any, required_of: _RequiredOf) -> _Verdict:
    """The whole `properties` keyword added or removed, judged as each property in it added or removed."""
    side = old if op == "remove" else new
    if op == "replace" or not isinstance(side, dict) or not side:
        return WARNING if op == "replace" else INFO, f"properties of {_subject(io, spot.path)} {_VERB[op]}"
    verdicts = [
        _step_change(
            io, _Spot((*spot.path, name), None, (), ("property", name), spot.holder), op, old, new, required_of
        )
        for name in side
    ]
    worst = worst_of(severity for severity, _ in verdicts) or INFO
    texts = [text for severity, text in verdicts if severity is worst]
    return worst, "; ".join(texts[:3]) + (f" and {len(texts) - 3} more" if len(texts) > 3 else "")


def _enum_change(subject: str, old: Any, new: Any) -> _Verdict:
    """An enum replaced: breaking when a value went, info when values only came (or moved)."""
    if not (isinstance(old, list) and isinstance(new, list)):
        return WARNING, f"enum of {subject} changed from {_text(old)} to {_text(new)}"
    before = {_canonical(v) for v in old}
    after = {_canonical(v) for v in new}
    dropped = [v for v in old if _canonical(v) not in after]
    if dropped:
        return BREAKING, f"{subject} no longer accepts {', '.join(_text(v, 30) for v in dropped[:5])}"
    gained = [v for v in new if _canonical(v) not in before]
    if gained:
        return INFO, f"{subject} now also accepts {', '.join(_text(v, 30) for v in gained[:5])}"
    return INFO, f"enum of {subject} reordered"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


# Each hint: its default when absent, the value that moves towards harm, and the words for each way.
_HINTS: dict[str, tuple[bool, bool, str, str]] = {
    "readOnlyHint": (False, False, "no longer read-only", "now read-only"),
    "destructiveHint": (True, True, "now destructive", "no longer destructive"),
    "idempotentHint": (False, False, "no longer idempotent", "now idempotent"),
    "openWorldHint": (True, True, "now open-world", "no longer open-world"),
}


def _hint_words(hint: str, old: Any, new: Any) -> tuple[bool, str]:
    """(moved towards harm, words) for one hint going from `old` to `new` (either may be absent)."""
    default, harmful, worse, better = _HINTS[hint]
    before = old if isinstance(old, bool) else default
    after = new if isinstance(new, bool) else default
    detail = f"{hint} {_shown(old, default)} → {_shown(new, default)}"
    if before == after:
        return False, f"{detail}, the same in effect"
    risky = after == harmful
    return risky, f"{worse if risky else better}: {detail}"


def _shown(value: Any, default: bool) -> str:
    return f"absent (default {_text(default)})" if value is ABSENT else _text(value)


def _annotation_change(at: tuple[str, ...], op: Op, old: Any, new: Any) -> _Verdict:
    if len(at) == 1 and at[0] in _HINTS:
        return WARNING, _hint_words(at[0], old, new)[1]
    if at:
        return WARNING, f"annotation '{'/'.join(at)}' {_VERB[op]}: {_text(old)} → {_text(new)}"
    before = old if isinstance(old, dict) else {}
    after = new if isinstance(new, dict) else {}
    flips = [
        _hint_words(hint, before.get(hint, ABSENT), after.get(hint, ABSENT))
        for hint in _HINTS
        if before.get(hint, ABSENT) != after.get(hint, ABSENT)
    ]
    flips.sort(key=lambda flip: not flip[0])  # towards harm first, so the reason starts with it
    words = "; ".join(text for _, text in flips)
    return WARNING, (f"{words} (annotations {_VERB[op]})" if words else f"annotations {_VERB[op]}")


def _arguments_by_name(arguments: Any) -> dict[str, Mapping[str, Any]]:
    named = [a for a in arguments if isinstance(a, dict)] if isinstance(arguments, list) else []
    return {str(a.get("name")): a for a in reversed(named)}  # reversed: the first of a repeated name wins


@dataclass(frozen=True)
class _Arguments:
    """A prompt's arguments on both sides, as sent and by name (made once per item, not per op)."""

    old: Any
    new: Any
    before: Mapping[str, Mapping[str, Any]]
    after: Mapping[str, Mapping[str, Any]]


def _argument_change(at: tuple[str, ...], op: Op, old: Any, new: Any, arguments: _Arguments) -> _Verdict:
    """A prompt's arguments: the ops go index by index, but arguments are passed by name, so each
    op is judged against the argument of the same name on the other side, wherever it sits."""
    before, after = arguments.before, arguments.after
    if len(at) >= 2 and at[1] != "name":
        name = str(_resolve(arguments.new, (at[0], "name")) or _resolve(arguments.old, (at[0], "name")))
        return _argument_verdict(name, before.get(name), after.get(name), at[1])
    if not at:
        involved = set(before) | set(after)
    else:
        sides = (old, new) if len(at) == 1 else ({"name": old}, {"name": new})
        involved = {str(side["name"]) for side in sides if isinstance(side, dict) and "name" in side}
        involved.discard(str(ABSENT))
    # Only the names this op involves are looked up: a set of every argument per op would be quadratic.
    if len(at) == 2 and any(n not in after for n in involved) and any(n not in before for n in involved):
        return BREAKING, f"argument '{old}' renamed to '{new}'"
    verdicts = [_argument_verdict(name, before.get(name), after.get(name)) for name in sorted(involved)]
    worst = worst_of(severity for severity, _ in verdicts) or INFO
    return worst, "; ".join(text for severity, text in verdicts if severity is worst) or f"arguments {_VERB[op]}"


def _required_argument(argument: Mapping[str, Any]) -> bool:
    return argument.get("required") is True


def _argument_verdict(
    name: str, old: Mapping[str, Any] | None, new: Mapping[str, Any] | None, key: str | None = None
) -> _Verdict:
    """One argument of that name on each side (None: not there), the whole of it or only its `key`."""
    if old is None or new is None:
        if key is not None:  # part of an argument added or removed: that op carries the verdict
            return INFO, f"{key} of argument '{name}', which was added or removed"
        if new is None:
            return BREAKING, f"argument '{name}' removed"
        if _required_argument(new):
            return BREAKING, f"new required argument '{name}'"
        return INFO, f"optional argument '{name}' added"
    if key in (None, "required") and _required_argument(new) and not _required_argument(old):
        return BREAKING, f"argument '{name}' now required"
    for one in (key,) if key is not None else ("description", "title", "required"):
        if old.get(one, ABSENT) != new.get(one, ABSENT):
            if one != "required":
                return (WARNING if one in ("description", "title") else INFO), f"{one} of argument '{name}' changed"
            if _required_argument(old) and not _required_argument(new):
                return INFO, f"argument '{name}' no longer required"
    if key is None:
        return INFO, f"argument '{name}' moved"
    return INFO, f"{key} of argument '{name}' changed, the same in effect"
