"""The form model: what each schema feature becomes, what falls back to JSON and why, empty values, branches."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_inspector.core.calls.form import (
    MAX_DEPTH,
    MAX_FIELDS,
    MAX_ROWS,
    MISSING,
    FormField,
    build_form,
    empty_value,
    fits,
    json_equal,
    pick_branch,
)


def obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required or [], **extra}


def prop(form: FormField, key: str) -> FormField:
    return next(p for p in form.properties if p.key == key)


def fields(form: FormField) -> list[FormField]:
    """Every field in the tree, the root included."""
    out = [form]
    for child in (*form.properties, *(b for _, b in form.branches), *([form.items] if form.items else [])):
        out.extend(fields(child))
    return out


def depth(form: FormField) -> int:
    children = [*form.properties, *(b for _, b in form.branches), *([form.items] if form.items else [])]
    return 1 + max((depth(child) for child in children), default=0)


SHAPES = {
    "oneOf": [
        {"title": "By name", "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        {"type": "object", "properties": {"kind": {"const": "id"}, "id": {"type": "integer"}}},
        {"type": "object", "properties": {"name": {"type": "string"}, "email": {"type": "string"}}},
    ]
}


def test_a_root_level_one_of_is_a_choice_labelled_by_title_constant_and_differing_property() -> None:
    form = build_form(SHAPES)
    assert form.kind == "choice" and form.key == "" and form.required
    assert [label for label, _ in form.branches] == ["By name", "kind: id", "with email"]
    assert [branch.kind for _, branch in form.branches] == ["object"] * 3
    assert prop(form.branches[0][1], "name").required


def test_branch_labels_fall_back_to_the_kind_and_stay_unique() -> None:
    form = build_form({"anyOf": [{"type": "string"}, {"type": "string", "format": "uri"}, {"type": "integer"}]})
    assert [label for label, _ in form.branches] == ["string (1)", "string (2)", "integer"]


def test_keywords_beside_one_of_are_merged_into_every_branch() -> None:
    form = build_form(
        obj({"a": {"type": "string"}, "b": {"type": "string"}}, oneOf=[{"required": ["a"]}, {"required": ["b"]}])
    )
    assert form.kind == "choice"
    (label_a, a), (label_b, b) = form.branches
    assert (label_a, label_b) == ("with a", "with b")
    assert prop(a, "a").required and not prop(a, "b").required
    assert prop(b, "b").required and not prop(b, "a").required


def test_an_array_of_ref_objects_has_the_referenced_object_as_its_item_template() -> None:
    schema = obj(
        {"items": {"type": "array", "items": {"$ref": "#/$defs/line"}, "minItems": 1}},
        ["items"],
        **{"$defs": {"line": obj({"sku": {"type": "string"}, "qty": {"type": "integer", "minimum": 1}}, ["qty"])}},
    )
    items = prop(build_form(schema), "items")
    assert items.kind == "array" and items.required and items.hints["minItems"] == 1
    assert items.items is not None and items.items.kind == "object" and items.items.key == ""
    qty = prop(items.items, "qty")
    assert qty.kind == "integer" and qty.required and qty.hints["minimum"] == 1
    assert not prop(items.items, "sku").required


def test_definitions_and_percent_escaped_pointers_resolve_too() -> None:
    schema = {
        "definitions": {"a b": {"type": "boolean"}, "x/y": {"type": "null"}},
        **obj({"p": {"$ref": "#/definitions/a%20b"}, "q": {"$ref": "#/definitions/x~1y"}}),
    }
    form = build_form(schema)
    assert prop(form, "p").kind == "boolean" and prop(form, "q").kind == "null"


@pytest.mark.parametrize(
    "schema",
    [
        {"type": ["string", "null"], "title": "Note"},
        {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Note"},
        {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/s"}], "title": "Note", "$defs": {"s": {"type": "string"}}},
    ],
)
def test_a_nullable_union_is_the_non_null_field_marked_nullable(schema: dict[str, Any]) -> None:
    form = build_form(schema)
    assert (form.kind, form.nullable, form.title) == ("string", True, "Note")
    assert fits(form, None) and fits(form, "x") and not fits(form, 1)


def test_a_nullable_choice_keeps_its_branches_and_says_null_once() -> None:
    form = build_form({"type": ["string", "integer", "null"]})
    assert form.kind == "choice" and form.nullable
    assert [(label, branch.kind, branch.nullable) for label, branch in form.branches] == [
        ("string", "string", False),
        ("integer", "integer", False),
    ]


def test_a_recursive_ref_stops_at_the_depth_limit_with_a_json_fallback() -> None:
    schema = {
        "$defs": {
            "node": obj({"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}})
        },
        "$ref": "#/$defs/node",
    }
    form = build_form(schema)
    assert depth(form) <= MAX_DEPTH + 1
    node: FormField | None = form
    level = 0
    while node is not None and node.kind == "object":
        node = prop(node, "children").items  # an object two levels down
        level += 2
    assert node is not None and node.kind == "json" and level == MAX_DEPTH
    assert "recursive $ref '#/$defs/node'" in node.reason and str(MAX_DEPTH) in node.reason
    assert node.hints["type"] == "object" and empty_value(node) == {}


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#"},
        {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
        {"allOf": [{"$ref": "#"}]},
    ],
)
def test_a_ref_loop_that_nests_nothing_is_json_not_a_hang(schema: dict[str, Any]) -> None:
    form = build_form(schema)
    assert form.kind == "json" and "itself" in form.reason


def test_a_remote_ref_is_reported_unresolvable_and_never_fetched() -> None:
    form = build_form(
        obj({"remote": {"$ref": "https://example.invalid/s.json", "title": "Remote"}, "ok": {"type": "string"}})
    )
    remote = prop(form, "remote")
    assert remote.kind == "json" and remote.title == "Remote"
    assert "unresolvable $ref 'https://example.invalid/s.json'" in remote.reason and "fetched" in remote.reason
    assert prop(form, "ok").kind == "string", "one bad field does not take the form down"


@pytest.mark.parametrize(
    ("ref", "words"),
    [("#/$defs/missing", "nothing at that pointer"), ("#anchor", "not anchors"), ("other.json#/a", "unresolvable")],
)
def test_local_refs_that_point_nowhere_are_unresolvable_too(ref: str, words: str) -> None:
    form = build_form(obj({"p": {"$ref": ref}}))
    assert prop(form, "p").kind == "json" and words in prop(form, "p").reason


def test_a_huge_ref_is_cut_in_the_reason() -> None:
    reason = prop(build_form(obj({"p": {"$ref": "https://x/" + "a" * 10_000}})), "p").reason
    assert len(reason) < 400


def test_enum_const_default_and_required() -> None:
    form = build_form(
        obj(
            {
                "mode": {"enum": ["fast", "slow", 3, None], "default": "slow"},
                "version": {"const": 2},
                "name": {"type": "string", "default": "anon", "title": "Name", "description": "Who"},
            },
            ["version"],
        )
    )
    mode, version, name = form.properties
    assert (mode.kind, mode.enum, mode.default, mode.required) == ("enum", ("fast", "slow", 3, None), "slow", False)
    assert (version.kind, version.const, version.required, version.default) == ("const", 2, True, MISSING)
    assert (name.title, name.description, name.default) == ("Name", "Who", "anon")
    assert empty_value(form) == {"version": 2}, "optional properties are left out, defaults or not"
    assert empty_value(mode) == "slow" and empty_value(name) == "anon"


def test_string_and_number_hints_carry_formats_patterns_and_limits() -> None:
    form = build_form(
        obj(
            {
                "when": {"type": "string", "format": "date-time", "pattern": "^2", "minLength": 1, "maxLength": 30},
                "qty": {"type": "integer", "minimum": 1, "exclusiveMaximum": 100, "multipleOf": 5},
                "old": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
                "odd": {"type": "string", "minLength": "3", "pattern": 7},
            }
        )
    )
    assert dict(prop(form, "when").hints) == {"format": "date-time", "pattern": "^2", "minLength": 1, "maxLength": 30}
    assert dict(prop(form, "qty").hints) == {"minimum": 1, "exclusiveMaximum": 100, "multipleOf": 5}
    assert dict(prop(form, "old").hints) == {"exclusiveMinimum": 0}, "draft 4's boolean exclusiveMinimum"
    assert dict(prop(form, "odd").hints) == {}, "hints of the wrong type are dropped, not trusted"


def test_schema_text_is_kept_as_data() -> None:
    html = "<b>x</b><img src=file:///dev/zero>"
    form = build_form(obj({"p": {"type": "string", "title": html, "description": html, "pattern": html}}))
    p = prop(form, "p")
    assert (p.title, p.description, p.hints["pattern"]) == (html, html, html)


@pytest.mark.parametrize(
    ("schema", "words"),
    [
        ({"type": "string", "if": {"minLength": 1}, "then": {"format": "email"}}, "if is not expressible"),
        ({"type": "array", "prefixItems": [{"type": "string"}]}, "prefixItems"),
        ({"type": "array", "items": [{"type": "string"}]}, "items as a list"),
        ({"type": "object"}, "does not list"),
        ({"type": "object", "additionalProperties": {"type": "string"}}, "does not list"),
        ({"description": "anything"}, "no type"),
        ({"oneOf": [{"type": "string"}], "anyOf": [{"type": "integer"}]}, "both oneOf and anyOf"),
        ({"type": "strnig"}, "unknown type 'strnig'"),
        ({"type": 5}, "`type`"),
        ({"enum": []}, "enum"),
        (False, "false"),
        (5, "not a schema"),
        ({"$dynamicRef": "#meta"}, "$dynamicRef"),
        ({"allOf": [{"type": "string"}, {"type": "integer"}]}, "disagree on 'type'"),
        ({"allOf": [{"type": "string", "pattern": "a"}, {"pattern": "b"}]}, "disagree on 'pattern'"),
        ({"oneOf": "nope"}, "oneOf is not a list"),
    ],
)
def test_what_a_form_cannot_express_falls_back_to_json_with_a_reason(schema: Any, words: str) -> None:
    form = build_form(obj({"p": schema}))
    p = prop(form, "p")
    assert p.kind == "json" and words in p.reason and p.key == "p"


def test_a_required_property_the_schema_does_not_describe_is_a_json_field_not_an_omission() -> None:
    form = build_form(obj({"a": {"type": "string"}}, ["a", "ghost"]))
    ghost = prop(form, "ghost")
    assert ghost.kind == "json" and ghost.required and "not described" in ghost.reason
    assert empty_value(form) == {"a": "", "ghost": None}


def test_an_array_without_items_edits_each_item_as_json() -> None:
    form = build_form({"type": "array"})
    assert form.kind == "array" and form.items is not None and form.items.kind == "json"
    assert "does not describe the items" in form.items.reason


def test_types_are_inferred_from_keywords_when_the_schema_names_none() -> None:
    form = build_form({"properties": {"a": {"maxLength": 3}, "b": {"minimum": 0}, "c": {"items": {"type": "string"}}}})
    assert form.kind == "object"
    assert [p.kind for p in form.properties] == ["string", "number", "array"]


def test_all_of_merges_simple_cases() -> None:
    schema = {
        "$defs": {"base": obj({"id": {"type": "string"}}, ["id"], title="Base")},
        "allOf": [{"$ref": "#/$defs/base"}, obj({"qty": {"type": "integer", "minimum": 0}}, ["qty"])],
        "properties": {"qty": {"minimum": 2}},
        "title": "Order",
    }
    form = build_form(schema)
    assert form.kind == "object" and form.title == "Order"
    assert [p.key for p in form.properties] == ["qty", "id"]
    assert prop(form, "qty").kind == "integer" and prop(form, "qty").hints["minimum"] == 2, "the stricter bound"
    assert prop(form, "qty").required and prop(form, "id").required


def test_ref_siblings_override_the_targets_words() -> None:
    form = build_form(
        obj(
            {"p": {"$ref": "#/$defs/s", "description": "mine"}},
            **{"$defs": {"s": {"type": "string", "description": "theirs"}}},
        )
    )
    assert prop(form, "p").description == "mine" and prop(form, "p").kind == "string"


def test_a_schema_needing_more_fields_than_the_cap_is_json_at_the_root() -> None:
    form = build_form(obj({f"p{i}": {"type": "string"} for i in range(MAX_FIELDS + 1)}))
    assert form.kind == "json" and str(MAX_FIELDS) in form.reason
    assert build_form(obj({f"p{i}": {"type": "string"} for i in range(MAX_FIELDS - 1)})).kind == "object"


def test_a_fan_out_of_refs_is_bounded_by_the_cap() -> None:
    # Each level refers to the next twice: 2**40 fields if nothing stopped it.
    defs = {f"n{i}": obj({"l": {"$ref": f"#/$defs/n{i + 1}"}, "r": {"$ref": f"#/$defs/n{i + 1}"}}) for i in range(40)}
    form = build_form({"$defs": defs, "$ref": "#/$defs/n0"})
    assert len(fields(form)) <= MAX_FIELDS


def test_empty_values_of_each_kind() -> None:
    form = build_form(
        obj(
            {
                "s": {"type": "string"},
                "i": {"type": "integer", "exclusiveMinimum": 0, "multipleOf": 5},
                "n": {"type": "number", "maximum": -1.5},
                "b": {"type": "boolean"},
                "z": {"type": "null"},
                "e": {"enum": [[1], 2]},
                "a": {"type": "array", "items": {"type": "boolean"}, "minItems": 2},
                "c": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
                "o": obj({"x": {"type": "string"}, "y": {"type": "string"}}, ["y"]),
                "j": {"type": "object", "additionalProperties": True},
                "nul": {"type": ["string", "null"]},
            },
            ["s", "i", "n", "b", "z", "e", "a", "c", "o", "j", "nul"],
        )
    )
    assert empty_value(form) == {
        "s": "",
        "i": 5,
        "n": -1.5,
        "b": False,
        "z": None,
        "e": [1],
        "a": [False, False],
        "c": 0,
        "o": {"y": ""},
        "j": {},
        "nul": "",
    }


def test_empty_values_are_copies() -> None:
    form = build_form({"type": "object", "properties": {}, "default": {"a": [1]}})
    first = empty_value(form)
    first["a"].append(2)
    assert empty_value(form) == {"a": [1]}


def test_pick_branch_prefers_a_whole_fit_then_agreeing_constants_then_the_top_level_shape() -> None:
    form = build_form(SHAPES)
    assert pick_branch(form, {"name": "n"}) == 0
    assert pick_branch(form, {"kind": "id", "id": 3}) == 1
    assert pick_branch(form, {"name": "n", "email": "e"}) == 2
    assert pick_branch(form, {"name": 5}) == 0, "no branch fits wholly; the first with that key does at the top"
    assert pick_branch(form, {"kind": "id", "id": "three"}) == 1, "the constant decides among partial fits"
    assert pick_branch(form, [1]) == -1 and pick_branch(form, {"unknown": 1}) == -1


def test_pick_branch_keeps_the_current_branch_when_the_value_fits_it() -> None:
    form = build_form(SHAPES)
    assert pick_branch(form, {}) == 0
    assert pick_branch(form, {}, current=2) == 2
    assert pick_branch(form, {"kind": "id"}, current=2) == 1, "the current branch does not fit, another does"


def test_pick_branch_tells_numbers_strings_and_booleans_apart() -> None:
    form = build_form({"type": ["boolean", "integer", "number", "string"]})
    assert [pick_branch(form, v) for v in (True, 3, 3.5, 3.0, "3")] == [0, 1, 2, 1, 3]


def test_fits_is_about_shape_not_limits() -> None:
    form = build_form(
        obj({"n": {"type": "integer", "maximum": 1}, "a": {"type": "array", "items": {"type": "string"}}})
    )
    assert fits(form, {"n": 50}) and fits(form, {}), "limits are validation's; missing keys show as not set"
    assert not fits(form, {"n": 1.5}) and not fits(form, {"n": True}) and not fits(form, {"x": 1})
    assert fits(form, {"a": [1]}, deep=False) and not fits(form, {"a": [1]})
    assert not fits(form, {"a": ["s"] * (MAX_ROWS + 1)}), "a longer array than the form shows"
    assert fits(form, {"n": 10**400}), "integers of any size"


def test_json_equality_follows_json_schema() -> None:
    assert json_equal(1, 1.0) and json_equal({"a": [1]}, {"a": [1.0]})
    assert not json_equal(True, 1) and not json_equal("1", 1) and not json_equal(None, False)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=10,
)
_keywords = st.sampled_from(
    [
        "type",
        "properties",
        "items",
        "required",
        "oneOf",
        "anyOf",
        "allOf",
        "$ref",
        "enum",
        "const",
        "default",
        "minimum",
        "pattern",
        "format",
        "title",
        "$defs",
        "additionalProperties",
        "prefixItems",
        "if",
    ]
)
_refs = st.sampled_from(["#", "#/$defs/a", "#/properties/x", "#/$defs/missing", "http://x", "#/oneOf/0"])
_types = st.sampled_from(["string", "integer", "object", "array", "null", "boolean", ["string", "null"], "nope"])


def _schemas() -> st.SearchStrategy[Any]:
    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        values = st.one_of(
            inner,
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from("xyz"), inner, max_size=3),
            _refs,
            _types,
            _json,
        )
        return st.dictionaries(_keywords, values, max_size=5)

    return st.recursive(st.booleans() | st.just({}) | st.builds(lambda t: {"type": t}, _types), extend, max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(
    schema=st.dictionaries(st.sampled_from(["a", "$defs"]), _schemas(), max_size=2).map(
        lambda d: {**obj({"x": d.get("a", {})}), "$defs": {"a": d.get("$defs", {})}}
    )
    | _schemas()
)
def test_any_schema_builds_a_bounded_form_without_raising(schema: Any) -> None:
    form = build_form(schema)
    all_fields = fields(form)
    assert len(all_fields) <= MAX_FIELDS + 1 and depth(form) <= MAX_DEPTH + 2
    assert all(f.reason for f in all_fields if f.kind == "json"), "every fallback says why"
    value = empty_value(form)
    if all(f.default is MISSING for f in all_fields):
        assert fits(form, value), "the empty value of a form shows in that form"


def test_properties_keep_the_schemas_order_and_sorted_ones_put_the_required_first() -> None:
    declared = {"type": "object", "properties": {"b": {}, "c": {}, "a": {}}, "required": ["a"]}
    assert [prop.key for prop in build_form(declared).properties] == ["b", "c", "a"], "the author's order"
    unordered = {"type": "object", "properties": {"a": {}, "b": {}, "c": {}}, "required": ["c", "b"]}
    assert [prop.key for prop in build_form(unordered).properties] == ["b", "c", "a"], "sorted: required first"
    assert [p.key for p in build_form({**unordered, "required": []}).properties] == ["a", "b", "c"]
