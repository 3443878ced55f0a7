"""Screen readers: every interactive widget of the main window (every page built, the Call form and the server's
questions filled in) and of each dialog has an accessible name and an accessible description, as Qt's accessibility
interface reports them to assistive technology, in plain text.

`nameless(roots)` walks every widget under the roots (hidden ones too: they show at some point) and says the first
interactive one (a button, line edit, combo box, check box, spin box, item view, tab, plain text edit that takes
focus, slider…) whose `QAccessible.queryAccessibleInterface(widget).text(Name)` or `…(Description)` is empty or
rich text. A tab bar is read tab by tab (Qt gives the bar itself no description: each tab's is its tooltip). A combo
box also needs its own accessible name: on Linux Qt reads its current item as its name, other platforms read the
accessible name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAction
from PySide6.QtGui import Qt as GuiQt  # mightBeRichText lives in QtGui's Qt namespace
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QMenuBar,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollBar,
    QTabBar,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.calls import InputAsk
from catalog_inspector.ui.dialogs.imports import ImportDialog
from catalog_inspector.ui.dialogs.palette import CommandPalette
from catalog_inspector.ui.dialogs.server import ServerDialog
from catalog_inspector.ui.dialogs.shortcuts import ShortcutsDialog
from catalog_inspector.ui.main_window import MainWindow
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for

INTERACTIVE = (
    QAbstractButton,
    QLineEdit,
    QComboBox,
    QAbstractSpinBox,
    QAbstractItemView,
    QTabBar,
    QAbstractSlider,
    QPlainTextEdit,
    QTextEdit,
)
# Qt's own parts of a widget, named by it: a combo box's list and line edit, a spin box's line edit, a line edit's
# clear button, a tab bar's scroll buttons, a table's corner button, a header, a scroll bar, the menu bar's ">>".
PARTS_OF = (QComboBox, QAbstractSpinBox, QLineEdit, QTabBar, QMenuBar)

# A Call form with every kind of field: text, number, boolean, enum, const, nested object, array (with rows and a
# JSON editor for an item that does not fit), a choice of branches, nullable, and a value only JSON can show.
EVERY_FIELD = {
    "type": "object",
    "required": ["query"],
    "properties": {
        "query": {"type": "string", "title": "Query", "description": "What to look for", "minLength": 1},
        "limit": {"type": "integer", "minimum": 1},
        "exact": {"type": "boolean"},
        "mode": {"enum": ["fast", "thorough"]},
        "version": {"const": 2},
        "where": {"type": "object", "properties": {"path": {"type": "string"}, "deep": {"type": "boolean"}}},
        "tags": {"type": "array", "items": {"type": "string"}},
        "target": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        "note": {"type": ["string", "null"]},
        "extra": {},
    },
}
EVERY_VALUE = {
    "query": "q",
    "where": {"path": "p"},
    "tags": ["a", {"not": "a string"}],
    "note": None,
    "extra": {"any": [1]},
}


def interactive(widget: QWidget) -> bool:
    """A widget a person operates, or that takes the keyboard's focus to be read (not one of Qt's own parts)."""
    if not isinstance(widget, INTERACTIVE) or isinstance(widget, QHeaderView | QScrollBar):
        return False
    parent = widget.parentWidget()
    if isinstance(widget, QAbstractButton) and isinstance(parent, QAbstractItemView):
        return False  # a table's corner button
    while parent is not None:
        if isinstance(parent, PARTS_OF):
            return False
        parent = parent.parentWidget()
    if isinstance(widget, QPlainTextEdit | QTextEdit):
        return widget.focusPolicy() != Qt.FocusPolicy.NoFocus
    return True


def where(widget: QWidget) -> str:
    """A widget and its ancestors, by class and object name: what a failure names."""
    parts = []
    current: QWidget | None = widget
    while current is not None and len(parts) < 6:
        parts.append(f"{type(current).__name__}({current.objectName()!r})")
        current = current.parentWidget()
    return " in ".join(parts)


def _problem(label: str, name: str, description: str) -> str | None:
    if not name.strip():
        return f"{label} has no accessible name"
    if not description.strip():
        return f"{label} ({name!r}) has no accessible description"
    for text in (name, description):
        if GuiQt.mightBeRichText(text):
            return f"{label} ({name!r}) is described in rich text: {text[:80]!r}"
    return None


def problems_of(widget: QWidget) -> Iterator[str]:
    """What a screen reader would miss on `widget`, as its accessibility interface reports it."""
    face = QAccessible.queryAccessibleInterface(widget)
    assert face is not None and face.isValid(), where(widget)
    if isinstance(widget, QTabBar):
        for index in range(face.childCount()):
            tab = face.child(index)
            if tab is not None and tab.role() == QAccessible.Role.PageTab:
                label = f"tab {index} of {where(widget)}"
                found = _problem(label, tab.text(QAccessible.Text.Name), tab.text(QAccessible.Text.Description))
                if found:
                    yield found
        return
    label = where(widget)
    found = _problem(label, face.text(QAccessible.Text.Name), face.text(QAccessible.Text.Description))
    if found:
        yield found
    elif isinstance(widget, QComboBox) and not widget.accessibleName():
        yield f"{label} has no accessible name of its own (Qt on Linux reads its current item as its name)"


def nameless(roots: Iterable[QWidget]) -> str | None:
    """The first interactive widget under `roots` that a screen reader could not name or describe, in words."""
    for root in roots:
        for widget in (root, *root.findChildren(QWidget)):
            if interactive(widget):
                for problem in problems_of(widget):
                    return problem
    return None


def audited(roots: Iterable[QWidget]) -> int:
    """How many interactive widgets `roots` hold (a walk that finds none proves nothing)."""
    return sum(interactive(widget) for root in roots for widget in (root, *root.findChildren(QWidget)))


# -- the main window ------------------------------------------------------------------------------------
def fill_every_page(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """What the pages make only later: a tool's form, the server's questions, a template's and a prompt's fields,
    a result's resource links."""
    panel = window.call_panel
    window.tabs.setCurrentWidget(panel)
    tree = window.tools_pane.tree
    tree.setCurrentIndex(tree.model().index(0, 0))
    panel.editor.show_schema(EVERY_FIELD)
    panel.editor.set_arguments(EVERY_VALUE)
    panel.result.show_result(
        {"content": [{"type": "resource_link", "uri": "demo://readme", "name": "readme"}], "isError": False}
    )
    ask = InputAsk("k", "elicitation/create", {"message": "Who?", "requestedSchema": EVERY_FIELD}, server="first")
    panel.input_panel.form.show_ask(ask, EVERY_VALUE)
    for pane in window.list_panes.values():
        assert pane.request.input_panel is not None  # a tab's question panel is built on its first question
    for name in ("resource_templates", "prompts"):
        pane = window.list_panes[name]
        window.tabs.setCurrentWidget(pane)
        # The pages behind the tree follow a new catalog a turn later (`WindowPages.follow`): its items first.
        wait_for(qtbot, lambda pane=pane: pane.model.rowCount() > 0)  # type: ignore[misc]
        pane.table.setCurrentIndex(pane.model.index(0, 0))
    wait_for(qtbot, lambda: bool(window.list_panes["resource_templates"].request.fields))
    wait_for(qtbot, lambda: bool(window.list_panes["prompts"].request.fields))


