"""The form a tool's input schema describes: a tree of fields, built from an untrusted schema, Qt-free.

`build_form` reads a JSON Schema into a `FormField` tree; the call panel's form
widget renders it. What the form cannot express becomes a `json` field (a raw
JSON editor for that one value) whose `reason` says why — never an omission:

    schema                                   field
    type string / number / integer / boolean  that kind; limits, pattern, format in `hints`
    type null                                 null
    enum / const                              enum (a choice of values) / const (fixed)
    type object with properties               object; `required` marks its properties, kept in the schema's
                                              order (required first when it has none: see `in_form_order`)
    type array with items                     array with an `items` template
    oneOf / anyOf, type ["a", "b"]            choice of branches (labelled)
    ["x", "null"], anyOf [{…}, {type null}]   the non-null field, `nullable`
    $ref "#/…", allOf                         followed / merged (see `core.calls.form_resolve`)
    anything else                             json, with a reason

Strings from the schema (titles, descriptions, patterns, labels) are kept as
data: whoever shows them bounds them and shows them as plain text (a `pattern` is
never compiled here; validation runs it where it can be stopped). The work is
bounded: `MAX_FIELDS` fields per form, `MAX_DEPTH` levels of nesting (recursive
`$ref`s stop there), `MAX_BRANCHES` branches and `MAX_ENUM` values per field.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal

from catalog_inspector.core.calls.form_resolve import Resolver, merge

__all__ = [
    "MAX_BRANCHES",
    "MAX_DEPTH",
    "MAX_ENUM",
    "MAX_FIELDS",
    "MAX_ROWS",
    "MISSING",
    "FieldKind",
    "FormField",
    "build_form",
    "empty_value",
    "fits",
    "in_form_order",
    "json_equal",
    "pick_branch",
]

MAX_FIELDS = 500  # fields per form; a schema needing more is edited as JSON at the root
MAX_DEPTH = 8  # levels of fields below the root (properties, items, branches); the value there is edited as JSON
MAX_BRANCHES = 32  # oneOf/anyOf branches (or type names) per field
MAX_ENUM = 1000  # enum values per field
MAX_ROWS = 200  # array items a form shows as rows; a longer array is edited as JSON
MAX_EMPTY_ROWS = 10  # rows `empty_value` makes for `minItems`

FieldKind = Literal[
    "string", "number", "integer", "boolean", "null", "enum", "const", "object", "array", "choice", "json"
]


class _Missing:
    """The type of MISSING: no default, no const."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final[Any] = _Missing()

