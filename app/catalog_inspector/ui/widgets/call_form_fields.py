"""The pieces of the call form: a `Slot` per value shown, holding the editor of its field's kind.

A `Slot` is one field at one place in the arguments (`/items/0/qty`). It shows
its editor, a "null" box when the field is nullable, and — when `set_value`
gives it a value its editor cannot show — a JSON editor for that value instead,
so nothing given is ever dropped. Editors emit `changed` on user edits only
(textEdited, activated, clicked), never when a value is set from code.

Schema text (titles, descriptions, patterns, enum values) is shown through
`help_label`, placeholders and combo items — all plain text — and bounded.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.calls import FormField, empty_value, fits
from catalog_inspector.core.text import visible, visible_json
from catalog_inspector.ui.accessible import described, named
from catalog_inspector.ui.keyboard import follow_layout

__all__ = [
    "MAX_SLOTS",
    "TITLE_LIMIT",
    "Context",
    "FieldEditor",
    "Slot",
    "field_label",
    "field_size",
    "hint_text",
    "layout_of",
    "leaf_editor",
    "help_label",
]

TEXT_LIMIT = 2000  # characters of a description shown
TITLE_LIMIT = 200  # characters of a title, key, label, pattern or enum value shown
LINE_LIMIT = 32767  # QLineEdit's own maximum length: a longer string is edited as JSON
MAX_SLOTS = 1000  # slots per form: arrays add no rows past it (the value goes to JSON instead)
NUMBER_DIGITS = 4000  # longer integer text stays text (Python refuses to convert past 4,300 digits)

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_FORMAT_EXAMPLES = {
    "date-time": "2024-01-31T12:00:00Z",
    "date": "2024-01-31",
    "time": "12:00:00Z",
    "email": "name@example.com",
    "uri": "https://example.com/",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "hostname": "example.com",
}


def help_label(text: str, parent: QWidget, limit: int = TEXT_LIMIT) -> QLabel:
    """A word-wrapped label for schema text in the form: literal (never HTML), bounded, hidden characters visible.

    Unlike `labels.plain_label` (a named label the window fills in later) it keeps its width
    from its text: the form's rows lay out around it.
    """
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setText(visible(text, limit, keep_newlines=True))
    return label


def field_label(field: FormField) -> str:
    """What a field is called to a screen reader: its title or key (plain, visible, bounded), else "value"."""
    return visible(field.title or field.key, TITLE_LIMIT) if field.title or field.key else "value"


def field_description(field: FormField, what: str) -> str:
    """A field's accessible description: what the widget does, its limits, required or not, the schema's words."""
    hint = hint_text(field)
    words = f"{what}{f' ({hint})' if hint else ''}{'; required' if field.required else ''}."
    return described(words, field.description)


def value_text(value: Any) -> str:
    """A value as one line of plain text: strings as they are, the rest as JSON; bounded."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return visible(text, TITLE_LIMIT)


def _range(low: Any, high: Any, unit: str) -> str:
    if low is not None and high is not None:
        return f"{low}–{high} {unit}"
    return f"at least {low} {unit}" if low is not None else f"at most {high} {unit}"


def hint_text(field: FormField) -> str:
    """The field's limits and format in a few words ("integer · ≥ 1 · multiple of 2")."""
    hints, parts = field.hints, list[str]()
    if field.kind in ("number", "integer"):
        parts.append(field.kind)
        for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("exclusiveMaximum", "<")):
            if key in hints:
                parts.append(f"{sign} {hints[key]}")
        if "multipleOf" in hints:
            parts.append(f"multiple of {hints['multipleOf']}")
    if "format" in hints:
        example = _FORMAT_EXAMPLES.get(hints["format"])
        parts.append(f"format: {hints['format']}" + (f", e.g. {example}" if example else ""))
    if "pattern" in hints:
        parts.append(f"pattern: {hints['pattern']}")
    for low, high, unit in (("minLength", "maxLength", "characters"), ("minItems", "maxItems", "items")):
        if low in hints or high in hints:
            parts.append(_range(hints.get(low), hints.get(high), unit))
    if hints.get("uniqueItems"):
        parts.append("unique items")
    return visible(" · ".join(parts), TITLE_LIMIT)