def test_every_interactive_widget_of_the_main_window_is_named_and_described(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="first"), demo_spec("single", name="second")])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning)
    assert not window.pages.pending, "every page is built"
    fill_every_page(window, qtbot)
    form = window.call_panel.form
    assert form.field_at("/tags/1") is not None and form.field_at("/where/path") is not None, "the form is whole"
    assert window.call_panel.result.links.findChildren(QPushButton), "a result link"
    assert audited([window]) > 200
    assert nameless([window]) is None


# -- the dialogs ------------------------------------------------------------------------------------------
VS_CODE = '{"inputs": [{"id": "key", "type": "promptString", "description": "API key", "password": true}],\
 "servers": {"remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"X-Key": "${input:key}"}}}}'


def test_each_dialog_is_named_and_described(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="first")])
    wait_for(qtbot, lambda: shown(window))
    entry = {"command": "npx", "args": ["-y", "x"], "env": {"TOKEN": "t"}, "headers": {"A": "b"},
             "roots": [{"uri": "file:///tmp", "name": "tmp"}], "client": {"name": "own"}, "budgets": {"maxPages": 3}}  # fmt: skip
    dialogs: list[QWidget] = [
        ServerDialog(window, keyring=(False, "no keyring")),
        ServerDialog(window, "edited", entry, keyring=(True, "the test keyring")),
    ]
    imports = ImportDialog(window, locations=[])
    imports.pasted.setPlainText(VS_CODE)
    wait_for(qtbot, lambda: imports.servers.count() == 1)
    imports.servers.item(0).setCheckState(Qt.CheckState.Checked)
    assert imports.answers, "the input the file asks for is a field"
    dialogs.append(imports)
    for key in ("paletteAction", "shortcutsAction", "aboutAction"):
        window.findChild(QAction, key).trigger()
    dialogs += [
        window.findChild(CommandPalette),
        window.findChild(ShortcutsDialog),
        window.findChild(QMessageBox, "aboutDialog"),
    ]
    for dialog in dialogs:
        assert dialog is not None
        dialog.show()
        assert audited([dialog]) >= 1, where(dialog)
        assert nameless([dialog]) is None
        dialog.close()