_SCALARS = frozenset({"string", "number", "integer", "boolean", "null", "object", "array"})
_UNSUPPORTED = ("if", "dependentSchemas", "dependencies", "prefixItems")
_ANNOTATIONS = ("title", "description", "default", "examples", "$comment")
_STRING_HINTS = ("format", "pattern", "contentMediaType", "contentEncoding")
_COUNT_HINTS = {
    "string": ("minLength", "maxLength"),
    "array": ("minItems", "maxItems"),
    "object": ("minProperties", "maxProperties"),
}
_NUMBER_HINTS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_INFER = (
    (
        "object",
        ("properties", "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties"),
    ),
    ("array", ("items", "minItems", "maxItems", "uniqueItems", "contains")),
    ("string", ("minLength", "maxLength", "pattern", "format")),
    ("number", ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")),
)


@dataclass(frozen=True)
class FormField:
    """One field of a form: what kind of editor, for which key, with which limits and children.

    Attributes:
        kind: the editor: a JSON type, `enum`, `const`, `choice` (of `branches`) or `json` (raw JSON).
        key: the property name; "" for the root and for array items.
        title, description: the schema's words for it ("" when absent); untrusted text.
        required: the enclosing object requires the key.
        nullable: null is accepted besides the kind's own values.
        default: the schema's default, or MISSING.
        hints: limits and formats for people and placeholders (minimum, maxLength, pattern, format …);
            for a `json` field, `type` is the type the schema named, if one.
        enum: the values of an `enum` field.
        const: the value of a `const` field, else MISSING.
        properties: an `object`'s fields, in schema order.
        items: an `array`'s item template.
        branches: a `choice`'s (label, field) pairs; each field is the whole value in that branch.
        reason: why a `json` field is not a form.
    """

    kind: FieldKind
    key: str = ""
    title: str = ""
    description: str = ""
    required: bool = False
    nullable: bool = False
    default: Any = MISSING
    hints: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    enum: tuple[Any, ...] = ()
    const: Any = MISSING
    properties: tuple[FormField, ...] = ()
    items: FormField | None = None
    branches: tuple[tuple[str, FormField], ...] = ()
    reason: str = ""


class _TooMany(Exception):
    """The schema needs more than MAX_FIELDS fields."""


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _is_number(value: Any) -> bool:
    """A JSON number: not a bool, not NaN or infinite (an int of any size is finite)."""
    return isinstance(value, int) and not isinstance(value, bool) or isinstance(value, float) and math.isfinite(value)


def _hints(node: dict[str, Any], kind: str) -> dict[str, Any]:
    hints: dict[str, Any] = {}
    if kind == "string":
        hints.update((k, node[k]) for k in _STRING_HINTS if isinstance(node.get(k), str))
    counts = _COUNT_HINTS.get(kind, ())
    hints.update((k, node[k]) for k in counts if isinstance(node.get(k), int) and not isinstance(node[k], bool))
    if kind in ("number", "integer"):
        hints.update((k, node[k]) for k in _NUMBER_HINTS if _is_number(node.get(k)))
        for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
            if node.get(exclusive) is True and bound in hints:  # draft 4: a boolean that makes the bound exclusive
                hints[exclusive] = hints.pop(bound)
    if kind == "array" and node.get("uniqueItems") is True:
        hints["uniqueItems"] = True
    if kind == "object" and isinstance(node.get("additionalProperties"), bool):
        hints["additionalProperties"] = node["additionalProperties"]
    return hints


def _types(value: Any) -> tuple[list[str], bool] | str | None:
    """The non-null type names and whether null is allowed; None when absent; a reason when unusable."""
    if value is None:
        return None
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else None
    if names is None or not all(isinstance(name, str) for name in names):
        return "`type` is neither a type name nor a list of them"
    unknown = [name for name in names if name not in _SCALARS]
    if unknown:
        return f"unknown type {str(unknown[0])[:100]!r}"
    rest = list(dict.fromkeys(name for name in names if name != "null"))
    return rest, "null" in names


def _typed(node: dict[str, Any]) -> tuple[dict[str, Any], list[str] | None, bool] | str:
    """The node with "null" taken out of its `type`, its other type names (None: it names none),
    whether null is allowed; or the reason the form cannot show it."""
    unsupported = [keyword for keyword in _UNSUPPORTED if keyword in node]
    if isinstance(node.get("items"), list):
        unsupported.append("items as a list")
    if unsupported:
        return f"{unsupported[0]} is not expressible as a form"
    if "oneOf" in node and "anyOf" in node:
        return "both oneOf and anyOf: edited as JSON"
    types = _types(node.get("type"))
    if isinstance(types, str):
        return types
    if types is None:
        return node, None, False
    names, null_too = types
    node = {key: value for key, value in node.items() if key != "type"}
    if names:
        node["type"] = names[0] if len(names) == 1 else names
    return node, names, null_too


def _is_null_only(node: dict[str, Any]) -> bool:
    kind = node.get("type")
    return (
        kind == "null" or kind == ["null"] or ("const" in node and node["const"] is None) or node.get("enum") == [None]
    )


def in_form_order(fields: list[FormField]) -> list[FormField]:
    """An object's properties as the form lists them: in the schema's order, as the server sent it.

    Keys that arrive sorted (`a`, `b`, `c`) carry no order of the author's: a serializer sorted them (Go's
    encoding/json sorts a map's keys, Python's `sort_keys` too). There the required properties come first,
    each group still sorted; any other order is the author's and is kept as it is.
    """
    keys = [prop.key for prop in fields]
    if len(keys) < 2 or keys != sorted(keys):
        return fields
    return [prop for prop in fields if prop.required] + [prop for prop in fields if not prop.required]


class _Builder:
    def __init__(self, root: Any) -> None:
        self.resolver = Resolver(root)
        self.count = 0
        self.refs: list[str] = []  # refs followed on the way to the node being built

    def _counted(self) -> None:
        self.count += 1
        if self.count > MAX_FIELDS:
            raise _TooMany

    def json(self, node: Any, key: str, required: bool, reason: str, nullable: bool = False) -> FormField:
        """A raw-JSON field in place of `node` (the caller counts it)."""
        node = node if isinstance(node, dict) else {}
        types = _types(node.get("type"))
        hints = {"type": types[0][0]} if isinstance(types, tuple) and len(types[0]) == 1 else {}
        return FormField(
            "json",
            key,
            _text(node.get("title")),
            _text(node.get("description")),
            required,
            nullable,
            node.get("default", MISSING),
            MappingProxyType(hints),
            reason=reason,
        )

    def field(self, schema: Any, key: str, required: bool, depth: int) -> FormField:
        self._counted()
        node, followed = self.resolver.expand(schema)
        if isinstance(node, str):
            return self.json(schema, key, required, node)
        return self.node(node, followed, key, required, depth, False)

    def node(
        self, node: dict[str, Any], followed: tuple[str, ...], key: str, required: bool, depth: int, nullable: bool
    ) -> FormField:
        if depth >= MAX_DEPTH:
            recursive = next((ref for ref in followed if ref in self.refs), None)
            if recursive is not None:
                reason = f"recursive $ref {recursive[:200]!r}: the form stops after {MAX_DEPTH} levels"
            else:
                reason = f"nested deeper than the form's {MAX_DEPTH} levels"
            return self.json(node, key, required, reason, nullable)
        self.refs.extend(followed)
        try:
            return self.shape(node, key, required, depth, nullable)
        finally:
            del self.refs[len(self.refs) - len(followed) :]

    def shape(self, node: dict[str, Any], key: str, required: bool, depth: int, nullable: bool) -> FormField:
        typed = _typed(node)
        if isinstance(typed, str):
            return self.json(node, key, required, typed, nullable)
        node, names, null_too = typed
        common: dict[str, Any] = {
            "key": key,
            "title": _text(node.get("title")),
            "description": _text(node.get("description")),
            "required": required,
            "nullable": nullable or null_too,
            "default": node.get("default", MISSING),
        }
        for keyword in ("oneOf", "anyOf"):
            if keyword in node:
                return self.choice(node, keyword, common, depth)
        if "const" in node:
            return FormField("const", const=node["const"], **common)
        if "enum" in node:
            values = node["enum"]
            if not isinstance(values, list) or not values or len(values) > MAX_ENUM:
                return self.json(node, key, required, f"an enum that is not a list of 1 to {MAX_ENUM} values", nullable)
            return FormField("enum", enum=tuple(values), **common)
        if names == []:
            return FormField("null", **{**common, "nullable": False})
        if names is not None and len(names) > 1:
            return self.type_choice(node, names, common, depth)
        kind: Any = names[0] if names else next((name for name, words in _INFER if any(w in node for w in words)), None)
        if kind is None:
            return self.json(node, key, required, "the schema names no type: any JSON value", common["nullable"])
        if kind == "object":
            return self.object(node, common, depth)
        if kind == "array":
            return self.array(node, common, depth)
        return FormField(kind, hints=MappingProxyType(_hints(node, kind)), **common)

    def object(self, node: dict[str, Any], common: dict[str, Any], depth: int) -> FormField:
        properties = node.get("properties")
        hints = MappingProxyType(_hints(node, "object"))
        if properties is None and node.get("additionalProperties") is not False:
            return self.json(
                {**node, "type": "object"},
                common["key"],
                common["required"],
                "an object whose keys the schema does not list",
                common["nullable"],
            )
        if not isinstance(properties, (dict, type(None))):
            return self.json(
                node, common["key"], common["required"], "`properties` is not an object", common["nullable"]
            )
        listed = node.get("required")
        required = [name for name in listed if isinstance(name, str)] if isinstance(listed, list) else []
        fields = [self.field(sub, str(name), name in required, depth + 1) for name, sub in (properties or {}).items()]
        fields = in_form_order(fields)
        for name in required:
            if name not in (properties or {}):
                self._counted()
                fields.append(self.json({}, name, True, "required by the schema but not described in `properties`"))
        return FormField("object", hints=hints, properties=tuple(fields), **common)

    def array(self, node: dict[str, Any], common: dict[str, Any], depth: int) -> FormField:
        items = node.get("items", True)
        if items is True:
            self._counted()
            template = FormField(
                "json", required=True, reason="the schema does not describe the items: each is edited as JSON"
            )
        else:
            template = self.field(items, "", True, depth + 1)
        return FormField("array", hints=MappingProxyType(_hints(node, "array")), items=template, **common)

    def choice(self, node: dict[str, Any], keyword: str, common: dict[str, Any], depth: int) -> FormField:
        subs = node[keyword]
        key, required = common["key"], common["required"]
        if not isinstance(subs, list) or not subs or len(subs) > MAX_BRANCHES:
            return self.json(
                node, key, required, f"{keyword} is not a list of 1 to {MAX_BRANCHES} schemas", common["nullable"]
            )
        base = {k: v for k, v in node.items() if k != keyword}
        expanded = [self.resolver.expand(sub) for sub in subs]
        kept = [
            (sub, n, followed)
            for sub, (n, followed) in zip(subs, expanded, strict=True)
            if isinstance(n, str) or not _is_null_only(n)
        ]
        nullable = common["nullable"] or len(kept) < len(subs)
        if not kept:
            return FormField("null", **{**common, "nullable": False})
        if len(kept) == 1:  # X or null: the field is X, nullable
            sub, n, followed = kept[0]
            merged = n if isinstance(n, str) else merge(base, n)
            if isinstance(merged, str):
                return self.json(node, key, required, f"{keyword}: {merged}", nullable)
            # One level deeper, though it is the same value: the branch may refer back to this node.
            return self.node(merged, followed, key, required, depth + 1, nullable)
        plain = {k: v for k, v in base.items() if k not in _ANNOTATIONS}
        fields = []
        for sub, n, followed in kept:
            merged = n if isinstance(n, str) else merge(n, plain)  # the branch's own title wins
            self._counted()
            if isinstance(merged, str):
                fields.append(self.json(sub, key, required, f"{keyword} branch: {merged}"))
            else:
                fields.append(self.node(merged, followed, key, required, depth + 1, False))
        return FormField(
            "choice", branches=tuple(zip(_labels(fields), fields, strict=True)), **{**common, "nullable": nullable}
        )

    def type_choice(self, node: dict[str, Any], names: list[str], common: dict[str, Any], depth: int) -> FormField:
        plain = {k: v for k, v in node.items() if k not in _ANNOTATIONS}
        fields = []
        for name in names[:MAX_BRANCHES]:
            self._counted()
            fields.append(self.node({**plain, "type": name}, (), common["key"], common["required"], depth + 1, False))
        return FormField("choice", branches=tuple(zip(names, fields, strict=False)), **common)


def build_form(schema: Any) -> FormField:
    """The form for `schema` (a tool's input schema, untrusted); never raises for any JSON value."""
    builder = _Builder(schema)
    try:
        return builder.field(schema, "", True, 0)
    except _TooMany:
        return FormField("json", required=True, reason=f"the schema needs more than {MAX_FIELDS} form fields")
    except RecursionError:
        return FormField("json", required=True, reason="the schema is nested too deeply to read as a form")


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:79] + "…"


