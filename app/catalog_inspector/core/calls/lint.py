"""Schema lint: what in a tool a strict host would reject or a model misread, found without validating any instance.

A schema is checked against its own metaschema (the draft its `$schema` names,
2020-12 by default, as in `core.calls.validation`), then walked along the keywords
that hold subschemas (`properties`, `items`, `anyOf`, `$defs` …; not `default`,
`const`, `enum` or `examples`, which hold data) for arrays without `items`, `$ref`s
that do not resolve, `required` names that `properties` lacks, `true`/`false`
subschemas, `type` arrays with "null" and enums of mixed types. References resolve
inside the document, or to the metaschemas jsonschema ships (as the validators of
`core.calls.validation` do); nothing is ever fetched. `lint_tools` adds what
`core.calls.host_lint` finds in the rest of a tool (its name, its description, its
parameters' descriptions, against each host's rules).

Every code has a severity (`LintSeverity`: error, warning, info), a heading and a
one-line why; code strings are a public contract (snapshot documents carry them).

Schemas are untrusted: the walk is iterative and stops after `MAX_NODES` JSON
values or below `MAX_DEPTH` levels of nesting. A schema over either bound is
linted only as far as the walk got (`too_large` says so); the metaschema check
and the `$ref` resolution, which read the whole document, are then skipped.
Qt-free and synchronous: the app runs the structural part for whole catalogs on
the GUI thread, in slices (tens of µs a tool), and the metaschema check off it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

from catalog_inspector.core.calls.validation import pointer_of, validator_class
from catalog_inspector.core.json_encode import JsonLines, line_text

if TYPE_CHECKING:  # jsonschema is imported by the first lint, not with the window (`runtime.engine`)
    from jsonschema.protocols import Validator
    from referencing import Registry, Specification
    from referencing._core import Resolver  # not re-exported by the package; only named in annotations here

__all__ = [
    "MAX_DEPTH",
    "MAX_NODES",
    "LintCode",
    "LintIssue",
    "LintSeverity",
    "exclusion_issues",
    "lint_row_lines",
    "lint_rows",
    "lint_schema",
    "lint_tools",
    "lint_words",
    "prepare_lint",
    "worst_severity",
]

MAX_NODES = 10_000  # JSON values (objects, arrays, scalars) a lint looks at
MAX_DEPTH = 64  # levels of nesting it follows (jsonschema's own recursion gives out a few hundred levels down)
MAX_META_ERRORS = 50  # metaschema violations reported; an invalid schema rarely has more worth reading
MESSAGE_LIMIT = 300  # characters per message (metaschema messages quote the offending part of the schema)
MAX_LISTED = 1_000  # `required` names and `enum` values looked at per schema (a huge list is not read whole)


class LintSeverity(enum.StrEnum):
    """How much an issue matters; `rank` orders them (2 error, 1 warning, 0 info)."""

    ERROR = "error"  # a host or the spec rejects it, or the tool cannot work as declared
    WARNING = "warning"  # some hosts reject it, or models are likely to misuse it
    INFO = "info"  # worth knowing: nothing refuses it

    @property
    def rank(self) -> int:
        """2 for an error, 1 for a warning, 0 for info (sort with `reverse=True` for the worst first)."""
        return _RANKS[self]


_RANKS = {LintSeverity.ERROR: 2, LintSeverity.WARNING: 1, LintSeverity.INFO: 0}


class LintCode(enum.StrEnum):
    """What a lint issue is about."""

    INVALID_SCHEMA = "invalid_schema"  # not valid against its metaschema (its own `$schema` draft, 2020-12 by default)
    ARRAY_WITHOUT_ITEMS = "array_without_items"  # `"type": "array"` with neither `items` nor `prefixItems`
    MISSING_ROOT_TYPE = "missing_root_type"  # the root object schema has no `type`
    ROOT_NOT_OBJECT = "root_not_object"  # the root's type is not "object" (or the root is `true`/`false`)
    UNRESOLVABLE_REF = "unresolvable_ref"  # a `$ref` outside the document (never fetched) or to nowhere in it
    TOO_LARGE = "too_large"  # over MAX_NODES values or MAX_DEPTH levels: linted only as far as the bound
    EXCLUDED_TOOL = "excluded_tool"  # an invalid x-mcp-header annotation: conforming 2026-07-28 clients drop the tool
    REQUIRED_NOT_IN_PROPERTIES = "required_not_in_properties"  # a `required` name its object's `properties` lacks
    BOOLEAN_SUBSCHEMA = "boolean_subschema"  # `true`/`false` as a subschema below the root (not additionalProperties)
    NULLABLE_TYPE_ARRAY = "nullable_type_array"  # `"type": [..., "null"]` below the root
    MIXED_ENUM_TYPES = "mixed_enum_types"  # an `enum` whose values are of more than one JSON type
    # The tool-level codes (`core.calls.host_lint`): found in the tool object, not only its schemas.
    UNDOCUMENTED_PARAMETER = "undocumented_parameter"  # a top-level input property without a description
    DESCRIPTION_NAMES_UNKNOWN_PARAMETER = "description_names_unknown_parameter"  # a documented name the schema lacks
    TOOL_NAME_REJECTED = "tool_name_rejected"  # outside a host's rule for tool names (one issue per rule)
    DESCRIPTION_TOO_LONG = "description_too_long"  # over a host's limit for descriptions (one issue per limit)

    @property
    def heading(self) -> str:
        """A few words for a label ("Array without items")."""
        return _HEADINGS[self]

    @property
    def severity(self) -> LintSeverity:
        """How much an issue of this code matters (the same for every issue of it)."""
        return _SEVERITIES[self]

    @property
    def why(self) -> str:
        """One line on why it matters: who rejects it, or what a model does with it."""
        return _WHYS[self]


_HEADINGS = {
    LintCode.INVALID_SCHEMA: "Invalid schema",
    LintCode.ARRAY_WITHOUT_ITEMS: "Array without items",
    LintCode.MISSING_ROOT_TYPE: "No type at the root",
    LintCode.ROOT_NOT_OBJECT: "Root is not an object",
    LintCode.UNRESOLVABLE_REF: "Unresolvable $ref",
    LintCode.TOO_LARGE: "Too large to lint whole",
    LintCode.EXCLUDED_TOOL: "Excluded by conforming clients",
    LintCode.REQUIRED_NOT_IN_PROPERTIES: "Required but not in properties",
    LintCode.BOOLEAN_SUBSCHEMA: "Boolean subschema",
    LintCode.NULLABLE_TYPE_ARRAY: "Nullable type array",
    LintCode.MIXED_ENUM_TYPES: "Enum of mixed types",
    LintCode.UNDOCUMENTED_PARAMETER: "Undocumented parameter",
    LintCode.DESCRIPTION_NAMES_UNKNOWN_PARAMETER: "Description names an unknown parameter",
    LintCode.TOOL_NAME_REJECTED: "Tool name a host rejects",
    LintCode.DESCRIPTION_TOO_LONG: "Description too long for a host",
}
_E, _W, _I = LintSeverity.ERROR, LintSeverity.WARNING, LintSeverity.INFO
_SEVERITIES = {
    LintCode.INVALID_SCHEMA: _E,
    LintCode.ARRAY_WITHOUT_ITEMS: _E,
    LintCode.MISSING_ROOT_TYPE: _E,
    LintCode.ROOT_NOT_OBJECT: _E,
    LintCode.UNRESOLVABLE_REF: _E,
    LintCode.TOO_LARGE: _I,
    LintCode.EXCLUDED_TOOL: _E,
    LintCode.REQUIRED_NOT_IN_PROPERTIES: _E,
    LintCode.BOOLEAN_SUBSCHEMA: _W,
    LintCode.NULLABLE_TYPE_ARRAY: _W,
    LintCode.MIXED_ENUM_TYPES: _W,
    LintCode.UNDOCUMENTED_PARAMETER: _I,
    LintCode.DESCRIPTION_NAMES_UNKNOWN_PARAMETER: _W,
    LintCode.TOOL_NAME_REJECTED: _E,
    LintCode.DESCRIPTION_TOO_LONG: _W,
}
_WHYS = {
    LintCode.INVALID_SCHEMA: "Hosts that check a tool's schema drop the tool (VS Code omits it) or refuse the request.",
    LintCode.ARRAY_WITHOUT_ITEMS: "Strict hosts (OpenAI, Copilot) refuse an array schema without items: "
    "the model cannot know what goes in it.",
    LintCode.MISSING_ROOT_TYPE: 'The MCP schema types an input schema as "type": "object"; '
    "strict hosts (the Claude API) refuse one without it.",
    LintCode.ROOT_NOT_OBJECT: "Tool arguments are a JSON object: the MCP schema and every host want an object root.",
    LintCode.UNRESOLVABLE_REF: "A $ref that leads nowhere (or outside, never fetched) leaves that part of the "
    "schema unknown to hosts and validators.",
    LintCode.TOO_LARGE: "Only the first part of a schema this big was linted: more problems may lie further in.",
    LintCode.EXCLUDED_TOOL: "Conforming 2026-07-28 clients drop a tool whose x-mcp-header annotation is invalid.",
    LintCode.REQUIRED_NOT_IN_PROPERTIES: "Gemini refuses a required name that properties do not define; with "
    "additionalProperties false no call can pass.",
    LintCode.BOOLEAN_SUBSCHEMA: "Hosts that translate schemas (OpenAI strict mode, Gemini) have no form for a "
    "true/false subschema and reject it.",
    LintCode.NULLABLE_TYPE_ARRAY: "Gemini function declarations (and older OpenAI models) take one type, "
    'not ["…", "null"].',
    LintCode.MIXED_ENUM_TYPES: "Gemini takes string enums only and strict hosts one type per enum; "
    "models mix such values up.",
    LintCode.UNDOCUMENTED_PARAMETER: "Without a description the model has only the parameter's name to go by.",
    LintCode.DESCRIPTION_NAMES_UNKNOWN_PARAMETER: "The model reads the description and may pass a documented name "
    "the schema does not have.",
    LintCode.TOOL_NAME_REJECTED: "Hosts hold tool names to their own rules and refuse, filter out or rename a tool "
    "outside them.",
    LintCode.DESCRIPTION_TOO_LONG: "Some hosts refuse a description over their limit (OpenAI) or cut it off "
    "(Claude Code).",
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
_CLOSING = frozenset({"additionalProperties", "unevaluatedProperties"})  # booleans here are flags (`_children`)
_REFS = ("$ref", "$dynamicRef")
_ROOT_OBJECT = ("object", ["object"])


def _cut(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "…"


def _children(node: Mapping[str, Any]) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """The subschemas directly under `node`, in document order, each with its path relative to `node`.

    A boolean under `additionalProperties` or `unevaluatedProperties` is left out: there `true`/`false` is the
    idiom (`false` closes an object: OpenAI strict mode requires it, the MCP spec recommends it for a tool without
    parameters), not a stray subschema. Every other boolean is yielded: the walk reports it.
    """
    for key, value in node.items():
        if key in _ONE and (isinstance(value, dict) or (isinstance(value, bool) and key not in _CLOSING)):
            yield (key,), value
        elif key in _MANY and isinstance(value, list):
            yield from (((key, index), item) for index, item in enumerate(value) if isinstance(item, dict | bool))
        elif key in _NAMED and isinstance(value, dict):
            # `dependencies` maps to a subschema or (drafts before 2019) to a list of names: only the former.
            yield from (((key, name), item) for name, item in value.items() if isinstance(item, dict | bool))


def _measure(schema: Any) -> tuple[bool, bool]:
    """Whether `schema` is within MAX_NODES values and MAX_DEPTH levels (counting stops at the bound), and
    whether it has a `$ref` or `$dynamicRef` anywhere (without one there is nothing to resolve)."""
    count = 1
    refs = False
    stack: list[tuple[Any, int]] = [(schema, 0)] if isinstance(schema, dict | list) else []
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            refs = refs or "$ref" in value or "$dynamicRef" in value
        children = value.values() if isinstance(value, dict) else value
        count += len(children)  # counted before any is read: a million-key object is never iterated
        if count > MAX_NODES or (children and depth >= MAX_DEPTH):
            return False, refs
        for child in children:  # a loop, not a generator into `extend`: this runs for every value of every tool
            if isinstance(child, dict | list):
                stack.append((child, depth + 1))  # scalars are counted above, never pushed
    return True, refs


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


# Where else an object's properties can come from: `required` is then not checked against `properties` alone
# (and `patternProperties` patterns are never run: untrusted regular expressions).
_ELSEWHERE = frozenset(
    {"allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "if", "dependentSchemas", "patternProperties"}
)
_JSON_TYPES = ((type(None), "null"), (bool, "boolean"), (int | float, "number"), (str, "string"))  # bool before int


def _json_type(value: Any) -> str:
    """The JSON type of a parsed value: True is a boolean, not an integer; 1 and 1.5 are both numbers."""
    for kind, name in _JSON_TYPES:
        if isinstance(value, kind):
            return name
    return "array" if isinstance(value, list) else "object"


def _node_issues(node: Mapping[str, Any], path: tuple[str | int, ...], issues: list[LintIssue]) -> None:
    """What one subschema says about itself, onto `issues`: an array without items, required names nowhere,
    a type array with null, an enum of mixed types."""
    kind = node.get("type")
    if (kind == "array" or (isinstance(kind, list) and "array" in kind)) and not (
        "items" in node or "prefixItems" in node
    ):
        issues.append(
            LintIssue(LintCode.ARRAY_WITHOUT_ITEMS, pointer_of(path), 'an array with no "items" (nor "prefixItems")')
        )
    if path and isinstance(kind, list) and "null" in kind:  # the root's type is `root_not_object`'s to report
        message = _cut(f"a type array with null, {kind!r}: some hosts take one type (say nullable with anyOf)")
        issues.append(LintIssue(LintCode.NULLABLE_TYPE_ARRAY, pointer_of((*path, "type")), message))
    required = node.get("required")
    if isinstance(required, list) and required:
        _required_issues(node, required, path, issues)
    values = node.get("enum")
    if isinstance(values, list) and len(values) > 1:
        kinds = {_json_type(value) for value in islice(values, MAX_LISTED)}
        if len(kinds) > 1:
            names = [name for _, name in (*_JSON_TYPES, (list, "array"), (dict, "object")) if name in kinds]
            message = f"an enum of {', '.join(names[:-1])} and {names[-1]} values: hosts want one type"
            issues.append(LintIssue(LintCode.MIXED_ENUM_TYPES, pointer_of((*path, "enum")), message))


def _required_issues(
    node: Mapping[str, Any], required: list[Any], path: tuple[str | int, ...], issues: list[LintIssue]
) -> None:
    """The names in `required` that `properties` lacks (pointer `/required/<index>`), onto `issues`.

    Checked only where the object says which properties it has: it has `properties`, or
    `additionalProperties: false`. With neither, any property may be allowed, so a required
    name can still be given (and `anyOf: [{"required": ["a"]}, …]` names properties declared
    around it). Not checked either where properties can come from elsewhere (_ELSEWHERE).
    """
    known, closed = node.get("properties"), node.get("additionalProperties") is False
    if not (isinstance(known, dict) or closed) or not _ELSEWHERE.isdisjoint(node):
        return
    known = known if isinstance(known, dict) else {}
    words = ' and "additionalProperties" is false: no arguments can pass' if closed else ""
    for index, name in enumerate(islice(required, MAX_LISTED)):
        if isinstance(name, str) and name not in known:
            message = _cut(f'{name!r} is required but not in "properties"{words}')
            issues.append(
                LintIssue(LintCode.REQUIRED_NOT_IN_PROPERTIES, pointer_of((*path, "required", index)), message)
            )


def _walk(schema: Any, resolve: bool) -> tuple[list[LintIssue], bool]:
    """What each subschema says about itself and unresolvable refs, in document order; and whether the walk was
    cut short. `resolve`: look the `$ref`s up (the whole document is needed, and a resolver is not free)."""
    spec = _specification(schema) if resolve else None
    resolver = _root_resolver(schema, spec) if spec is not None else None
    issues: list[LintIssue] = []
    pushed = 1
    cut = False
    stack: list[tuple[Any, tuple[str | int, ...], Resolver[Any] | None]] = [(schema, (), resolver)]
    while stack:
        node, path, scope = stack.pop()
        if not isinstance(node, dict):
            if path and isinstance(node, bool):  # `_children` leaves out the booleans that are flags
                word = str(node).lower()
                issues.append(LintIssue(LintCode.BOOLEAN_SUBSCHEMA, pointer_of(path), f"a `{word}` subschema"))
            continue
        if len(path) > MAX_DEPTH:
            cut = True
            continue
        _node_issues(node, path, issues)
        if spec is not None:
            scope = _in(scope, spec, node)
            for keyword in _REFS:
                if keyword in node and scope is not None:
                    issue = _ref_issue(scope, node[keyword], pointer_of((*path, keyword)))
                    if issue is not None:
                        issues.append(issue)
        children = list(islice(_children(node), max(0, MAX_NODES - pushed) + 1))  # a million keys are not read whole
        if pushed + len(children) > MAX_NODES:
            cut = True
            children = children[: MAX_NODES - pushed]
        pushed += len(children)
        stack.extend((child, (*path, *relative), scope) for relative, child in reversed(children))
    return issues, cut


def prepare_lint() -> None:
    """Do now what the first metaschema pass would: import jsonschema and build its 2020-12 metaschema validator
    (~70 ms, once). A walk does it on a thread while it waits for its server's first page (`PageWork`)."""
    lint_schema({"type": "object"})


