"""Calls run as tasks, in the real window: the tree's task support, the Call tab's "Run as task" (forced for a tool
that requires a task), the task's status as it changes, its question in the input request panel, Cancel.

One window for the module, with the tasks fixture server (an SDK lowlevel server, tests/fixtures/tasks_server.py)
on both eras: `tasks` (2025-11-25 experimental tasks) and `tasks modern` (the 2026-07-28 tasks extension).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QCheckBox, QLabel, QLineEdit, QPushButton
from pytestqt.qtbot import QtBot

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.runtime import Runtime
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.presenters import AppPresenter
from tests.helpers import ROOT, forked, recording_registry, spin_until_gone
from tests.ui.test_input_panel import Asks, button, click, text
from tests.ui.test_main_window import tree

LIMITS = Limits(request_timeout=5.0, deadline=30.0, task_deadline=30.0)
WAIT = 15_000


def spec(name: str, era: str) -> ServerSpec:
    server = forked("tests.fixtures.tasks_server")
    return ServerSpec(name=name, command=server[0], args=server[1:], cwd=str(ROOT), protocol_era=era)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def rig(request: pytest.FixtureRequest, module_qloop: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Asks]:
    qtbot = QtBot(request)
    tmp = tmp_path_factory.mktemp("tasks-window")
    pids: list[int] = []
    runtime = Runtime(
        [spec("tasks", "legacy"), spec("tasks modern", "modern")], LIMITS, recording_registry(tmp / "s", pids)
    )
    window = MainWindow(AppPresenter(runtime), QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat))
    window.pages.build_all()  # as the app does after the first frame
    window.show()
    found = Asks(window, None)  # type: ignore[arg-type]
    found.select(qtbot, "tasks")
    yield found
    with qtbot.waitSignal(window.closed, timeout=20_000):
        window.close()
    window.deleteLater()
    spin_until_gone(qtbot, pids)


def pick(rig: Asks, qtbot: QtBot, tool: str) -> None:
    model = tree(rig.window).model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == tool)
    tree(rig.window).setCurrentIndex(model.index(row, 0))
    rig.window.tabs.setCurrentWidget(rig.panel)
    qtbot.waitUntil(lambda: rig.panel.tool is not None and rig.panel.tool.get("name") == tool, timeout=WAIT)


def tick(rig: Asks) -> QCheckBox:
    found = rig.panel.findChild(QCheckBox, "callRunAsTask")
    assert found is not None
    return found


def status(rig: Asks) -> str:
    return text(rig.panel, "callTaskStatus")


def test_the_tree_shows_each_tools_task_support(rig: Asks, qtbot: QtBot) -> None:
    rig.select(qtbot, "tasks")
    model = tree(rig.window).model()
    badges = {model.index(r, 0).data(Role.KEY): model.index(r, 2).data() for r in range(model.rowCount())}
    assert badges["needs_task"] == "task: required" and badges["count"] == "task: optional"
    assert badges["plain"] == ""


def test_a_tool_that_requires_a_task_has_run_as_task_ticked_for_good(rig: Asks, qtbot: QtBot) -> None:
    rig.select(qtbot, "tasks")
    pick(rig, qtbot, "needs_task")
    assert tick(rig).isChecked() and not tick(rig).isEnabled()
    assert "required" in tick(rig).toolTip()
    pick(rig, qtbot, "count")
    assert not tick(rig).isChecked() and tick(rig).isEnabled()
    rig.send(qtbot, "needs_task")
    assert "done as a task" in rig.done(qtbot)
    assert status(rig).startswith("Task ") and "(2025-11-25 tasks) — completed" in status(rig)
    assert rig.panel.findChild(QLabel, "callTaskStatus").isVisible()


@pytest.mark.parametrize("server", ["tasks", "tasks modern"])
def test_run_as_task_shows_the_task_as_it_goes_and_its_result_is_judged(rig: Asks, qtbot: QtBot, server: str) -> None:
    rig.select(qtbot, server)
    pick(rig, qtbot, "count")
    tick(rig).setChecked(True)
    seen: list[str] = []
    presenter = rig.panel.presenter
    assert presenter is not None
    presenter.answer.changed.connect(lambda: seen.append(presenter.answer.task_text))
    rig.send(qtbot, "count", '{"steps": 3, "step_ms": 150}')
    assert '"count": 3' in rig.done(qtbot)
    assert "counted" in status(rig) and "completed" in status(rig)
    assert any("working" in words for words in seen), "the status is shown while the task runs"
    assert text(rig.panel, "outputVerdict") == "Output: valid against the accepted catalog's output schema."
    tick(rig).setChecked(False)
    rig.send(qtbot, "count")  # a plain call: no task is shown
    assert '"count": 3' in rig.done(qtbot) and not rig.panel.findChild(QLabel, "callTaskStatus").isVisible()
    tick(rig).setChecked(True)
    pick(rig, qtbot, "plain")  # another tool: the tick was for the one it was given for
    assert not tick(rig).isChecked() and not presenter.as_task


@pytest.mark.parametrize("server", ["tasks", "tasks modern"])
def test_a_tasks_question_is_answered_in_the_input_request_panel(rig: Asks, qtbot: QtBot, server: str) -> None:
    rig.select(qtbot, server)
    pick(rig, qtbot, "ask_name")
    # 2025-11-25: the tool requires a task, the tick is set for good; 2026-07-28 has no taskSupport: tick it.
    assert tick(rig).isChecked() is (server == "tasks")
    tick(rig).setChecked(True)
    rig.send(qtbot, "ask_name")
    panel = rig.asked(qtbot)
    assert text(panel, "inputRequestMessage") == "What is your name?"
    assert "input_required" in status(rig)
    name = panel.form.editor.form.field_at("/name")
    assert isinstance(name, QLineEdit)
    qtbot.keyClicks(name, "Ada")
    qtbot.waitUntil(button(panel, "inputAcceptButton").isEnabled, timeout=WAIT)
    click(qtbot, button(panel, "inputAcceptButton"))
    assert "Hello, Ada!" in rig.done(qtbot)


@pytest.mark.parametrize("server", ["tasks", "tasks modern"])
def test_cancel_stops_the_call_and_sends_tasks_cancel(rig: Asks, qtbot: QtBot, server: str) -> None:
    rig.select(qtbot, server)
    pick(rig, qtbot, "forever")
    tick(rig).setChecked(True)
    rig.send(qtbot, "forever")
    qtbot.waitUntil(lambda: "working forever" in status(rig), timeout=WAIT)
    qtbot.mouseClick(rig.panel.findChild(QPushButton, "cancelCallButton"), Qt.MouseButton.LeftButton)
    rig.done(qtbot)
    assert "tasks/cancel was sent" in text(rig.panel, "callOutcome")
    assert "tasks/cancel sent" in status(rig)
    tick(rig).setChecked(False)