def _label(index: int, fields: list[FormField]) -> str:
    """A branch's name: its title, its constant, its discriminating property, or its kind."""
    own = fields[index]
    if own.title:
        return own.title
    if own.kind == "const":
        return _short(own.const)
    if own.kind != "object":
        return "JSON value" if own.kind == "json" else own.kind
    for prop in own.properties:
        if prop.kind == "const":
            return f"{prop.key}: {_short(prop.const)}"
    others = [
        {p.key for p in other.properties} for i, other in enumerate(fields) if i != index and other.kind == "object"
    ]
    # A property no other branch has names this one best; one that some other branch lacks, next best.
    for differs in (all, any):
        for prop in own.properties:
            if differs(prop.key not in keys for keys in others):
                return f"with {prop.key}"
    others_required = [other for i, other in enumerate(fields) if i != index and other.kind == "object"]
    for prop in own.properties:
        if prop.required and any(
            not p.required for other in others_required for p in other.properties if p.key == prop.key
        ):
            return f"with {prop.key}"
    return "object"


def _labels(fields: list[FormField]) -> list[str]:
    labels = [_label(i, fields) for i in range(len(fields))]
    return [f"{label} ({i + 1})" if labels.count(label) > 1 else label for i, label in enumerate(labels)]


def _empty_number(field: FormField) -> int | float:
    hints, integer = field.hints, field.kind == "integer"
    step = 1 if integer else 0
    low = hints.get("minimum", hints["exclusiveMinimum"] + step if "exclusiveMinimum" in hints else None)
    high = hints.get("maximum", hints["exclusiveMaximum"] - step if "exclusiveMaximum" in hints else None)
    value: int | float = 0
    if low is not None and value < low:
        value = math.ceil(low) if integer else low
    elif high is not None and value > high:
        value = math.floor(high) if integer else high
    multiple = hints.get("multipleOf")
    if multiple and value % multiple:
        value = math.ceil(value / multiple) * multiple
    return int(value) if integer else value


