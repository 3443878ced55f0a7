"""A resource template is filled in and read: each variable a field, the URI shown live as it is typed, Read sends
`resources/read` of that URI to the server, and a template that cannot be filled in says why and is not sent."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QPushButton, QTableView

from catalog_inspector.ui.main_window import MainWindow
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for


def templates_ready(harness: Harness, qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal")])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: window.list_panes["resource_templates"].model.rowCount() == 3)
    return window


def choose(window: MainWindow, row: int) -> None:
    table = window.findChild(QTableView, "resourceTemplateList")
    table.setCurrentIndex(table.model().index(row, 0))


def test_a_template_is_filled_in_with_its_uri_shown_live_and_read(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = templates_ready(harness, qtbot)
    choose(window, 1)  # demo://users/{user}/notes/{id}
    uri = window.findChild(QLabel, "templateUri")
    assert uri.text() == "Expands to: demo://users//notes/"
    user, note = (window.findChild(QLineEdit, f"templateVariable:{name}") for name in ("user", "id"))
    assert user.placeholderText() == "percent-encoded"
    qtbot.keyClicks(user, "ann lee")
    assert uri.text() == "Expands to: demo://users/ann%20lee/notes/", "the URI follows every key"
    qtbot.keyClicks(note, "7")
    assert uri.text() == "Expands to: demo://users/ann%20lee/notes/7"
    assert window.current is not None
    with qtbot.waitSignal(window.current.supervisor.call_finished, timeout=20_000):
        qtbot.mouseClick(window.findChild(QPushButton, "readTemplateButton"), Qt.MouseButton.LeftButton)
    assert window.findChild(QLabel, "templateOutcome").property("layer") == "ok"
    result = window.findChild(QPlainTextEdit, "templateResult")
    assert result.toPlainText().endswith("a demo note")
    box = window.list_panes["resource_templates"].request
    raw = json.loads(box.result.raw.toPlainText())
    assert raw["contents"][0]["uri"] == "demo://users/ann%20lee/notes/7", "the server was asked for that URI"


def test_query_and_fragment_variables_left_empty_are_left_out(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = templates_ready(harness, qtbot)
    choose(window, 2)  # demo://search{?q,lang}{#section}
    uri = window.findChild(QLabel, "templateUri")
    assert uri.text() == "Expands to: demo://search"
    lang = window.findChild(QLineEdit, "templateVariable:lang")
    assert lang.placeholderText() == "a query: ?name=value"
    qtbot.keyClicks(lang, "en")
    qtbot.keyClicks(window.findChild(QLineEdit, "templateVariable:section"), "a/b")
    assert uri.text() == "Expands to: demo://search?lang=en#a/b"


def test_choosing_another_template_starts_its_own_fields_and_drops_the_old_answer(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = templates_ready(harness, qtbot)
    choose(window, 0)  # demo://notes/{id}
    qtbot.keyClicks(window.findChild(QLineEdit, "templateVariable:id"), "3")
    assert window.current is not None
    with qtbot.waitSignal(window.current.supervisor.call_finished, timeout=20_000):
        qtbot.mouseClick(window.findChild(QPushButton, "readTemplateButton"), Qt.MouseButton.LeftButton)
    result = window.findChild(QPlainTextEdit, "templateResult")
    wait_for(qtbot, lambda: result.toPlainText().endswith("a demo note"))
    choose(window, 2)
    assert (
        window.findChild(QLineEdit, "templateVariable:id") is None
        or not window.findChild(QLineEdit, "templateVariable:id").isVisible()
    )
    assert result.toPlainText() == "", "an answer belongs to the template it was asked for"
    assert window.findChild(QLabel, "templateUri").text() == "Expands to: demo://search"
