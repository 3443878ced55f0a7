"""What the Resources, Resource templates and Prompts tabs' request box shows for one server: the item chosen,
the request in flight, its answer (with the server's questions, as in the Call tab). `resources/read` (of a
resource, or of the URI a template expands to) and `prompts/get` are named like a tool call's outcome."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from PySide6.QtCore import QObject, QTimer, Signal

from catalog_inspector.runtime import Completer, ResourceWatcher, ServerSupervisor
from catalog_inspector.ui.presenters.answer import Answer

if TYPE_CHECKING:
    from catalog_inspector.core.calls import Completion, TemplateForm

__all__ = ["REQUEST_TIMEOUT", "RequestKind", "RequestPresenter"]

REQUEST_TIMEOUT = 30.0
SUGGEST_AFTER_MS = 200  # a pause in typing this long asks the server; a key before it asks nothing

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
        suggestions: the server's last suggestions for each field of the chosen item, by field name.

    Signals:
        item_changed(): `item` changed (its fields are rebuilt).
        changed(): the answer, `ticket` or what may be done changed.
        suggested(str): `suggestions` has a new answer for that field.
    """

    item_changed = Signal()
    changed = Signal()
    suggested = Signal(str)

    def __init__(
        self,
        kind: RequestKind,
        supervisor: ServerSupervisor,
        parent: QObject | None = None,
        completer: Completer | None = None,
        watcher: ResourceWatcher | None = None,
    ) -> None:
        super().__init__(parent)
        self.kind = kind
        self.supervisor = supervisor
        self.item: dict[str, Any] | None = None
        self.form: TemplateForm | None = None
        self.suggestions: dict[str, Completion] = {}
        self.answer = Answer(supervisor, kind, parent=self)
        self.answer.changed.connect(self.changed)
        self._completer = completer
        self._typed: tuple[str, str, dict[str, str]] | None = None  # the field, its text and the others: to ask
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(SUGGEST_AFTER_MS)
        self._pause.timeout.connect(self._ask)
        if completer is not None:
            completer.answered.connect(self._on_completer_answered)
        self._watcher = watcher
        if watcher is not None:
            watcher.changed.connect(self.changed)

    @property
    def can_subscribe(self) -> bool:
        """Whether the chosen resource can be subscribed to (the server declares `resources.subscribe`)."""
        return self._watcher is not None and self._uri() is not None and self._watcher.offered

    @property
    def subscribed(self) -> bool:
        uri = self._uri()
        return self._watcher is not None and uri is not None and self._watcher.watching(uri)

    @property
    def watch_words(self) -> str:
        """What the chosen resource's subscription says (its updates heard), "" for none."""
        uri = self._uri()
        return self._watcher.words(uri) if self._watcher is not None and uri is not None else ""

    def watch_marks(self) -> dict[str, str]:
        """A mark per resource watched on the live session: changed since subscribing, or not yet."""
        watcher = self._watcher
        if watcher is None:
            return {}
        return {uri: "● changed" if watcher.updates(uri) else "◌ watched" for uri in watcher.watched()}

    def toggle_subscription(self) -> bool:
        """Subscribe to the chosen resource, or unsubscribe; False if nothing could be asked (no session)."""
        uri = self._uri()
        return self._watcher is not None and uri is not None and self._watcher.toggle(uri)

    def _uri(self) -> str | None:
        uri = self.item.get("uri") if self.item is not None and self.kind == "resource" else None
        return uri if isinstance(uri, str) else None

    @property
    def offers_completions(self) -> bool:
        """Whether typing in a field asks the server for suggestions (it declares `completions`)."""
        return self._completer is not None and self.kind != "resource" and self._completer.offered

    def suggest(self, argument: str, value: str, others: dict[str, str]) -> None:
        """The person typed `value` in `argument`'s field (`others`: the fields already filled in): the server
        is asked once typing pauses, and a question still on its way for an older text is cancelled."""
        if not self.offers_completions:
            return
        self._typed = (argument, value, {name: text for name, text in others.items() if name != argument and text})
        self._pause.start()

    def _ask(self) -> None:
        from catalog_inspector.core.calls import completion_ref

        typed, item, completer = self._typed, self.item, self._completer
        ref = completion_ref("prompt" if self.kind == "prompt" else "template", item) if item is not None else None
        if typed is None or ref is None or completer is None:
            return
        argument, value, others = typed
        completer.ask((item, argument, value), ref, argument, value, others)

    def _on_completer_answered(self, token: object, answer: Completion) -> None:
        item, argument, _value = token if isinstance(token, tuple) else (None, "", "")
        if item is not self.item or item is None:
            return  # asked for another item: not this box's to show
        self.suggestions[argument] = answer
        self.suggested.emit(argument)

    @property
    def can_send(self) -> bool:
        usable = self.form is None or self.form.problem is None or bool(self.form.variables)
        return self.item is not None and self.answer.ticket is None and usable

    def expanded(self, values: dict[str, str]) -> str:
        """The URI the chosen template expands to with the fields' `values` ("" without a template)."""
        from catalog_inspector.core.calls import expand_template

        return expand_template(self.form, values) if self.form is not None else ""

    def set_item(self, item: dict[str, Any] | None) -> None:
        """Choose another item: the answer shown belongs to the item it was asked for, so it goes (and an answer
        still on its way for the old item is dropped when it comes)."""
        from catalog_inspector.core.calls import template_form

        if item is self.item:
            return
        self.item = item
        self.form = template_form(item.get("uriTemplate")) if item is not None and self.kind == "template" else None
        self.suggestions = {}
        self._typed = None
        self._pause.stop()
        if self._completer is not None:
            self._completer.cancel()
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
