"""The Call tab: fire a test call at the tool chosen in the tool tree, with its arguments checked live.

The form (`callForm`) and the raw JSON editor (`callArguments`) show the same
arguments; editing either updates the other. Every change is validated against
the tool's own input schema in the runtime's sandbox (off the GUI thread, within
a time budget) and each problem is listed with its JSON pointer and keyword
(`validationMessages`) and marked on its field. Invalid arguments are sent only
with "Send even if invalid" ticked (to test the server's own validation). A tool
not annotated read-only asks first, once per session. The answer is shown as the
server sent it (`callResult`, raw JSON a tab away) with the verdict against the
accepted catalog's output schema (`outputVerdict`), and every call goes into the
server's history (`callHistory`), from where it can be re-run or copied.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.call_store import call_command
from catalog_inspector.core.calls import LAYER_WORDS, CallOutcome
from catalog_inspector.core.lint import lint_words
from catalog_inspector.core.result_text import verdict_words
from catalog_inspector.core.text import visible
from catalog_inspector.core.validation import Validation
from catalog_inspector.runtime import CallTicket, Runtime, ServerSupervisor
from catalog_inspector.runtime.calldesk import outcome_summary
from catalog_inspector.ui.widgets.call_form import CallForm
from catalog_inspector.ui.widgets.call_views import CallHistoryView, ResultView
from catalog_inspector.ui.widgets.labels import plain_label
from catalog_inspector.ui.widgets.panes import plain_text_view
from catalog_inspector.ui.widgets.tables import compact_table

__all__ = ["CallPanel", "confirmation_question"]

VALIDATE_MS = 150  # typing pauses this long before the arguments are checked
MESSAGE_ROWS = 200


def confirmation_question(tool: dict[str, Any]) -> str | None:
    """What to ask before the first call of a tool not annotated read-only (None: no need to ask)."""
    annotations = tool.get("annotations") if isinstance(tool.get("annotations"), dict) else {}
    assert isinstance(annotations, dict)
    if annotations.get("readOnlyHint") is True:
        return None
    name = visible(str(tool.get("name", "")), 120)
    # The spec's default for an absent destructiveHint is true: say so unless the server said otherwise.
    if annotations.get("destructiveHint", True) is not False:
        return f"'{name}' is not annotated read-only and may be destructive: it can change or delete things. Send it?"
    return f"'{name}' is not annotated read-only: it may change things on the server's side. Send it?"


def _button(text: str, object_name: str, parent: QWidget) -> QPushButton:
    button = QPushButton(text, parent)
    button.setObjectName(object_name)
    return button


class CallPanel(QWidget):
    """Test calls to the selected server's tools; see the module docstring.

    Attributes:
        form, arguments: the two views of the arguments (`callForm`, `callArguments`).
        messages: the validation problems (`validationMessages`).
        send_button, cancel_button, send_anyway: `callButton`, `cancelCallButton`, `sendAnyway`.
        result, verdict, outcome: what came back (`callResult` inside, `outputVerdict`, `callOutcome`).
        history: the server's calls (`callHistory`).
        validation: the latest finished check of the arguments shown (None while one runs).
        ticket: the call in flight, if any.
    """

    def __init__(self, runtime: Runtime, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("callPanel")
        self.runtime = runtime
        self.supervisor: ServerSupervisor | None = None
        self.tool: dict[str, Any] | None = None
        self.validation: Validation | None = None
        self.ticket: CallTicket | None = None
        self._syncing = False
        self._token = 0
        self._lint_token = -1
        self._drafts: dict[tuple[str, str], Any] = {}  # (server, tool) → the arguments last shown for it
        self._parsed: Any = {}  # the arguments the editor holds, when they parse
        self._parse_error = ""
        self._confirmed: set[tuple[str, object, str]] = set()  # (server, session, tool) the user said yes to
        self._pending_send = False
        self._pending: tuple[dict[str, Any] | None] | None = None  # a tool picked while the tab was hidden
        self._build()
        desk = runtime.calls
        desk.validated.connect(self._on_desk_validated)
        desk.linted.connect(self._on_desk_linted)
        desk.history_changed.connect(self._on_desk_history_changed)
        desk.sets_changed.connect(self._on_desk_sets_changed)
        self._validate_timer = QTimer(self)
        self._validate_timer.setSingleShot(True)
        self._validate_timer.setInterval(VALIDATE_MS)
        self._validate_timer.timeout.connect(self._validate_now)
        self._show_tool()

    # -- construction -----------------------------------------------------------
    def _build(self) -> None:
        self.tool_label = plain_label("callToolName", self)
        self.lint_label = plain_label("schemaLint", self)
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
        top = QHBoxLayout()
        top.addWidget(self.tool_label, 2)
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

        self.form = CallForm(self)
        self.form.edited.connect(self._on_form_edited)
        self.arguments = plain_text_view("callArguments", self)
        self.arguments.setReadOnly(False)
        self.arguments.textChanged.connect(self._on_arguments_text_changed)
        editors = QSplitter(Qt.Orientation.Horizontal, self)
        editors.addWidget(self.form)
        editors.addWidget(self.arguments)
        editors.setSizes([400, 220])  # the form needs the room; the JSON is a glance

        self.messages = QTableWidget(0, 3, self)
        self.messages.setObjectName("validationMessages")
        self.messages.setHorizontalHeaderLabels(["Path", "Keyword", "Problem"])
        self.messages.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        compact_table(self.messages, QAbstractItemView.SelectionBehavior.SelectRows)
        self.messages.setColumnWidth(0, 160)
        self.messages.cellActivated.connect(self._on_messages_cell_activated)
        self.check_label = plain_label("validationSummary", self)
        self.send_anyway = QCheckBox("Send even if invalid (to test the server's own validation)", self)
        self.send_anyway.setObjectName("sendAnyway")
        self.send_anyway.toggled.connect(self._update_actions)

        self.confirm_bar = QFrame(self)
        self.confirm_bar.setObjectName("callConfirmation")
        self.confirm_bar.setStyleSheet("QFrame#callConfirmation { background: #fff3e0; border: 1px solid #e0b070; }")
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
        upper_layout.addWidget(self.lint_label)
        upper_layout.addLayout(sets_row)
        upper_layout.addWidget(editors, 3)
        upper_layout.addWidget(self.check_label)
        upper_layout.addWidget(self.messages, 1)
        upper_layout.addWidget(self.send_anyway)
        upper_layout.addWidget(self.confirm_bar)
        answer = QWidget(self)
        answer_layout = QVBoxLayout(answer)
        answer_layout.setContentsMargins(0, 0, 0, 0)
        answer_layout.addWidget(self.outcome)
        answer_layout.addWidget(self.progress)
        answer_layout.addWidget(self.verdict)
        answer_layout.addWidget(self.result, 1)
        past = QWidget(self)
        past_layout = QVBoxLayout(past)
        past_layout.setContentsMargins(0, 0, 0, 0)
        past_layout.addWidget(self.history, 1)
        past_layout.addLayout(history_buttons)
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(answer)
        right.addWidget(past)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(upper)
        split.addWidget(right)
        split.setSizes([620, 540])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

    # -- what the window gives ------------------------------------------------------
    def set_server(self, supervisor: ServerSupervisor | None) -> None:
        """The server whose tools are called (its history and argument sets show)."""
        if supervisor is self.supervisor:
            return
        if self.supervisor is not None:
            self.supervisor.call_finished.disconnect(self._on_supervisor_call_finished)
            self.supervisor.call_progress.disconnect(self._on_supervisor_call_progress)
            self.supervisor.state_changed.disconnect(self._update_actions)
        self.supervisor = supervisor
        self.ticket = None
        if supervisor is not None:
            supervisor.call_finished.connect(self._on_supervisor_call_finished)
            supervisor.call_progress.connect(self._on_supervisor_call_progress)
            supervisor.state_changed.connect(self._update_actions)
        self.set_tool(None)
        self._on_desk_history_changed(supervisor.spec.name if supervisor else "")
        self.outcome.clear()
        self.verdict.clear()
        self.progress.clear()
        self.result.clear_result()

    def set_tool(self, tool: dict[str, Any] | None, arguments: Any = None) -> None:
        """Call this tool (from the tool tree), with `arguments` or its form's empty value.

        While the tab is hidden the tool is only noted: a form is built on the GUI thread
        (a few ms, far more for a schema of hundreds of fields), so not on every click in the tree.
        """
        if not self.isVisible() and arguments is None:
            self._pending = (tool,)
            return
        self._pending = None
        if tool is self.tool and arguments is None:
            return
        self.tool = tool
        self.confirm_bar.hide()
        self._pending_send = False
        self._show_tool()
        if tool is not None:
            if arguments is None:
                arguments = self._drafts.get(self._draft_key())  # what the user left here last time
            if arguments is not None:
                self._set_arguments(arguments)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._pending is not None:
            self.set_tool(self._pending[0])

    # -- sending --------------------------------------------------------------------
    def send(self) -> bool:
        """Send the arguments shown (asking first for a tool not annotated read-only). False if not sent now."""
        supervisor, tool = self.supervisor, self.tool
        if supervisor is None or tool is None or not self._can_send():
            return False
        question = confirmation_question(tool)
        if question is not None and self._session_key() not in self._confirmed:
            self.confirm_text.setText(question)
            self.confirm_bar.show()
            self._pending_send = True
            return False
        ticket = supervisor.call_tool(str(tool.get("name", "")), self._parsed, self.timeout.value())
        if ticket is None:
            self.outcome.setText("Not sent: no session is live (refresh or reconnect the server first).")
            return False
        self.ticket = ticket
        self.outcome.setText(f"Calling {visible(ticket.tool, 120)}…")
        self.progress.clear()
        self.verdict.clear()
        self.result.clear_result()
        self._update_actions()
        return True

    def cancel(self) -> bool:
        if self.supervisor is None or self.ticket is None:
            return False
        return self.supervisor.cancel_call(self.ticket)

    def rerun(self) -> bool:
        """Call the history's selected call again, with its arguments (the same questions are asked)."""
        record = self.history.selected_record()
        if record is None or record.kind != "tool" or record.arguments_cut or self.supervisor is None:
            return False
        accepted = self.supervisor.accepted
        tool = next((t for t in accepted.tools.items if t.get("name") == record.name), None) if accepted else None
        if tool is None:
            self.outcome.setText(f"Not sent: {visible(record.name, 120)} is not in the accepted catalog any more.")
            return False
        self.set_tool(tool, record.arguments)
        self._validate_now()
        return self.send()

    def _session_key(self) -> tuple[str, object, str]:
        supervisor = self.supervisor
        assert supervisor is not None and self.tool is not None
        return supervisor.spec.name, supervisor.accepted_at, str(self.tool.get("name", ""))

    def _can_send(self) -> bool:
        if self.tool is None or self.supervisor is None or self.supervisor.connection is None or self._parse_error:
            return False
        if self.ticket is not None:
            return False
        if self.validation is not None and self.validation.problems and not self.send_anyway.isChecked():
            return False
        return True

    def _on_confirm_yes_clicked(self) -> None:
        self.confirm_bar.hide()
        if self.tool is not None and self.supervisor is not None:
            self._confirmed.add(self._session_key())
        if self._pending_send:
            self._pending_send = False
            self.send()

    def _on_confirm_no_clicked(self) -> None:
        self.confirm_bar.hide()
        self._pending_send = False
        self.outcome.setText("Not sent.")

    def _on_supervisor_call_progress(self, ticket: CallTicket, progress: float, total: Any, message: Any) -> None:
        if ticket is not self.ticket:
            return
        amount = f"{progress:g} of {total:g}" if isinstance(total, int | float) else f"{progress:g}"
        words = f": {visible(str(message), 300)}" if message else ""
        self.progress.setText(f"Progress {amount}{words}")

    def _on_supervisor_call_finished(self, ticket: CallTicket, outcome: CallOutcome) -> None:
        if ticket is not self.ticket:
            return
        self.ticket = None
        heading = LAYER_WORDS.get(outcome.layer, (outcome.layer, True))[0]
        self.outcome.setText(f"{outcome_summary(outcome)} — {outcome.latency_ms:,.0f} ms" if outcome.error else f"{heading} — {outcome.latency_ms:,.0f} ms")
        self.outcome.setProperty("layer", outcome.layer)
        self.verdict.setText(verdict_words(outcome.verdict) if outcome.result is not None else "")
        self.verdict.setProperty("verdict", outcome.verdict.verdict if outcome.verdict else "")
        if outcome.result is not None:
            self.result.show_result(outcome.result)
        else:
            self.result.clear_result()
        self._update_actions()

    # -- arguments: the form and the editor, kept in step ------------------------------
    def _show_tool(self) -> None:
        tool = self.tool
        self._syncing = True
        try:
            if tool is None:
                self.tool_label.setText("Select a tool in the Tools tab to call it.")
                self.lint_label.clear()
                self.form.set_schema({"type": "object", "properties": {}})
                self.arguments.setPlainText("")
            else:
                name = visible(str(tool.get("name", "")), 120)
                badges = "read-only" if confirmation_question(tool) is None else "not read-only: asks before its first call"
                self.tool_label.setText(f"Tool: {name} ({badges})")
                self.form.set_schema(tool.get("inputSchema"))
                self.arguments.setPlainText(json.dumps(self.form.value(), indent=2, ensure_ascii=False))
                self._token += 1
                self._lint_token = self._token
                self.lint_label.setText("Schema lint: checking…")
                self.runtime.calls.lint(self._lint_token, tool.get("inputSchema"))
        finally:
            self._syncing = False
        self._parse_arguments()
        self._refresh_sets()
        self._validate_now()

    def _set_arguments(self, arguments: Any) -> None:
        self._syncing = True
        try:
            self.arguments.setPlainText(json.dumps(arguments, indent=2, ensure_ascii=False))
            self.form.set_value(arguments)
        finally:
            self._syncing = False
        self._parse_arguments()
        self._schedule_validation()

    def _on_form_edited(self) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            self.arguments.setPlainText(json.dumps(self.form.value(), indent=2, ensure_ascii=False))
        finally:
            self._syncing = False
        self._parse_arguments()
        self._schedule_validation()

    def _on_arguments_text_changed(self) -> None:
        if self._syncing:
            return
        self._parse_arguments()
        if not self._parse_error:
            self._syncing = True
            try:
                self.form.set_value(self._parsed)
            finally:
                self._syncing = False
        self._schedule_validation()

    def _parse_arguments(self) -> None:
        text = self.arguments.toPlainText()
        try:
            self._parsed = json.loads(text) if text.strip() else {}
            self._parse_error = ""
        except ValueError as exc:
            self._parse_error = f"The arguments are not JSON: {exc}"
        if not self._parse_error and self.tool is not None and not self._syncing:
            self._drafts[self._draft_key()] = self._parsed
        self._update_actions()

    def _draft_key(self) -> tuple[str, str]:
        server = self.supervisor.spec.name if self.supervisor is not None else ""
        return server, str(self.tool.get("name", "")) if self.tool is not None else ""

    def _schedule_validation(self) -> None:
        """The arguments changed: any check in flight is for old ones; check these after a typing pause."""
        self._token += 1
        self.validation = None
        self._validate_timer.start()
        self._update_actions()

    def _validate_now(self) -> None:
        self._validate_timer.stop()
        self._token += 1
        self.validation = None
        if self.tool is None:
            self._show_problems()
            return
        if self._parse_error:
            self._show_problems()
            return
        self.check_label.setText("Checking the arguments against the tool's input schema…")
        self.runtime.calls.validate(self._token, self.tool.get("inputSchema"), self._parsed)
        self._update_actions()

    def _on_desk_validated(self, token: int, validation: Validation) -> None:
        if token != self._token:
            return  # an answer to arguments no longer shown
        self.validation = validation
        self._show_problems()

    def _on_desk_linted(self, token: int, issues: Any) -> None:
        if token != self._lint_token:
            return
        if not issues:
            self.lint_label.setText("Schema lint: no problems a strict host would reject.")
            return
        self.lint_label.setText(visible(lint_words(issues), 4000, keep_newlines=True))

    def _show_problems(self) -> None:
        validation = self.validation
        problems = validation.problems if validation is not None else ()
        self.form.mark_problems(problems)
        shown = problems[:MESSAGE_ROWS]
        self.messages.setRowCount(len(shown))
        for row, problem in enumerate(shown):
            for column, text in enumerate((problem.pointer or "(root)", problem.keyword, problem.message)):
                self.messages.setItem(row, column, QTableWidgetItem(visible(text, 500)))
        if self.tool is None:
            self.check_label.clear()
        elif self._parse_error:
            self.check_label.setText(visible(self._parse_error, 300))
        elif validation is None:
            self.check_label.setText("Checking the arguments against the tool's input schema…")
        elif validation.failure is not None:
            self.check_label.setText(
                f"The arguments could not be checked: {validation.failure.heading} — {visible(validation.detail, 400)}"
            )
        elif problems:
            more = f" ({validation.detail})" if validation.truncated else ""
            self.check_label.setText(f"{len(problems)} problem(s) with the arguments{more}: not sent unless you say so.")
        else:
            self.check_label.setText("The arguments are valid against the tool's input schema.")
        self._update_actions()

    def _on_messages_cell_activated(self, row: int, _column: int) -> None:
        problems = self.validation.problems if self.validation is not None else ()
        if 0 <= row < len(problems):
            field = self.form.field_at(problems[row].pointer)
            if field is not None:
                field.setFocus()

    def _update_actions(self) -> None:
        invalid = self.validation is not None and bool(self.validation.problems)
        self.send_button.setEnabled(self._can_send())
        self.send_button.setText("Send anyway" if invalid and self.send_anyway.isChecked() else "Send")
        self.cancel_button.setEnabled(self.ticket is not None)
        record = self.history.selected_record()
        self.rerun_button.setEnabled(record is not None and record.kind == "tool" and not record.arguments_cut)
        self.copy_json_button.setEnabled(record is not None)
        self.copy_command_button.setEnabled(record is not None and record.kind == "tool" and not record.arguments_cut)
        self.save_set_button.setEnabled(self.tool is not None and not self._parse_error)
        self.delete_set_button.setEnabled(self.sets.currentIndex() > 0)

    # -- history and argument sets ----------------------------------------------------
    def _on_desk_history_changed(self, name: str) -> None:
        if self.supervisor is not None and name == self.supervisor.spec.name:
            self.history.show_records(self.runtime.calls.histories.get(name, []))
        elif self.supervisor is None:
            self.history.show_records([])
        self._update_actions()

    def _on_copy_json_clicked(self) -> None:
        record = self.history.selected_record()
        if record is not None:
            document = {"kind": record.kind, "name": record.name, "arguments": record.arguments, "at": record.at,
                        "outcome": record.outcome, "duration_ms": record.duration_ms}  # fmt: skip
            QGuiApplication.clipboard().setText(json.dumps(document, indent=2, ensure_ascii=False))

    def _on_copy_command_clicked(self) -> None:
        record = self.history.selected_record()
        if record is not None and self.supervisor is not None:
            QGuiApplication.clipboard().setText(call_command(self.supervisor.spec, record.name, record.arguments))

    def _tool_sets(self) -> dict[str, Any]:
        if self.supervisor is None or self.tool is None:
            return {}
        return self.runtime.calls.sets.get(self.supervisor.spec.name, {}).get(str(self.tool.get("name", "")), {})

    def _refresh_sets(self) -> None:
        self.sets.blockSignals(True)
        self.sets.clear()
        self.sets.addItem("(the form's defaults)")
        for name in sorted(self._tool_sets()):
            self.sets.addItem(visible(name, 100).replace("&", "&&"), name)
        self.sets.blockSignals(False)
        self._update_actions()

    def _on_desk_sets_changed(self, name: str) -> None:
        if self.supervisor is not None and name == self.supervisor.spec.name:
            current = self.sets.currentData()
            self._refresh_sets()
            index = self.sets.findData(current) if current is not None else 0
            self.sets.setCurrentIndex(max(0, index))

    def _on_sets_activated(self, index: int) -> None:
        if index == 0:
            self._show_tool()
            return
        arguments = self._tool_sets().get(str(self.sets.itemData(index)))
        if arguments is not None:
            self._set_arguments(arguments)

    def save_set(self, name: str) -> bool:
        """Keep the arguments shown under `name` for this tool (they come back when it is picked again)."""
        if self.supervisor is None or self.tool is None or self._parse_error or not name.strip():
            return False
        self.runtime.calls.save_set(self.supervisor.spec.name, str(self.tool.get("name", "")), name.strip(), self._parsed)
        self.sets.setCurrentIndex(max(0, self.sets.findData(name.strip())))
        return True

    def _on_save_set_clicked(self) -> None:
        name, ok = QInputDialog.getText(self, "Save arguments", "Name for these arguments:")
        if ok:
            self.save_set(name)

    def _on_delete_set_clicked(self) -> None:
        if self.supervisor is None or self.tool is None or self.sets.currentIndex() <= 0:
            return
        name = str(self.sets.currentData())
        self.runtime.calls.delete_set(self.supervisor.spec.name, str(self.tool.get("name", "")), name)
