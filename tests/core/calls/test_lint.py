"""Schema lint names what strict hosts reject, at its pointer, on any JSON, within its bounds, never fetching.

Every code carries a severity and a why; the tool-level codes have their own tests (`test_host_lint`).
"""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_inspector.core.calls import lint_rows, worst_severity
from catalog_inspector.core.calls.lint import (
    MAX_DEPTH,
    MAX_LISTED,
    MAX_NODES,
    LintCode,
    LintIssue,
    LintSeverity,
    lint_schema,
    lint_tools,
    lint_words,
)
from catalog_inspector.demo.catalog import base_items


def found(schema: Any) -> list[tuple[str, str]]:
    return [(str(issue.code), issue.pointer) for issue in lint_schema(schema)]


CLEAN = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "minLength": 1, "pattern": "^[a-z]+$", "description": "t"},
        "tags": {"type": "array", "items": {"$ref": "#/$defs/tag"}, "description": "t"},
        "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}], "description": "p"},
        "node": {"$ref": "#/$defs/node"},  # described by its definition
        "choice": {"anyOf": [{"type": "null"}, {"type": "number"}], "description": "c"},
    },
    "required": ["text"],
    "additionalProperties": False,
    "$defs": {
        "tag": {"type": "string", "enum": ["a", "b"]},
        "node": {
            "type": "object",
            "description": "a linked list",
            "properties": {"next": {"$ref": "#/$defs/node"}},  # recursive: fine
        },
    },
}


def test_a_clean_schema_has_no_issues() -> None:
    assert lint_schema(CLEAN) == ()


def test_the_demo_catalog_has_nothing_a_host_rejects_only_parameters_without_words() -> None:
    found = lint_tools(base_items("tools"))
    assert {name: [(str(i.code), i.pointer) for i in issues] for name, issues in found.items()} == {
        "echo": [("undocumented_parameter", "/inputSchema/properties/repeat")],
        "count_items": [("undocumented_parameter", "/inputSchema/properties/items")],
        "delete_everything": [("undocumented_parameter", "/inputSchema/properties/confirm")],
    }
    assert {worst_severity(issues) for issues in found.values()} == {LintSeverity.INFO}


def test_an_issue_is_a_frozen_code_pointer_and_message() -> None:
    (issue,) = lint_schema({"type": "object", "properties": {"a": {"type": "array"}}})
    assert issue == LintIssue(LintCode.ARRAY_WITHOUT_ITEMS, "/properties/a", issue.message)
    assert issue.code == "array_without_items" and LintCode.ARRAY_WITHOUT_ITEMS.heading == "Array without items"
    with pytest.raises(AttributeError):
        issue.code = LintCode.TOO_LARGE  # type: ignore[misc]


def test_a_schema_invalid_against_its_metaschema_is_reported_where_it_breaks() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": "one"}, "s": {"type": "strung"}}}
    assert found(schema) == [("invalid_schema", "/properties/n/minimum"), ("invalid_schema", "/properties/s/type")]


def test_the_metaschema_is_the_drafts_the_schema_declares() -> None:
    # `exclusiveMinimum: true` is draft-04 (a boolean); in 2020-12 it must be a number.
    draft4 = {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
              "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": True}}}  # fmt: skip
    assert found(draft4) == []
    modern = {k: v for k, v in draft4.items() if k != "$schema"}
    assert found(modern) == [("invalid_schema", "/properties/n/exclusiveMinimum")]


def test_a_schema_that_is_not_a_schema_is_invalid_once() -> None:
    assert found([1, 2]) == [("invalid_schema", "")]
    assert found({"$schema": 7, "type": "object"}) == [("invalid_schema", "/$schema")]
    assert found({"$schema": "http://[", "type": "object"}) == [("invalid_schema", "/$schema")]


@pytest.mark.parametrize(
    ("schema", "where"),
    [
        ({"type": "object", "properties": {"a": {"type": "array"}}}, "/properties/a"),
        ({"type": "object", "properties": {"a": {"type": ["array", "integer"]}}}, "/properties/a"),
        ({"type": "object", "$defs": {"list": {"type": "array", "contains": {"type": "string"}}}}, "/$defs/list"),
        ({"type": "object", "anyOf": [{"type": "object"}, {"type": "array"}]}, "/anyOf/1"),
        ({"type": "object", "properties": {"a/b~c": {"type": "array"}}}, "/properties/a~1b~0c"),
        ({"type": "object", "properties": {"m": {"type": "array", "items": {"type": "array"}}}}, "/properties/m/items"),
    ],
)
def test_an_array_without_items_is_found_at_any_depth(schema: dict[str, Any], where: str) -> None:
    assert found(schema) == [("array_without_items", where)]


