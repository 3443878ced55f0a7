"""Schema lint: what in a tool's schema a strict host would reject, found without validating any instance.

A schema is checked against its own metaschema (the draft its `$schema` names,
2020-12 by default, as in `core.calls.validation`), then walked along the keywords
that hold subschemas (`properties`, `items`, `anyOf`, `$defs` …; not `default`,
`const`, `enum` or `examples`, which hold data) for arrays without `items` and
for `$ref`s that do not resolve. References resolve inside the document, or to
the metaschemas jsonschema ships (as the validators of `core.calls.validation` do);
nothing is ever fetched.

Schemas are untrusted: the walk is iterative and stops after `MAX_NODES` JSON
values or below `MAX_DEPTH` levels of nesting. A schema over either bound is
linted only as far as the walk got (`too_large` says so); the metaschema check
and the `$ref` resolution, which read the whole document, are then skipped.
Qt-free and synchronous: the app runs it off the GUI thread.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

from catalog_inspector.core.calls.validation import pointer_of, validator_class

if TYPE_CHECKING:  # jsonschema is imported by the first lint, not with the window (`runtime.engine`)
    from jsonschema.protocols import Validator
    from referencing import Registry, Specification
    from referencing._core import Resolver  # not re-exported by the package; only named in annotations here

__all__ = [
    "MAX_DEPTH",
    "MAX_NODES",
    "LintCode",
    "LintIssue",
    "exclusion_issues",
    "lint_schema",
    "lint_tools",
    "lint_words",
]

MAX_NODES = 10_000  # JSON values (objects, arrays, scalars) a lint looks at
MAX_DEPTH = 64  # levels of nesting it follows (jsonschema's own recursion gives out a few hundred levels down)
MAX_META_ERRORS = 50  # metaschema violations reported; an invalid schema rarely has more worth reading
MESSAGE_LIMIT = 300  # characters per message (metaschema messages quote the offending part of the schema)


class LintCode(enum.StrEnum):
    """What a lint issue is about."""

    INVALID_SCHEMA = "invalid_schema"  # not valid against its metaschema (its own `$schema` draft, 2020-12 by default)
    ARRAY_WITHOUT_ITEMS = "array_without_items"  # `"type": "array"` with neither `items` nor `prefixItems`
    MISSING_ROOT_TYPE = "missing_root_type"  # the root object schema has no `type`
    ROOT_NOT_OBJECT = "root_not_object"  # the root's type is not "object" (or the root is `true`/`false`)
    UNRESOLVABLE_REF = "unresolvable_ref"  # a `$ref` outside the document (never fetched) or to nowhere in it
    TOO_LARGE = "too_large"  # over MAX_NODES values or MAX_DEPTH levels: linted only as far as the bound
    EXCLUDED_TOOL = "excluded_tool"  # an invalid x-mcp-header annotation: conforming 2026-07-28 clients drop the tool

    @property
    def heading(self) -> str:
        """A few words for a label ("Array without items")."""
        return _HEADINGS[self]


_HEADINGS = {
    LintCode.INVALID_SCHEMA: "Invalid schema",
    LintCode.ARRAY_WITHOUT_ITEMS: "Array without items",
    LintCode.MISSING_ROOT_TYPE: "No type at the root",
    LintCode.ROOT_NOT_OBJECT: "Root is not an object",
    LintCode.UNRESOLVABLE_REF: "Unresolvable $ref",
    LintCode.TOO_LARGE: "Too large to lint whole",
    LintCode.EXCLUDED_TOOL: "Excluded by conforming clients",
}


@dataclass(frozen=True)
class LintIssue:
    """One problem: its code, where (an RFC 6901 JSON pointer into the schema), and words for people."""

    code: LintCode
    pointer: str
    message: str


# Keywords whose value is one subschema, a list of them, or a map of name → subschema.
_ONE = frozenset({
    "additionalItems", "additionalProperties", "contains", "contentSchema", "else", "if", "items", "not",
    "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties",
})  # fmt: skip
_MANY = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})  # `items` as a list: drafts before 2020-12
_NAMED = frozenset({"$defs", "definitions", "dependentSchemas", "dependencies", "patternProperties", "properties"})
_REFS = ("$ref", "$dynamicRef")
_ROOT_OBJECT = ("object", ["object"])


def _cut(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "…"


def _children(node: Mapping[str, Any]) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """The subschemas directly under `node`, in document order, each with its path relative to `node`."""
    for key, value in node.items():
        if key in _ONE and isinstance(value, dict | bool):
            yield (key,), value
        elif key in _MANY and isinstance(value, list):
            yield from (((key, index), item) for index, item in enumerate(value) if isinstance(item, dict | bool))
        elif key in _NAMED and isinstance(value, dict):
            # `dependencies` maps to a subschema or (drafts before 2019) to a list of names: only the former.
            yield from (((key, name), item) for name, item in value.items() if isinstance(item, dict | bool))


def _measure(schema: Any) -> bool:
    """True if `schema` is within MAX_NODES values and MAX_DEPTH levels (counting stops at the bound)."""
    count = 0
    stack: list[tuple[Any, int]] = [(schema, 0)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > MAX_NODES or depth > MAX_DEPTH:
            return False
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        room = MAX_NODES - count - len(stack)  # everything on the stack will be counted too
        taken = list(islice(children, room + 1))  # a million-key object is not copied to find it too big
        if len(taken) > room:
            return False
        stack.extend((child, depth + 1) for child in taken)
    return True


def _root_issues(schema: Any) -> list[LintIssue]:
    if isinstance(schema, bool):
        return [
            LintIssue(LintCode.ROOT_NOT_OBJECT, "", f"the root schema is `{str(schema).lower()}`, not an object schema")
        ]
    if not isinstance(schema, dict):
        return []  # not a schema at all: the metaschema check says so
    if "type" not in schema:
        return [LintIssue(LintCode.MISSING_ROOT_TYPE, "", 'the root schema has no "type" (strict hosts want "object")')]
    if schema["type"] not in _ROOT_OBJECT:
        found = _cut(repr(schema["type"]))
        return [LintIssue(LintCode.ROOT_NOT_OBJECT, "/type", f'the root type is {found}, not "object"')]
    return []


def specifications() -> Registry[Any]:
    """The metaschemas jsonschema ships (what its validators resolve besides the document itself); no retrieval."""
    from jsonschema_specifications import REGISTRY  # type: ignore[import-untyped]  # it ships no py.typed

    registry: Registry[Any] = REGISTRY
    return registry


def _draft(schema: Any) -> type[Validator] | LintIssue:
    """The validator class of the draft `schema` declares (2020-12 by default), or why its `$schema` is unusable."""
    from jsonschema import SchemaError

    try:
        return validator_class(schema)
    except SchemaError as exc:
        return LintIssue(LintCode.INVALID_SCHEMA, "/$schema", _cut(exc.message))
    except ValueError as exc:  # jsonschema normalises the URI first: "http://[" is an invalid IPv6 address
        return LintIssue(LintCode.INVALID_SCHEMA, "/$schema", _cut(f"$schema is not a usable URI: {exc}"))


def _metaschema_issues(schema: Any) -> list[LintIssue]:
    """Every violation of the schema's own metaschema (up to MAX_META_ERRORS), at its place in the schema."""
    cls = _draft(schema)
    if isinstance(cls, LintIssue):
        return [cls]
    from jsonschema.validators import validator_for

    meta_cls = validator_for(cls.META_SCHEMA, default=cls)
    # As `check_schema` builds it, with the shipped metaschemas as the only registry: nothing is fetched.
    meta = meta_cls(cls.META_SCHEMA, format_checker=meta_cls.FORMAT_CHECKER, registry=specifications())
    found: list[tuple[tuple[tuple[int, int, str], ...], LintIssue]] = []
    try:
        for error in meta.iter_errors(schema):
            issue = LintIssue(LintCode.INVALID_SCHEMA, pointer_of(error.absolute_path), _cut(error.message))
            if all(issue != seen for _, seen in found):  # the 2020-12 metaschema checks `type` once per vocabulary
                found.append((_position(error.absolute_path), issue))
            if len(found) >= MAX_META_ERRORS:
                break
    except RecursionError:
        found.append(((), LintIssue(LintCode.TOO_LARGE, "", "nested too deeply to check against its metaschema")))
    except OverflowError as exc:
        # Raised, not reported, by the "regex" format check: `re` refuses a repeat count like a{4294967296}.
        message = f"a pattern the regular expression engine refuses ({exc}); the rest was not checked"
        found.append(((), LintIssue(LintCode.INVALID_SCHEMA, "", _cut(message))))
    found.sort(key=lambda pair: pair[0])  # stable: the metaschema's order among problems at one place
    return [issue for _, issue in found]


