"""What the Resources, Resource templates and Prompts tabs' request box shows for one server: the item chosen,
the request in flight, its answer (with the server's questions, as in the Call tab). `resources/read` (of a
resource, or of the URI a template expands to) and `prompts/get` are named like a tool call's outcome."""

from __future__ import annotations

from typing import Any, Literal

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.calls import TemplateForm, expand_template, template_form
from catalog_inspector.runtime import ServerSupervisor
from catalog_inspector.ui.presenters.answer import Answer

__all__ = ["REQUEST_TIMEOUT", "RequestKind", "RequestPresenter"]

REQUEST_TIMEOUT = 30.0

RequestKind = Literal["resource", "template", "prompt"]


class RequestPresenter(QObject):
    """One server's request box of one kind.

    Attributes:
        kind: "resource" (resources/read), "template" (resources/read of the URI a template expands to) or
            "prompt" (prompts/get).
        item: the resource, template or prompt chosen (wire object), or None.
        form: the chosen template's variables (`core.calls.uri_templates`; None for other kinds and no item).
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
        self.form: TemplateForm | None = None
        self.answer = Answer(supervisor, kind, parent=self)
        self.answer.changed.connect(self.changed)

    @property
    def can_send(self) -> bool:
        usable = self.form is None or self.form.problem is None or bool(self.form.variables)
        return self.item is not None and self.answer.ticket is None and usable

    def expanded(self, values: dict[str, str]) -> str:
        """The URI the chosen template expands to with the fields' `values` ("" without a template)."""
        return expand_template(self.form, values) if self.form is not None else ""

    def set_item(self, item: dict[str, Any] | None) -> None:
        """Choose another item: the answer shown belongs to the item it was asked for, so it goes (and an answer
        still on its way for the old item is dropped when it comes)."""
        if item is self.item:
            return
        self.item = item
        self.form = template_form(item.get("uriTemplate")) if item is not None and self.kind == "template" else None
        self.item_changed.emit()
        self.answer.clear()

    def send(self, arguments: dict[str, str] | None = None) -> bool:
        """Read the resource (or the URI the template expands to with `arguments`, the fields filled in), or get
        the prompt with `arguments`. False if not sent."""
        item = self.item
        if item is None or not self.can_send:
            return False
        if self.kind == "template":
            ticket = self.supervisor.read_resource(self.expanded(arguments or {}), REQUEST_TIMEOUT)
        elif self.kind == "resource":
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