def test_arrays_inside_data_keywords_are_not_schemas() -> None:
    schema = {"type": "object", "default": {"type": "array"}, "examples": [{"type": "array"}],
              "properties": {"e": {"enum": [{"type": "array"}], "const": {"type": "array"}}}}  # fmt: skip
    assert found(schema) == []


def test_a_missing_root_type_and_a_root_that_is_not_an_object() -> None:
    assert found({"properties": {"a": {"type": "string"}}}) == [("missing_root_type", "")]
    assert found({"type": "array", "items": {"type": "string"}}) == [("root_not_object", "/type")]
    assert found({"type": ["object", "null"]}) == [("root_not_object", "/type")]
    assert found(True) == [("root_not_object", "")]
    assert found({"type": ["object"]}) == []


@pytest.mark.parametrize(
    ("ref", "why"),
    [
        ("#/$defs/missing", "points nowhere in the schema"),
        ("#/properties/a/items/0", "points nowhere in the schema"),
        ("#no-such-anchor", "points nowhere in the schema"),
        ("https://example.com/schemas/thing.json", "never fetched"),
        ("other.json#/defs/x", "never fetched"),
    ],
)
def test_unresolvable_refs_are_reported_at_the_ref(ref: str, why: str) -> None:
    schema = {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}, "b": {"$ref": ref}}}
    issues = lint_schema(schema)
    assert [(str(i.code), i.pointer) for i in issues] == [("unresolvable_ref", "/properties/b/$ref")]
    assert why in issues[0].message and repr(ref) in issues[0].message


def test_refs_that_resolve_inside_the_document_are_fine() -> None:
    schema = {
        "$id": "https://example.com/root.json",
        "type": "object",
        "properties": {
            "by_id": {"$ref": "item.json"},
            "by_anchor": {"$ref": "#thing"},
            "dynamic": {"$dynamicRef": "#meta"},
            "absolute": {"$ref": "https://example.com/root.json#/$defs/thing"},
            "in_draft7_style": {"$ref": "#/definitions/old"},
        },
        "$defs": {
            "item": {"$id": "item.json", "type": "string"},
            "thing": {"$anchor": "thing", "type": "integer"},
            "meta": {"$dynamicAnchor": "meta", "type": "boolean"},
        },
        "definitions": {"old": {"type": "null"}},
    }
    assert found(schema) == []


def test_remote_refs_are_never_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("lint opened a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    schema = {"type": "object", "properties": {"a": {"$ref": "http://127.0.0.1:9/schema.json"}}}
    assert found(schema) == [("unresolvable_ref", "/properties/a/$ref")]


def test_a_huge_schema_is_linted_only_up_to_the_bound_and_says_so() -> None:
    schema = {"type": "object", "properties": {f"p{i}": {"type": "array"} for i in range(5 * MAX_NODES)}}
    started = time.perf_counter()
    issues = lint_schema(schema)
    assert time.perf_counter() - started < 5
    assert issues[-1].code is LintCode.TOO_LARGE
    arrays = [i for i in issues if i.code is LintCode.ARRAY_WITHOUT_ITEMS]
    assert 0 < len(arrays) < MAX_NODES
    assert arrays[0].pointer == "/properties/p0", "the walk keeps document order"


def test_a_deep_schema_stops_at_the_depth_limit() -> None:
    schema: dict[str, Any] = {"type": "object"}
    node = schema
    for _ in range(50 * MAX_DEPTH):  # far past what recursion would survive
        child: dict[str, Any] = {"type": "object"}
        node["properties"] = {"x": child}
        node = child
    node["properties"] = {"bottom": {"type": "array"}}
    issues = lint_schema(schema)
    assert [i.code for i in issues] == [LintCode.TOO_LARGE]


def test_a_catastrophic_pattern_is_compiled_never_run() -> None:
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}
    started = time.perf_counter()
    assert found(schema) == []
    assert time.perf_counter() - started < 1


