"""The call form: a tool's input schema as a form, its value as the call's arguments, problems marked on fields.

The leaf editors and the `Slot` that holds each value live in `call_form_fields`;
the editors that hold other fields (object, array, choice) are here, beside the form.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.calls import FieldProblem, FormField, build_form, empty_value, pick_branch
from catalog_inspector.core.pointer import pointer_parts
from catalog_inspector.core.text import visible
from catalog_inspector.ui import theme
from catalog_inspector.ui.accessible import described, named
from catalog_inspector.ui.keyboard import follow_layout
from catalog_inspector.ui.models.roles import tooltip
from catalog_inspector.ui.widgets.call_form_fields import (
    MAX_SLOTS,
    TITLE_LIMIT,
    Context,
    FieldEditor,
    Slot,
    field_label,
    field_size,
    help_label,
    hint_text,
    layout_of,
    leaf_editor,
)

__all__ = ["MARK_LIMIT", "PROBLEM_PROPERTY", "PROBLEM_STYLE", "CallForm", "problem_style"]

PROBLEM_PROPERTY = "fieldProblem"  # the dynamic property (True) on a marked field's editor widget
_PROBLEM_RULE = "*[" + PROBLEM_PROPERTY + '="true"] {{ border: 1px solid {}; }}'  # on the marked widget only
PROBLEM_STYLE = _PROBLEM_RULE.format(theme.PROBLEM_MARK)  # the light palette's; problem_style(): the palette of now
MARK_LIMIT = 200  # problems marked at most; validation reports are bounded too
MESSAGES_PER_FIELD = 10
PLAIN_DESCRIPTION = "plainDescription"  # a marked field's own accessible description, while problems replace it
NO_ARGUMENTS: dict[str, Any] = {"type": "object", "properties": {}}


def property_name(field: FormField) -> str:
    """A property's heading: its title and key, `*` when required; bounded, hidden characters visible."""
    key = visible(field.key, TITLE_LIMIT)
    name = f"{visible(field.title, TITLE_LIMIT)} ({key})" if field.title and field.title != field.key else key
    return f"{name} *" if field.required else name


class PropertyRow(QWidget):
    """One property of an object: a "set" box (unchecked: the key is left out), its name, help and slot.

    Signals:
        changed(): the user set, unset or edited the property.
    """

    changed = Signal()

    def __init__(self, field: FormField, context: Context, parent: QWidget) -> None:
        super().__init__(parent)
        layout = layout_of(self)
        header = QHBoxLayout()
        self.set_box = QCheckBox("set", self)
        self.set_box.setToolTip(tooltip("Include this property in the arguments"))
        self.set_box.clicked.connect(self._on_set_box_clicked)
        named(self.set_box, f"Set {field_label(field)}", "Ticked: the property is in the arguments; unticked: left out")
        self.name = help_label(property_name(field), self, TITLE_LIMIT)
        header.addWidget(self.set_box)
        header.addWidget(self.name, 1)
        layout.addLayout(header)
        self.help: QLabel | None = None
        if field.description:
            self.help = help_label(field.description, self)
            self.help.setObjectName("callFormHelp")
            layout.addWidget(self.help)
        self.slot = Slot(field, context, self)
        self.slot.changed.connect(self._on_slot_changed)
        layout.addWidget(self.slot)
        # A boolean is one tick: its box stays live while the property is unset, and ticking it sets it too.
        self._one_tick = field.kind == "boolean" and self.slot.null_box is None

    @property
    def is_set(self) -> bool:
        return self.set_box.isChecked()

    def set_value(self, present: bool, value: Any) -> None:
        self.set_box.setChecked(present)
        self.slot.set_value(value)
        self.slot.setEnabled(present or self._one_tick)

    def _on_set_box_clicked(self, checked: bool) -> None:
        self.slot.setEnabled(checked or self._one_tick)
        self.changed.emit()

    def _on_slot_changed(self) -> None:
        if not self.set_box.isChecked():  # only a one-tick boolean's box can be edited while unset
            self.set_box.setChecked(True)
        self.changed.emit()


