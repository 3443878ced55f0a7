"""In-process validation: pointers and keywords, the draft chosen, broken schemas classified, output verdicts."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from catalog_inspector.core.calls.validation import (
    Failure,
    Validation,
    check_result,
    default_draft,
    problems_of,
    validate,
    verdict_of,
)


def tool(schema: object) -> dict[str, object]:
    return {"name": "t", "inputSchema": {"type": "object"}, "outputSchema": schema}


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#"},
        {"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
    ],
)
def test_a_self_referencing_schema_is_a_bad_schema_verdict_not_a_crash(schema: object) -> None:
    verdict = check_result(tool(schema), {"content": [], "structuredContent": {"x": 1}})
    assert verdict.verdict == "bad_schema" and "itself" in verdict.detail


def test_a_remote_ref_is_never_fetched() -> None:
    verdict = check_result(tool({"$ref": "https://example.invalid/schema.json"}), {"structuredContent": {}})
    assert verdict.verdict == "bad_schema" and "unresolvable" in verdict.detail


def test_pointers_name_each_offending_field() -> None:
    schema = {"type": "object", "properties": {"a/b": {"type": "integer"}, "list": {"items": {"type": "string"}}}}
    verdict = check_result(tool(schema), {"structuredContent": {"a/b": "x", "list": ["ok", 3]}})
    assert verdict.verdict == "invalid"
    assert [p.pointer for p in verdict.problems] == ["/a~1b", "/list/1"]


def test_missing_structured_content_and_is_error_are_their_own_verdicts() -> None:
    assert check_result(tool({"type": "object"}), {"content": []}).verdict == "missing_structured_content"
    assert check_result(tool({"type": "object"}), {"content": [], "isError": True}).verdict == "tool_error"
    assert check_result({"name": "t"}, {"content": []}).verdict == "no_schema"


def test_each_problem_names_its_keyword_and_an_rfc_6901_pointer_into_nested_data() -> None:
    schema = {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"qty": {"type": "integer", "minimum": 1}},
                    "required": ["sku"],
                },
            },
            "tags": {"additionalProperties": {"enum": ["a", "b"]}},
        },
    }
    instance = {"items": [{"qty": "x", "sku": "s"}, {"qty": 0}], "tags": {"~/odd": "c"}}
    found = [(p.pointer, p.keyword) for p in problems_of(schema, instance)]
    assert found == [
        ("/items/0/qty", "type"),
        ("/items/1", "required"),
        ("/items/1/qty", "minimum"),
        ("/tags/~0~1odd", "enum"),
    ]


def test_array_positions_are_ordered_as_numbers_not_as_text() -> None:
    found = problems_of({"items": {"type": "string"}}, [1] * 12)
    assert [p.pointer for p in found] == [f"/{i}" for i in range(12)]


def test_without_a_schema_keyword_the_draft_is_2020_12_so_prefix_items_is_honoured() -> None:
    assert default_draft() is Draft202012Validator
    found = problems_of({"prefixItems": [{"type": "integer"}], "items": False}, ["x", 2])
    assert [(p.pointer, p.keyword) for p in found] == [("", "items"), ("/0", "type")]  # the root first


def test_a_declared_draft_is_used_instead_of_the_default() -> None:
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", "prefixItems": [{"type": "integer"}]}
    assert problems_of(draft7, ["x"]) == []  # prefixItems is not a draft-07 keyword
    tuple_items = {"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "integer"}]}
    assert [p.pointer for p in problems_of(tuple_items, ["x"])] == ["/0"]


def test_an_unknown_schema_uri_falls_back_to_2020_12_without_a_warning() -> None:
    # filterwarnings=error: jsonschema's DeprecationWarning for an unknown $schema would fail this.
    found = problems_of({"$schema": "https://example.invalid/meta", "prefixItems": [{"type": "integer"}]}, ["x"])
    assert [p.keyword for p in found] == ["type"]


@pytest.mark.parametrize("declared", [5, ["a"], {"x": 1}])
def test_a_schema_keyword_that_is_not_a_string_is_a_bad_schema(declared: object) -> None:
    outcome = validate({"$schema": declared}, 1)
    assert outcome.failure is Failure.BAD_SCHEMA and "$schema" in outcome.detail


@pytest.mark.parametrize("schema", [{"type": "nonsense"}, {"pattern": "("}, {"minLength": -1}, 5, "text"])
def test_a_schema_invalid_against_its_metaschema_is_classified_not_raised(schema: object) -> None:
    outcome = validate(schema, "x")
    assert outcome.failure is Failure.BAD_SCHEMA and outcome.problems == ()


def test_a_missing_local_ref_is_unresolvable_and_the_detail_does_not_quote_the_schema() -> None:
    big = {"$ref": "#/$defs/missing", "description": "d" * 10_000}
    outcome = validate(big, 1)
    assert outcome.failure is Failure.UNRESOLVABLE_REF
    assert "/$defs/missing" in outcome.detail and len(outcome.detail) < 1000


def test_a_ref_loop_is_a_bad_schema_but_a_deep_instance_is_too_large() -> None:
    loop = validate({"$ref": "#"}, {"x": 1})
    assert loop.failure is Failure.BAD_SCHEMA and "itself" in loop.detail
    deep: object = 1
    for _ in range(2000):
        deep = [deep]
    tree = validate({"type": "array", "items": {"$ref": "#"}}, deep)
    assert tree.failure is Failure.TOO_LARGE and "2000 levels" in tree.detail


def test_a_limit_cuts_problems_and_says_so_and_long_messages_are_shortened() -> None:
    outcome = validate({"items": {"type": "integer"}}, ["x" * 5000] * 50, limit=10, message_limit=100)
    assert len(outcome.problems) == 10 and outcome.truncated and "first 10" in outcome.detail
    assert all(len(p.message) < 200 and "more characters" in p.message for p in outcome.problems)


def test_unresolvable_and_invalid_output_schemas_keep_their_verdict_words() -> None:
    verdict = check_result(tool({"type": 12}), {"structuredContent": 1})
    assert verdict.verdict == "bad_schema" and "invalid" in verdict.detail
    assert verdict_of(Validation(failure=Failure.OVER_BUDGET, detail="slow")).verdict == "over_budget"


def test_schemas_the_regex_engine_or_the_uri_parser_refuse_are_bad_schemas_not_crashes() -> None:
    from catalog_inspector.core.calls import Failure, validate

    huge_repeat = validate({"type": "string", "pattern": "a{4294967296}"}, "a")
    assert huge_repeat.failure is Failure.BAD_SCHEMA and "OverflowError" in huge_repeat.detail
    broken_uri = validate({"$schema": "http://[", "type": "string"}, "a")
    assert broken_uri.failure is Failure.BAD_SCHEMA
