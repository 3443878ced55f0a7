"""Output verdicts: valid, invalid with pointers, and schemas that are themselves broken."""

from __future__ import annotations

import pytest

from catalog_inspector.core.validation import check_result


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
