"""Each pane shows only what belongs to what is selected: a tool's result goes when another tool is chosen (and
comes back empty, not stale, when the first is chosen again); the same tool picked again after a refresh keeps it."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from tests.ui.conftest import Harness
from tests.ui.test_call_panel import pick, ready_window, send_and_wait, type_arguments


def test_another_tools_result_is_not_shown(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot)
    panel = pick(window, qtbot, "echo")
    type_arguments(panel, qtbot, '{"text": "hi"}')
    send_and_wait(panel, qtbot)
    verdict, outcome = panel.findChild(QLabel, "outputVerdict"), panel.findChild(QLabel, "callOutcome")
    assert panel.result.text.toPlainText().startswith("hi") and verdict.text().startswith("Output: valid")
    panel = pick(window, qtbot, "count_items")
    assert panel.result.text.toPlainText() == "" and verdict.text() == "" and outcome.text() == ""
    assert panel.result.raw.toPlainText() == "" and panel.result.image_count() == 0


def test_the_same_tool_chosen_again_keeps_its_result(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot)
    panel = pick(window, qtbot, "echo")
    type_arguments(panel, qtbot, '{"text": "hi"}')
    send_and_wait(panel, qtbot)
    panel.presenter.set_tool(dict(panel.tool or {}))  # as a new catalog gives the same tool again
    assert panel.result.text.toPlainText().startswith("hi"), "the answer is still this tool's"