def parse_number(text: str) -> Any:
    """The JSON number `text` spells, or `text` itself when it spells none (validation then says so)."""
    match = _NUMBER.fullmatch(text)
    if match is None:
        return text
    if not match.group(1) and not match.group(2):
        return int(text) if len(text) <= NUMBER_DIGITS else text
    number = float(text)
    return number if number not in (float("inf"), float("-inf")) else text


def field_size(field: FormField) -> int:
    """About how many slots one more value of `field` costs (rows and unchosen branches aside)."""
    branch = field.branches[0][1] if field.branches else None
    return 1 + sum(field_size(prop) for prop in field.properties) + (field_size(branch) if branch else 0)


EditorFactory = Callable[[FormField, "Context", QWidget], "FieldEditor"]


class Context:
    """What the slots of one form share.

    Attributes:
        editor_for: makes the editor of a field (the form's module knows the nested kinds).
        slots: how many slots exist; arrays refuse rows that would take it past MAX_SLOTS.
    """

    def __init__(self, editor_for: EditorFactory) -> None:
        self.editor_for = editor_for
        self.slots = 0
        self.quiet = False  # the form is being built or filled in: Tab is chained once, when it is done

    def follow_layout(self, editor: QWidget) -> None:
        """Tab reaches what an editor just made in its place (`ui.keyboard.follow_layout`), unless `quiet`."""
        if not self.quiet:
            follow_layout(editor)

    def room_for(self, count: int) -> bool:
        return self.slots + count <= MAX_SLOTS


class FieldEditor(QFrame):
    """The editor of one field kind. Subclasses override what they need.

    Signals:
        changed(): the user edited the value.
    """

    changed = Signal()

    def __init__(self, field: FormField, context: Context, parent: QWidget) -> None:
        super().__init__(parent)
        self.field = field
        self.context = context

    def accepts(self, value: Any) -> bool:
        """Whether this editor can show `value`, whose top level `fits` the field."""
        return True

    def value(self) -> Any:
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        raise NotImplementedError

    def child(self, part: str) -> Slot | None:
        """The slot shown for one step of a JSON pointer below this value, if any."""
        return None

    def target(self) -> QWidget:
        """The widget to focus or mark for a problem with this value."""
        return self

    def slots(self) -> list[Slot]:
        """The slots directly inside this editor."""
        return []


def layout_of(widget: QWidget, horizontal: bool = False) -> QVBoxLayout | QHBoxLayout:
    layout = QHBoxLayout(widget) if horizontal else QVBoxLayout(widget)
    layout.setContentsMargins(0, 0, 0, 0)
    return layout


class LineEditor(FieldEditor):
    """A string, number or integer in a QLineEdit; numbers are parsed as typed (text that is none stays text)."""

    def __init__(self, field: FormField, context: Context, parent: QWidget) -> None:
        super().__init__(field, context, parent)
        self.edit = QLineEdit(self)
        self.edit.setPlaceholderText(hint_text(field) or field.kind)
        named(self.edit, field_label(field), field_description(field, f"A {field.kind}"))
        self.edit.textEdited.connect(self.changed)
        layout_of(self, True).addWidget(self.edit)

    def accepts(self, value: Any) -> bool:
        if not isinstance(value, str):
            return True
        # Line breaks and hidden characters (a bidi override …) are edited as JSON, where they show as escapes.
        return len(value) <= LINE_LIMIT and (value.isprintable() or visible(value) == value)

    def value(self) -> Any:
        text = self.edit.text()
        return text if self.field.kind == "string" else parse_number(text)

    def set_value(self, value: Any) -> None:
        self.edit.setText(value if isinstance(value, str) else json.dumps(value))

    def target(self) -> QWidget:
        return self.edit


class BoolEditor(FieldEditor):
    def __init__(self, field: FormField, context: Context, parent: QWidget) -> None:
        super().__init__(field, context, parent)
        self.box = QCheckBox("true", self)
        named(self.box, field_label(field), field_description(field, "A boolean: ticked is true"))
        self.box.clicked.connect(self.changed)
        layout_of(self, True).addWidget(self.box)

    def value(self) -> Any:
        return self.box.isChecked()

    def set_value(self, value: Any) -> None:
        self.box.setChecked(bool(value))

    def target(self) -> QWidget:
        return self.box


def spelling(value: Any) -> str:
    """A value's JSON text: the editors of fixed values take a value only as spelled (3.0 is not 3)."""
    return json.dumps(value, ensure_ascii=False)


