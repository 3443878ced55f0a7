"""The Call tab: fire a test call at the tool chosen in the tool tree, with its arguments checked live.

The arguments are edited and checked in an `ArgumentsEditor` (form and raw
JSON). They are sent only once checked, and invalid ones only with "Send even if
invalid" ticked (to test the server's own validation). A tool not annotated
read-only asks first, once per session. The answer is shown as the server sent it
(`callResult`, raw JSON a tab away) with the verdict against the accepted
catalog's output schema (`outputVerdict`), and every call goes into the server's
history (`callHistory`), from where it can be re-run or copied. Named argument
sets are kept per tool; the arguments last shown for a tool come back with it.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.calls import CallOutcome, Validation, call_command, verdict_words
from catalog_inspector.core.text import visible
from catalog_inspector.runtime import CallTicket, Runtime, ServerSupervisor
from catalog_inspector.ui.widgets.call_arguments import ArgumentsEditor
from catalog_inspector.ui.widgets.call_form import CallForm
from catalog_inspector.ui.widgets.call_views import CallHistoryView, ResultView
from catalog_inspector.ui.widgets.labels import plain_label

__all__ = ["CallPanel", "confirmation_question"]

VERDICT_LIMIT = 4000  # characters of the output verdict shown (up to 50 problems, each with its pointer)


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
        editor: the arguments and their check (`callForm`, `callArguments`, `validationMessages` …).
        send_button, cancel_button: `callButton`, `cancelCallButton`.
        result, verdict, outcome: what came back (`callResult` inside, `outputVerdict`, `callOutcome`).
        history: the server's calls (`callHistory`).
        ticket: the call in flight, if any.
    """

    def __init__(self, runtime: Runtime, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("callPanel")
        self.runtime = runtime
        self.supervisor: ServerSupervisor | None = None
        self.tool: dict[str, Any] | None = None
        self.ticket: CallTicket | None = None
        self._drafts: dict[tuple[str, str], Any] = {}  # (server, tool) → the arguments last edited for it
        self._confirmed: set[tuple[str, object, str]] = set()  # (server, session, tool) the user said yes to
        self._pending_send = False  # waiting for the user's answer to the question
        self._send_when_checked = False  # a re-run waits for its arguments' check
        self._pending: tuple[dict[str, Any] | None] | None = None  # a tool picked while the tab was hidden
        self._build()
        desk = runtime.calls
        desk.history_changed.connect(self._on_desk_history_changed)
        desk.sets_changed.connect(self._on_desk_sets_changed)
        self._show_tool()

    @property
    def form(self) -> CallForm:
        return self.editor.form

    @property
    def validation(self) -> Validation | None:
        """The latest finished check of the arguments shown (None while one runs)."""
        return self.editor.validation

    # -- construction -----------------------------------------------------------
    def _build(self) -> None:
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

        self.editor = ArgumentsEditor(self.runtime.calls, self)
        self.editor.changed.connect(self._update_actions)
        self.editor.edited.connect(self._on_editor_edited)
        self.editor.checked.connect(self._on_editor_checked)

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
        upper_layout.addLayout(sets_row)
        upper_layout.addWidget(self.editor, 1)
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
        self._pending_send = self._send_when_checked = False
        self._show_tool()
        if tool is not None:
            if arguments is None:
                arguments = self._drafts.get(self._draft_key())  # what the user left here last time
            if arguments is not None:
                self.editor.set_arguments(arguments)

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
        ticket = supervisor.call_tool(str(tool.get("name", "")), self.editor.parsed, self.timeout.value())
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
        self.editor.validate_now()
        self._send_when_checked = True  # sent as soon as its arguments are checked, like any other call
        self.outcome.setText("Checking the arguments before sending them again…")
        return True

    def _session_key(self) -> tuple[str, object, str]:
        supervisor = self.supervisor
        assert supervisor is not None and self.tool is not None
        return supervisor.spec.name, supervisor.accepted_at, str(self.tool.get("name", ""))

    def _can_send(self) -> bool:
        live = self.supervisor is not None and self.supervisor.connection is not None
        return self.tool is not None and live and self.ticket is None and self.editor.ready

    def _on_editor_checked(self) -> None:
        if self._send_when_checked:
            self._send_when_checked = False
            if not self.send() and not self.confirm_bar.isVisible():
                self.outcome.setText("Not sent again: the arguments no longer pass the tool's schema (see below).")

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
        self.outcome.setText(f"{outcome.summary()} — {outcome.latency_ms:,.0f} ms")
        self.outcome.setProperty("layer", outcome.layer)
        self.outcome.setProperty("outcome", str(outcome.outcome))
        # The words hold the server's keys (in JSON pointers): made visible and bounded here, as any server text.
        words = verdict_words(outcome.verdict) if outcome.result is not None else ""
        self.verdict.setText(visible(words, VERDICT_LIMIT, keep_newlines=True))
        self.verdict.setProperty("verdict", outcome.verdict.verdict if outcome.verdict else "")
        if outcome.result is not None:
            self.result.show_result(outcome.result)
        else:
            self.result.clear_result()
        self._update_actions()

    # -- the tool and its arguments ------------------------------------------------------
    def _show_tool(self) -> None:
        tool = self.tool
        if tool is None:
            self.tool_label.setText("Select a tool in the Tools tab to call it.")
            self.editor.show_schema(None, active=False)
        else:
            name = visible(str(tool.get("name", "")), 120)
            badges = "read-only" if confirmation_question(tool) is None else "not read-only: asks before its first call"
            self.tool_label.setText(f"Tool: {name} ({badges})")
            self.editor.show_schema(tool.get("inputSchema"))
        self._refresh_sets()

    def _on_editor_edited(self, arguments: Any) -> None:
        if self.tool is not None:
            self._drafts[self._draft_key()] = arguments

    def _draft_key(self) -> tuple[str, str]:
        server = self.supervisor.spec.name if self.supervisor is not None else ""
        return server, str(self.tool.get("name", "")) if self.tool is not None else ""

    def _update_actions(self) -> None:
        self.send_button.setEnabled(self._can_send())
        self.send_button.setText(
            "Send anyway" if self.editor.invalid and self.editor.send_anyway.isChecked() else "Send"
        )
        self.cancel_button.setEnabled(self.ticket is not None)
        record = self.history.selected_record()
        self.rerun_button.setEnabled(record is not None and record.kind == "tool" and not record.arguments_cut)
        self.copy_json_button.setEnabled(record is not None)
        self.copy_command_button.setEnabled(record is not None and record.kind == "tool" and not record.arguments_cut)
        self.save_set_button.setEnabled(self.tool is not None and not self.editor.parse_error)
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
            self.editor.set_arguments(arguments)

    def save_set(self, name: str) -> bool:
        """Keep the arguments shown under `name` for this tool (they come back when it is picked again)."""
        if self.supervisor is None or self.tool is None or self.editor.parse_error or not name.strip():
            return False
        tool = str(self.tool.get("name", ""))
        self.runtime.calls.save_set(self.supervisor.spec.name, tool, name.strip(), self.editor.parsed)
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