# -- the audit itself ----------------------------------------------------------------------------------------
def test_the_audit_names_the_first_widget_a_screen_reader_could_not_name(qtbot) -> None:  # type: ignore[no-untyped-def]
    page = QWidget()
    qtbot.addWidget(page)
    page.setObjectName("page")
    layout = QVBoxLayout(page)
    button = QPushButton("Go", page)
    button.setAccessibleDescription("Goes")
    layout.addWidget(button)
    assert nameless([page]) is None
    bare = QLineEdit(page)
    bare.setObjectName("bare")
    layout.addWidget(bare)
    assert nameless([page]) == "QLineEdit('bare') in QWidget('page') has no accessible name"
    bare.setAccessibleName("Bare")
    assert nameless([page]) == "QLineEdit('bare') in QWidget('page') ('Bare') has no accessible description"
    bare.setToolTip("<b>rich</b> words")  # Qt reads a tooltip as the description: ours are rich text
    assert "is described in rich text" in (nameless([page]) or "")
    bare.setAccessibleDescription("Plain words")
    combo = QComboBox(page)
    combo.addItems(["one", "two"])
    combo.setAccessibleDescription("A choice")
    layout.addWidget(combo)
    assert "no accessible name of its own" in (nameless([page]) or ""), "Qt names it by its item on Linux"
    combo.setAccessibleName("Choice")
    assert nameless([page]) is None


def test_a_form_field_is_named_by_its_key_made_visible_and_described_by_the_schema(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="first")])
    wait_for(qtbot, lambda: shown(window))
    panel = window.call_panel
    window.tabs.setCurrentWidget(panel)
    key = "na\u202eme"
    panel.editor.show_schema({"type": "object", "properties": {key: {"type": "string", "description": "Who\u200b?"}}})
    panel.editor.set_arguments({key: "Ada"})
    field = panel.form.field_at(f"/{key}")
    assert isinstance(field, QLineEdit)
    face = QAccessible.queryAccessibleInterface(field)
    assert face.text(QAccessible.Text.Name) == "na\\u202eme", "the bidi override written out, never applied"
    assert face.text(QAccessible.Text.Description) == "A string. Who\\u200b?"
