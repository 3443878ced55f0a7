"""The severity of each kind of change, and its reason in words: the rules of core/severity.py through the diff."""

from __future__ import annotations

from typing import Any

import pytest

from catalog_inspector.core.drift.diff import (
    ABSENT,
    Severity,
    diff_item,
)
from tests.core.drift.diff_cases import (
    BREAKING,
    INFO,
    WARNING,
    at,
    changes,
    input_change,
    obj,
    only,
    output_change,
    prompt,
    tool,
)

# --- input schema severities ---------------------------------------------------------------------


def test_a_removed_input_property_is_breaking() -> None:
    change = input_change(obj({"x": {"type": "string"}, "y": {}}), obj({"y": {}}))
    assert (change.pointer, change.op, change.severity) == ("/properties/x", "remove", BREAKING)
    assert change.reason == "input property 'x' removed"


def test_an_optional_input_property_added_is_info() -> None:
    change = input_change(obj({}), obj({"x": {"type": "string"}}))
    assert (change.pointer, change.op, change.severity) == ("/properties/x", "add", INFO)
    assert change.reason == "optional input property 'x' added"


def test_a_property_added_as_required_is_breaking_twice_over() -> None:
    found = changes(tool(obj({})), tool(obj({"x": {"type": "string"}}, required=["x"])))
    assert at(found, "inputSchema", "/properties/x").severity is BREAKING
    assert at(found, "inputSchema", "/properties/x").reason == "new required input property 'x'"
    assert at(found, "inputSchema", "/required").severity is BREAKING


def test_a_nested_property_added_is_judged_by_required_at_its_own_level() -> None:
    top_required = obj({"o": obj({})}, required=["x"])
    found = changes(tool(top_required), tool(obj({"o": obj({"x": {}})}, required=["x"])))
    assert at(found, "inputSchema", "/properties/o/properties/x").severity is INFO


def test_a_whole_properties_keyword_is_judged_property_by_property() -> None:
    found = changes(tool({"type": "object"}), tool(obj({"x": {}, "y": {}}, required=["y"])))
    added = at(found, "inputSchema", "/properties")
    assert (added.op, added.severity, added.reason) == ("add", BREAKING, "new required input property 'y'")
    optional = input_change({"type": "object"}, obj({"x": {}}))
    assert (optional.op, optional.severity) == ("add", INFO)
    removed = input_change(obj({"x": {}}), {"type": "object"})
    assert (removed.op, removed.severity, removed.reason) == ("remove", BREAKING, "input property 'x' removed")


def test_a_new_required_entry_is_breaking_and_a_dropped_one_info() -> None:
    props = {"x": {"type": "string"}, "y": {"type": "string"}}
    gained = input_change(obj(props, required=["x"]), obj(props, required=["x", "y"]))
    assert (gained.pointer, gained.severity, gained.reason) == (
        "/required",
        BREAKING,
        "new required input property 'y'",
    )
    dropped = input_change(obj(props, required=["x", "y"]), obj(props, required=["x"]))
    assert dropped.severity is INFO and "'y' no longer required" in dropped.reason
    nested = input_change(obj({"o": obj(props)}), obj({"o": obj(props, required=["x"])}))
    assert nested.reason == "new required input property 'o.x'" and nested.severity is BREAKING


@pytest.mark.parametrize(
    ("old", "new", "severity"),
    [
        (["string", "null"], "string", BREAKING),  # null dropped from the union
        ("string", ["string", "null"], INFO),
        ("integer", "number", INFO),  # every integer is a number
        ("number", "integer", BREAKING),
        ("string", "integer", BREAKING),
        (["string", "null"], ["null", "string"], INFO),
    ],
)
def test_input_types_narrowed_break_and_widened_do_not(old: Any, new: Any, severity: Severity) -> None:
    change = input_change(obj({"v": {"type": old}}), obj({"v": {"type": new}}))
    assert change.pointer == "/properties/v/type"
    assert change.severity is severity, change.reason


def test_a_union_losing_null_reads_as_narrowed() -> None:
    change = input_change(obj({"v": {"type": ["string", "null"]}}), obj({"v": {"type": "string"}}))
    assert change.reason == "type of input property 'v' narrowed from [string, null] to string"


def test_output_types_may_not_change_at_all() -> None:
    change = output_change(obj({"n": {"type": "integer"}}), obj({"n": {"type": "number"}}))
    assert (change.severity, change.reason) == (BREAKING, "output property 'n' retyped from integer to number")