def test_a_pattern_the_regex_engine_refuses_is_an_invalid_schema() -> None:
    assert found({"type": "object", "properties": {"s": {"type": "string", "pattern": "("}}}) == [
        ("invalid_schema", "/properties/s/pattern")
    ]
    assert [c for c, _ in found({"type": "object", "properties": {"s": {"pattern": "a{4294967296}"}}})] == [
        "invalid_schema"
    ]


def test_lint_tools_keeps_only_tools_with_issues_and_points_into_the_tool() -> None:
    tools = [
        {"name": "clean", "inputSchema": CLEAN, "outputSchema": {"type": "object"}},
        {"name": "loose", "inputSchema": {"properties": {"xs": {"type": "array", "description": "x"}}}},
        {"name": "returns_list", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array", "items": {}}},
    ]
    result = lint_tools(tools)
    assert set(result) == {"loose", "returns_list"}
    assert [(str(i.code), i.pointer) for i in result["loose"]] == [
        ("missing_root_type", "/inputSchema"),
        ("array_without_items", "/inputSchema/properties/xs"),
    ]
    assert [(str(i.code), i.pointer) for i in result["returns_list"]] == [("root_not_object", "/outputSchema/type")]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["type", "items", "properties", "$ref", "$id", "$defs", "anyOf", "$anchor", "a", "#"])
            | st.sampled_from(["required", "enum", "additionalProperties", "not", "allOf", "null", "x"])
            | st.text(max_size=4),
            inner,
            max_size=4,
        )
    ),
    max_leaves=30,
)
SCHEMA_WORDS = st.sampled_from(["object", "array", "string", "null", "#", "#/a", "#/$defs/a", "x.json", "http://[", ""])
KEYWORDS = ["type", "items", "properties", "$ref", "$id", "$defs", "prefixItems", "$anchor", "$schema", "required"]


@settings(max_examples=300, deadline=None)
@given(st.recursive(JSON | SCHEMA_WORDS, lambda inner: st.dictionaries(st.sampled_from(
    [*KEYWORDS, "enum", "additionalProperties", "unevaluatedProperties", "anyOf", "x"]), inner, max_size=4),
    max_leaves=30))  # fmt: skip
def test_any_json_value_is_linted_without_raising(schema: Any) -> None:
    for metaschema in (True, False):
        issues = lint_schema(schema, metaschema)
        assert all(isinstance(i, LintIssue) and isinstance(i.code, LintCode) for i in issues)
        assert all(i.pointer == "" or i.pointer.startswith("/") for i in issues)
        assert all(isinstance(i.code.severity, LintSeverity) for i in issues)


# -- severities, headings, whys --------------------------------------------------------------


def test_every_code_has_a_heading_a_severity_and_a_one_line_why() -> None:
    for code in LintCode:
        assert code.heading and code.heading[0].isupper(), code
        assert isinstance(code.severity, LintSeverity), code
        assert code.why.endswith(".") and "\n" not in code.why and len(code.why) <= 160, code


def test_code_strings_are_a_contract_extended_never_renamed() -> None:
    assert {str(code) for code in LintCode} >= {
        "invalid_schema", "array_without_items", "missing_root_type", "root_not_object", "unresolvable_ref",
        "too_large", "excluded_tool", "required_not_in_properties", "boolean_subschema", "nullable_type_array",
        "mixed_enum_types", "undocumented_parameter", "description_names_unknown_parameter", "tool_name_rejected",
        "description_too_long",
    }  # fmt: skip


def test_severities_rank_error_over_warning_over_info() -> None:
    assert [s.rank for s in (LintSeverity.ERROR, LintSeverity.WARNING, LintSeverity.INFO)] == [2, 1, 0]
    assert [str(s) for s in LintSeverity] == ["error", "warning", "info"]
    assert LintCode.ARRAY_WITHOUT_ITEMS.severity is LintSeverity.ERROR
    assert LintCode.BOOLEAN_SUBSCHEMA.severity is LintSeverity.WARNING
    assert LintCode.TOO_LARGE.severity is LintSeverity.INFO and LintCode.UNDOCUMENTED_PARAMETER.severity == "info"
    assert LintCode.TOOL_NAME_REJECTED.severity == "error" and LintCode.DESCRIPTION_TOO_LONG.severity == "warning"


