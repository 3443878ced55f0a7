"""The Call tab: fire a test call at the tool chosen in the tool tree, with its arguments checked live.

The arguments are edited and checked in an `ArgumentsEditor` (form and raw
JSON). They are sent only once checked, and invalid ones only with "Send even if
invalid" ticked (to test the server's own validation). A tool not annotated
read-only asks first, once per session. The answer is shown as the server sent it
(`callResult`, raw JSON a tab away) with the verdict against the accepted
catalog's output schema (`outputVerdict`), and every call goes into the server's
history (`callHistory`), from where it can be re-run or copied. Named argument
sets are kept per tool; the arguments last shown for a tool come back with it.

When the server asks for input during the call, its question is shown in place of
the result (`inputRequestPanel`), and every round of questions and answers is listed
(`callRounds`), and so are the log messages the server sent for the call (`callLogs`). A re-run gives the answers the call was given; "Copy as command"
writes them to an answers file for the `call` command.

A tool conforming 2026-07-28 clients exclude (an invalid `x-mcp-header` annotation)
says so (`callExcluded`) and is sent only with "Send even though conforming clients
exclude it" ticked (`sendExcluded`), like invalid arguments.

"Run as task" (`callRunAsTask`) runs the call as a task; a tool whose
`execution.taskSupport` is `required` always does (the tick is checked and cannot be
cleared). The task's id, status, the server's message, poll interval and progress
are shown as they change (`callTaskStatus`); Cancel sends `tasks/cancel` too.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.calls import Validation
from catalog_inspector.core.text import visible
from catalog_inspector.ui import theme
from catalog_inspector.ui.keyboard import focus_first
from catalog_inspector.ui.models.roles import tooltip
from catalog_inspector.ui.presenters.call import SEND_EXCLUDED, CallPresenter, confirmation_question
from catalog_inspector.ui.presenters.checks import Checks
from catalog_inspector.ui.widgets.call_arguments import ArgumentsEditor
from catalog_inspector.ui.widgets.call_form import CallForm
from catalog_inspector.ui.widgets.call_views import CallHistoryView, CallLogView, ResultView, RoundsTable
from catalog_inspector.ui.widgets.input_panel import InputRequestPanel, InputSlot
from catalog_inspector.ui.widgets.labels import plain_label

__all__ = ["CallPanel", "confirmation_question"]


def _button(text: str, object_name: str, parent: QWidget) -> QPushButton:
    button = QPushButton(text, parent)
    button.setObjectName(object_name)
    return button


class CallPanel(QWidget):
    """Test calls to the selected server's tools; see the module docstring. Renders its `CallPresenter`.

    Attributes:
        presenter: the selected server's Call tab (None: no server is selected).
        editor: the arguments and their check (`callForm`, `callArguments`, `validationMessages` …).
        send_button, cancel_button: `callButton`, `cancelCallButton`.
        run_as_task, task_status: `callRunAsTask` (the tick) and `callTaskStatus` (the task as it goes).
        result, verdict, outcome: what came back (`callResult` inside, `outputVerdict`, `callOutcome`).
        input_panel: the server's question that waits for the person, shown in place of `result` (built by
            `input`, its `InputSlot`, on the first question or when this is asked for).
        rounds: the call's rounds of questions and answers (`callRounds`).
        logs: the server's log messages for the call (`callLogs`).
        history: the server's calls (`callHistory`).
    """

    def __init__(self, checks: Checks, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("callPanel")
        self.presenter: CallPresenter | None = None
        self._stale = False  # the presenter's tool changed while the tab was hidden: its form waits to be built
        self._build(checks)
        self._show_tool(None)
        self._show_answer()
        self._update_actions()

    @property
    def form(self) -> CallForm:
        return self.editor.form

    @property
    def input_panel(self) -> InputRequestPanel:
        return self.input.panel

    @property
    def tool(self) -> dict[str, Any] | None:
        return self.presenter.tool if self.presenter is not None else None

    @property
    def validation(self) -> Validation | None:
        """The latest finished check of the arguments shown (None while one runs)."""
        return self.editor.validation

    def _build(self, checks: Checks) -> None:
        self.tool_label = plain_label("callToolName", self)
        self.timeout = QDoubleSpinBox(self)
        self.timeout.setObjectName("callTimeout")
        self.timeout.setRange(0.5, 3600.0)
        self.timeout.setValue(30.0)
        self.timeout.setSuffix(" s timeout")
        self.send_button = _button("Send", "callButton", self)
        self.send_button.clicked.connect(self.send)
        self.cancel_button = _button("Cancel", "cancelCallButton", self)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = plain_label("callProgress", self)
        self.run_as_task = QCheckBox("Run as task", self)
        self.run_as_task.setObjectName("callRunAsTask")
        self.run_as_task.toggled.connect(self._on_run_as_task_toggled)
        self.task_status = plain_label("callTaskStatus", self)
        self.task_status.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.tool_label, 2)
        top.addWidget(self.run_as_task)
        top.addWidget(self.timeout)
        top.addWidget(self.send_button)
        top.addWidget(self.cancel_button)

        self.sets = QComboBox(self)
        self.sets.setObjectName("argumentSets")
        self.sets.activated.connect(self._on_sets_activated)
        self.save_set_button = _button("Save as…", "saveArgumentSet", self)
        self.save_set_button.clicked.connect(self._on_save_set_clicked)
        self.delete_set_button = _button("Delete set", "deleteArgumentSet", self)
        self.delete_set_button.clicked.connect(self._on_delete_set_clicked)
        sets_row = QHBoxLayout()
        sets_label = QLabel("Saved arguments:", self)
        sets_label.setTextFormat(Qt.TextFormat.PlainText)
        sets_row.addWidget(sets_label)
        sets_row.addWidget(self.sets, 1)
        sets_row.addWidget(self.save_set_button)
        sets_row.addWidget(self.delete_set_button)

        self.editor = ArgumentsEditor(checks, self)
        self.editor.changed.connect(self._on_editor_changed)
        self.editor.edited.connect(self._on_editor_edited)

        self.excluded_bar = QFrame(self)
        self.excluded_bar.setObjectName("callExcluded")
        theme.themed_style(
            self.excluded_bar, lambda: theme.frame_style("QFrame#callExcluded", theme.FAILURE, theme.EXCLUDED_LINE)
        )
        self.excluded_text = plain_label("callExcludedText", self.excluded_bar)
        self.excluded_text.setWordWrap(True)
        self.send_excluded = QCheckBox(SEND_EXCLUDED, self.excluded_bar)
        self.send_excluded.setObjectName("sendExcluded")
        self.send_excluded.toggled.connect(self._on_send_excluded_toggled)
        excluded_layout = QVBoxLayout(self.excluded_bar)
        excluded_layout.addWidget(self.excluded_text)
        excluded_layout.addWidget(self.send_excluded)
        self.excluded_bar.hide()

        self.confirm_bar = QFrame(self)
        self.confirm_bar.setObjectName("callConfirmation")
        theme.themed_style(
            self.confirm_bar, lambda: theme.frame_style("QFrame#callConfirmation", theme.CONFIRM, theme.CONFIRM_LINE)
        )
        self.confirm_text = plain_label("callConfirmationText", self.confirm_bar)
        self.confirm_yes = _button("Send", "confirmCallButton", self.confirm_bar)
        self.confirm_yes.clicked.connect(self._on_confirm_yes_clicked)
        self.confirm_no = _button("Don't send", "declineCallButton", self.confirm_bar)
        self.confirm_no.clicked.connect(self._on_confirm_no_clicked)
        confirm_layout = QHBoxLayout(self.confirm_bar)
        confirm_layout.addWidget(self.confirm_text, 1)
        confirm_layout.addWidget(self.confirm_yes)
        confirm_layout.addWidget(self.confirm_no)
        self.confirm_bar.hide()

        self.outcome = plain_label("callOutcome", self)
        self.verdict = plain_label("outputVerdict", self)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result = ResultView(self)
        self.shown_answer = QStackedWidget(self)
        self.shown_answer.addWidget(self.result)
        self.input = InputSlot(checks, self.shown_answer, self.result, self)
        self.rounds = RoundsTable("callRounds", self)
        self.logs = CallLogView(self)
        self.history = CallHistoryView(self)
        self.history.itemSelectionChanged.connect(self._update_actions)
        self.rerun_button = _button("Re-run", "rerunCallButton", self)
        self.rerun_button.clicked.connect(self.rerun)
        self.copy_json_button = _button("Copy as JSON", "copyCallJson", self)
        self.copy_json_button.clicked.connect(self._on_copy_json_clicked)
        self.copy_command_button = _button("Copy as command", "copyCallCommand", self)
        self.copy_command_button.clicked.connect(self._on_copy_command_clicked)
        history_buttons = QHBoxLayout()
        history_buttons.addWidget(self.rerun_button)
        history_buttons.addWidget(self.copy_json_button)
        history_buttons.addWidget(self.copy_command_button)
        history_buttons.addStretch(1)

        upper = QWidget(self)
        upper_layout = QVBoxLayout(upper)
        upper_layout.setContentsMargins(0, 0, 0, 0)
        upper_layout.addLayout(top)
        upper_layout.addLayout(sets_row)
        upper_layout.addWidget(self.excluded_bar)
        upper_layout.addWidget(self.editor, 1)
        upper_layout.addWidget(self.confirm_bar)
        answer = QWidget(self)
        answer_layout = QVBoxLayout(answer)
        answer_layout.setContentsMargins(0, 0, 0, 0)
        answer_layout.addWidget(self.outcome)
        answer_layout.addWidget(self.progress)
        answer_layout.addWidget(self.task_status)
        answer_layout.addWidget(self.verdict)
        answer_layout.addWidget(self.shown_answer, 1)
        answer_layout.addWidget(self.rounds)
        answer_layout.addWidget(self.logs)
        past = QWidget(self)
        past_layout = QVBoxLayout(past)
        past_layout.setContentsMargins(0, 0, 0, 0)
        past_layout.addWidget(self.history, 1)
        past_layout.addLayout(history_buttons)
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(answer)
        right.addWidget(past)
        right.setSizes([560, 200])  # the answer (or the server's question, with its form) needs the room
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(upper)
        split.addWidget(right)
        split.setSizes([620, 540])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

    # -- binding ------------------------------------------------------------------------
    _SIGNALS = ("tool_changed", "asked", "answer_changed", "actions_changed", "history_changed", "sets_changed",
                "send_when_checked")  # fmt: skip

    def bind(self, presenter: CallPresenter | None) -> None:
        """Render this server's Call tab (None: no server)."""
        if presenter is self.presenter:
            return
        if self.presenter is not None:
            for name in self._SIGNALS:
                getattr(self.presenter, name).disconnect(getattr(self, f"_on_presenter_{name}"))
            self.presenter.answer.rounds_changed.disconnect(self._on_answer_rounds_changed)
            self.presenter.answer.logs_changed.disconnect(self._on_answer_logs_changed)
            self.presenter.answer.logs_added.disconnect(self._on_answer_logs_added)
        self.presenter = presenter
        if presenter is not None:
            for name in self._SIGNALS:
                getattr(presenter, name).connect(getattr(self, f"_on_presenter_{name}"))
            presenter.answer.rounds_changed.connect(self._on_answer_rounds_changed)
            presenter.answer.logs_changed.connect(self._on_answer_logs_changed)
            presenter.answer.logs_added.connect(self._on_answer_logs_added)
            self.timeout.setValue(presenter.timeout)
        self.input.bind(presenter.answer if presenter is not None else None)
        self._on_answer_rounds_changed()
        self._on_answer_logs_changed()
        self._stale = True
        self._rebuild_if_shown(None)
        self._on_presenter_asked()
        self._show_answer()
        self._on_presenter_history_changed()

    def set_tool(self, tool: dict[str, Any] | None, arguments: Any = None) -> None:
        """Call this tool (from the tool tree), with `arguments` or the draft last left for it."""
        if self.presenter is not None and (tool is not self.presenter.tool or arguments is not None):
            self.presenter.set_tool(tool, arguments)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._rebuild_if_shown(None)

    def _rebuild_if_shown(self, arguments: Any) -> None:
        """Build the form of the presenter's tool now if the tab is shown (a few ms, far more for a schema of
        hundreds of fields), else when it is: not on every click in the tree."""
        if not self.isVisible() and arguments is None:
            self._stale = True
            return
        self._stale = False
        tool = self.tool
        self._show_tool(tool)
        if tool is not None and arguments is None and self.presenter is not None:
            arguments = self.presenter.draft()
        if arguments is not None:
            self.editor.set_arguments(arguments)

    def _on_presenter_tool_changed(self, arguments: Any) -> None:
        self._rebuild_if_shown(arguments)

    def focus_arguments(self) -> None:
        """The focus to the form's first field (a tool just opened from the tree), or to Send when it has none: a
        turn of the event loop later, once the fields of a form just built are shown."""
        QTimer.singleShot(0, self, self._focus_arguments)

    def _focus_arguments(self) -> None:
        field = self.form.first_field()
        if field is not None:
            field.setFocus(Qt.FocusReason.OtherFocusReason)
        elif not focus_first(self.form):
            self.send_button.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- sending --------------------------------------------------------------------
    def send(self) -> bool:
        """Send the arguments shown (asking first for a tool not annotated read-only). False if not sent now."""
        if self.presenter is None:
            return False
        self.presenter.timeout = self.timeout.value()
        return self.presenter.send()

    def cancel(self) -> bool:
        return self.presenter is not None and self.presenter.cancel()

    def rerun(self) -> bool:
        """Call the history's selected call again, with its arguments (the same questions are asked)."""
        record = self.history.selected_record()
        return record is not None and self.presenter is not None and self.presenter.rerun(record)

    def _on_run_as_task_toggled(self, checked: bool) -> None:
        if self.presenter is not None and not self.presenter.task_forced:
            self.presenter.set_run_as_task(checked)

    def _on_presenter_send_when_checked(self) -> None:
        self.editor.validate_now()

    def _on_editor_changed(self) -> None:
        if self.presenter is not None:
            editor = self.editor
            validation = editor.validation if editor.active else None
            self.presenter.arguments_checked(
                editor.parsed, validation, editor.parse_error, editor.send_anyway.isChecked()
            )
        self._update_actions()

    def _on_send_excluded_toggled(self, checked: bool) -> None:
        if self.presenter is not None:
            self.presenter.allow_excluded(checked)

    def _on_editor_edited(self, arguments: Any) -> None:
        if self.presenter is not None:
            self.presenter.remember(arguments)

    def _on_presenter_asked(self) -> None:
        question = self.presenter.question if self.presenter is not None else ""
        self.confirm_text.setText(question)
        self.confirm_bar.setVisible(bool(question))

    def _on_confirm_yes_clicked(self) -> None:
        if self.presenter is not None:
            self.presenter.confirm(True)

    def _on_confirm_no_clicked(self) -> None:
        if self.presenter is not None:
            self.presenter.confirm(False)

    def _on_presenter_answer_changed(self) -> None:
        self._show_answer()

    def _on_answer_rounds_changed(self) -> None:
        self.rounds.show_rounds(self.presenter.answer.rounds if self.presenter is not None else [])

    def _on_answer_logs_changed(self) -> None:
        self.logs.show_lines(self.presenter.answer.log_lines() if self.presenter is not None else [])

    def _on_answer_logs_added(self, lines: list[str]) -> None:
        self.logs.add_lines(lines)

    def _on_presenter_actions_changed(self) -> None:
        self._update_actions()

    def _show_answer(self) -> None:
        presenter = self.presenter
        if presenter is None:
            self.outcome.clear()
            self.progress.clear()
            self.task_status.clear()
            self.verdict.clear()
            self.result.clear_result()
            return
        self.outcome.setText(presenter.answer.outcome_text)
        self.outcome.setProperty("layer", presenter.answer.layer)
        self.outcome.setProperty("outcome", presenter.answer.outcome_word)
        self.progress.setText(presenter.answer.progress_text)
        self.task_status.setText(presenter.answer.task_text)
        self.task_status.setVisible(bool(presenter.answer.task_text))
        self.verdict.setText(presenter.answer.verdict_text)
        self.verdict.setProperty("verdict", presenter.answer.verdict)
        if presenter.answer.result is not None:
            self.result.show_result(presenter.answer.result)
        else:
            self.result.clear_result()

    # -- the tool and its arguments ------------------------------------------------------
    def _show_tool(self, tool: dict[str, Any] | None) -> None:
        if tool is None:
            self.tool_label.setText("Select a tool in the Tools tab to call it.")
            self.editor.show_schema(None, active=False)
        else:
            name = visible(str(tool.get("name", "")), 120)
            badges = "read-only" if confirmation_question(tool) is None else "not read-only: asks before its first call"
            self.tool_label.setText(f"Tool: {name} ({badges})")
            self.editor.show_schema(tool.get("inputSchema"))
        self._show_excluded()
        self._on_presenter_sets_changed()

    def _show_excluded(self) -> None:
        reason = self.presenter.excluded_reason if self.presenter is not None else None
        self.excluded_bar.setVisible(reason is not None)
        if reason is not None:
            self.excluded_text.setText(
                f"⊘ Conforming 2026-07-28 clients must not call this tool: {visible(reason, 300)}. "
                "It is kept here so you can test the server with it."
            )
        self.send_excluded.blockSignals(True)
        self.send_excluded.setChecked(self.presenter is not None and self.presenter.send_excluded)
        self.send_excluded.blockSignals(False)

    def _update_actions(self) -> None:
        presenter = self.presenter
        self._show_task_tick()
        self.send_button.setEnabled(presenter is not None and presenter.can_send)
        anyway = self.editor.invalid and self.editor.send_anyway.isChecked()
        excluded = presenter is not None and presenter.send_excluded and presenter.excluded_reason is not None
        self.send_button.setText("Send anyway" if anyway or excluded else "Send")
        self.cancel_button.setEnabled(presenter is not None and presenter.answer.ticket is not None)
        record = self.history.selected_record()
        self.rerun_button.setEnabled(record is not None and record.kind == "tool" and not record.arguments_cut)
        self.copy_json_button.setEnabled(record is not None)
        self.copy_command_button.setEnabled(record is not None and record.kind == "tool" and not record.arguments_cut)
        self.save_set_button.setEnabled(self.tool is not None and not self.editor.parse_error)
        self.delete_set_button.setEnabled(self.sets.currentIndex() > 0)

    def _show_task_tick(self) -> None:
        """The tick says whether the call runs as a task: forced (checked, fixed) for a tool that requires one."""
        presenter = self.presenter
        forced = presenter is not None and presenter.task_forced
        support = presenter.task_support if presenter is not None else None
        self.run_as_task.blockSignals(True)
        self.run_as_task.setChecked(presenter is not None and presenter.as_task)
        self.run_as_task.blockSignals(False)
        self.run_as_task.setEnabled(presenter is not None and presenter.tool is not None and not forced)
        if forced:
            words = "This tool's execution.taskSupport is required: it is always run as a task."
        elif support == "optional":
            words = "This tool's execution.taskSupport is optional: it may be run as a task."
        else:
            words = (
                "Run the call as a task (2025-11-25: the call asks for one; 2026-07-28: it declares the tasks "
                "extension and the server decides). This tool declares no task support."
            )
        self.run_as_task.setToolTip(tooltip(words))

    # -- history and argument sets ----------------------------------------------------
    def _on_presenter_history_changed(self) -> None:
        self.history.show_records(self.presenter.history if self.presenter is not None else [])
        self._update_actions()

    def _on_copy_json_clicked(self) -> None:
        record = self.history.selected_record()
        if record is not None and self.presenter is not None:
            QGuiApplication.clipboard().setText(self.presenter.json_of(record))

    def _on_copy_command_clicked(self) -> None:
        record = self.history.selected_record()
        if record is not None and self.presenter is not None:
            QGuiApplication.clipboard().setText(self.presenter.command_of(record))

    def _on_presenter_sets_changed(self) -> None:
        current = self.sets.currentData()
        self.sets.blockSignals(True)
        self.sets.clear()
        self.sets.addItem("(the form's defaults)")
        for name in sorted(self.presenter.sets if self.presenter is not None else {}):
            self.sets.addItem(visible(name, 100).replace("&", "&&"), name)
        self.sets.setCurrentIndex(max(0, self.sets.findData(current)) if current is not None else 0)
        self.sets.blockSignals(False)
        self._update_actions()

    def _on_sets_activated(self, index: int) -> None:
        if index == 0:
            self._show_tool(self.tool)
            return
        arguments = self.presenter.sets.get(str(self.sets.itemData(index))) if self.presenter is not None else None
        if arguments is not None:
            self.editor.set_arguments(arguments)

    def save_set(self, name: str) -> bool:
        """Keep the arguments shown under `name` for this tool (they come back when it is picked again)."""
        if self.presenter is None or not self.presenter.save_set(name):
            return False
        self.sets.setCurrentIndex(max(0, self.sets.findData(name.strip())))
        return True

    def _on_save_set_clicked(self) -> None:
        name, ok = QInputDialog.getText(self, "Save arguments", "Name for these arguments:")
        if ok:
            self.save_set(name)

    def _on_delete_set_clicked(self) -> None:
        if self.presenter is not None and self.sets.currentIndex() > 0:
            self.presenter.delete_set(str(self.sets.currentData()))
