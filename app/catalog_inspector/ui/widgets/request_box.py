"""Reading the selected resource (`resources/read`) or getting the selected prompt (`prompts/get`).

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

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
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
from catalog_inspector.ui.presenters.checks import Checks
from catalog_inspector.ui.presenters.request import RequestKind, RequestPresenter
from catalog_inspector.ui.widgets.call_views import ResultView, RoundsTable
from catalog_inspector.ui.widgets.input_panel import InputRequestPanel

__all__ = ["RequestBox"]

ARGUMENTS = 50  # prompt arguments shown as fields; the rest are not offered
OBJECT_NAMES = {"resource": ("readResourceButton", "resourceOutcome", "resourceResult"),
                "prompt": ("getPromptButton", "promptOutcome", "promptResult")}  # fmt: skip
MORE_NAMES = {"resource": ("cancelResourceButton", "resourceRounds"), "prompt": ("cancelPromptButton", "promptRounds")}


class RequestBox(QWidget):
    """Sends one request for the item chosen in a list and shows the answer; renders a `RequestPresenter`.

    Attributes:
        presenter: the selected server's box of this kind (None: no server).
        input_panel: the server's question that waits for the person (None: built without `checks`).
        rounds: the request's rounds.
    """

    def __init__(self, kind: RequestKind, parent: QWidget | None = None, checks: Checks | None = None) -> None:
        super().__init__(parent)
        button_name, outcome_name, result_name = OBJECT_NAMES[kind]
        cancel_name, rounds_name = MORE_NAMES[kind]
        self.kind = kind
        self.presenter: RequestPresenter | None = None
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
        self.cancel = QPushButton("Cancel", self)
        self.cancel.setObjectName(cancel_name)
        self.cancel.clicked.connect(self._on_cancel_clicked)
        self.shown_answer = QStackedWidget(self)
        self.shown_answer.addWidget(self.result)
        self.input_panel = InputRequestPanel(checks, self) if checks is not None else None
        if self.input_panel is not None:
            self.shown_answer.addWidget(self.input_panel)
            self.input_panel.wanted.connect(self._on_input_panel_wanted)
        self.rounds = RoundsTable(rounds_name, self)
        row = QHBoxLayout()
        row.addWidget(self.button)
        row.addWidget(self.cancel)
        row.addWidget(self.outcome, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.form)
        layout.addLayout(row)
        layout.addWidget(self.shown_answer, 1)
        layout.addWidget(self.rounds)
        self._on_presenter_changed()

    @property
    def item(self) -> dict[str, Any] | None:
        return self.presenter.item if self.presenter is not None else None

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
            self.presenter.answer.rounds_changed.disconnect(self._on_answer_rounds_changed)
        self.presenter = presenter
        if presenter is not None:
            presenter.item_changed.connect(self._on_presenter_item_changed)
            presenter.changed.connect(self._on_presenter_changed)
            presenter.answer.rounds_changed.connect(self._on_answer_rounds_changed)
        if self.input_panel is not None:
            self.input_panel.bind(presenter.answer if presenter is not None else None)
        self._on_presenter_item_changed()
        self._on_presenter_changed()
        self._on_answer_rounds_changed()

    def _on_input_panel_wanted(self, wanted: bool) -> None:
        if self.input_panel is not None:
            self.shown_answer.setCurrentWidget(self.input_panel if wanted else self.result)

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
        item = self.item
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

    def send(self) -> bool:
        if self.presenter is None:
            return False
        arguments = {name: field.text() for name, field in self.fields.items() if field.text()}
        return self.presenter.send(arguments)

    def _on_presenter_changed(self) -> None:
        presenter = self.presenter
        self.button.setEnabled(presenter is not None and presenter.can_send)
        self.cancel.setEnabled(presenter is not None and presenter.answer.ticket is not None)
        self.outcome.setText(presenter.answer.outcome_text if presenter is not None else "")
        self.outcome.setProperty("layer", presenter.answer.layer if presenter is not None else "")
        self.outcome.setProperty("outcome", presenter.answer.outcome_word if presenter is not None else "")
        if presenter is not None and presenter.answer.result is not None:
            self.result.show_result(presenter.answer.result, self.kind)
        else:
            self.result.clear_result()
