"""The diff engine: pointers, ops, severities with their reasons, moves, and the JSON forms the CLI prints."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest

from catalog_inspector.core.diff import (
    ABSENT,
    CatalogDiff,
    Change,
    ItemChange,
    ListDiff,
    Move,
    Severity,
    apply_changes,
    describe_pointer,
    diff_catalogs,
    diff_item,
    diff_list,
)

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


# --- pointers and ops ----------------------------------------------------------------------------


def test_identical_items_have_no_changes_even_as_different_objects() -> None:
    item = tool(obj({"x": {"type": "string"}}))
    assert diff_item("tools", item, copy.deepcopy(item)) == ()


def test_a_retyped_property_gets_a_leaf_pointer_and_names_its_path() -> None:
    change = input_change(obj({"count": {"type": "integer"}}), obj({"count": {"type": "string"}}))
    assert (change.pointer, change.op, change.old, change.new) == (
        "/properties/count/type",
        "replace",
        "integer",
        "string",
    )
    assert change.severity is BREAKING
    assert change.reason == "input property 'count' retyped from integer to string"


def test_nested_properties_and_array_items_read_as_a_dotted_path_with_brackets() -> None:
    def order(qty_type: str) -> dict[str, Any]:
        item = obj({"qty": {"type": qty_type}})
        return obj({"order": obj({"items": {"type": "array", "items": item}})})

    change = input_change(order("integer"), order("string"))
    assert change.pointer == "/properties/order/properties/items/items/properties/qty/type"
    assert change.reason == "input property 'order.items[].qty' retyped from integer to string"
    assert change.severity is BREAKING


def test_a_changed_description_replaces_the_whole_field_with_an_empty_pointer() -> None:
    change = only(tool(), tool(description="Does other things."))
    assert (change.field, change.pointer, change.op) == ("description", "", "replace")
    assert change.severity is WARNING


def test_a_whole_field_added_or_removed_has_an_empty_pointer_and_absent_on_the_missing_side() -> None:
    added = only(tool(), tool(title="T"))
    assert (added.field, added.pointer, added.op, added.old, added.new) == ("title", "", "add", ABSENT, "T")
    removed = only(tool(title="T"), tool())
    assert (removed.op, removed.old, removed.new) == ("remove", "T", ABSENT)
    assert added.severity is removed.severity is WARNING


def test_pointer_segments_escape_tilde_and_slash() -> None:
    change = input_change(obj({"a/b~c": {"type": "string"}}), obj({"a/b~c": {"type": "integer"}}))
    assert change.pointer == "/properties/a~1b~0c/type"
    assert "'a/b~c'" in change.reason


def test_defs_are_walked_like_properties() -> None:
    def schema(street: str) -> dict[str, Any]:
        return obj({"home": {"$ref": "#/$defs/Address"}}, **{"$defs": {"Address": obj({"street": {"type": street}})}})

    change = input_change(schema("string"), schema("integer"))
    assert change.pointer == "/$defs/Address/properties/street/type"
    assert change.severity is BREAKING
    assert "'$defs.Address.street'" in change.reason


def test_anyof_branches_are_walked_index_by_index() -> None:
    def schema(second: str) -> dict[str, Any]:
        return obj({"v": {"anyOf": [{"type": "string"}, {"type": second, "minimum": 0}]}})

    change = input_change(schema("integer"), schema("boolean"))
    assert change.pointer == "/properties/v/anyOf/1/type"
    assert change.severity is BREAKING
    assert "'v.anyOf[1]'" in change.reason


@pytest.mark.parametrize("keyword", ["anyOf", "oneOf"])
def test_a_removed_union_branch_is_breaking_and_an_added_one_info(keyword: str) -> None:
    two = obj({"v": {keyword: [{"type": "string"}, {"type": "integer"}]}})
    one = obj({"v": {keyword: [{"type": "string"}]}})
    removed = input_change(two, one)
    assert (removed.pointer, removed.op, removed.severity) == (f"/properties/v/{keyword}/1", "remove", BREAKING)
    assert f"{keyword} branch 1 of input property 'v' removed" in removed.reason
    added = input_change(one, two)
    assert (added.pointer, added.op, added.severity) == (f"/properties/v/{keyword}/1", "add", INFO)


def test_an_allof_branch_added_is_breaking_it_is_one_more_constraint() -> None:
    change = input_change(
        obj({"v": {"allOf": [{"type": "string"}]}}), obj({"v": {"allOf": [{"type": "string"}, {"minLength": 2}]}})
    )
    assert (change.op, change.severity) == ("add", BREAKING)


def test_extra_array_elements_are_removed_from_the_top_index_down_and_added_upwards() -> None:
    four = obj({"v": {"oneOf": [{"const": i} for i in range(4)]}})
    one = obj({"v": {"oneOf": [{"const": 0}]}})
    shrink = changes(tool(four), tool(one))
    assert [(c.pointer, c.op) for c in shrink] == [(f"/properties/v/oneOf/{i}", "remove") for i in (3, 2, 1)]
    grow = changes(tool(one), tool(four))
    assert [(c.pointer, c.op) for c in grow] == [(f"/properties/v/oneOf/{i}", "add") for i in (1, 2, 3)]


def test_enum_and_type_union_arrays_are_replaced_whole() -> None:
    change = input_change(obj({"c": {"enum": ["a", "b"]}}), obj({"c": {"enum": ["a", "c"]}}))
    assert (change.pointer, change.op, change.old, change.new) == (
        "/properties/c/enum",
        "replace",
        ["a", "b"],
        ["a", "c"],
    )


def test_a_dict_replaced_by_a_non_dict_is_one_replace() -> None:
    change = input_change(obj({"x": {"type": "string"}}), obj({"x": True}))
    assert (change.pointer, change.op, change.old, change.new) == ("/properties/x", "replace", {"type": "string"}, True)


def test_tuple_items_as_an_array_are_walked_index_by_index() -> None:
    change = input_change(
        obj({"p": {"type": "array", "items": [{"type": "number"}, {"type": "string"}]}}),
        obj({"p": {"type": "array", "items": [{"type": "number"}, {"type": "boolean"}]}}),
    )
    assert change.pointer == "/properties/p/items/1/type"
    assert "'p[1]'" in change.reason


def test_applying_changes_does_not_touch_either_input() -> None:
    old = tool(obj({"x": {"type": "string"}}))
    new = tool(obj({"x": {"type": "integer"}, "y": {"type": "string"}}))
    old_copy, new_copy = copy.deepcopy(old), copy.deepcopy(new)
    result = apply_changes(old, diff_item("tools", old, new))
    assert result == new and old == old_copy and new == new_copy
    result["inputSchema"]["properties"]["y"]["type"] = "mutated"
    assert new == new_copy


def test_describe_pointer_reads_a_schema_pointer_in_words() -> None:
    pointer = "/properties/order/properties/items/items/properties/qty/type"
    assert describe_pointer("inputSchema", pointer) == "input property 'order.items[].qty', keyword 'type'"
    assert describe_pointer("outputSchema", "/required") == "the output schema, keyword 'required'"
    assert describe_pointer("annotations", "/destructiveHint") == "annotations /destructiveHint"


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


def prompt(*arguments: dict[str, Any]) -> dict[str, Any]:
    return {"name": "p", "description": "A prompt.", "arguments": list(arguments)}


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


# --- lists, moves, the catalog -------------------------------------------------------------------


def named(*names: str) -> list[dict[str, Any]]:
    return [tool(name=n) for n in names]


def test_a_list_diff_keeps_added_and_removed_items_whole_in_their_own_order() -> None:
    result = diff_list("tools", named("a", "b", "c"), named("d", "a", "e"))
    assert [t["name"] for t in result.removed] == ["b", "c"]
    assert [t["name"] for t in result.added] == ["d", "e"]
    assert result.added[0] == tool(name="d")


def test_changed_items_come_in_new_order_with_their_key() -> None:
    old = named("a", "b", "c")
    new = [tool(name="c", title="x"), tool(name="b"), tool(name="a", title="y")]
    result = diff_list("tools", old, new)
    assert [c.key for c in result.changed] == ["c", "a"]


def test_a_reversed_list_moves_all_but_one() -> None:
    names = [f"t{i}" for i in range(6)]
    result = diff_list("tools", named(*names), named(*names[::-1]))
    assert len(result.moved) == 5
    assert not result.changed and not result.added and not result.removed


def test_one_moved_item_among_a_thousand_is_exactly_one_move() -> None:
    names = [f"t{i:04d}" for i in range(1000)]
    moved = names[:100] + names[101:900] + [names[100]] + names[900:]
    result = diff_list("tools", named(*names), named(*moved))
    assert result.moved == (Move("t0100", 100, 899),)


def test_moves_count_places_among_shared_items_only() -> None:
    result = diff_list("tools", named("x", "a", "b"), named("b", "a", "y"))
    assert len(result.moved) == 1
    (move,) = result.moved
    assert (move.old_index, move.new_index) in ((0, 1), (1, 0))


def test_added_or_removed_items_alone_are_not_moves() -> None:
    result = diff_list("tools", named("a", "b", "c"), named("z", "a", "c", "d"))
    assert result.moved == ()


def test_twenty_thousand_reversed_find_their_moves_without_quadratic_work() -> None:
    names = [f"t{i}" for i in range(20_000)]
    start = time.perf_counter()
    result = diff_list("tools", named(*names), named(*names[::-1]))
    assert len(result.moved) == 19_999
    assert time.perf_counter() - start < 5


def test_diff_catalogs_treats_a_missing_list_as_empty() -> None:
    result = diff_catalogs({"tools": named("a")}, {"tools": named("a"), "prompts": [prompt()]})
    assert set(result.lists) == {"tools", "resources", "resource_templates", "prompts"}
    assert [p["name"] for p in result.lists["prompts"].added] == ["p"]
    assert result.lists["tools"].empty and not result.empty


def test_worst_and_counts_weigh_removed_as_breaking_and_added_and_moved_as_info() -> None:
    assert diff_catalogs({}, {}).worst() is None
    assert diff_catalogs({}, {}).empty
    only_added = diff_catalogs({"tools": []}, {"tools": named("a")})
    assert only_added.worst() is INFO
    removed = diff_catalogs({"tools": named("a", "b", "c")}, {"tools": [tool(name="c", title="x"), *named("b")]})
    assert removed.worst() is BREAKING
    assert removed.counts() == {BREAKING: 1, WARNING: 1, INFO: 1}  # a removed, c's title, b/c moved


def test_an_item_change_takes_the_worst_severity_of_its_changes() -> None:
    found = changes(tool(obj({"x": {}})), tool(obj({}), title="T"))
    assert ItemChange("t", found).severity is BREAKING
    assert ItemChange("t", tuple(c for c in found if c.severity is WARNING)).severity is WARNING


def test_change_json_has_exactly_the_cli_keys_and_null_for_absent() -> None:
    change = only(tool(), tool(title="T"))
    assert change.to_json() == {
        "field": "title", "pointer": "", "op": "add", "old": None, "new": "T",
        "severity": "warning", "reason": "title added",
    }  # fmt: skip


def test_catalog_json_puts_tools_at_the_top_and_the_other_lists_under_their_names() -> None:
    old = {"tools": named("a", "b", "c"), "resources": [{"uri": "u", "name": "u"}]}
    new = {"tools": [tool(name="c", title="x"), *named("b", "d")], "resources": []}
    out = diff_catalogs(old, new).to_json()
    assert set(out) == {"added", "removed", "changed", "moved", "resources", "resource_templates", "prompts", "summary"}
    assert out["added"] == ["d"] and out["removed"] == ["a"]
    assert out["changed"] == [{"name": "c", "changes": [only(tool(name="c"), tool(name="c", title="x")).to_json()]}]
    assert out["moved"] == [{"name": "c", "old_index": 1, "new_index": 0}]
    assert out["resources"] == {"added": [], "removed": ["u"], "changed": [], "moved": []}
    assert out["summary"] == {"breaking": 2, "warning": 1, "info": 2}
    json.dumps(out)  # plain JSON all the way down


def test_list_diff_json_lists_keys_by_the_lists_own_key_field() -> None:
    result = ListDiff("resource_templates", added=({"uriTemplate": "a/{x}", "name": "n"},))
    assert result.to_json()["added"] == ["a/{x}"]
    assert CatalogDiff({"resource_templates": result}).to_json()["resource_templates"]["added"] == ["a/{x}"]


def test_closing_an_input_with_unevaluated_properties_is_breaking() -> None:
    from catalog_inspector.core.diff import diff_item

    old = {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    new = {"name": "t", "inputSchema": {**old["inputSchema"], "unevaluatedProperties": False}}
    (change,) = diff_item("tools", old, new)
    assert change.pointer == "/unevaluatedProperties" and change.severity == "breaking", change
    (back,) = diff_item("tools", new, old)
    assert back.severity == "info"