def lint_schema(schema: Any, metaschema: bool = True) -> tuple[LintIssue, ...]:
    """The problems a strict host would find in `schema`: invalid, root type, what the walk finds, `$ref`s.

    `metaschema=False` leaves out the check against the metaschema: it is most of
    the cost (~1.5 ms a schema under 2020-12's dynamic references), too much for a
    whole catalog next to the GUI thread; the rest costs microseconds (a resolver is
    built only for a schema that has a `$ref`).

    Order: metaschema violations (by their place in the schema), then the root's
    type, then the walk's findings in document order, then `too_large` if the
    bounds cut the lint short. Bounded (see the module docstring); never raises
    on any JSON value.
    """
    whole, refs = _measure(schema)
    issues: list[LintIssue] = []
    if whole and metaschema:
        issues.extend(_metaschema_issues(schema))
    issues.extend(_root_issues(schema))
    found, cut = _walk(schema, resolve=whole and refs)
    issues.extend(found)
    if cut or not whole:
        message = (
            f"the schema is over {MAX_NODES:,} values or {MAX_DEPTH} levels deep: only its first part was linted, "
            "without the metaschema check or $ref resolution"
        )
        issues.append(LintIssue(LintCode.TOO_LARGE, "", message))
    return tuple(issues)


def lint_tools(
    tools: Iterable[Mapping[str, Any]], metaschema: bool = True, *, server: str | None = None
) -> dict[str, tuple[LintIssue, ...]]:
    """Lint each tool: only tools with issues, by name, in the order given (a catalog's order).

    A tool's issues: first the tool-level ones (`core.calls.host_lint.tool_issues`: its
    name and description against each host's rules, then its parameters), then its
    `inputSchema`'s and its `outputSchema`'s (`lint_schema`), each in their own order.
    Every pointer points into the *tool* object (`/name`, `/inputSchema/properties/tags`),
    so the parts stay apart. `server`: the server's name as hosts show it (Cursor counts
    it against its limit); unknown, the shortest is assumed.
    """
    # host_lint builds on this module's codes: imported here, so that the import between the two points one way.
    from catalog_inspector.core.calls.host_lint import tool_issues

    found: dict[str, tuple[LintIssue, ...]] = {}
    for tool in tools:
        issues = tool_issues(tool, server)
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
    `lint_tools`, which reads the tool objects alone.
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


