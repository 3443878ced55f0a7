"""What the Resources and Prompts tabs' request box shows for one server: the item chosen, the request in
flight, its answer. `resources/read` and `prompts/get` are named like a tool call's outcome."""

from __future__ import annotations

from typing import Any, Literal

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.calls import CallOutcome
from catalog_inspector.runtime import CallTicket, ServerSupervisor

__all__ = ["REQUEST_TIMEOUT", "RequestKind", "RequestPresenter"]

REQUEST_TIMEOUT = 30.0

RequestKind = Literal["resource", "prompt"]


class RequestPresenter(QObject):
    """One server's request box of one kind.

    Attributes:
        kind: "resource" (resources/read) or "prompt" (prompts/get).
        item: the resource or prompt chosen (wire object), or None.
        ticket: the request in flight, or None.
        outcome_text, layer, outcome_word: the answer's words, its layer and outcome ("" when none).
        result: the answer as the server sent it, or None.

    Signals:
        item_changed(): `item` changed (its fields are rebuilt).
        changed(): the answer, `ticket` or what may be done changed.
    """

    item_changed = Signal()
    changed = Signal()

    def __init__(self, kind: RequestKind, supervisor: ServerSupervisor, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self.supervisor = supervisor
        self.item: dict[str, Any] | None = None
        self.ticket: CallTicket | None = None
        self.outcome_text = ""
        self.layer = ""
        self.outcome_word = ""
        self.result: dict[str, Any] | None = None
        supervisor.call_finished.connect(self._on_supervisor_call_finished)

    @property
    def can_send(self) -> bool:
        return self.item is not None and self.ticket is None

    def set_item(self, item: dict[str, Any] | None) -> None:
        """Choose another item: the answer shown belongs to the item it was asked for, so it goes (and an answer
        still on its way for the old item is dropped when it comes)."""
        if item is self.item:
            return
        self.item = item
        self.ticket = None
        self.outcome_text = self.layer = self.outcome_word = ""
        self.result = None
        self.item_changed.emit()
        self.changed.emit()

    def send(self, arguments: dict[str, str] | None = None) -> bool:
        """Read the resource, or get the prompt with `arguments` (the fields filled in). False if not sent."""
        item = self.item
        if item is None or self.ticket is not None:
            return False
        if self.kind == "resource":
            ticket = self.supervisor.read_resource(str(item.get("uri", "")), REQUEST_TIMEOUT)
        else:
            ticket = self.supervisor.get_prompt(str(item.get("name", "")), arguments or {}, REQUEST_TIMEOUT)
        if ticket is None:
            self.outcome_text = "Not sent: no session is live (refresh or reconnect the server first)."
            self.changed.emit()
            return False
        self.ticket = ticket
        self.outcome_text = "Waiting for the answer…"
        self.layer = self.outcome_word = ""
        self.result = None
        self.changed.emit()
        return True

    def _on_supervisor_call_finished(self, ticket: CallTicket, outcome: CallOutcome) -> None:
        if ticket is not self.ticket:
            return
        self.ticket = None
        self.outcome_text = f"{outcome.summary()} — {outcome.latency_ms:,.0f} ms"
        self.layer, self.outcome_word = outcome.layer, str(outcome.outcome)
        self.result = outcome.result
        self.changed.emit()
