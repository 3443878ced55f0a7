"""Schema lint names what strict hosts reject, at its pointer, on any JSON, within its bounds, never fetching."""

from __future__ import annotations

import socket
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_inspector.core.calls.lint import MAX_DEPTH, MAX_NODES, LintCode, LintIssue, lint_schema, lint_tools
from catalog_inspector.demo.catalog import base_items


def found(schema: Any) -> list[tuple[str, str]]:
    return [(str(issue.code), issue.pointer) for issue in lint_schema(schema)]


CLEAN = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "minLength": 1, "pattern": "^[a-z]+$"},
        "tags": {"type": "array", "items": {"$ref": "#/$defs/tag"}},
        "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}]},
        "node": {"$ref": "#/$defs/node"},
        "choice": {"anyOf": [{"type": "null"}, {"type": "number"}]},
    },
    "required": ["text"],
    "$defs": {
        "tag": {"type": "string", "enum": ["a", "b"]},
        "node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}},  # recursive: fine
    },
}


def test_a_clean_schema_has_no_issues() -> None:
    assert lint_schema(CLEAN) == ()


def test_the_demo_catalog_is_clean() -> None:
    assert lint_tools(base_items("tools")) == {}


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
        ({"type": "object", "properties": {"a": {"type": ["array", "null"]}}}, "/properties/a"),
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
        {"name": "loose", "inputSchema": {"properties": {"xs": {"type": "array"}}}},
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
            | st.text(max_size=4),
            inner,
            max_size=4,
        )
    ),
    max_leaves=30,
)
SCHEMA_WORDS = st.sampled_from(["object", "array", "string", "#", "#/a", "#/$defs/a", "x.json", "http://[", ""])


@settings(max_examples=300, deadline=None)
@given(st.recursive(JSON | SCHEMA_WORDS, lambda inner: st.dictionaries(st.sampled_from(
    ["type", "items", "properties", "$ref", "$id", "$defs", "prefixItems", "$anchor", "$schema"]), inner, max_size=4),
    max_leaves=30))  # fmt: skip
def test_any_json_value_is_linted_without_raising(schema: Any) -> None:
    issues = lint_schema(schema)
    assert all(isinstance(i, LintIssue) and isinstance(i.code, LintCode) for i in issues)
    assert all(i.pointer == "" or i.pointer.startswith("/") for i in issues)