# -- required names properties lack -----------------------------------------------------------


def test_a_required_name_properties_lack_is_found_at_its_index() -> None:
    schema = {"type": "object", "properties": {"a": {}, "b": {}}, "required": ["a", "c", "b", "d"]}
    issues = lint_schema(schema)
    assert [(str(i.code), i.pointer) for i in issues] == [
        ("required_not_in_properties", "/required/1"),
        ("required_not_in_properties", "/required/3"),
    ]
    assert "'c'" in issues[0].message and "additionalProperties" not in issues[0].message


def test_a_required_name_in_a_closed_object_without_properties_can_never_be_given() -> None:
    schema = {"type": "object", "additionalProperties": False, "required": ["x"]}
    (issue,) = lint_schema(schema)
    assert (issue.code, issue.pointer) == (LintCode.REQUIRED_NOT_IN_PROPERTIES, "/required/0")
    assert "no arguments can pass" in issue.message
    nested = {"type": "object", "properties": {"o": {"type": "object", "properties": {}, "required": ["z"]}}}
    assert found(nested) == [("required_not_in_properties", "/properties/o/required/0")]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "required": ["anything"]},  # no properties, not closed: any property may be given
        {"type": "object", "properties": {"a": {}}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
        {"type": "object", "properties": {"a": {}}, "allOf": [{"properties": {"b": {}}}], "required": ["a", "b"]},
        {"type": "object", "properties": {}, "patternProperties": {"^x": {}}, "required": ["x1"]},
        {"type": "object", "properties": {"a": {}}, "required": [3, "a"]},  # not a name: the metaschema's to say
    ],
)
def test_required_names_that_may_be_declared_elsewhere_are_not_reported(schema: dict[str, Any]) -> None:
    assert "required_not_in_properties" not in [code for code, _ in found(schema)]


# -- boolean subschemas ---------------------------------------------------------------------------


def test_a_boolean_subschema_below_the_root_is_found_where_it_is() -> None:
    schema = {
        "type": "object",
        "properties": {"x": True, "l": {"type": "array", "prefixItems": [{"type": "string"}], "items": False}},
        "anyOf": [{"type": "object"}, True],
        "$defs": {"never": False},
    }
    assert found(schema) == [
        ("boolean_subschema", "/properties/x"),
        ("boolean_subschema", "/properties/l/items"),
        ("boolean_subschema", "/anyOf/1"),
        ("boolean_subschema", "/$defs/never"),
    ]
    assert "`true`" in lint_schema(schema)[0].message and "`false`" in lint_schema(schema)[1].message


def test_a_closed_object_and_a_boolean_root_are_not_boolean_subschemas() -> None:
    closed = {"type": "object", "properties": {"o": {"type": "object", "additionalProperties": True}},
              "additionalProperties": False, "unevaluatedProperties": False}  # fmt: skip
    assert found(closed) == []
    assert found(False) == [("root_not_object", "")]
    # A *property* named like the keyword is a subschema like any other.
    assert found({"type": "object", "properties": {"additionalProperties": True}}) == [
        ("boolean_subschema", "/properties/additionalProperties")
    ]


# -- type arrays with null ------------------------------------------------------------------------


def test_a_type_array_with_null_is_found_at_its_type() -> None:
    schema = {"type": "object", "properties": {"a": {"type": ["string", "null"]}, "b": {"type": ["null"]}}}
    issues = lint_schema(schema)
    assert [(str(i.code), i.pointer) for i in issues] == [
        ("nullable_type_array", "/properties/a/type"),
        ("nullable_type_array", "/properties/b/type"),
    ]
    assert "anyOf" in issues[0].message
    assert found({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}) == []
    assert found({"type": "object", "properties": {"a": {"type": ["array", "null"]}}}) == [
        ("array_without_items", "/properties/a"),
        ("nullable_type_array", "/properties/a/type"),
    ]


def test_the_roots_type_array_is_reported_once_as_not_an_object() -> None:
    assert found({"type": ["object", "null"]}) == [("root_not_object", "/type")]


