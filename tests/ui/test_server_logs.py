"""The server's log messages in the app: Server & log (time, level, logger, data), the Call tab under its call,
plain text and bounded, and a flood of 10,000 that leaves the window responsive.

Over `tests/fixtures/log_server.py` (an SDK server) on stdio; the level is the entry's.
"""

from __future__ import annotations

import re
import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QPlainTextEdit

from catalog_inspector.core.calls import REQUEST_LOGS
from catalog_inspector.core.config import ServerSpec
from catalog_inspector.ui.main_window import LOG_LINES, MainWindow
from catalog_inspector.ui.widgets.call_panel import CallPanel
from tests.fixtures.log_server import HOSTILE
from tests.helpers import forked
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_call_panel import pick, send_and_wait, type_arguments

SERVER = forked("tests.fixtures.log_server")
LINE = re.compile(r"^\d\d:\d\d:\d\d\.\d\d\d \[(\w+)\] (.*)$")
FLOOD = 10_000
PROBE_EVERY_MS = 10
PROBE_DEADLINE_S = 2.0  # a posted event is handled within this while the flood runs (a stalled loop is not)


def log_window(harness: Harness, qtbot, level: str = "info") -> MainWindow:  # type: ignore[no-untyped-def]
    spec = ServerSpec(name="logs", command=SERVER[0], args=SERVER[1:], log_level=level)  # type: ignore[arg-type]
    window = harness.window([spec])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning)
    return window


def server_log(window: MainWindow) -> QPlainTextEdit:
    return window.findChild(QPlainTextEdit, "serverLog")


def call_logs(panel: CallPanel) -> QPlainTextEdit:
    return panel.findChild(QPlainTextEdit, "callLogs")


def call(window: MainWindow, qtbot, tool: str, arguments: str = "{}") -> CallPanel:  # type: ignore[no-untyped-def]
    panel = pick(window, qtbot, tool)
    type_arguments(panel, qtbot, arguments)
    send_and_wait(panel, qtbot)
    return panel


def test_messages_show_in_server_and_log_and_under_their_call(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = log_window(harness, qtbot)
    log = server_log(window)
    wait_for(qtbot, lambda: any(LINE.match(line) for line in log.toPlainText().splitlines()))
    walk = [LINE.match(line) for line in log.toPlainText().splitlines()]
    assert [m.groups() for m in walk if m] == [("notice", "lister: listing the tools")]
    wait_for(
        qtbot,
        lambda: (
            "Log messages asked for: info and above" in window.findChild(QPlainTextEdit, "serverInfo").toPlainText()
        ),
    )
    assert not call_logs(window.call_panel).isVisibleTo(window.call_panel), "no call, no messages"

    panel = call(window, qtbot, "chatty", '{"text": "hi"}')
    assert panel.presenter is not None and panel.presenter.answer.layer == "ok"
    view = call_logs(panel)
    assert view.isVisibleTo(panel)
    shown_lines = [LINE.match(line) for line in view.toPlainText().splitlines()]
    assert [m.groups() for m in shown_lines if m] == [
        ("info", "chatty: info from chatty: hi"),
        ("warning", "chatty: warning from chatty: hi"),
        ("error", "chatty: error from chatty: hi"),
    ]
    wait_for(qtbot, lambda: "[error] chatty: error from chatty: hi" in log.toPlainText())

    # Another call replaces what is shown under the call; the server log keeps everything.
    call(window, qtbot, "flood", '{"count": 2}')
    assert [line[13:] for line in view.toPlainText().splitlines()] == ["[info] flood: flood line 0",
                                                                       "[info] flood: flood line 1"]  # fmt: skip
    wait_for(qtbot, lambda: "flood line 1" in log.toPlainText())
    assert "chatty: info from chatty: hi" in log.toPlainText()


def test_the_entrys_level_decides_what_comes(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = log_window(harness, qtbot, level="error")
    panel = call(window, qtbot, "chatty", '{"text": "hi"}')
    assert [line[13:] for line in call_logs(panel).toPlainText().splitlines()] == [
        "[error] chatty: error from chatty: hi"
    ]


def test_hostile_messages_are_plain_visible_text_and_bounded(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = log_window(harness, qtbot)
    panel = call(window, qtbot, "hostile")
    for view in (call_logs(panel), server_log(window)):
        wait_for(qtbot, lambda view=view: "[error] big:" in view.toPlainText())
        text = view.toPlainText()
        assert '<img src="file:///dev/zero"><b>bold</b>\\u202eevil\\u200b\\u001b[31m red\\u0007 end' in text
        assert not any(char in text for char in "\u202e\u200b\x1b\x07"), "no hidden character reaches the view"
        assert all(len(line) < 5000 for line in text.splitlines()), "each message is one bounded line"
    assert HOSTILE not in call_logs(panel).toPlainText()


@pytest.mark.long
def test_a_flood_of_10000_messages_in_a_call_keeps_the_window_responsive_and_bounded(  # type: ignore[no-untyped-def]
    harness: Harness, qtbot
) -> None:
    window = log_window(harness, qtbot)
    panel = pick(window, qtbot, "flood")
    type_arguments(panel, qtbot, f'{{"count": {FLOOD}}}')
    presenter = panel.presenter
    assert presenter is not None
    waits: list[float] = []  # how long each posted probe waited for the loop
    during: list[bool] = []  # whether the call was still in flight when it was answered

    def probe() -> None:
        posted = time.perf_counter()

        def answered() -> None:
            waits.append(time.perf_counter() - posted)
            during.append(presenter.answer.ticket is not None)
            if presenter.answer.ticket is not None:
                QTimer.singleShot(PROBE_EVERY_MS, probe)

        QTimer.singleShot(0, answered)

    with qtbot.waitSignal(presenter.supervisor.call_finished, timeout=120_000):
        assert panel.send()
        probe()
    assert presenter.answer.layer == "ok" and f"sent {FLOOD}" in panel.result.text.toPlainText()
    assert any(during), "the loop handled events while the flood ran"
    assert max(waits) < PROBE_DEADLINE_S, f"a posted event waited {max(waits):.2f} s during the flood"
    # Bounded: the call keeps its latest messages, the panes their line caps.
    assert presenter.answer.logs_dropped == FLOOD - REQUEST_LOGS and len(presenter.answer.logs) == REQUEST_LOGS
    lines = call_logs(panel).toPlainText().splitlines()
    assert lines[0] == f"[{FLOOD - REQUEST_LOGS:,} earlier log messages not kept]"
    assert lines[-1].endswith(f"[info] flood: flood line {FLOOD - 1}") and len(lines) == REQUEST_LOGS + 1
    log = server_log(window)
    wait_for(qtbot, lambda: f"flood line {FLOOD - 1}" in log.toPlainText())
    assert log.blockCount() <= LOG_LINES