class ObjectEditor(FieldEditor):
    """An object's properties, one row each; absent ones show their empty value, unset."""

    def __init__(self, field: FormField, context: Context, parent: QWidget) -> None:
        super().__init__(field, context, parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = layout_of(self)
        layout.setContentsMargins(8, 4, 4, 4)
        self.rows: dict[str, PropertyRow] = {}
        self._order: list[str] = [prop.key for prop in field.properties]
        for prop in field.properties:
            row = PropertyRow(prop, context, self)
            row.changed.connect(self.changed)
            self.rows[prop.key] = row
            layout.addWidget(row)
        if not field.properties:
            layout.addWidget(help_label("No properties.", self))

    def value(self) -> Any:
        return {key: self.rows[key].slot.value() for key in self._order if self.rows[key].is_set}

    def set_value(self, value: Any) -> None:
        for key, row in self.rows.items():
            present = key in value
            row.set_value(present, value[key] if present else empty_value(row.slot.field))
        # Keys come back in the order given (the JSON editor's), then the rest in schema order.
        self._order = [key for key in value if key in self.rows] + [key for key in self.rows if key not in value]

    def child(self, part: str) -> Slot | None:
        row = self.rows.get(part)
        return row.slot if row is not None and row.is_set else None

    def slots(self) -> list[Slot]:
        return [row.slot for row in self.rows.values()]


class ArrayRow(QWidget):
    """One item of an array: its index, its slot, and buttons to move it or remove it.

    Signals:
        move_requested(int): the user asked to move the item by this many places (-1 up, 1 down).
        remove_requested(): the user asked to remove the item.
    """

    move_requested = Signal(int)
    remove_requested = Signal()

    def __init__(self, field: FormField, context: Context, parent: QWidget) -> None:
        super().__init__(parent)
        layout = layout_of(self, True)
        self.index = help_label("", self)
        self.index.setWordWrap(False)
        self.slot = Slot(field, context, self)
        layout.addWidget(self.index, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.slot, 1)
        self.up = self._button("↑", "Move this item up", layout)
        self.down = self._button("↓", "Move this item down", layout)
        self.remove = self._button("✕", "Remove this item", layout)
        named(self.up, "Move item up", "Move this item one place up")
        named(self.down, "Move item down", "Move this item one place down")
        named(self.remove, "Remove item", "Remove this item from the array")
        self.up.clicked.connect(self._on_up_clicked)
        self.down.clicked.connect(self._on_down_clicked)
        self.remove.clicked.connect(self.remove_requested)

    def _button(self, text: str, tip: str, layout: QVBoxLayout | QHBoxLayout) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tooltip(tip))
        layout.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        return button

    def _on_up_clicked(self) -> None:
        self.move_requested.emit(-1)

    def _on_down_clicked(self) -> None:
        self.move_requested.emit(1)


class ArrayEditor(FieldEditor):
    """An array's items as rows of its item template, with add, remove, move up and move down."""

    def __init__(self, field: FormField, context: Context, parent: QWidget) -> None:
        super().__init__(field, context, parent)
        assert field.items is not None
        self.items = field.items
        self._cost = field_size(field.items)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = layout_of(self)
        layout.setContentsMargins(8, 4, 4, 4)
        hint = hint_text(field)
        if hint:
            layout.addWidget(help_label(hint, self))
        self.rows: list[ArrayRow] = []
        self.rows_box = QWidget(self)
        self.rows_layout = layout_of(self.rows_box)
        layout.addWidget(self.rows_box)
        self.add = QPushButton("Add item", self)
        named(self.add, "", f"Add an item to {field_label(field)}")
        self.add.clicked.connect(self._on_add_clicked)
        layout.addWidget(self.add, 0, Qt.AlignmentFlag.AlignLeft)

    def accepts(self, value: Any) -> bool:
        return self.context.room_for(max(0, len(value) - len(self.rows)) * self._cost)

    def value(self) -> Any:
        return [row.slot.value() for row in self.rows]

    def set_value(self, value: Any) -> None:
        while len(self.rows) > len(value):
            self._drop(len(self.rows) - 1)
        if len(self.rows) < len(value):
            # Rows added to a shown form are shown one by one, each re-laying the form out:
            # quadratic. Added while their box is hidden, they are shown and laid out once.
            shown = not self.rows_box.isHidden()
            self.rows_box.hide()
            while len(self.rows) < len(value):
                self._append()
            self.rows_box.setVisible(shown)
        for row, item in zip(self.rows, value, strict=True):
            row.slot.set_value(item)
        self._renumber()

    def _append(self) -> ArrayRow:
        row = ArrayRow(self.items, self.context, self)
        row.slot.changed.connect(self.changed)
        row.move_requested.connect(partial(self._on_row_move_requested, row))
        row.remove_requested.connect(partial(self._on_row_remove_requested, row))
        self.rows.append(row)
        self.rows_layout.addWidget(row)
        return row

    def _drop(self, index: int) -> None:
        row = self.rows.pop(index)
        row.slot.dispose()
        self.rows_layout.removeWidget(row)
        row.hide()
        row.deleteLater()

    def _renumber(self) -> None:
        for index, row in enumerate(self.rows):
            row.index.setText(str(index))
            row.up.setEnabled(index > 0)
            row.down.setEnabled(index < len(self.rows) - 1)

    def _on_add_clicked(self) -> None:
        if not self.context.room_for(self._cost):
            self.add.setToolTip(
                tooltip(f"The form holds at most {MAX_SLOTS} fields: add more items in the JSON editor")
            )
            return
        self._append()
        self._renumber()
        self.context.follow_layout(self)  # a row made after the form: Tab reaches it in its place
        self.changed.emit()

    def _on_row_move_requested(self, row: ArrayRow, step: int) -> None:
        if row not in self.rows:  # removed while the signal was queued
            return
        index = self.rows.index(row)
        to = index + step
        if not 0 <= to < len(self.rows):
            return
        self.rows.insert(to, self.rows.pop(index))
        self.rows_layout.removeWidget(row)
        self.rows_layout.insertWidget(to, row)
        self._renumber()
        self.context.follow_layout(self)
        self.changed.emit()

    def _on_row_remove_requested(self, row: ArrayRow) -> None:
        if row in self.rows:
            self._drop(self.rows.index(row))
            self._renumber()
            self.changed.emit()

    def child(self, part: str) -> Slot | None:
        if part.isascii() and part.isdigit() and (part == "0" or not part.startswith("0")):
            index = int(part)
            return self.rows[index].slot if index < len(self.rows) else None
        return None

    def slots(self) -> list[Slot]:
        return [row.slot for row in self.rows]


