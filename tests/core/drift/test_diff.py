"""The diff engine: pointers and ops, apply, moves, and the JSON forms the CLI prints (severities: test_severity.py)."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest

from catalog_inspector.core.drift.diff import (
    ABSENT,
    CatalogDiff,
    ItemChange,
    ListDiff,
    Move,
    apply_changes,
    describe_pointer,
    diff_catalogs,
    diff_item,
    diff_list,
)
from tests.core.drift.diff_cases import BREAKING, INFO, WARNING, changes, input_change, obj, only, prompt, tool

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


def test_applying_a_change_to_one_of_two_shared_objects_changes_only_that_one() -> None:
    # Found by hypothesis: one `{}` object twice in a list. A deepcopy keeps the two as one.
    shared: dict[str, Any] = {}
    old = {"name": "t", "outputSchema": {"anyOf": [shared, shared]}}
    new = {"name": "t", "outputSchema": {"anyOf": [{"type": "string"}, {}]}}
    assert apply_changes(old, diff_item("tools", old, new)) == new


def test_describe_pointer_reads_a_schema_pointer_in_words() -> None:
    pointer = "/properties/order/properties/items/items/properties/qty/type"
    assert describe_pointer("inputSchema", pointer) == "input property 'order.items[].qty', keyword 'type'"
    assert describe_pointer("outputSchema", "/required") == "the output schema, keyword 'required'"
    assert describe_pointer("annotations", "/destructiveHint") == "annotations /destructiveHint"


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


# --- how each kind of value is walked ------------------------------------------------------------


def test_a_property_named_like_a_keyword_is_still_walked_as_a_schema() -> None:
    change = input_change(obj({"enum": {"type": "string"}}), obj({"enum": {"type": "integer"}}))
    assert change.pointer == "/properties/enum/type"


def test_the_branches_of_a_schema_under_a_single_schema_keyword_are_walked_index_by_index() -> None:
    def schema(second: str) -> dict[str, Any]:
        return obj({}, additionalProperties={"anyOf": [{"type": "string"}, {"type": second}]})

    assert input_change(schema("integer"), schema("boolean")).pointer == "/additionalProperties/anyOf/1/type"


def test_defaults_and_consts_are_compared_whole_even_when_they_are_objects() -> None:
    root = input_change({"type": "object", "default": {"a": 1}}, {"type": "object", "default": {"a": 2}})
    assert (root.pointer, root.op, root.old, root.new) == ("/default", "replace", {"a": 1}, {"a": 2})
    nested = input_change(obj({"x": {"const": {"a": 1}}}), obj({"x": {"const": {"a": 2}}}))
    assert nested.pointer == "/properties/x/const"


def test_an_unknown_keyword_holding_an_object_is_walked_key_by_key() -> None:
    change = input_change(obj({"x": {"x-ui": {"widget": "a"}}}), obj({"x": {"x-ui": {"widget": "b"}}}))
    assert change.pointer == "/properties/x/x-ui/widget"


def test_plain_json_is_walked_key_by_key_but_its_arrays_are_replaced_whole_whatever_their_keys() -> None:
    change = only(tool(_meta={"a": {"anyOf": [1, 2]}}), tool(_meta={"a": {"anyOf": [1, 3]}}))
    assert (change.pointer, change.old, change.new) == ("/a/anyOf", [1, 2], [1, 3])


def test_a_replaced_value_shows_both_sides_in_its_json() -> None:
    change = only(tool(title="A"), tool(title="B"))
    assert (change.to_json()["op"], change.to_json()["old"], change.to_json()["new"]) == ("replace", "A", "B")


def test_an_item_without_its_key_field_is_matched_under_the_empty_key() -> None:
    result = diff_list("tools", [{"title": "a"}], [{"title": "b"}])
    assert [c.key for c in result.changed] == [""]
    assert diff_list("tools", [], [{"title": "a"}]).to_json()["added"] == [""]


def test_items_as_one_schema_has_its_own_branches_walked_index_by_index() -> None:
    def schema(second: str) -> dict[str, Any]:
        return obj({"p": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": second}]}}})

    assert input_change(schema("integer"), schema("null")).pointer == "/properties/p/items/anyOf/1/type"


def test_a_branch_inside_a_branch_is_walked_as_a_schema_too() -> None:
    def schema(last: int) -> dict[str, Any]:
        return obj({"v": {"anyOf": [{"type": "string"}, {"anyOf": [{"const": 1}, {"const": last}]}]}})

    assert input_change(schema(2), schema(3)).pointer == "/properties/v/anyOf/1/anyOf/1/const"


def test_the_elements_of_a_plain_list_are_plain_json_whatever_their_keys() -> None:
    change = only(
        tool(icons=[{"src": "a.png", "items": ["x", "y"]}]), tool(icons=[{"src": "a.png", "items": ["x", "z"]}])
    )
    assert change.pointer == "/0/items"


@pytest.mark.parametrize(("list_name", "field"), [("tools", "arguments"), ("prompts", "_meta")])
def test_only_a_prompts_arguments_are_walked_index_by_index(list_name: str, field: str) -> None:
    old = {"name": "p", field: [{"a": 1}, {"a": 2}]}
    change = only(old, {**old, field: [{"a": 1}, {"a": 3}]}, list_name)
    assert (change.pointer, change.old, change.new) == ("", [{"a": 1}, {"a": 2}], [{"a": 1}, {"a": 3}])