# -- enums of mixed types -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "words"),
    [
        (["a", 1], "number and string"),
        ([True, 1], "boolean and number"),  # True is no integer here
        (["a", None], "null and string"),
        ([1, [1], {"a": 1}], "number, array and object"),
    ],
)
def test_an_enum_of_mixed_types_is_found_at_its_enum(values: list[Any], words: str) -> None:
    (issue,) = lint_schema({"type": "object", "properties": {"e": {"enum": values}}})
    assert (issue.code, issue.pointer) == (LintCode.MIXED_ENUM_TYPES, "/properties/e/enum")
    assert f"an enum of {words} values" in issue.message


def test_an_enum_of_one_json_type_is_fine_integers_and_fractions_alike() -> None:
    for values in (["a", "b"], [1, 2.5, -3], [True, False], [None], [[1], [2, 3]], []):
        assert found({"type": "object", "properties": {"e": {"enum": values}}}) == [], values


def _json_kind(value: Any) -> str:
    """An oracle apart from the lint's own: the JSON type read off the value's JSON text."""
    text = json.dumps(value)
    if text == "null":
        return "null"
    if text in ("true", "false"):
        return "boolean"
    return {'"': "string", "[": "array", "{": "object"}.get(text[0], "number")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                | st.text(max_size=3) | st.lists(st.integers(), max_size=2), max_size=6))  # fmt: skip
def test_an_enum_is_mixed_exactly_when_its_json_text_shows_two_types(values: list[Any]) -> None:
    codes = [code for code, _ in found({"type": "object", "properties": {"e": {"enum": values}}})]
    assert ("mixed_enum_types" in codes) == (len({_json_kind(v) for v in values}) > 1)


# -- bounds -----------------------------------------------------------------------------------------


def test_huge_required_and_enum_lists_are_read_only_up_to_their_bound() -> None:
    many = 200 * MAX_LISTED
    schema = {"type": "object", "properties": {"e": {"enum": ["a"] * many + [1]}}, "required": ["x"] * many}
    started = time.perf_counter()
    issues = lint_schema(schema, metaschema=False)
    assert time.perf_counter() - started < 2
    codes = [i.code for i in issues]
    assert codes.count(LintCode.REQUIRED_NOT_IN_PROPERTIES) == MAX_LISTED
    assert LintCode.MIXED_ENUM_TYPES not in codes, "the 1 past the bound is not read"
    assert codes[-1] is LintCode.TOO_LARGE


# -- rows, words, the worst ---------------------------------------------------------------------------


def test_lint_rows_are_one_row_per_issue_in_catalog_order() -> None:
    tools = [
        {"name": "z_first", "inputSchema": {"type": "object", "properties": {"l": {"type": "array"}}}},
        {"name": "clean", "inputSchema": {"type": "object"}},
        {"name": "a_last", "inputSchema": {"type": "array", "items": {}}},
    ]
    rows = lint_rows(lint_tools(tools, False))
    assert rows == [
        {"item": "z_first", "code": "undocumented_parameter", "severity": "info",
         "pointer": "/inputSchema/properties/l", "message": rows[0]["message"]},
        {"item": "z_first", "code": "array_without_items", "severity": "error",
         "pointer": "/inputSchema/properties/l", "message": 'an array with no "items" (nor "prefixItems")'},
        {"item": "a_last", "code": "root_not_object", "severity": "error", "pointer": "/inputSchema/type",
         "message": rows[2]["message"]},
    ]  # fmt: skip
    assert json.loads(json.dumps(rows)) == rows, "plain JSON for the snapshot document"
    assert lint_rows({}) == []


def test_the_worst_severity_of_a_list_and_words_that_put_it_first() -> None:
    info = LintIssue(LintCode.UNDOCUMENTED_PARAMETER, "/inputSchema/properties/a", "a has no description")
    error = LintIssue(LintCode.ARRAY_WITHOUT_ITEMS, "/inputSchema/properties/b", "b has no items")
    assert worst_severity([info, error]) is LintSeverity.ERROR
    assert worst_severity([info]) is LintSeverity.INFO and worst_severity([]) is None
    words = lint_words([info] * 12 + [error], limit=3)
    lines = words.splitlines()
    assert lines[1] == "[error] /inputSchema/properties/b: b has no items (array_without_items)"
    assert lines[2].startswith("[info] ") and lines[-1] == "… and 10 more"
