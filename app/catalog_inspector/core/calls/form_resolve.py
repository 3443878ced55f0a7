"""Resolving a schema node for the form: local `$ref`s followed, `allOf` merged, nothing fetched.

`Resolver.expand` turns one (untrusted) schema node into a plain dict the form
builder can read, or into the reason it cannot: a `$ref` is followed only when it
is a `#/…` JSON pointer into the same document (a remote one is never fetched,
an anchor is not looked up), and `allOf` is merged when its parts agree. A
`$ref` loop that nests nothing (`#/$defs/a` → `#/$defs/b` → `#/$defs/a`) is
caught by the refs already followed for the node; recursion that nests fields
is the builder's to stop (`core.calls.form.MAX_DEPTH`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from catalog_inspector.core.pointer import pointer_parts

__all__ = ["MAX_EXPANSIONS", "Resolver", "merge"]

# Refs followed plus allOf parts expanded for one node: more is a loop or a schema
# built to make the form spend its time resolving.
MAX_EXPANSIONS = 64
REF_SHOWN = 200  # a $ref quoted in a reason is cut to this many characters

# Keywords where the first schema merged wins (words for people, or data the form ignores).
_FIRST_WINS = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$id",
        "$schema",
        "$anchor",
        "$defs",
        "definitions",
    }
)
# Limits where merging keeps the stricter one (the larger lower bound, the smaller upper bound).
_LOWER = frozenset({"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"})
_UPPER = frozenset({"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"})


def _quoted(ref: str) -> str:
    return repr(ref if len(ref) <= REF_SHOWN else ref[:REF_SHOWN] + "…")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _types(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _merge_key(key: str, a: Any, b: Any) -> tuple[bool, Any]:
    """The merged value of one keyword both schemas have, or (False, None) when they disagree."""
    if key in _FIRST_WINS or a == b:
        return True, a
    if key in _LOWER and _is_number(a) and _is_number(b):
        return True, max(a, b)
    if key in _UPPER and _is_number(a) and _is_number(b):
        return True, min(a, b)
    if key == "properties" and isinstance(a, dict) and isinstance(b, dict):
        # A property both describe differently becomes their allOf, merged (or not) when it is built.
        merged = dict(a)
        for name, sub in b.items():
            merged[name] = sub if name not in merged or merged[name] == sub else {"allOf": [merged[name], sub]}
        return True, merged
    if key == "required" and isinstance(a, list) and isinstance(b, list):
        return True, a + [name for name in b if name not in a]
    if key == "type":
        common = [t for t in _types(a) if t in _types(b)]
        return bool(common), common[0] if len(common) == 1 else common
    if key == "enum" and isinstance(a, list) and isinstance(b, list):
        common = [value for value in a if value in b]
        return bool(common), common
    return False, None


def merge(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any] | str:
    """Both schemas as one (annotations from `first`), or the reason they cannot be merged simply."""
    merged = dict(first)
    for key, value in second.items():
        if key not in merged:
            merged[key] = value
            continue
        ok, combined = _merge_key(key, merged[key], value)
        if not ok:
            return f"the combined schemas disagree on {key!r}"
        merged[key] = combined
    return merged


class Resolver:
    """Expands schema nodes of one document: its local `$ref`s followed, its `allOf`s merged.

    Attributes:
        root: the whole schema document `#/…` pointers resolve against.
    """

    def __init__(self, root: Any) -> None:
        self.root = root

    def lookup(self, ref: str) -> tuple[bool, Any]:
        """(True, the node at `ref`), or (False, why not): only `#` and `#/…` pointers resolve."""
        if not ref.startswith("#"):
            return False, (
                f"unresolvable $ref {_quoted(ref)}: only references inside the schema ('#/…') are followed; "
                "nothing is fetched"
            )
        fragment = unquote(ref[1:])
        if fragment == "":
            return True, self.root
        if not fragment.startswith("/"):
            return False, f"unresolvable $ref {_quoted(ref)}: only '#/…' pointers are followed, not anchors"
        node = self.root
        for part in pointer_parts(fragment) or ():
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isascii() and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                return False, f"unresolvable $ref {_quoted(ref)}: nothing at that pointer in the schema"
        return True, node

    def expand(self, schema: Any) -> tuple[dict[str, Any] | str, tuple[str, ...]]:
        """The node as one dict with no `$ref` or `allOf` left (or why not), and the refs followed."""
        followed: list[str] = []
        node = self._expand(schema, followed, [0])
        return node, tuple(followed)

    def _expand(self, schema: Any, followed: list[str], spent: list[int]) -> dict[str, Any] | str:
        spent[0] += 1
        if spent[0] > MAX_EXPANSIONS:
            return f"more than {MAX_EXPANSIONS} $ref and allOf steps for one field"
        if schema is True:
            return {}
        if schema is False:
            return "the schema is `false`: no value is valid here"
        if not isinstance(schema, dict):
            return f"not a schema (a JSON {type(schema).__name__})"
        for keyword in ("$dynamicRef", "$recursiveRef"):
            if keyword in schema:
                return f"{keyword} is not followed by the form"
        node: dict[str, Any] | str = schema
        if "$ref" in schema:
            node = self._follow(schema, followed, spent)
        if isinstance(node, dict) and "allOf" in node:
            node = self._all_of(node, followed, spent)
        return node

    def _follow(self, schema: dict[str, Any], followed: list[str], spent: list[int]) -> dict[str, Any] | str:
        ref = schema["$ref"]
        if not isinstance(ref, str):
            return "$ref is not a string"
        if ref in followed:
            return f"the $ref {_quoted(ref)} refers to itself without nesting anything"
        followed.append(ref)
        found, target = self.lookup(ref)
        if not found:
            return str(target)
        expanded = self._expand(target, followed, spent)
        siblings = {key: value for key, value in schema.items() if key != "$ref"}
        if isinstance(expanded, str) or not siblings:
            return expanded
        merged = merge(siblings, expanded)  # the referring schema's own title and description win
        return merged if isinstance(merged, dict) else f"$ref {_quoted(ref)} and its sibling keywords: {merged}"

    def _all_of(self, node: dict[str, Any], followed: list[str], spent: list[int]) -> dict[str, Any] | str:
        parts = node["allOf"]
        if not isinstance(parts, list):
            return "allOf is not a list"
        merged = {key: value for key, value in node.items() if key != "allOf"}
        for part in parts:
            expanded = self._expand(part, followed, spent)
            if isinstance(expanded, str):
                return f"allOf: {expanded}"
            result = merge(merged, expanded)
            if isinstance(result, str):
                return f"allOf: {result}"
            merged = result
        return merged
