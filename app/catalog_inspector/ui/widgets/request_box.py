"""Reading the selected resource (`resources/read`) or getting the selected prompt (`prompts/get`).

The answer is shown as plain text (binary contents as their size and type), with
its outcome layer named like a tool call's: the request never reaches the
server without a live session, and a JSON-RPC error, a timeout and a lost
connection each say so.
"""

from __future__ import annotations

from typing import Any, Literal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from catalog_inspector.core.calls import CallOutcome
from catalog_inspector.core.text import visible
from catalog_inspector.runtime import CallTicket, ServerSupervisor
from catalog_inspector.ui.widgets.call_views import ResultView

__all__ = ["RequestBox"]

ARGUMENTS = 50  # prompt arguments shown as fields; the rest are not offered
REQUEST_TIMEOUT = 30.0

Kind = Literal["resource", "prompt"]
OBJECT_NAMES = {"resource": ("readResourceButton", "resourceOutcome", "resourceResult"),
                "prompt": ("getPromptButton", "promptOutcome", "promptResult")}  # fmt: skip


class RequestBox(QWidget):
    """Sends one request for the item chosen in a list and shows the answer.

    Attributes:
        item: the resource or prompt chosen (wire object), or None.
        ticket: the request in flight.
    """

    def __init__(self, kind: Kind, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        button_name, outcome_name, result_name = OBJECT_NAMES[kind]
        self.kind = kind
        self.item: dict[str, Any] | None = None
        self.ticket: CallTicket | None = None
        self.supervisor: ServerSupervisor | None = None
        self.button = QPushButton("Read" if kind == "resource" else "Get prompt", self)
        self.button.setObjectName(button_name)
        self.button.clicked.connect(self.send)
        self.outcome = QLabel(self)
        self.outcome.setObjectName(outcome_name)
        self.outcome.setTextFormat(Qt.TextFormat.PlainText)
        self.outcome.setWordWrap(True)
        self.fields: dict[str, QLineEdit] = {}
        self.form = QFormLayout()
        self.result = ResultView(self)
        self.result.text.setObjectName(result_name)
        row = QHBoxLayout()
        row.addWidget(self.button)
        row.addWidget(self.outcome, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.form)
        layout.addLayout(row)
        layout.addWidget(self.result, 1)
        self._update()

    def set_server(self, supervisor: ServerSupervisor | None) -> None:
        if self.supervisor is not None:
            self.supervisor.call_finished.disconnect(self._on_supervisor_call_finished)
        self.supervisor = supervisor
        self.ticket = None
        if supervisor is not None:
            supervisor.call_finished.connect(self._on_supervisor_call_finished)
        self.set_item(None)

    def set_item(self, item: dict[str, Any] | None) -> None:
        """The resource or prompt to request (its arguments become fields, for a prompt)."""
        self.item = item
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields = {}
        arguments = item.get("arguments") if item is not None and self.kind == "prompt" else None
        for argument in (arguments if isinstance(arguments, list) else [])[:ARGUMENTS]:
            if not isinstance(argument, dict) or not isinstance(argument.get("name"), str):
                continue
            name = argument["name"]
            field = QLineEdit(self)
            field.setObjectName(f"promptArgument:{name}")
            description = argument.get("description")
            if isinstance(description, str):
                field.setPlaceholderText(visible(description, 200))
            label = QLabel(self)
            label.setTextFormat(Qt.TextFormat.PlainText)  # before the text: a prompt's argument name is server text
            label.setText(visible(name, 80) + (" *" if argument.get("required") is True else ""))
            self.form.addRow(label, field)
            self.fields[name] = field
        self._update()

    def send(self) -> bool:
        supervisor, item = self.supervisor, self.item
        if supervisor is None or item is None or self.ticket is not None:
            return False
        if self.kind == "resource":
            ticket = supervisor.read_resource(str(item.get("uri", "")), REQUEST_TIMEOUT)
        else:
            arguments = {name: field.text() for name, field in self.fields.items() if field.text()}
            ticket = supervisor.get_prompt(str(item.get("name", "")), arguments, REQUEST_TIMEOUT)
        if ticket is None:
            self.outcome.setText("Not sent: no session is live (refresh or reconnect the server first).")
            return False
        self.ticket = ticket
        self.outcome.setText("Waiting for the answer…")
        self._update()
        return True

    def _on_supervisor_call_finished(self, ticket: CallTicket, outcome: CallOutcome) -> None:
        if ticket is not self.ticket:
            return
        self.ticket = None
        self.outcome.setText(f"{outcome.summary()} — {outcome.latency_ms:,.0f} ms")
        self.outcome.setProperty("layer", outcome.layer)
        self.outcome.setProperty("outcome", str(outcome.outcome))
        if outcome.result is not None:
            self.result.show_result(outcome.result, self.kind)
        else:
            self.result.clear_result()
        self._update()

    def _update(self) -> None:
        self.button.setEnabled(self.item is not None and self.ticket is None and self.supervisor is not None)
