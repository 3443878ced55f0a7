"""Tools conforming 2026-07-28 clients exclude (an invalid `x-mcp-header` annotation), in the real window.

Against the SDK header server on Streamable HTTP: `broken` carries an annotation that is not an
RFC 9110 token. It is kept and shown, never hidden: the tree marks it, the catalog lint says so,
the Reach tab lists it, and the Call tab sends it only with "Send even though conforming clients
exclude it" ticked. The same server on the older era excludes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QCheckBox, QLabel, QPlainTextEdit, QPushButton, QTableWidget
from pytestqt.qtbot import QtBot

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.runtime import Runtime
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.tool_tree import ANNOTATIONS
from catalog_inspector.ui.presenters import AppPresenter
from tests.helpers import forked, recording_registry, serving, spin_until_gone
from tests.ui.test_main_window import tree

LIMITS = Limits(request_timeout=5.0, deadline=30.0)
WAIT = 15_000
REASON = "property 'city': x-mcp-header 'Bad Name' is not an RFC 9110 token"


@pytest.fixture(scope="module")
def window(
    request: pytest.FixtureRequest, module_qloop: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[MainWindow]:
    qtbot = QtBot(request)
    tmp = tmp_path_factory.mktemp("excluded-window")
    pids: list[int] = []
    with serving([*forked("tests.fixtures.header_server")]) as url:
        specs = [
            ServerSpec(name="headers", transport="http", url=url),
            ServerSpec(name="headers legacy", transport="http", url=url, protocol_era="legacy"),
        ]
        runtime = Runtime(specs, LIMITS, recording_registry(tmp / "sessions", pids))
        shown = MainWindow(AppPresenter(runtime), QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat))
        shown.pages.build_all()  # as the app does after the first frame
        shown.show()
        yield shown
        with qtbot.waitSignal(shown.closed, timeout=20_000):
            shown.close()
        shown.deleteLater()
    if pids:  # HTTP servers only: the validation workers are the window's processes, if a test here made one
        spin_until_gone(qtbot, pids)


def select(qtbot: QtBot, window: MainWindow, name: str) -> None:
    assert window.select_server(name)
    qtbot.waitUntil(
        lambda: (
            window.current is not None
            and window.current.name == name
            and window.current.catalog is not None
            and not window.tools_pane.planning
            and not window.pages.following  # the pages after Tools follow the catalog a turn later
        ),
        timeout=30_000,
    )


def cell(window: MainWindow, tool: str, column: int, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
    model = tree(window).model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == tool)
    return model.index(row, column).data(role)


def pick(qtbot: QtBot, window: MainWindow, tool: str, arguments: str) -> None:
    model = tree(window).model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == tool)
    tree(window).setCurrentIndex(model.index(row, 0))
    window.tabs.setCurrentWidget(window.call_panel)
    window.call_panel.findChild(QPlainTextEdit, "callArguments").setPlainText(arguments)
    qtbot.waitUntil(lambda: window.call_panel.presenter is not None and window.call_panel.presenter.ready, timeout=WAIT)


def test_the_tree_marks_an_excluded_tool_and_the_catalog_lint_says_why(window: MainWindow, qtbot: QtBot) -> None:
    select(qtbot, window, "headers")
    assert cell(window, "broken", ANNOTATIONS).startswith("⊘ excluded"), "kept and shown, with the mark"
    assert not cell(window, "forecast", ANNOTATIONS).startswith("⊘"), "a valid annotation is not marked"
    # The catalog's lint comes a slice at a time; once made, the tooltip is the lint, which names the exclusion.
    qtbot.waitUntil(
        lambda: (
            "excluded by conforming 2026-07-28 clients"
            in str(cell(window, "broken", ANNOTATIONS, Qt.ItemDataRole.ToolTipRole))
        ),
        timeout=WAIT,
    )
    tip = str(cell(window, "broken", ANNOTATIONS, Qt.ItemDataRole.ToolTipRole))
    assert REASON in tip and "/inputSchema" in tip and "(excluded_tool)" in tip


def test_the_reach_tab_lists_excluded_tools_next_to_the_first_page_list(window: MainWindow, qtbot: QtBot) -> None:
    select(qtbot, window, "headers")
    summary = window.checks_pane.findChild(QLabel, "excludedSummary")
    table = window.checks_pane.findChild(QTableWidget, "excludedView")
    assert summary.text().startswith("1 tool conforming 2026-07-28 clients exclude")
    assert [(table.item(r, 0).text(), table.item(r, 1).text()) for r in range(table.rowCount())] == [("broken", REASON)]
    select(qtbot, window, "headers legacy")
    qtbot.waitUntil(lambda: table.rowCount() == 0, timeout=WAIT)
    assert summary.text() == "No tool is excluded by conforming 2026-07-28 clients.", "the older era has no annotations"


def test_the_call_tab_sends_an_excluded_tool_only_when_ticked(window: MainWindow, qtbot: QtBot) -> None:
    select(qtbot, window, "headers")
    panel = window.call_panel
    send = panel.findChild(QPushButton, "callButton")
    tick = panel.findChild(QCheckBox, "sendExcluded")
    pick(qtbot, window, "broken", '{"city": "Oslo"}')
    assert panel.findChild(QLabel, "callExcludedText").isVisible()
    assert REASON in panel.findChild(QLabel, "callExcludedText").text()
    assert not send.isEnabled(), "valid arguments, but a conforming client must not call it"
    qtbot.mouseClick(tick, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(send.isEnabled, timeout=WAIT)
    assert send.text() == "Send anyway"
    qtbot.mouseClick(send, Qt.MouseButton.LeftButton)
    if panel.confirm_bar.isVisible():  # not annotated read-only: asked once
        qtbot.mouseClick(panel.findChild(QPushButton, "confirmCallButton"), Qt.MouseButton.LeftButton)
    presenter = panel.presenter
    assert presenter is not None
    qtbot.waitUntil(lambda: presenter.answer.ticket is None and presenter.history != [], timeout=WAIT)
    assert presenter.history[-1].outcome == "ok" and presenter.history[-1].name == "broken"
    assert "Oslo" in panel.findChild(QPlainTextEdit, "callResult").toPlainText()
    # Another tool and back: the tick is deliberate for each pick, never carried over.
    pick(qtbot, window, "forecast", '{"region": "eu-west"}')
    assert not panel.findChild(QLabel, "callExcludedText").isVisible()
    qtbot.waitUntil(send.isEnabled, timeout=WAIT)
    pick(qtbot, window, "broken", '{"city": "Oslo"}')
    assert not tick.isChecked() and not send.isEnabled()


def test_the_presenter_refuses_an_excluded_tool_even_if_asked_to_send(window: MainWindow, qtbot: QtBot) -> None:
    select(qtbot, window, "headers")
    pick(qtbot, window, "broken", '{"city": "Bergen"}')
    presenter = window.call_panel.presenter
    assert presenter is not None and presenter.excluded_reason == REASON
    assert not presenter.can_send and presenter.send() is False and presenter.answer.ticket is None
    # The runtime itself refuses too, when not told to send on purpose: nothing goes to the server.
    supervisor = presenter.supervisor
    with qtbot.waitSignal(supervisor.call_finished, timeout=WAIT) as finished:
        assert supervisor.call_tool("broken", {"city": "Bergen"}) is not None
    outcome = finished.args[1]
    assert outcome.outcome == "excluded_tool" and "nothing was sent" in outcome.error.message


def test_a_hostile_reason_is_plain_text_in_the_reach_table_and_its_tooltip(qtbot: QtBot) -> None:
    from catalog_inspector.ui.widgets.checks_pane import ChecksPane

    pane = ChecksPane()
    qtbot.addWidget(pane)
    pane.show_excluded([{"name": "<b>x</b>", "reason": "property '<img src=/dev/zero>': not a token"}])
    table = pane.findChild(QTableWidget, "excludedView")
    assert table.item(0, 0).text() == "<b>x</b>", "shown as sent, as text"
    tip = table.item(0, 1).toolTip()
    assert "<img" not in tip and "&lt;img src=/dev/zero&gt;" in tip, "a tooltip renders rich text: escaped"
