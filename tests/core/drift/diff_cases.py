"""Items and shortcuts the diff tests share: a tool with a schema, and the changes between two of them."""

from __future__ import annotations

from typing import Any

from catalog_inspector.core.drift.diff import ABSENT, Change, Severity, apply_changes, diff_item

BREAKING, WARNING, INFO = Severity.BREAKING, Severity.WARNING, Severity.INFO


def tool(schema: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"name": "t", "description": "Does things."}
    item["inputSchema"] = {"type": "object", "properties": {}} if schema is None else schema
    item.update(fields)
    return item


def obj(properties: dict[str, Any] | None = None, **keywords: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties or {}, **keywords}


def changes(old: dict[str, Any], new: dict[str, Any], list_name: str = "tools") -> tuple[Change, ...]:
    found = diff_item(list_name, old, new)
    assert apply_changes(old, found) == new, "every diff in these tests must also apply"
    return found


def only(old: dict[str, Any], new: dict[str, Any], list_name: str = "tools") -> Change:
    found = changes(old, new, list_name)
    assert len(found) == 1, found
    return found[0]


def at(found: tuple[Change, ...], field: str, pointer: str) -> Change:
    hits = [c for c in found if (c.field, c.pointer) == (field, pointer)]
    assert len(hits) == 1, [(c.field, c.pointer) for c in found]
    return hits[0]


def input_change(old_schema: dict[str, Any], new_schema: dict[str, Any]) -> Change:
    change = only(tool(old_schema), tool(new_schema))
    assert change.field == "inputSchema"
    return change


def output_change(old_schema: Any, new_schema: Any) -> Change:
    old, new = tool(), tool()
    for item, schema in ((old, old_schema), (new, new_schema)):
        if schema is not ABSENT:
            item["outputSchema"] = schema
    change = only(old, new)
    assert change.field == "outputSchema"
    return change


def prompt(*arguments: dict[str, Any]) -> dict[str, Any]:
    return {"name": "p", "description": "A prompt.", "arguments": list(arguments)}