class ChoiceEditor(FieldEditor):
    """A `oneOf`/`anyOf` (or several types): a branch picker above the chosen branch's slot.

    Branch slots are made when first shown and kept, so switching back keeps what was typed.
    """

    def __init__(self, field: FormField, context: Context, parent: QWidget) -> None:
        super().__init__(field, context, parent)
        self.box = layout = layout_of(self)
        self.combo = QComboBox(self)
        self.combo.addItems([visible(label, TITLE_LIMIT) for label, _ in field.branches])
        named(
            self.combo, f"{field_label(field)}: kind of value", "Which of the schema's alternatives the value follows"
        )
        self.combo.activated.connect(self._on_combo_activated)
        layout.addWidget(self.combo, 0, Qt.AlignmentFlag.AlignLeft)
        self.branches: dict[int, Slot] = {}
        self.index = -1
        self._show(0)

    def _show(self, index: int) -> Slot:
        slot = self.branches.get(index)
        if slot is None:
            slot = self.branches[index] = Slot(self.field.branches[index][1], self.context, self)
            slot.changed.connect(self.changed)
            self.box.addWidget(slot)
            self.context.follow_layout(self)
        for other, shown in self.branches.items():
            shown.setVisible(other == index)
        self.index = index
        self.combo.setCurrentIndex(index)
        return slot

    def _on_combo_activated(self, index: int) -> None:
        if index != self.index:
            self._show(index)
            self.changed.emit()

    def value(self) -> Any:
        return self.branches[self.index].value()

    def set_value(self, value: Any) -> None:
        index = pick_branch(self.field, value, self.index)
        self._show(max(index, 0)).set_value(value)  # index >= 0: the slot checked that some branch fits

    def child(self, part: str) -> Slot | None:
        return self.branches[self.index].child(part)

    def target(self) -> QWidget:
        return self.branches[self.index].target()

    def slots(self) -> list[Slot]:
        return list(self.branches.values())


def make_editor(field: FormField, context: Context, parent: QWidget) -> FieldEditor:
    """The editor for `field`'s kind."""
    editor = leaf_editor(field, context, parent)
    if editor is not None:
        return editor
    if field.kind == "object":
        return ObjectEditor(field, context, parent)
    if field.kind == "array":
        return ArrayEditor(field, context, parent)
    return ChoiceEditor(field, context, parent)


def problem_style() -> str:
    """The marked field's style sheet: a border in `PROBLEM_MARK`, 3:1 against the palette of now."""
    return _PROBLEM_RULE.format(theme.css(theme.PROBLEM_MARK))