class FixedEditor(FieldEditor):
    """A `const` (or `null`) field: one value, shown, not edited."""

    def __init__(self, field: FormField, context: Context, parent: QWidget) -> None:
        super().__init__(field, context, parent)
        self.fixed = None if field.kind == "null" else field.const
        self.label = help_label(value_text(self.fixed), self, TITLE_LIMIT)
        layout_of(self, True).addWidget(self.label)

    def accepts(self, value: Any) -> bool:
        return spelling(value) == spelling(self.fixed)

    def value(self) -> Any:
        return copy.deepcopy(self.fixed)

    def set_value(self, value: Any) -> None:
        pass  # `accepts` let only the one value through


class EnumEditor(FieldEditor):
    """An `enum` field: a combo box of its values, each shown as plain text."""

    def __init__(self, field: FormField, context: Context, parent: QWidget) -> None:
        super().__init__(field, context, parent)
        self.combo = QComboBox(self)
        self.combo.addItems([value_text(option) for option in field.enum])  # item text is never rich text
        named(self.combo, field_label(field), field_description(field, "One of the values the schema lists"))
        self.combo.activated.connect(self.changed)
        self._spellings = [spelling(option) for option in field.enum]
        layout_of(self, True).addWidget(self.combo)

    def accepts(self, value: Any) -> bool:
        return spelling(value) in self._spellings

    def value(self) -> Any:
        return copy.deepcopy(self.field.enum[max(self.combo.currentIndex(), 0)])

    def set_value(self, value: Any) -> None:
        self.combo.setCurrentIndex(self._spellings.index(spelling(value)))

    def target(self) -> QWidget:
        return self.combo


class JsonEditor(FieldEditor):
    """Raw JSON for one value, with the reason it is not a form; text that is not JSON is sent as a string.

    Attributes:
        edit: the text; `value()` parses it (once per change).
        use_form: the button back to the form (only on a slot's fallback editor).
    """

    def __init__(self, field: FormField, context: Context, parent: QWidget, reason: str, back: bool = False) -> None:
        super().__init__(field, context, parent)
        layout = layout_of(self)
        self.reason = help_label(reason, self)
        self.edit = QPlainTextEdit(self)
        self.edit.setObjectName("callFormJson")
        self.edit.setTabChangesFocus(True)  # Tab leaves the JSON: no keyboard trap in the form
        self.edit.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)
        self.edit.setMinimumHeight(48)
        self.edit.setMaximumHeight(140)
        named(self.edit, f"{field_label(field)} as JSON", field_description(field, visible(reason, TITLE_LIMIT)))
        self.edit.textChanged.connect(self._on_edit_text_changed)
        self.status = help_label("", self)
        self.status.hide()
        layout.addWidget(self.reason)
        layout.addWidget(self.edit)
        layout.addWidget(self.status)
        self.use_form = QPushButton("Use the form", self) if back else None
        if self.use_form is not None:
            named(self.use_form, "", f"Edit {field_label(field)} in the form again, if its value fits")
            layout.addWidget(self.use_form, 0, Qt.AlignmentFlag.AlignLeft)
        self._loading = False
        self._parsed: tuple[bool, Any] | None = None  # (is JSON, value), None when the text changed since

    def _on_edit_text_changed(self) -> None:
        self._parsed = None
        if not self._loading:
            self.changed.emit()

    def parsed(self) -> tuple[bool, Any]:
        """(True, the value) when the text is JSON, else (False, the text)."""
        if self._parsed is None:
            text = self.edit.toPlainText()
            try:
                self._parsed = (True, json.loads(text))
            except ValueError as exc:  # JSONDecodeError, and integers past the digit limit
                self._parsed = (False, text)
                self.status.setText(visible(f"Not JSON, so it is sent as text: {exc}", TITLE_LIMIT))
            self.status.setVisible(not self._parsed[0])
        return self._parsed

    def value(self) -> Any:
        return copy.deepcopy(self.parsed()[1])

    def set_value(self, value: Any) -> None:
        self._loading = True
        try:
            self.edit.setPlainText(visible_json(value, 2))  # hidden characters as escapes
        finally:
            self._loading = False
        self._parsed = (True, copy.deepcopy(value))
        self.status.hide()

    def target(self) -> QWidget:
        return self.edit


