"""The call form: empty values, user edits, round trips, misfits kept as JSON, problems marked, schema text shown literally."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QPlainTextEdit

from catalog_inspector.core.calls import FieldProblem
from catalog_inspector.core.calls.form import MAX_ROWS, build_form, empty_value
from catalog_inspector.ui.widgets.call_form import PROBLEM_PROPERTY, CallForm
from catalog_inspector.ui.widgets.call_form_fields import MAX_SLOTS, TEXT_LIMIT, Slot

LINE = {
    "type": "object",
    "properties": {"sku": {"type": "string"}, "qty": {"type": "integer", "minimum": 1}},
    "required": ["qty"],
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "description": "Who orders", "format": "email"},
        "count": {"type": "integer"},
        "items": {"type": "array", "items": {"$ref": "#/$defs/line"}},
        "note": {"type": ["string", "null"]},
        "shape": {
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
                    "required": ["kind", "r"],
                },
                {
                    "type": "object",
                    "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
                    "required": ["kind"],
                },
            ]
        },
        "options": {
            "type": "object",
            "properties": {"verbose": {"type": "boolean"}, "level": {"enum": ["low", "high", 3]}},
            "required": ["verbose"],
        },
    },
    "required": ["name", "items", "shape"],
    "$defs": {"line": LINE},
}


@pytest.fixture
def form(qtbot) -> CallForm:  # type: ignore[no-untyped-def]
    widget = CallForm()
    qtbot.addWidget(widget)
    widget.set_schema(SCHEMA)
    widget.show()
    return widget


def row(form: CallForm, pointer: str, key: str) -> Any:
    """The property row of `key` in the object shown at `pointer` (an object's editor is its own target)."""
    return form.field_at(pointer).rows[key]


def edits(form: CallForm) -> list[None]:
    seen: list[None] = []
    form.edited.connect(lambda: seen.append(None))
    return seen


def test_a_new_schema_shows_its_empty_value(form: CallForm) -> None:
    expected = {"name": "", "items": [], "shape": {"kind": "circle", "r": 0}}
    assert form.value() == expected == empty_value(build_form(SCHEMA))
    assert form.objectName() == "callForm" and form.scroller.widget() is form.body


def test_typing_in_a_field_changes_the_value_and_says_so(qtbot, form: CallForm) -> None:  # type: ignore[no-untyped-def]
    name = form.field_at("/name")
    assert isinstance(name, QLineEdit) and "email" in name.placeholderText()
    with qtbot.waitSignal(form.edited, timeout=1000):
        qtbot.keyClicks(name, "ada@example.com")
    assert form.value()["name"] == "ada@example.com"


def test_an_optional_property_is_left_out_until_set(qtbot, form: CallForm) -> None:  # type: ignore[no-untyped-def]
    count = row(form, "", "count")
    assert form.field_at("/count") is None and "count" not in form.value()
    with qtbot.waitSignal(form.edited, timeout=1000):
        count.set_box.click()
    assert form.value()["count"] == 0
    qtbot.keyClicks(form.field_at("/count"), "0000")  # "00000" is no JSON number: it stays text for validation to flag
    assert form.value()["count"] == "00000"
    form.field_at("/count").clear()
    qtbot.keyClicks(form.field_at("/count"), "12345678901234567890")
    assert form.value()["count"] == 12345678901234567890, "no 32-bit limit"
    count.set_box.click()
    assert "count" not in form.value()


def test_booleans_enums_and_nulls_are_edited_with_their_own_widgets(qtbot, form: CallForm) -> None:  # type: ignore[no-untyped-def]
    seen = edits(form)
    row(form, "", "options").set_box.click()
    row(form, "/options", "level").set_box.click()
    assert form.value()["options"] == {"verbose": False, "level": "low"}
    verbose, level = form.field_at("/options/verbose"), form.field_at("/options/level")
    assert isinstance(verbose, QCheckBox) and isinstance(level, QComboBox)
    verbose.click()
    qtbot.keyClick(level, Qt.Key.Key_Down)
    qtbot.keyClick(level, Qt.Key.Key_Down)
    assert form.value()["options"] == {"verbose": True, "level": 3}
    row(form, "", "note").set_box.click()
    qtbot.keyClicks(form.field_at("/note"), "hi")
    null_box = row(form, "", "note").slot.null_box
    null_box.click()
    assert form.value()["note"] is None and form.field_at("/note") is null_box
    null_box.click()
    assert form.value()["note"] == "hi", "unchecking null brings back what was typed"
    assert len(seen) == 10  # two set boxes, a check box, two keys in the combo, a set box, two letters, null twice


def test_set_schema_and_set_value_emit_nothing(qtbot, form: CallForm) -> None:  # type: ignore[no-untyped-def]
    seen = edits(form)
    form.set_value({"name": "x", "items": [{"qty": 1}], "note": None, "count": "junk", "shape": {"kind": "square"}})
    form.set_schema({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
    form.set_value({"a": "b"})
    qtbot.wait(1)  # let anything queued run: this asserts an absence, not a wait for an event
    assert seen == [] and form.value() == {"a": "b"}


ROUND_TRIPS = [
    {"name": "x", "items": [], "shape": {"kind": "circle", "r": 1.5}},
    {"name": "x", "items": [{"qty": 1}, {"sku": "a-1", "qty": 2}], "shape": {"kind": "square", "side": 2}},
    {"name": "x", "items": [], "shape": {"kind": "square"}, "note": None, "options": {"verbose": True, "level": 3}},
    {"name": "x", "items": [], "shape": {"kind": "circle", "r": 2**64}, "note": "n", "count": -(2**63)},
    {"items": [{}], "shape": {"r": 1}, "options": {}},  # required keys missing: shown unset, still the same value
]


@pytest.mark.parametrize("value", ROUND_TRIPS)
def test_a_value_set_comes_back_unchanged_and_shown_as_a_form(form: CallForm, value: dict[str, Any]) -> None:
    form.set_value(value)
    assert form.value() == value
    assert json.dumps(form.value()) == json.dumps(value), "no 1 for 1.0, no True for 1"
    assert not any(slot.is_json for slot in form.findChildren(Slot)), "every part is shown by its own editor"


def test_a_choice_follows_the_value_and_keeps_each_branch_typed_in(qtbot, form: CallForm) -> None:  # type: ignore[no-untyped-def]
    form.set_value({"name": "x", "items": [], "shape": {"kind": "square", "side": 4}})
    choice = row(form, "", "shape").slot.editor
    assert choice.combo.currentText() == "kind: square"
    qtbot.keyClick(choice.combo, Qt.Key.Key_Up)
    assert form.value()["shape"] == {"kind": "circle", "r": 0}
    form.field_at("/shape/r").clear()
    qtbot.keyClicks(form.field_at("/shape/r"), "5")
    qtbot.keyClick(choice.combo, Qt.Key.Key_Down)
    assert form.value()["shape"] == {"kind": "square", "side": 4}
    qtbot.keyClick(choice.combo, Qt.Key.Key_Up)
    assert form.value()["shape"] == {"kind": "circle", "r": 5}


def test_a_root_level_one_of_is_a_choice_too(qtbot) -> None:  # type: ignore[no-untyped-def]
    widget = CallForm()
    qtbot.addWidget(widget)
    widget.set_schema(
        {
            "oneOf": [
                {"title": "By id", **LINE},
                {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
            ]
        }
    )
    assert widget.value() == {"qty": 1}
    widget.set_value({"query": "q"})
    assert widget.root.editor.combo.currentText() == "with query" and isinstance(widget.field_at("/query"), QLineEdit)
    assert widget.value() == {"query": "q"}


def test_array_rows_are_added_moved_and_removed(qtbot, form: CallForm) -> None:  # type: ignore[no-untyped-def]
    form.set_value({"name": "x", "items": [{"qty": 1}, {"qty": 2}], "shape": {"kind": "circle", "r": 1}})
    array = form.field_at("/items")
    seen = edits(form)
    qtbot.mouseClick(array.add, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(form.field_at("/items/2/qty"), "3")
    assert form.value()["items"] == [{"qty": 1}, {"qty": 2}, {"qty": 13}]
    qtbot.mouseClick(array.rows[2].up, Qt.MouseButton.LeftButton)
    assert form.value()["items"] == [{"qty": 1}, {"qty": 13}, {"qty": 2}]
    assert not array.rows[0].up.isEnabled() and not array.rows[2].down.isEnabled()
    qtbot.mouseClick(array.rows[0].down, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(array.rows[0].remove, Qt.MouseButton.LeftButton)
    assert form.value()["items"] == [{"qty": 1}, {"qty": 2}]
    assert [r.index.text() for r in array.rows] == ["0", "1"]
    assert len(seen) == 5  # add, one letter, up, down, remove
    form.set_value({"name": "x", "items": [{"qty": 7}], "shape": {"kind": "circle", "r": 1}})
    assert form.value()["items"] == [{"qty": 7}] and len(array.rows) == 1


def test_a_value_that_does_not_fit_its_field_is_kept_in_that_fields_json_editor(qtbot, form: CallForm) -> None:  # type: ignore[no-untyped-def]
    value = {
        "name": "line one\nline two",
        "count": "many",
        "items": [{"qty": 1, "extra": True}, {"qty": 2.5}],
        "shape": {"kind": "circle", "r": 1},
        "note": ["not", "a", "string"],
    }
    form.set_value(value)
    assert form.value() == value
    for pointer in ("/name", "/count", "/items/0", "/items/1/qty", "/note"):
        editor = form.field_at(pointer)
        assert isinstance(editor, QPlainTextEdit), pointer
    assert json.loads(form.field_at("/count").toPlainText()) == "many"
    assert not isinstance(form.field_at("/items/1"), QPlainTextEdit), "only the misfit inside it is JSON"
    assert isinstance(form.field_at("/shape/r"), QLineEdit)
    assert form.field_at("/items/0/qty") is None, "inside a JSON editor nothing is shown"
    count = row(form, "", "count").slot
    editor = form.field_at("/count")
    with qtbot.waitSignal(form.edited, timeout=1000):
        editor.setPlainText("5")  # a QPlainTextEdit has no user-only signal: the form tells code from user apart
    assert form.value()["count"] == 5
    with qtbot.waitSignal(form.edited, timeout=1000):
        qtbot.mouseClick(count.fallback.use_form, Qt.MouseButton.LeftButton)
    assert isinstance(form.field_at("/count"), QLineEdit) and form.field_at("/count").text() == "5"


def test_text_in_a_json_editor_that_is_not_json_is_sent_as_text_and_said_so(form: CallForm) -> None:
    form.set_value({"name": "x", "items": [], "shape": {"kind": "circle", "r": 1}, "count": "many"})
    form.field_at("/count").setPlainText("{oops")
    assert form.value()["count"] == "{oops"
    status = row(form, "", "count").slot.fallback.status
    assert not status.isHidden() and "Not JSON" in status.text()


def test_an_unknown_key_puts_its_object_in_json_rather_than_dropping_it(form: CallForm) -> None:
    value = {"name": "x", "items": [], "shape": {"kind": "circle", "r": 1}, "surprise": {"deep": [1]}}
    form.set_value(value)
    assert form.value() == value and isinstance(form.field_at(""), QPlainTextEdit)
    form.set_value({"name": "y", "items": [], "shape": {"kind": "circle", "r": 1}})
    assert isinstance(form.field_at("/name"), QLineEdit), "a value that fits brings the form back"


def test_arrays_longer_than_the_form_shows_are_json(qtbot) -> None:  # type: ignore[no-untyped-def]
    widget = CallForm()
    qtbot.addWidget(widget)
    widget.set_schema({"type": "array", "items": {"type": "integer"}})
    long = list(range(MAX_ROWS + 1))
    widget.set_value(long)
    assert widget.value() == long and isinstance(widget.field_at(""), QPlainTextEdit)
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(20)}}
    widget.set_schema({"type": "array", "items": wide})
    rows = [{}] * (MAX_SLOTS // 21 + 1)
    assert len(rows) <= MAX_ROWS
    widget.set_value(rows)
    assert widget.value() == rows and isinstance(widget.field_at(""), QPlainTextEdit), "over the form's widget budget"


def test_a_recursive_schema_renders_to_its_depth_and_keeps_deeper_values(qtbot) -> None:  # type: ignore[no-untyped-def]
    widget = CallForm()
    qtbot.addWidget(widget)
    node = {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}
    widget.set_schema({"$defs": {"node": node}, "$ref": "#/$defs/node"})
    deep: dict[str, Any] = {"children": []}
    for _ in range(10):
        deep = {"children": [deep]}
    widget.set_value(deep)
    assert widget.value() == deep
    assert isinstance(widget.field_at("/children/0/children/0/children/0/children/0"), QPlainTextEdit)


def test_problems_are_marked_on_their_fields_and_cleared(form: CallForm) -> None:
    form.set_value({"name": "x", "items": [{"qty": 0}], "shape": {"kind": "circle", "r": 1}})
    qty = form.field_at("/items/0/qty")
    form.mark_problems([FieldProblem("/items/0/qty", "0 is less than the minimum of 1", "minimum")])
    assert qty.property(PROBLEM_PROPERTY) is True and "less than the minimum" in qty.toolTip()
    assert form.marked() == [qty]
    form.mark_problems([])
    assert qty.property(PROBLEM_PROPERTY) is False and qty.toolTip() == "" and form.marked() == []


def test_a_problem_with_a_field_not_shown_marks_the_nearest_shown_ancestor(form: CallForm) -> None:
    form.set_value({"name": "x", "items": [{"qty": 1, "extra": 1}], "shape": {"kind": "circle", "r": 1}})
    form.mark_problems(
        [
            FieldProblem("/count", "'count' is wrong", "type"),  # not set: no field shown
            FieldProblem("/items/0/extra", "extra is not allowed", "additionalProperties"),  # inside a JSON editor
            FieldProblem("/items/0/qty", "3 problems here", "type"),
            FieldProblem("", "<b>root</b> problem", "required"),
        ]
    )
    root, json_row = form.field_at(""), form.field_at("/items/0")
    assert isinstance(json_row, QPlainTextEdit) and json_row.property(PROBLEM_PROPERTY) is True
    assert (
        "/items/0/extra: extra is not allowed" in json_row.toolTip()
        and "/items/0/qty: 3 problems" in json_row.toolTip()
    )
    assert root.property(PROBLEM_PROPERTY) is True and "/count: " in root.toolTip()
    assert "&lt;b&gt;root&lt;/b&gt;" in root.toolTip(), "messages reach tooltips escaped"
    form.set_value({"name": "x", "items": [], "shape": {"kind": "circle", "r": 1}})
    assert form.marked() == [] and root.property(PROBLEM_PROPERTY) is False, (
        "marks belong to the value they were made for"
    )


def test_a_marked_row_removed_by_the_user_is_no_trouble(qtbot, form: CallForm) -> None:  # type: ignore[no-untyped-def]
    form.set_value({"name": "x", "items": [{"qty": 0}], "shape": {"kind": "circle", "r": 1}})
    form.mark_problems([FieldProblem("/items/0/qty", "bad", "minimum")])
    qtbot.mouseClick(form.field_at("/items").rows[0].remove, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: form.marked() == [], timeout=5000)  # the row is deleted on the next event loop pass
    form.mark_problems([])


HTML = "<b>x</b><img src=file:///dev/zero>"


def test_schema_text_with_html_is_shown_literally(qtbot) -> None:  # type: ignore[no-untyped-def]
    widget = CallForm()
    qtbot.addWidget(widget)
    widget.set_schema(
        {
            "type": "object",
            "properties": {
                "p": {"type": "string", "title": HTML, "description": HTML, "pattern": HTML},
                "e": {"enum": [HTML, "b"], "description": "first line\n" + HTML},
                "c": {"oneOf": [{"type": "string", "title": HTML}, {"type": "integer"}]},
                "r": {"$ref": "https://example.invalid/" + HTML},
            },
            "required": ["p", "e", "c", "r"],
        }
    )
    labels = widget.findChildren(QLabel)
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)
    texts = [label.text() for label in labels]
    assert f"{HTML} (p) *" in texts and HTML in texts and "first line\n" + HTML in texts
    assert any(HTML in text and "unresolvable" in text for text in texts), "a reason quoting the ref"
    assert HTML in widget.field_at("/p").placeholderText()
    assert widget.field_at("/e").itemText(0) == HTML
    assert widget.root.editor.rows["c"].slot.editor.combo.itemText(0) == HTML


def test_long_and_hidden_text_is_bounded_and_made_visible(qtbot) -> None:  # type: ignore[no-untyped-def]
    widget = CallForm()
    qtbot.addWidget(widget)
    widget.set_schema({"type": "object", "properties": {"p\u202ex": {"type": "string", "description": "d" * 100_000}}})
    texts = [label.text() for label in widget.findChildren(QLabel)]
    assert "p\\u202ex" in texts, "a bidi override in a key is shown, not obeyed"
    assert max(len(text) for text in texts) <= TEXT_LIMIT + 1


_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from([3, 3.0, 1, 1.0, True, "5", "line\nbreak", [], {}])
)
_json = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)


def _near(fitting: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly values of the field's shape, sometimes any JSON at all."""
    return st.one_of(fitting, fitting, fitting, fitting, _scalars, _json)


def _object(**properties: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    optional = {key: _near(strategy) for key, strategy in properties.items()}
    return st.fixed_dictionaries({}, optional=optional) | st.fixed_dictionaries(
        {}, optional={**optional, "unknown": _json}
    )


_line = _object(qty=st.integers(), sku=st.text(max_size=5))
_arguments = _object(
    name=st.text(max_size=5),
    count=st.integers(),
    items=st.lists(_line, max_size=3),
    note=st.none() | st.text(max_size=3),
    shape=_object(
        kind=st.sampled_from(["circle", "square"]),
        r=st.floats(allow_nan=False, allow_infinity=False),
        side=st.integers(),
    ),
    options=_object(verbose=st.booleans(), level=st.sampled_from(["low", "high", 3, 3.0, True])),
)


@settings(max_examples=300, deadline=None)
@given(value=_near(_arguments))
@example(value={"options": {"level": 3.0, "verbose": 1}})  # 3.0 equals the enum's 3 but is not spelled so
@example(value={"shape": {"kind": "circle", "r": 1.0}, "items": [{"qty": 2.0}, {"qty": True}]})
@example(value={"shape": {"kind": "square", "side": "4"}, "note": "a\nb", "count": None})
def test_any_json_value_comes_back_exactly_whatever_the_form_makes_of_it(qapp, value: Any) -> None:  # type: ignore[no-untyped-def]
    widget = _shared_form()
    widget.set_value(value)
    assert json.dumps(widget.value()) == json.dumps(value)


_FORM: list[CallForm] = []


def _shared_form() -> CallForm:
    """One form for all examples: set_value must work over whatever the previous example left."""
    if not _FORM:
        _FORM.append(CallForm())
        _FORM[0].set_schema(SCHEMA)
    return _FORM[0]


def test_a_boolean_is_set_true_in_one_tick(qtbot, form: CallForm) -> None:  # type: ignore[no-untyped-def]
    row(form, "", "options").set_box.click()
    verbose = row(form, "/options", "verbose")
    verbose.set_box.click()  # required, so set at first: unset it
    assert not verbose.is_set and verbose.slot.editor.box.isEnabled(), "its box is live while unset"
    assert "verbose" not in form.value()["options"]
    verbose.slot.editor.box.click()
    assert verbose.is_set and form.value()["options"]["verbose"] is True
    verbose.set_box.click()  # unset again: left out, whatever its box says
    assert "verbose" not in form.value()["options"]