def worst_severity(issues: Iterable[LintIssue]) -> LintSeverity | None:
    """The most serious severity among `issues` (None for none): what a mark for the whole list would show."""
    return max((issue.code.severity for issue in issues), key=lambda severity: severity.rank, default=None)


def lint_rows(found: Mapping[str, Sequence[LintIssue]]) -> list[dict[str, str]]:
    """Issues as rows for a snapshot document's `lint` key, in `found`'s order (a catalog's, from `lint_tools`).

    Each row: `item` (the tool's name), `code`, `severity`, `pointer` and `message`, all strings.
    """
    return [{"item": str(item), **_row_of(issue)} for item, issues in found.items() for issue in issues]


def _row_of(issue: LintIssue) -> dict[str, str]:
    """A row's fields after its `item`."""
    return {
        "code": str(issue.code),
        "severity": str(issue.code.severity),
        "pointer": issue.pointer,
        "message": issue.message,
    }


def lint_row_lines(found: Mapping[str, Sequence[LintIssue]]) -> JsonLines:
    """`lint_rows(found)` as the document writes them, each row's `line_text`. A catalog's tools share their issues
    (one per distinct schema and parameter), so an issue's part of the row is encoded once: 200,000 rows took
    0.13-0.19 s to make as objects and 0.40 s to write, 0.09 s to make as texts and 0.03 s to write."""
    tails: dict[int, str] = {}  # id of an issue (all alive in `found`) → the row after its item: `, "code": …}`
    lines = JsonLines()
    for item, issues in found.items():
        head = '{"item": ' + line_text(str(item))  # the row's first member, as the encoder writes it
        for issue in issues:
            tail = tails.get(id(issue))
            if tail is None:
                tail = tails[id(issue)] = ", " + line_text(_row_of(issue))[1:]
            lines.append(head + tail)
    return lines


def lint_words(issues: Iterable[LintIssue], limit: int = 10) -> str:
    """Issues as lines for a tooltip or a label: `[severity] pointer: message (code)`, at most `limit` of them.

    The most serious come first (in their own order among one severity), so a long list of
    things worth knowing never hides an error past the limit.
    """
    found = sorted(issues, key=lambda issue: -issue.code.severity.rank)
    lines = [
        f"[{issue.code.severity}] {issue.pointer or '(root)'}: {issue.message} ({issue.code})"
        for issue in found[:limit]
    ]
    if len(found) > limit:
        lines.append(f"… and {len(found) - limit} more")
    return "Lint — what strict hosts would reject, and what models would misread:\n" + "\n".join(lines)