class Slot(QWidget):
    """One field at one place in the arguments: its editor, a null box, and a JSON editor for misfits.

    Attributes:
        field: the form field shown.
        editor: the kind's editor.
        null_box: "null" for a nullable field (checked: the value is null), else None.
        fallback: the JSON editor shown instead of `editor` for a value it cannot show, once needed.

    Signals:
        changed(): the user edited this value (or one inside it).
    """

    changed = Signal()

    def __init__(self, field: FormField, context: Context, parent: QWidget) -> None:
        super().__init__(parent)
        context.slots += 1
        self.field = field
        self.context = context
        self.box = layout = layout_of(self)
        self.null_box: QCheckBox | None = None
        if field.nullable and field.kind != "null":
            self.null_box = QCheckBox("null", self)
            named(self.null_box, f"{field_label(field)} is null", "Ticked: the value is null")
            self.null_box.clicked.connect(self._on_null_box_clicked)
            layout.addWidget(self.null_box)
        self.editor = context.editor_for(field, context, self)
        self.editor.changed.connect(self.changed)
        layout.addWidget(self.editor)
        self.fallback: JsonEditor | None = None
        self._json = False
        self.set_value(empty_value(field))

    def value(self) -> Any:
        if self.null_box is not None and self.null_box.isChecked():
            return None
        if self._json and self.fallback is not None:
            return self.fallback.value()
        return self.editor.value()

    def set_value(self, value: Any) -> None:
        """Show `value`: in the editor when it fits, else as JSON."""
        if self.null_box is not None:
            self.null_box.setChecked(value is None)
            self.editor.setEnabled(value is not None)
            if value is None:
                self._show_json(False)
                return
        if fits(self.field, value, deep=False) and self.editor.accepts(value):
            self.editor.set_value(value)
            self._show_json(False)
        else:
            self._fallback().set_value(value)
            self._show_json(True)

    @property
    def is_json(self) -> bool:
        """The value is shown in the fallback JSON editor, not the field's own editor."""
        return self._json

    def _fallback(self) -> JsonEditor:
        if self.fallback is None:
            reason = "This value does not fit the form, so it is edited as JSON."
            self.fallback = JsonEditor(self.field, self.context, self, reason, back=True)
            self.fallback.changed.connect(self.changed)
            assert self.fallback.use_form is not None
            self.fallback.use_form.clicked.connect(self._on_use_form_clicked)
            self.box.addWidget(self.fallback)
            self.context.follow_layout(self)  # made after the form: Tab reaches it here, not at the window's end
        return self.fallback

    def _show_json(self, on: bool) -> None:
        self._json = on
        # Only on a change: showing a widget again costs a polish of its whole subtree.
        for widget, shown in ((self.editor, not on), (self.fallback, on), (self.null_box, not on)):
            if widget is not None and widget.isHidden() == shown:
                widget.setVisible(shown)

    def _on_null_box_clicked(self, checked: bool) -> None:
        self.editor.setEnabled(not checked)
        self.changed.emit()

    def _on_use_form_clicked(self) -> None:
        assert self.fallback is not None
        ok, value = self.fallback.parsed()
        if ok:
            self.set_value(value)
            self.context.follow_layout(self)  # the rows it may have made
        if self._json:
            self.fallback.status.setText("This value still does not fit the form.")
            self.fallback.status.show()
        else:
            self.changed.emit()

    def child(self, part: str) -> Slot | None:
        if self._json or (self.null_box is not None and self.null_box.isChecked()):
            return None
        return self.editor.child(part)

    def target(self) -> QWidget:
        if self._json and self.fallback is not None:
            return self.fallback.target()
        if self.null_box is not None and self.null_box.isChecked():
            return self.null_box
        return self.editor.target()

    def dispose(self) -> None:
        """Give back this slot and those inside it to the form's count (before deleting it)."""
        self.context.slots -= 1
        for slot in self.editor.slots():
            slot.dispose()


def leaf_editor(field: FormField, context: Context, parent: QWidget) -> FieldEditor | None:
    """The editor for a field of a kind that holds no other fields, else None."""
    kind = field.kind
    if kind in ("string", "number", "integer"):
        return LineEditor(field, context, parent)
    if kind == "boolean":
        return BoolEditor(field, context, parent)
    if kind in ("const", "null"):
        return FixedEditor(field, context, parent)
    if kind == "enum":
        return EnumEditor(field, context, parent)
    if kind == "json":
        return JsonEditor(field, context, parent, field.reason or "Edited as JSON.")
    return None