def test_a_type_newly_set_on_an_input_is_breaking_and_one_dropped_info() -> None:
    assert input_change(obj({"v": {}}), obj({"v": {"type": "string"}})).severity is BREAKING
    assert input_change(obj({"v": {"type": "string"}}), obj({"v": {}})).severity is INFO


@pytest.mark.parametrize("keyword", ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"])
def test_a_lower_or_new_upper_bound_is_breaking_and_a_higher_or_dropped_one_info(keyword: str) -> None:
    def schema(bound: int | None) -> dict[str, Any]:
        return obj({"v": {} if bound is None else {keyword: bound}})

    assert input_change(schema(10), schema(5)).severity is BREAKING
    assert input_change(schema(None), schema(5)).severity is BREAKING
    assert input_change(schema(5), schema(10)).severity is INFO
    assert input_change(schema(5), schema(None)).severity is INFO
    assert f"{keyword} of input property 'v' lowered from 10 to 5" == input_change(schema(10), schema(5)).reason


@pytest.mark.parametrize("keyword", ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"])
def test_a_higher_or_new_lower_bound_is_breaking_and_a_lower_or_dropped_one_info(keyword: str) -> None:
    def schema(bound: int | None) -> dict[str, Any]:
        return obj({"v": {} if bound is None else {keyword: bound}})

    assert input_change(schema(1), schema(3)).severity is BREAKING
    assert input_change(schema(None), schema(3)).severity is BREAKING
    assert input_change(schema(3), schema(1)).severity is INFO
    assert input_change(schema(3), schema(None)).severity is INFO


def test_a_pattern_added_or_changed_is_breaking_and_removed_info() -> None:
    def schema(pattern: str | None) -> dict[str, Any]:
        return obj({"v": {"type": "string"} | ({} if pattern is None else {"pattern": pattern})})

    added = input_change(schema(None), schema("^a"))
    assert (added.pointer, added.op, added.severity) == ("/properties/v/pattern", "add", BREAKING)
    assert input_change(schema("^a"), schema("^b")).severity is BREAKING
    assert input_change(schema("^a"), schema(None)).severity is INFO


def test_an_enum_value_removed_or_an_enum_added_is_breaking_and_a_value_added_info() -> None:
    def schema(values: list[str] | None) -> dict[str, Any]:
        return obj({"c": {"type": "string"} | ({} if values is None else {"enum": values})})

    removed = input_change(schema(["a", "b"]), schema(["a"]))
    assert removed.severity is BREAKING and '"b"' in removed.reason
    assert input_change(schema(None), schema(["a"])).severity is BREAKING
    assert input_change(schema(["a"]), schema(["a", "b"])).severity is INFO
    assert input_change(schema(["a"]), schema(None)).severity is INFO
    assert input_change(schema(["a", "b"]), schema(["a", "c"])).severity is BREAKING  # b went, c came


def test_a_const_added_or_changed_is_breaking() -> None:
    assert input_change(obj({"c": {}}), obj({"c": {"const": 1}})).severity is BREAKING
    assert input_change(obj({"c": {"const": 1}}), obj({"c": {"const": 2}})).severity is BREAKING
    assert input_change(obj({"c": {"const": 1}}), obj({"c": {}})).severity is INFO


@pytest.mark.parametrize(
    ("old", "new", "severity"),
    [
        (ABSENT, False, BREAKING),
        (True, False, BREAKING),
        ({"type": "string"}, False, BREAKING),
        (ABSENT, {"type": "string"}, BREAKING),
        (True, {"type": "string"}, BREAKING),
        (False, True, INFO),
        (False, ABSENT, INFO),
        (False, {"type": "string"}, INFO),
        ({"type": "string"}, ABSENT, INFO),
    ],
)
def test_additional_properties_closing_breaks_and_opening_does_not(old: Any, new: Any, severity: Severity) -> None:
    def schema(extra: Any) -> dict[str, Any]:
        return obj({"m": obj({}, **({} if extra is ABSENT else {"additionalProperties": extra}))})

    change = input_change(schema(old), schema(new))
    assert change.pointer == "/properties/m/additionalProperties"
    assert change.severity is severity, change.reason
    assert "input property 'm'" in change.reason


def test_a_change_inside_an_additional_properties_schema_names_it_as_a_wildcard() -> None:
    change = input_change(
        obj({}, additionalProperties={"type": "string"}), obj({}, additionalProperties={"type": "integer"})
    )
    assert change.pointer == "/additionalProperties/type"
    assert change.severity is BREAKING and "'*'" in change.reason


def test_other_input_keywords_and_nested_descriptions_are_warnings() -> None:
    fmt = input_change(obj({"d": {"type": "string"}}), obj({"d": {"type": "string", "format": "date"}}))
    assert (fmt.pointer, fmt.severity) == ("/properties/d/format", WARNING)
    default = input_change(obj({"d": {"default": 1}}), obj({"d": {"default": 2}}))
    assert default.severity is WARNING
    described = input_change(obj({"d": {"description": "a"}}), obj({"d": {"description": "b"}}))
    assert (described.pointer, described.severity) == ("/properties/d/description", WARNING)
    assert described.reason == "description of input property 'd' changed"


def test_an_input_schema_removed_is_breaking() -> None:
    old = tool()
    new = {k: v for k, v in old.items() if k != "inputSchema"}
    assert only(old, new).severity is BREAKING


# --- output schema -------------------------------------------------------------------------------


def test_an_output_property_removed_or_retyped_is_breaking() -> None:
    removed = output_change(obj({"a": {"type": "string"}}), obj({}))
    assert (removed.pointer, removed.severity, removed.reason) == (
        "/properties/a",
        BREAKING,
        "output property 'a' removed",
    )
    widened = output_change(obj({"a": {"type": "string"}}), obj({"a": {"type": ["string", "null"]}}))
    assert widened.severity is BREAKING, "any type change of an output breaks a reader"


def test_an_output_property_added_is_info() -> None:
    assert output_change(obj({}), obj({"a": {"type": "string"}})).severity is INFO


def test_an_output_property_dropped_from_required_is_breaking_and_one_gained_info() -> None:
    props = {"a": {"type": "string"}}
    dropped = output_change(obj(props, required=["a"]), obj(props))
    assert (dropped.pointer, dropped.severity) == ("/required", BREAKING)
    assert "'a'" in dropped.reason
    assert output_change(obj(props), obj(props, required=["a"])).severity is INFO


def test_descriptions_inside_an_output_schema_are_warnings() -> None:
    change = output_change(obj({"a": {"description": "x"}}), obj({"a": {"description": "y"}}))
    assert (change.pointer, change.severity) == ("/properties/a/description", WARNING)
    assert change.reason == "description of output property 'a' changed"


def test_the_whole_output_schema_removed_is_breaking_and_added_info() -> None:
    removed = output_change(obj({}), ABSENT)
    assert (removed.pointer, removed.op, removed.severity) == ("", "remove", BREAKING)
    assert output_change(ABSENT, obj({})).severity is INFO


# --- annotations, other fields -------------------------------------------------------------------


def test_an_annotation_flip_is_a_warning_at_its_own_pointer() -> None:
    change = only(tool(annotations={"destructiveHint": False}), tool(annotations={"destructiveHint": True}))
    assert (change.field, change.pointer, change.severity) == ("annotations", "/destructiveHint", WARNING)
    assert change.reason.startswith("now destructive:")


@pytest.mark.parametrize(
    ("hint", "old", "new", "start"),
    [
        ("readOnlyHint", True, False, "no longer read-only:"),
        ("readOnlyHint", True, ABSENT, "no longer read-only:"),  # default false
        ("destructiveHint", False, ABSENT, "now destructive:"),  # default true
        ("idempotentHint", True, ABSENT, "no longer idempotent:"),
        ("openWorldHint", False, True, "now open-world:"),
        ("readOnlyHint", ABSENT, True, "now read-only:"),
        ("destructiveHint", True, False, "no longer destructive:"),
    ],
)
def test_annotation_reasons_say_which_way_a_hint_went_using_the_spec_defaults(
    hint: str, old: Any, new: Any, start: str
) -> None:
    def item(value: Any) -> dict[str, Any]:
        return tool(annotations={"title": "T"} | ({} if value is ABSENT else {hint: value}))

    change = only(item(old), item(new))
    assert change.pointer == f"/{hint}"
    assert change.severity is WARNING
    assert change.reason.startswith(start), change.reason


def test_an_annotation_set_to_its_default_says_nothing_changed_in_effect() -> None:
    change = only(tool(annotations={}), tool(annotations={"destructiveHint": True}))
    assert "same in effect" in change.reason and change.severity is WARNING


def test_whole_annotations_removed_name_the_risky_flip_first() -> None:
    change = only(tool(annotations={"readOnlyHint": True, "destructiveHint": False}), tool())
    assert (change.pointer, change.op, change.severity) == ("", "remove", WARNING)
    assert change.reason.startswith(("no longer read-only:", "now destructive:"))


def test_an_annotation_title_change_is_a_warning() -> None:
    change = only(tool(annotations={"title": "A"}), tool(annotations={"title": "B"}))
    assert (change.pointer, change.severity) == ("/title", WARNING)


@pytest.mark.parametrize("field", ["_meta", "icons", "size", "x-vendor"])
def test_meta_icons_and_unknown_fields_are_info(field: str) -> None:
    assert only(tool(**{field: 1}), tool(**{field: 2})).severity is INFO


def test_meta_is_walked_key_by_key_and_icons_index_by_index() -> None:
    meta = only(tool(_meta={"a": {"b": 1}}), tool(_meta={"a": {"b": 2}}))
    assert (meta.pointer, meta.severity) == ("/a/b", INFO)
    icons = only(tool(icons=[{"src": "a.png"}]), tool(icons=[{"src": "b.png"}]))
    assert icons.pointer == "/0/src"


def test_title_changes_are_warnings() -> None:
    assert only(tool(title="A"), tool(title="B")).severity is WARNING


# --- prompts, resources --------------------------------------------------------------------------


def test_a_prompt_argument_removed_is_breaking() -> None:
    found = changes(prompt({"name": "a"}, {"name": "b"}), prompt({"name": "a"}), "prompts")
    change = at(found, "arguments", "/1")
    assert (change.op, change.severity, change.reason) == ("remove", BREAKING, "argument 'b' removed")


def test_a_prompt_argument_renamed_is_breaking() -> None:
    change = only(prompt({"name": "a"}), prompt({"name": "b"}), "prompts")
    assert (change.pointer, change.severity, change.reason) == ("/0/name", BREAKING, "argument 'a' renamed to 'b'")


def test_a_prompt_argument_newly_required_is_breaking_and_no_longer_required_info() -> None:
    change = only(prompt({"name": "a"}), prompt({"name": "a", "required": True}), "prompts")
    assert (change.pointer, change.severity) == ("/0/required", BREAKING)
    flip = only(prompt({"name": "a", "required": True}), prompt({"name": "a", "required": False}), "prompts")
    assert flip.severity is INFO


def test_a_new_required_argument_is_breaking_and_a_new_optional_one_info() -> None:
    required = only(prompt({"name": "a"}), prompt({"name": "a"}, {"name": "b", "required": True}), "prompts")
    assert (required.pointer, required.op, required.severity) == ("/1", "add", BREAKING)
    assert required.reason == "new required argument 'b'"
    optional = only(prompt({"name": "a"}), prompt({"name": "a"}, {"name": "b"}), "prompts")
    assert optional.severity is INFO


def test_prompt_arguments_that_only_shift_places_are_not_called_removed() -> None:
    found = changes(prompt({"name": "a"}), prompt({"name": "z"}, {"name": "a"}), "prompts")
    # Index by index: /0/name a→z and /1 added (a). By name: z is new and optional, a is still there.
    assert all(c.severity is INFO for c in found), [c.reason for c in found]


def test_a_prompt_argument_description_change_is_a_warning() -> None:
    change = only(prompt({"name": "a", "description": "x"}), prompt({"name": "a", "description": "y"}), "prompts")
    assert (change.pointer, change.severity) == ("/0/description", WARNING)


def test_a_resource_mime_type_change_is_a_warning() -> None:
    old = {"uri": "file:///a", "name": "a", "mimeType": "text/plain"}
    change = only(old, old | {"mimeType": "text/html"}, "resources")
    assert (change.field, change.severity) == ("mimeType", WARNING)


def test_a_resource_name_change_is_a_warning_as_it_is_not_the_key() -> None:
    old = {"uri": "file:///a", "name": "a"}
    assert only(old, old | {"name": "b"}, "resources").severity is WARNING


def test_a_resource_size_change_is_info() -> None:
    old = {"uri": "file:///a", "name": "a", "size": 1}
    assert only(old, old | {"size": 2}, "resources").severity is INFO


def test_a_changed_key_field_is_breaking_when_two_definitions_are_diffed_directly() -> None:
    change = only({"uriTemplate": "a/{x}", "name": "a"}, {"uriTemplate": "b/{x}", "name": "a"}, "resource_templates")
    assert change.severity is BREAKING


def test_closing_an_input_with_unevaluated_properties_is_breaking() -> None:
    old = {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    new = {"name": "t", "inputSchema": {**old["inputSchema"], "unevaluatedProperties": False}}
    (change,) = diff_item("tools", old, new)
    assert change.pointer == "/unevaluatedProperties" and change.severity == "breaking", change
    (back,) = diff_item("tools", new, old)
    assert back.severity == "info"
