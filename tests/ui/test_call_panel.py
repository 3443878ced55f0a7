"""Test calls in the real window against the real demo server: validation, sending, layers, history, sets."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QCheckBox, QLabel, QPlainTextEdit, QPushButton, QTableWidget

from catalog_inspector.core.calls import CallStore, Outcome
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.widgets.call_panel import CallPanel
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_main_window import tree


def ready_window(
    harness: Harness, qtbot, *extra: str, mode: str = "normal", store: CallStore | None = None
) -> MainWindow:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec(mode, *extra, name="calls")], call_store=store)
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning)
    return window


def pick(window: MainWindow, qtbot, name: str) -> CallPanel:  # type: ignore[no-untyped-def]
    model = tree(window).model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == name)
    tree(window).setCurrentIndex(model.index(row, 0))
    panel = window.call_panel
    window.tabs.setCurrentWidget(panel)  # the tool picked in the tree is built into a form once the tab shows
    assert panel.tool is not None and panel.tool["name"] == name
    return panel


def type_arguments(panel: CallPanel, qtbot, text: str) -> None:  # type: ignore[no-untyped-def]
    editor = panel.findChild(QPlainTextEdit, "callArguments")
    editor.setPlainText(text)
    wait_for(qtbot, lambda: panel.validation is not None, timeout=10_000)


def send_and_wait(panel: CallPanel, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert panel.presenter.supervisor is not None
    with qtbot.waitSignal(panel.presenter.supervisor.call_finished, timeout=20_000):
        qtbot.mouseClick(panel.findChild(QPushButton, "callButton"), Qt.MouseButton.LeftButton)


def messages(panel: CallPanel) -> list[tuple[str, str]]:
    table = panel.findChild(QTableWidget, "validationMessages")
    return [(table.item(r, 0).text(), table.item(r, 1).text()) for r in range(table.rowCount())]


def test_an_invalid_argument_shows_its_path_before_sending(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot)
    panel = pick(window, qtbot, "echo")
    type_arguments(panel, qtbot, '{"text": 5, "repeat": 9}')
    assert messages(panel) == [("/repeat", "maximum"), ("/text", "type")]
    summary = panel.findChild(QLabel, "validationSummary")
    assert summary.text().startswith("2 problems with the arguments")
    type_arguments(panel, qtbot, '{"text": 5}')
    wait_for(qtbot, lambda: summary.text().startswith("1 problem with the arguments"))
    type_arguments(panel, qtbot, '{"text": 5, "repeat": 9}')
    wait_for(qtbot, lambda: summary.text().startswith("2 problems with the arguments"))
    send = panel.findChild(QPushButton, "callButton")
    assert not send.isEnabled(), "invalid arguments are not sent without saying so"
    marked = panel.form.field_at("/text")
    assert marked is not None
    panel.findChild(QCheckBox, "sendAnyway").setChecked(True)
    assert send.isEnabled() and send.text() == "Send anyway"
    send_and_wait(panel, qtbot)
    layer = panel.findChild(QLabel, "callOutcome").property("layer")
    assert layer in ("server_error", "tool_error", "ok"), "the server's own validation answered"
    assert panel.history.rowCount() == 1


def test_a_valid_call_shows_the_result_and_a_clean_verdict(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot)
    panel = pick(window, qtbot, "echo")
    type_arguments(panel, qtbot, '{"text": "hi", "repeat": 2}')
    assert messages(panel) == [] and "valid" in panel.findChild(QLabel, "validationSummary").text()
    assert panel.form.value() == {"text": "hi", "repeat": 2}, "the form follows the editor"
    send_and_wait(panel, qtbot)
    assert panel.findChild(QLabel, "callOutcome").property("layer") == "ok"
    assert "hihi" in panel.findChild(QPlainTextEdit, "callResult").toPlainText()
    assert panel.findChild(QLabel, "outputVerdict").text().startswith("Output: valid")
    assert '"structuredContent"' in panel.findChild(QPlainTextEdit, "callRaw").toPlainText()


def test_a_schema_violating_result_shows_its_payload_and_the_violation(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot)
    panel = pick(window, qtbot, "count_items")
    type_arguments(panel, qtbot, '{"items": ["a", "b"]}')
    send_and_wait(panel, qtbot)
    verdict = panel.findChild(QLabel, "outputVerdict")
    assert verdict.property("verdict") == "invalid"
    assert "/count" in verdict.text() and "(type)" in verdict.text()
    assert '"count": "many"' in panel.findChild(QPlainTextEdit, "callResult").toPlainText()


def test_a_tool_not_read_only_asks_once_per_session_and_its_error_is_its_own_layer(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot)
    panel = pick(window, qtbot, "delete_everything")
    type_arguments(panel, qtbot, '{"confirm": true}')
    qtbot.mouseClick(panel.findChild(QPushButton, "callButton"), Qt.MouseButton.LeftButton)
    assert panel.confirm_bar.isVisible() and panel.presenter.answer.ticket is None, "nothing is sent before the answer"
    assert "destructive" in panel.findChild(QLabel, "callConfirmationText").text()
    assert panel.presenter.supervisor is not None
    with qtbot.waitSignal(panel.presenter.supervisor.call_finished, timeout=20_000):
        qtbot.mouseClick(panel.findChild(QPushButton, "confirmCallButton"), Qt.MouseButton.LeftButton)
    assert panel.findChild(QLabel, "callOutcome").property("layer") == "tool_error"
    assert "refusing" in panel.findChild(QPlainTextEdit, "callResult").toPlainText()
    send_and_wait(panel, qtbot)  # the second call in this session does not ask again
    assert not panel.confirm_bar.isVisible() and panel.history.rowCount() == 2


def test_a_json_rpc_error_a_timeout_and_a_crash_each_show_their_own_layer_in_the_clis_words(
    harness: Harness, qtbot
) -> None:  # type: ignore[no-untyped-def]
    for extra, timeout, layer, outcome in (
        (("--call-fail", "jsonrpc"), 10.0, "server_error", Outcome.JSONRPC_ERROR),
        (("--call-delay", "30"), 0.5, "timeout", Outcome.TIMEOUT),
        (("--call-fail", "crash"), 10.0, "connection", Outcome.CONNECTION),
    ):
        window = ready_window(harness, qtbot, *extra)
        panel = pick(window, qtbot, "echo")
        panel.timeout.setValue(timeout)
        type_arguments(panel, qtbot, '{"text": "hi"}')
        send_and_wait(panel, qtbot)
        label = panel.findChild(QLabel, "callOutcome")
        assert label.property("layer") == layer, extra
        # The words and the outcome the `call` command prints for the same call: one table.
        assert label.property("outcome") == str(outcome) and label.text().startswith(outcome.heading), extra
        history = panel.findChild(QTableWidget, "callHistory")
        qtbot.waitUntil(lambda table=history: table.rowCount() == 1, timeout=5_000)
        assert history.item(0, 3).text().startswith(str(outcome)), extra
        harness.close(window)


def test_cancel_stops_a_call_in_flight(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot, "--call-delay", "30")
    panel = pick(window, qtbot, "echo")
    type_arguments(panel, qtbot, '{"text": "hi"}')
    qtbot.mouseClick(panel.findChild(QPushButton, "callButton"), Qt.MouseButton.LeftButton)
    cancel = panel.findChild(QPushButton, "cancelCallButton")
    assert cancel.isEnabled() and panel.presenter.answer.ticket is not None
    assert panel.presenter.supervisor is not None
    with qtbot.waitSignal(panel.presenter.supervisor.call_finished, timeout=5_000):
        qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
    assert panel.findChild(QLabel, "callOutcome").property("layer") == "cancelled"
    assert not cancel.isEnabled()
    type_arguments(panel, qtbot, '{"text": "again"}')
    assert panel.findChild(QPushButton, "callButton").isEnabled(), "the session is still usable"


def test_history_records_calls_and_re_runs_one(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    store = CallStore(tmp_path / "calls")
    window = ready_window(harness, qtbot, store=store)
    panel = pick(window, qtbot, "echo")
    type_arguments(panel, qtbot, '{"text": "first"}')
    send_and_wait(panel, qtbot)
    type_arguments(panel, qtbot, '{"text": "second"}')
    send_and_wait(panel, qtbot)
    history = panel.findChild(QTableWidget, "callHistory")
    assert history.rowCount() == 2 and history.item(0, 2).text() == "echo" and history.item(0, 3).text() == "ok"
    history.selectRow(1)  # the older call: "first"
    assert panel.presenter.supervisor is not None
    with qtbot.waitSignal(panel.presenter.supervisor.call_finished, timeout=20_000):
        qtbot.mouseClick(panel.findChild(QPushButton, "rerunCallButton"), Qt.MouseButton.LeftButton)
    assert "first" in panel.findChild(QPlainTextEdit, "callResult").toPlainText()
    assert history.rowCount() == 3
    wait_for(qtbot, lambda: len(store.history(window.current.supervisor.spec)) == 3)  # type: ignore[union-attr]
    assert [r.arguments for r in store.history(window.current.supervisor.spec)] == [  # type: ignore[union-attr]
        {"text": "first"},
        {"text": "second"},
        {"text": "first"},
    ]
    history.selectRow(0)
    qtbot.mouseClick(panel.findChild(QPushButton, "copyCallCommand"), Qt.MouseButton.LeftButton)
    from PySide6.QtGui import QGuiApplication

    command = QGuiApplication.clipboard().text()
    assert command.startswith('mcp-catalog-inspector call echo --args \'{"text": "first"}\' -- ')


def test_a_saved_argument_set_comes_back(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    store = CallStore(tmp_path / "calls")
    window = ready_window(harness, qtbot, store=store)
    panel = pick(window, qtbot, "echo")
    type_arguments(panel, qtbot, '{"text": "saved", "repeat": 3}')
    assert panel.save_set("three times")
    assert window.current is not None
    wait_for(qtbot, lambda: "echo" in store.argument_sets(window.current.supervisor.spec))  # type: ignore[union-attr]
    harness.close(window)
    again = ready_window(harness, qtbot, store=store)
    again.app.runtime.calls.load_all()
    panel = pick(again, qtbot, "echo")
    sets = panel.findChild(type(panel.sets), "argumentSets")
    wait_for(qtbot, lambda: sets.findData("three times") > 0)
    sets.setCurrentIndex(sets.findData("three times"))
    sets.activated.emit(sets.currentIndex())
    assert panel.form.value() == {"text": "saved", "repeat": 3}
    assert '"saved"' in panel.findChild(QPlainTextEdit, "callArguments").toPlainText()


def test_a_catastrophic_input_pattern_leaves_the_window_responsive_and_is_over_budget(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot, mode="hostile")
    window.app.runtime.offload.budget = 1.0
    panel = pick(window, qtbot, "catastrophic_input")
    ticked: list[bool] = []
    editor = panel.findChild(QPlainTextEdit, "callArguments")
    editor.setPlainText('{"text": "' + "a" * 40 + '!"}')
    panel.editor.validate_now()
    # The check runs in the sandbox: the loop keeps turning while it does.
    QTimer.singleShot(0, lambda: ticked.append(panel.validation is None))
    wait_for(qtbot, lambda: panel.validation is not None, timeout=15_000)
    assert ticked == [True], "the window handled events while the pattern was being checked"
    assert panel.validation is not None and panel.validation.failure is not None
    assert panel.validation.failure.value == "over_budget"
    assert "could not be checked" in panel.findChild(QLabel, "validationSummary").text()


def test_a_resource_is_read_and_a_prompt_got_with_its_arguments(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QLineEdit, QTableView

    window = ready_window(harness, qtbot)
    resources = window.findChild(QTableView, "resourceList")
    resources.setCurrentIndex(resources.model().index(1, 0))
    box = window.list_panes["resources"].request
    assert box is not None and box.item is not None and box.item["uri"] == "demo://notes/1"
    assert window.current is not None
    with qtbot.waitSignal(window.current.supervisor.call_finished, timeout=20_000):
        qtbot.mouseClick(window.findChild(QPushButton, "readResourceButton"), Qt.MouseButton.LeftButton)
    assert window.findChild(QLabel, "resourceOutcome").property("layer") == "ok"
    assert window.findChild(QPlainTextEdit, "resourceResult").toPlainText().endswith("a demo note")

    prompts = window.findChild(QTableView, "promptList")
    prompts.setCurrentIndex(prompts.model().index(0, 0))
    field = window.findChild(QLineEdit, "promptArgument:id")
    assert field is not None
    qtbot.keyClicks(field, "n-7")
    with qtbot.waitSignal(window.current.supervisor.call_finished, timeout=20_000):
        qtbot.mouseClick(window.findChild(QPushButton, "getPromptButton"), Qt.MouseButton.LeftButton)
    assert window.findChild(QPlainTextEdit, "promptResult").toPlainText() == "user: prompt summarize"


def test_schema_lint_shows_in_the_tree_and_the_call_panel(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot, mode="hostile")
    model = tree(window).model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == "loose_array")
    wait_for(qtbot, lambda: "⚠ lint" in (model.index(row, 2).data() or ""))
    assert "array_without_items" in model.index(row, 2).data(Qt.ItemDataRole.ToolTipRole)
    clean = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == "catastrophic_pattern")
    assert "⚠ lint" not in (model.index(clean, 2).data() or "")
    panel = pick(window, qtbot, "loose_array")
    lint = panel.findChild(QLabel, "schemaLint")
    wait_for(qtbot, lambda: "array_without_items" in lint.text())
    assert "/properties/xs" in lint.text()


def test_progress_notifications_show_while_a_call_runs(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot, "--call-delay", "1")
    panel = pick(window, qtbot, "echo")
    type_arguments(panel, qtbot, '{"text": "hi"}')
    assert panel.presenter.supervisor is not None
    with qtbot.waitSignal(panel.presenter.supervisor.call_progress, timeout=10_000):
        qtbot.mouseClick(panel.findChild(QPushButton, "callButton"), Qt.MouseButton.LeftButton)
    # Drawn once per turn of the loop with the latest progress (a flood of them is not a flood of repaints).
    qtbot.waitUntil(lambda: panel.findChild(QLabel, "callProgress").text().startswith("Progress "), timeout=10_000)
    with qtbot.waitSignal(panel.presenter.supervisor.call_finished, timeout=20_000):
        pass
    assert panel.findChild(QLabel, "callOutcome").property("layer") == "ok"