_EMPTY_JSON: dict[str, Any] = {"object": {}, "array": [], "string": "", "number": 0, "integer": 0, "boolean": False}


def empty_value(field: FormField) -> Any:
    """What a new form shows: the default if any, else a sensible empty value of the field's kind.

    An object holds its required properties only; an array has `minItems` rows (at most a few).
    """
    if field.default is not MISSING:
        return copy.deepcopy(field.default)
    kind = field.kind
    if kind == "const":
        return copy.deepcopy(field.const)
    if kind == "enum":
        return copy.deepcopy(field.enum[0])
    if kind in ("number", "integer"):
        return _empty_number(field)
    if kind == "object":
        return {prop.key: empty_value(prop) for prop in field.properties if prop.required}
    if kind == "array":
        rows = min(field.hints.get("minItems", 0), MAX_EMPTY_ROWS)
        return [empty_value(field.items) for _ in range(rows)] if field.items else []
    if kind == "choice":
        return empty_value(field.branches[0][1])
    if kind == "json":
        return copy.deepcopy(_EMPTY_JSON.get(field.hints.get("type", ""), None))
    return {"string": "", "boolean": False}.get(kind)


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema sees it: 1 == 1.0, but true != 1 and "1" != 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def fits(field: FormField, value: Any, *, deep: bool = True) -> bool:
    """Whether the form shows `value` in `field` as a form, not as JSON (limits and patterns aside).

    Shallow (`deep=False`) looks at this level only: an object's keys, not their values.
    Missing properties fit (they show as not set); unknown ones do not.
    """
    if value is None and field.nullable:
        return True
    kind = field.kind
    if kind == "json":
        return True
    if kind in ("number", "integer"):
        return _is_number(value) and (kind == "number" or isinstance(value, int) or float(value).is_integer())
    if kind in ("string", "boolean", "null"):
        return isinstance(value, {"string": str, "boolean": bool, "null": type(None)}[kind])
    if kind == "enum":
        return any(json_equal(value, option) for option in field.enum)
    if kind == "const":
        return json_equal(value, field.const)
    if kind == "object":
        if not isinstance(value, dict):
            return False
        by_key = {prop.key: prop for prop in field.properties}
        return all(k in by_key and (not deep or fits(by_key[k], v)) for k, v in value.items())
    if kind == "array":
        items = field.items
        return (
            isinstance(value, list)
            and len(value) <= MAX_ROWS
            and items is not None
            and (not deep or all(fits(items, v) for v in value))
        )
    return any(fits(branch, value, deep=deep) for _, branch in field.branches)


def _discriminated(field: FormField, value: Any) -> bool:
    """The value's constants (a `kind: "circle"` property) agree with the branch's."""
    if field.kind != "object" or not isinstance(value, dict):
        return True
    return all(json_equal(value[p.key], p.const) for p in field.properties if p.kind == "const" and p.key in value)


def pick_branch(field: FormField, value: Any, current: int = -1) -> int:
    """The branch of a `choice` that `value` belongs to, best effort; -1 when none can show it.

    In order: a branch that fits it wholly; one whose shape fits at the top level and whose
    constants agree; one whose shape fits at the top level. At each step `current` (the
    branch shown now) is preferred, so an ambiguous value does not switch branches.
    """
    order = list(range(len(field.branches)))
    if 0 <= current < len(order):
        order.remove(current)
        order.insert(0, current)
    tests: tuple[Callable[[FormField], bool], ...] = (
        lambda branch: fits(branch, value),
        lambda branch: fits(branch, value, deep=False) and _discriminated(branch, value),
        lambda branch: fits(branch, value, deep=False),
    )
    for test in tests:
        for index in order:
            if test(field.branches[index][1]):
                return index
    return -1
