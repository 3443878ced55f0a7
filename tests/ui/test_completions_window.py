"""Completions as a person types (the demo server declares `completions`): a pause in typing asks the server, the
suggestions are offered under the field with how many there are, the other fields go as context, and a server that
declares none is never asked."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QTableView

from catalog_inspector.ui.main_window import MainWindow
from tests.helpers import demo_spec, fixture_spec
from tests.ui.conftest import Harness, shown, wait_for


def ready(harness: Harness, qtbot, spec=None) -> MainWindow:  # type: ignore[no-untyped-def]
    window = harness.window([spec or demo_spec("normal")])
    wait_for(qtbot, lambda: shown(window))
    return window


def choose(window: MainWindow, table_name: str, row: int) -> None:
    table = window.findChild(QTableView, table_name)
    wait_for_rows = table.model().rowCount() > row
    assert wait_for_rows
    table.setCurrentIndex(table.model().index(row, 0))


def offered(window: MainWindow, list_name: str, field: str) -> list[tuple[str, str]]:
    completer = window.list_panes[list_name].request.completers[field]
    model = completer.model()
    return [
        (model.index(row, 0).data(), model.index(row, 0).data(Qt.ItemDataRole.UserRole))
        for row in range(model.rowCount())
    ]


def test_a_template_variable_is_completed_after_a_pause_with_the_others_as_context(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready(harness, qtbot)
    wait_for(qtbot, lambda: window.list_panes["resource_templates"].model.rowCount() == 3)
    choose(window, "resourceTemplateList", 1)  # demo://users/{user}/notes/{id}
    box = window.list_panes["resource_templates"].request
    assert box.presenter is not None and box.presenter.offers_completions
    user = window.findChild(QLineEdit, "templateVariable:user")
    answers: list[str] = []
    box.presenter.suggested.connect(answers.append)
    user.setFocus()
    wait_for(qtbot, user.hasFocus)
    qtbot.keyClicks(user, "an")  # two keys, no pause between them: one question, for "an"
    status = window.findChild(QLabel, "templateCompletion")
    wait_for(qtbot, lambda: answers == ["user"])
    assert offered(window, "resource_templates", "user") == [("ann", "ann"), ("anton", "anton")]
    assert status.text() == "user: 2 suggestions" and not status.isHidden()
    popup = box.completers["user"].popup()
    assert popup.isVisible(), "offered under the field the person is typing in"
    user.setText("ann")  # as choosing the first suggestion does
    note = window.findChild(QLineEdit, "templateVariable:id")
    qtbot.keyClicks(note, "2")
    wait_for(qtbot, lambda: answers == ["user", "id"])
    assert offered(window, "resource_templates", "id") == [("2", "2")], "ann's notes: the context reached the server"
    user.setText("bob")
    note.clear()
    qtbot.keyClicks(note, "2")
    wait_for(qtbot, lambda: answers == ["user", "id", "id"])
    assert offered(window, "resource_templates", "id") == []
    assert status.text() == "id: The server has no suggestions for this."


def test_a_prompt_argument_says_how_many_more_there_are(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready(harness, qtbot)
    wait_for(qtbot, lambda: window.list_panes["prompts"].model.rowCount() == 2)
    choose(window, "promptList", 0)  # summarize(id)
    box = window.list_panes["prompts"].request
    assert box.presenter is not None
    answers: list[str] = []
    box.presenter.suggested.connect(answers.append)
    qtbot.keyClicks(window.findChild(QLineEdit, "promptArgument:id"), "n-")
    wait_for(qtbot, lambda: answers == ["id"])
    assert len(offered(window, "prompts", "id")) == 100
    assert window.findChild(QLabel, "promptCompletion").text() == (
        "id: 100 suggestions of 150 (more exist: type more to narrow them)"
    )


def test_a_server_without_completions_gets_no_completer_and_no_question(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready(harness, qtbot, fixture_spec("partial_lists_server", "sqlite"))
    box = window.list_panes["resource_templates"].request
    assert box.presenter is not None and not box.presenter.offers_completions
    assert box.completers == {}