def _position(path: Iterable[str | int]) -> tuple[tuple[int, int, str], ...]:
    # As `core.calls.validation` orders problems: indices as numbers, keys as text.
    return tuple((0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in path)


def _specification(schema: Any) -> Specification[Any]:
    """The referencing rules (where `$id` and anchors live) of the schema's draft."""
    from referencing.jsonschema import DRAFT202012, specification_with

    cls = _draft(schema)
    if isinstance(cls, LintIssue):
        return DRAFT202012
    dialect = cls.META_SCHEMA.get("$id") or cls.META_SCHEMA.get("id") or ""
    return specification_with(str(dialect), default=DRAFT202012)


def _ref_issue(resolver: Resolver[Any], ref: Any, where: str) -> LintIssue | None:
    if not isinstance(ref, str):
        return None  # the metaschema check reports a $ref that is not a string
    from referencing.exceptions import Unresolvable

    try:
        resolver.lookup(ref)
    except (Unresolvable, ValueError, TypeError, LookupError):
        # Unresolvable: nowhere in the document, or outside it (never fetched); the others: a
        # pointer into a list with a segment that is not an index, a malformed URI, and the like.
        local = ref.startswith("#")
        why = "points nowhere in the schema" if local else "points outside the schema (references are never fetched)"
        return LintIssue(LintCode.UNRESOLVABLE_REF, where, _cut(f"$ref {ref!r} {why}"))
    return None


def _root_resolver(schema: Any, spec: Specification[Any]) -> Resolver[Any] | None:
    """A resolver over the document (and the shipped metaschemas), or None when its `$id`s are unusable."""
    resource = spec.create_resource(schema)
    try:
        uri = resource.id() or ""
        # Crawled once here: otherwise every lookup that misses would crawl the whole document again.
        registry = specifications().with_resource(uri, resource).crawl()
        resolver: Resolver[Any] = registry.resolver(base_uri=uri)
    except (TypeError, ValueError, AttributeError):
        return None  # an `$id` or anchor that is not a string: the metaschema check reports it
    return resolver


def _in(scope: Resolver[Any] | None, spec: Specification[Any], node: Any) -> Resolver[Any] | None:
    """The resolver inside `node` (a nested `$id` moves the base URI)."""
    if scope is None:
        return None
    try:
        return scope.in_subresource(spec.create_resource(node))
    except (TypeError, ValueError, AttributeError):
        return scope


def _is_array(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "array" or (isinstance(kind, list) and "array" in kind)


def _walk(schema: Any, resolve: bool) -> tuple[list[LintIssue], bool]:
    """Arrays without items and unresolvable refs, in document order; and whether the walk was cut short."""
    spec = _specification(schema)
    resolver = _root_resolver(schema, spec) if resolve else None
    issues: list[LintIssue] = []
    pushed = 1
    cut = False
    stack: list[tuple[Any, tuple[str | int, ...], Resolver[Any] | None]] = [(schema, (), resolver)]
    while stack:
        node, path, scope = stack.pop()
        if not isinstance(node, dict):
            continue
        if len(path) > MAX_DEPTH:
            cut = True
            continue
        scope = _in(scope, spec, node)
        if _is_array(node) and "items" not in node and "prefixItems" not in node:
            issues.append(
                LintIssue(
                    LintCode.ARRAY_WITHOUT_ITEMS, pointer_of(path), 'an array with no "items" (nor "prefixItems")'
                )
            )
        for keyword in _REFS:
            if keyword in node and scope is not None:
                issue = _ref_issue(scope, node[keyword], pointer_of((*path, keyword)))
                if issue is not None:
                    issues.append(issue)
        children = list(islice(_children(node), max(0, MAX_NODES - pushed) + 1))
        if pushed + len(children) > MAX_NODES:
            cut = True
            children = children[: MAX_NODES - pushed]
        pushed += len(children)
        stack.extend((child, (*path, *relative), scope) for relative, child in reversed(children))
    return issues, cut


def lint_schema(schema: Any, metaschema: bool = True) -> tuple[LintIssue, ...]:
    """The problems a strict host would find in `schema`: invalid, arrays without items, root type, `$ref`s.

    `metaschema=False` leaves out the check against the metaschema: it is most of
    the cost (~1.5 ms a schema under 2020-12's dynamic references), too much for a
    whole catalog next to the GUI thread; the rest costs microseconds.

    Order: metaschema violations (by their place in the schema), then the root's
    type, then the walk's findings in document order, then `too_large` if the
    bounds cut the lint short. Bounded (see the module docstring); never raises
    on any JSON value.
    """
    whole = _measure(schema)
    issues: list[LintIssue] = []
    if whole and metaschema:
        issues.extend(_metaschema_issues(schema))
    issues.extend(_root_issues(schema))
    found, cut = _walk(schema, resolve=whole)
    issues.extend(found)
    if cut or not whole:
        message = (
            f"the schema is over {MAX_NODES:,} values or {MAX_DEPTH} levels deep: only its first part was linted, "
            "without the metaschema check or $ref resolution"
        )
        issues.append(LintIssue(LintCode.TOO_LARGE, "", message))
    return tuple(issues)


def lint_tools(tools: Iterable[Mapping[str, Any]], metaschema: bool = True) -> dict[str, tuple[LintIssue, ...]]:
    """Lint each tool's `inputSchema` and `outputSchema` (when it has one): only tools with issues, by name.

    Here a pointer points into the *tool* object (`/inputSchema/properties/tags`),
    so the two schemas stay apart.
    """
    found: dict[str, tuple[LintIssue, ...]] = {}
    for tool in tools:
        issues: list[LintIssue] = []
        for key in ("inputSchema", "outputSchema"):
            if key in tool:
                prefix = "/" + key
                found_here = lint_schema(tool[key], metaschema)
                issues.extend(LintIssue(i.code, prefix + i.pointer, i.message) for i in found_here)
        if issues:
            found[str(tool.get("name"))] = tuple(issues)
    return found


def exclusion_issues(excluded_tools: Iterable[Mapping[str, str]]) -> dict[str, tuple[LintIssue, ...]]:
    """The snapshot's `excluded_tools` as lint: one issue per tool, at its input schema (where the annotation is).

    Known only from a 2026-07-28 walk (the walk learns the annotations), so it is not part of
    `lint_tools`, which reads schemas alone.
    """
    return {
        str(entry.get("name")): (
            LintIssue(
                LintCode.EXCLUDED_TOOL,
                "/inputSchema",
                _cut(f"excluded by conforming 2026-07-28 clients: {entry.get('reason', '')}"),
            ),
        )
        for entry in excluded_tools
    }


def lint_words(issues: Iterable[LintIssue], limit: int = 10) -> str:
    """Issues as lines for a tooltip or a label: `pointer: message (code)`, at most `limit` of them."""
    found = list(issues)
    lines = [f"{issue.pointer or '(root)'}: {issue.message} ({issue.code})" for issue in found[:limit]]
    if len(found) > limit:
        lines.append(f"… and {len(found) - limit} more")
    return "Schema lint — what a strict host would reject:\n" + "\n".join(lines)