class CallForm(QWidget):
    """A form generated from a tool's input schema, in a scroll area.

    Values the form cannot show (an unknown key, a string where a number goes) are
    shown in a JSON editor in place of the field they belong to, so `value()`
    gives back what `set_value` was given. Everything the schema says is shown
    as plain text (see `call_form_fields`).

    Attributes:
        form: the form field tree of the current schema (`core.calls.form.build_form`).
        root: the slot of the whole arguments value.

    A marked field's border is `problem_style()`, set again when the palette changes.

    Signals:
        edited(): the user changed something in the form (never emitted by set_schema or set_value).
    """

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("callForm")
        self.scroller = QScrollArea(self)
        self.scroller.setObjectName("callFormScroll")
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        self.scroller.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the fields (the view follows them)
        self.body = QWidget(self.scroller)
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.addStretch(1)
        self.scroller.setWidget(self.body)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroller)
        self._marked: list[QWidget] = []
        self.form: FormField = build_form(NO_ARGUMENTS)
        self.root = self._build(self.form)
        theme.theme().changed.connect(self._on_theme_changed)

    def _build(self, form: FormField) -> Slot:
        context = Context(make_editor)
        context.quiet = True
        root = Slot(form, context, self.body)
        root.editor.setFrameShape(QFrame.Shape.NoFrame)  # the scroll area frames the root
        root.changed.connect(self.edited)
        self.body_layout.insertWidget(0, root)
        context.quiet = False
        follow_layout(self)  # fields made after the window: Tab reaches them here, in the form's order
        return root

    def set_schema(self, schema: Any) -> None:
        """Rebuild the form for a tool's `inputSchema` (untrusted) and show its empty value."""
        self._clear_marks()
        old = self.root
        self.body_layout.removeWidget(old)
        old.hide()
        old.deleteLater()
        self.form = build_form(schema)
        self.root = self._build(self.form)

    def first_field(self) -> QWidget | None:
        """Where a person starts typing: the first property's editor that takes a value now (not a "set" box),
        else the root's; None when none is shown yet."""
        rows = self.root.editor.rows.values() if isinstance(self.root.editor, ObjectEditor) else []
        for target in [*(row.slot.target() for row in rows), self.root.target()]:
            if target.isVisible() and target.isEnabled() and target.focusPolicy() != Qt.FocusPolicy.NoFocus:
                return target
        return None

    def value(self) -> Any:
        """The arguments the form holds now (JSON-compatible)."""
        return self.root.value()

    def set_value(self, value: Any) -> None:
        """Show these arguments; what does not fit a field goes to that field's JSON editor.

        Marks are cleared: they belonged to the value shown before.
        """
        self._clear_marks()
        self.root.context.quiet = True  # rows and JSON editors it makes are chained once, after
        try:
            self.root.set_value(value)
        finally:
            self.root.context.quiet = False
        follow_layout(self)

    def _nearest(self, pointer: str) -> tuple[Slot, bool]:
        """The slot shown for `pointer`, or its nearest shown ancestor (and False)."""
        parts = pointer_parts(pointer)
        slot = self.root
        if parts is None:
            return slot, False
        for part in parts:
            child = slot.child(part)
            if child is None:
                return slot, False
            slot = child
        return slot, True

    def field_at(self, pointer: str) -> QWidget | None:
        """The editor widget of the field shown at this instance pointer, None when none is shown there."""
        slot, exact = self._nearest(pointer)
        return slot.target() if exact else None

    def mark_problems(self, problems: Sequence[FieldProblem]) -> None:
        """Mark each problem's field (or its nearest shown ancestor); an empty sequence clears all marks."""
        self._clear_marks()
        marks: dict[int, tuple[QWidget, list[str]]] = {}
        for problem in problems[:MARK_LIMIT]:
            slot, exact = self._nearest(problem.pointer)
            widget = slot.target()
            message = problem.message if exact else f"{problem.pointer}: {problem.message}"
            marks.setdefault(id(widget), (widget, []))[1].append(message)
        for widget, messages in marks.values():
            widget.setProperty(PROBLEM_PROPERTY, True)
            # A style sheet on the marked widget alone: one on the whole form would restyle
            # every field it builds, which doubles the cost of building a big form.
            widget.setStyleSheet(problem_style())
            widget.setToolTip(tooltip("\n".join(messages[:MESSAGES_PER_FIELD])))
            # A screen reader reads the description, not the tooltip: the problems go first, the usual words after.
            plain = widget.accessibleDescription()
            widget.setProperty(PLAIN_DESCRIPTION, plain)
            said = described("Problem:", "; ".join(messages[:MESSAGES_PER_FIELD]))
            widget.setAccessibleDescription(f"{said} {plain}".strip())
            self._marked.append(widget)

    def _on_theme_changed(self) -> None:
        style = problem_style()
        for widget in self.marked():  # at most MARK_LIMIT
            widget.setStyleSheet(style)

    def marked(self) -> list[QWidget]:
        """The widgets marked now."""
        return [widget for widget in self._marked if shiboken6.isValid(widget)]

    def _clear_marks(self) -> None:
        for widget in self.marked():
            widget.setProperty(PROBLEM_PROPERTY, False)
            widget.setStyleSheet("")
            widget.setToolTip("")
            widget.setAccessibleDescription(str(widget.property(PLAIN_DESCRIPTION) or ""))
        self._marked.clear()
