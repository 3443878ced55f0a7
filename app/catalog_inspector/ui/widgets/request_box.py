"""Reading the selected resource (`resources/read`), filling in the selected resource template and reading the
URI it expands to, or getting the selected prompt (`prompts/get`).

A template's variables are fields (`templateVariable:NAME`, each with what its operator does to the value), and
the URI they expand to is shown as they are typed (`templateUri`); a template that cannot be filled in says why
there instead. When the server declares `completions`, a pause in typing in a template variable or a prompt
argument asks it for suggestions (`completion/complete`, the other fields as context), offered under the field;
`templateCompletion` / `promptCompletion` says how many there are and whether there are more.

The answer is shown as plain text (binary contents as their size and type), with
its outcome layer named like a tool call's: the request never reaches the
server without a live session, and a JSON-RPC error, a timeout and a lost
connection each say so. When the server asks for input, its question is shown in
place of the answer (`inputRequestPanel`), with the request's rounds below
(`resourceRounds`, `promptRounds`); Cancel (`cancelResourceButton`,
`cancelPromptButton`) stops the request, and any question it waits on.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QCompleter,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.text import visible
from catalog_inspector.ui.accessible import described, named
from catalog_inspector.ui.keyboard import follow_layout
from catalog_inspector.ui.presenters.checks import Checks
from catalog_inspector.ui.presenters.request import RequestKind, RequestPresenter
from catalog_inspector.ui.widgets.call_views import ResultView, RoundsTable
from catalog_inspector.ui.widgets.input_panel import InputRequestPanel, InputSlot

__all__ = ["RequestBox"]

ARGUMENTS = 50  # prompt arguments shown as fields; the rest are not offered
OBJECT_NAMES = {"resource": ("readResourceButton", "resourceOutcome", "resourceResult"),
                "template": ("readTemplateButton", "templateOutcome", "templateResult"),
                "prompt": ("getPromptButton", "promptOutcome", "promptResult")}  # fmt: skip
MORE_NAMES = {"resource": ("cancelResourceButton", "resourceRounds"), "prompt": ("cancelPromptButton", "promptRounds"),
              "template": ("cancelTemplateButton", "templateRounds")}  # fmt: skip
URI_LIMIT = 4000  # characters of an expanded URI shown
SUGGESTION_LIMIT = 200  # characters of a suggestion shown in the list (the whole of it is what a field takes)
COMPLETION_NAMES = {"template": "templateCompletion", "prompt": "promptCompletion"}
RAW = Qt.ItemDataRole.UserRole  # a suggestion as sent: what a field takes when it is chosen


class RequestBox(QWidget):
    """Sends one request for the item chosen in a list and shows the answer; renders a `RequestPresenter`.

    Attributes:
        presenter: the selected server's box of this kind (None: no server).
        input_panel: the server's question that waits for the person (None: built without `checks`), built by
            `input`, its `InputSlot`, on the first question or when this is asked for.
        rounds: the request's rounds.

    Signals:
        marks_changed(dict): the marks of the list's rows for the resources watched (`RequestPresenter.watch_marks`).
    """

    marks_changed = Signal(dict)

    def __init__(self, kind: RequestKind, parent: QWidget | None = None, checks: Checks | None = None) -> None:
        super().__init__(parent)
        button_name, outcome_name, result_name = OBJECT_NAMES[kind]
        cancel_name, rounds_name = MORE_NAMES[kind]
        self.kind = kind
        self.presenter: RequestPresenter | None = None
        self.button = QPushButton("Get prompt" if kind == "prompt" else "Read", self)
        self.button.setObjectName(button_name)
        self.button.clicked.connect(self.send)
        self.outcome = QLabel(self)
        self.outcome.setObjectName(outcome_name)
        self.outcome.setTextFormat(Qt.TextFormat.PlainText)
        self.outcome.setWordWrap(True)
        self.fields: dict[str, QLineEdit] = {}
        self.form = QFormLayout()
        self.uri = QLabel(self)  # a template's expansion, live
        self.uri.setObjectName("templateUri" if kind == "template" else "")
        self.uri.setTextFormat(Qt.TextFormat.PlainText)
        self.uri.setWordWrap(True)
        self.uri.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.uri.setVisible(kind == "template")
        self.completion = QLabel(self)  # how the server answered the last pause in typing
        self.completion.setObjectName(COMPLETION_NAMES.get(kind, ""))
        self.completion.setTextFormat(Qt.TextFormat.PlainText)
        self.completion.hide()
        self.completers: dict[str, QCompleter] = {}
        self.subscribe = QPushButton("Subscribe", self)  # resources whose server declares resources.subscribe
        self.subscribe.setObjectName("subscribeResourceButton" if kind == "resource" else "")
        self.subscribe.setToolTip("Ask the server to say when this resource changes (resources/subscribe)")
        self.subscribe.clicked.connect(self._on_subscribe_clicked)
        self.subscribe.hide()
        self.updates = QLabel(self)
        self.updates.setObjectName("resourceUpdates" if kind == "resource" else "")
        self.updates.setTextFormat(Qt.TextFormat.PlainText)
        self.updates.setWordWrap(True)
        self.updates.hide()
        self.result = ResultView(self)
        self.result.text.setObjectName(result_name)
        self.cancel = QPushButton("Cancel", self)
        self.cancel.setObjectName(cancel_name)
        self.cancel.clicked.connect(self._on_cancel_clicked)
        self.shown_answer = QStackedWidget(self)
        self.shown_answer.addWidget(self.result)
        self.input = InputSlot(checks, self.shown_answer, self.result, self) if checks is not None else None
        self.rounds = RoundsTable(rounds_name, self)
        row = QHBoxLayout()
        row.addWidget(self.button)
        row.addWidget(self.cancel)
        row.addWidget(self.subscribe)
        row.addWidget(self.outcome, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.form)
        layout.addWidget(self.uri)
        layout.addWidget(self.completion)
        layout.addLayout(row)
        layout.addWidget(self.updates)
        layout.addWidget(self.shown_answer, 1)
        layout.addWidget(self.rounds)
        self._on_presenter_changed()

    @property
    def item(self) -> dict[str, Any] | None:
        return self.presenter.item if self.presenter is not None else None

    @property
    def input_panel(self) -> InputRequestPanel | None:
        return self.input.panel if self.input is not None else None

    @property
    def ticket(self) -> object:
        return self.presenter.answer.ticket if self.presenter is not None else None

    def bind(self, presenter: RequestPresenter | None) -> None:
        """Render this server's box (None: no server)."""
        if presenter is self.presenter:
            return
        if self.presenter is not None:
            self.presenter.item_changed.disconnect(self._on_presenter_item_changed)
            self.presenter.changed.disconnect(self._on_presenter_changed)
            self.presenter.suggested.disconnect(self._on_presenter_suggested)
            self.presenter.answer.rounds_changed.disconnect(self._on_answer_rounds_changed)
        self.presenter = presenter
        if presenter is not None:
            presenter.item_changed.connect(self._on_presenter_item_changed)
            presenter.changed.connect(self._on_presenter_changed)
            presenter.suggested.connect(self._on_presenter_suggested)
            presenter.answer.rounds_changed.connect(self._on_answer_rounds_changed)
        if self.input is not None:
            self.input.bind(presenter.answer if presenter is not None else None)
        self._on_presenter_item_changed()
        self._on_presenter_changed()
        self._on_answer_rounds_changed()

    def _on_answer_rounds_changed(self) -> None:
        self.rounds.show_rounds(self.presenter.answer.rounds if self.presenter is not None else [])

    def _on_cancel_clicked(self) -> None:
        if self.presenter is not None:
            self.presenter.cancel()

    def set_item(self, item: dict[str, Any] | None) -> None:
        """The resource or prompt to request (its arguments become fields, for a prompt)."""
        if self.presenter is not None:
            self.presenter.set_item(item)

    def _on_presenter_item_changed(self) -> None:
        self._show_subscription()
        item = self.item
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields = {}
        self.completers = {}
        self.completion.hide()
        if self.kind == "template":
            self._template_fields()
            return
        arguments = item.get("arguments") if item is not None and self.kind == "prompt" else None
        for argument in (arguments if isinstance(arguments, list) else [])[:ARGUMENTS]:
            if not isinstance(argument, dict) or not isinstance(argument.get("name"), str):
                continue
            description = argument.get("description")
            hint = visible(description, 200) if isinstance(description, str) else ""
            self._add_field(
                f"promptArgument:{argument['name']}", argument["name"], argument.get("required") is True, hint
            )
        follow_layout(self)  # fields made after the window: Tab reaches them above Get prompt

    def _template_fields(self) -> None:
        form = self.presenter.form if self.presenter is not None else None
        for variable in form.variables if form is not None else ():
            field = self._add_field(f"templateVariable:{variable.name}", variable.name, False, variable.hint)
            field.textChanged.connect(self._show_uri)
        self._show_uri()
        follow_layout(self)  # fields made after the window: Tab reaches them above Read

    def _add_field(self, object_name: str, name: str, required: bool, hint: str) -> QLineEdit:
        field = QLineEdit(self)
        field.setObjectName(object_name)
        field.setPlaceholderText(hint)
        label = QLabel(self)
        label.setTextFormat(Qt.TextFormat.PlainText)  # before the text: a name is server text
        label.setText(visible(name, 80) + (" *" if required else ""))
        self.form.addRow(label, field)
        # Named as its label reads, not by making the label its buddy: an `&` in a server's name would be a shortcut.
        what = "A template variable" if self.kind == "template" else "A prompt argument"
        named(field, label.text(), described(f"{what}{'; required' if required else ''}.", hint))
        self.fields[name] = field
        if self.presenter is not None and self.presenter.offers_completions:
            completer = QCompleter(QStandardItemModel(field), field)
            completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)  # the server filtered
            completer.setCompletionRole(RAW)  # shown made visible, taken as sent
            field.setCompleter(completer)
            field.textEdited.connect(lambda text, name=name: self._on_field_text_edited(name, text))
            self.completers[name] = completer
        return field

    def _on_field_text_edited(self, name: str, text: str) -> None:
        if self.presenter is not None:
            self.presenter.suggest(name, text, self._values())

    def _on_presenter_suggested(self, name: str) -> None:
        """The server's suggestions for a field: offered under it while the person is still in it."""
        presenter, completer, field = self.presenter, self.completers.get(name), self.fields.get(name)
        if presenter is None or completer is None or field is None:
            return
        answer = presenter.suggestions[name]
        model = completer.model()
        assert isinstance(model, QStandardItemModel)
        model.clear()
        for value in answer.values:
            row = QStandardItem(visible(value, SUGGESTION_LIMIT))
            row.setData(value, RAW)
            row.setEditable(False)
            model.appendRow(row)
        self.completion.setText(f"{visible(name, 80)}: {answer.words()}")
        self.completion.show()
        if answer.values and field.hasFocus():
            completer.complete()

    def _values(self) -> dict[str, str]:
        return {name: field.text() for name, field in self.fields.items() if field.text()}

    def _show_uri(self) -> None:
        """The URI the template expands to with what is typed now (or why the template cannot be filled in)."""
        presenter = self.presenter
        form = presenter.form if presenter is not None else None
        if presenter is None or form is None:
            self.uri.setText("Select a resource template to fill in its variables." if self.kind == "template" else "")
            return
        lines = [f"Expands to: {visible(presenter.expanded(self._values()), URI_LIMIT)}"] if form.variables else []
        if form.problem is not None:
            lines.append(f"This template cannot be filled in as sent: {visible(form.problem, 300)}")
        self.uri.setText("\n".join(lines) or "Expands to: (no variables)")

    def send(self) -> bool:
        if self.presenter is None:
            return False
        return self.presenter.send(self._values())

    def _on_subscribe_clicked(self) -> None:
        if self.presenter is not None:
            self.presenter.toggle_subscription()

    def _show_subscription(self) -> None:
        presenter = self.presenter
        offered = presenter is not None and presenter.can_subscribe
        self.subscribe.setVisible(offered)
        self.subscribe.setText("Unsubscribe" if presenter is not None and presenter.subscribed else "Subscribe")
        words = presenter.watch_words if presenter is not None else ""
        self.updates.setText(words)
        self.updates.setVisible(offered and bool(words))
        self.marks_changed.emit(presenter.watch_marks() if presenter is not None else {})

    def _on_presenter_changed(self) -> None:
        self._show_subscription()
        presenter = self.presenter
        self.button.setEnabled(presenter is not None and presenter.can_send)
        self.cancel.setEnabled(presenter is not None and presenter.answer.ticket is not None)
        self.outcome.setText(presenter.answer.outcome_text if presenter is not None else "")
        self.outcome.setProperty("layer", presenter.answer.layer if presenter is not None else "")
        self.outcome.setProperty("outcome", presenter.answer.outcome_word if presenter is not None else "")
        if presenter is not None and presenter.answer.result is not None:
            self.result.show_result(presenter.answer.result, "resource" if self.kind == "template" else self.kind)
        else:
            self.result.clear_result()
