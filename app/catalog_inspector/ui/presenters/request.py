"""What the Resources and Prompts tabs' request box shows for one server: the item chosen, the request in
flight, its answer (with the server's questions, as in the Call tab). `resources/read` and `prompts/get` are
named like a tool call's outcome."""

from __future__ import annotations

from typing import Any, Literal

from PySide6.QtCore import QObject, Signal

from catalog_inspector.runtime import ServerSupervisor
from catalog_inspector.ui.presenters.answer import Answer

__all__ = ["REQUEST_TIMEOUT", "RequestKind", "RequestPresenter"]

REQUEST_TIMEOUT = 30.0

RequestKind = Literal["resource", "prompt"]


class RequestPresenter(QObject):
    """One server's request box of one kind.

    Attributes:
        kind: "resource" (resources/read) or "prompt" (prompts/get).
        item: the resource or prompt chosen (wire object), or None.
        answer: the request in flight and its answer (`ticket`, `outcome_text`, `layer`, `outcome_word` and
            `result` read from it), its rounds and the server's question waiting.

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
        self.answer = Answer(supervisor, kind, parent=self)
        self.answer.changed.connect(self.changed)

    @property
    def can_send(self) -> bool:
        return self.item is not None and self.answer.ticket is None

    def set_item(self, item: dict[str, Any] | None) -> None:
        """Choose another item: the answer shown belongs to the item it was asked for, so it goes (and an answer
        still on its way for the old item is dropped when it comes)."""
        if item is self.item:
            return
        self.item = item
        self.item_changed.emit()
        self.answer.clear()

    def send(self, arguments: dict[str, str] | None = None) -> bool:
        """Read the resource, or get the prompt with `arguments` (the fields filled in). False if not sent."""
        item = self.item
        if item is None or self.answer.ticket is not None:
            return False
        if self.kind == "resource":
            ticket = self.supervisor.read_resource(str(item.get("uri", "")), REQUEST_TIMEOUT)
        else:
            ticket = self.supervisor.get_prompt(str(item.get("name", "")), arguments or {}, REQUEST_TIMEOUT)
        if ticket is None:
            self.answer.say("Not sent: no session is live (refresh or reconnect the server first).")
            return False
        self.answer.start(ticket, "Waiting for the answer…")
        return True

    def cancel(self) -> bool:
        """Stop the request in flight (and any question of the server's it waits on)."""
        return self.answer.cancel()
