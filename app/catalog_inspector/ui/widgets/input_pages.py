"""The input request panel's pages, one per kind of question: a form (elicitation, form mode), a URL (URL mode) and
a reply to write (sampling). Each shows one question as plain text and says what the person chose; the panel
(`ui.widgets.input_panel`) sends the answer."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.calls import InputAsk
from catalog_inspector.ui import theme
from catalog_inspector.ui.elicit_url import UrlFacts, url_facts
from catalog_inspector.ui.presenters.checks import Checks
from catalog_inspector.ui.presenters.questions import content_problem, sampling_words
from catalog_inspector.ui.widgets.call_arguments import ANSWER_FACE, ArgumentsEditor
from catalog_inspector.ui.widgets.labels import plain_label
from catalog_inspector.ui.widgets.panes import plain_text_view, set_capped_text

__all__ = ["FormPage", "SamplingPage", "UrlPage", "button"]

STOP_REASONS = ("endTurn", "stopSequence", "maxTokens")
REPLY_LIMIT = 100_000  # characters of a reply a person writes that are sent
URL_HEIGHT = 70
MESSAGES_HEIGHT = 110


def button(text: str, object_name: str, parent: QWidget) -> QPushButton:
    made = QPushButton(text, parent)
    made.setObjectName(object_name)
    return made


class FormPage(QWidget):
    """An elicitation's form, from its requested schema, by the Call tab's form engine (`inputRequestForm`, with the
    raw JSON `inputRequestJson`); defaults filled in; each change checked against the requested schema, and
    against what an answer may hold at all (`inputContentProblem`).

    Signals:
        changed(): the answer or its check changed (Accept follows `valid`).
    """

    changed = Signal()

    def __init__(self, checks: Checks, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = ArgumentsEditor(checks, self, ANSWER_FACE)
        self.editor.messages.setMaximumHeight(MESSAGES_HEIGHT)  # a flat form has few problems; the form needs the room
        self.editor.changed.connect(self._on_editor_changed)
        self.problem = plain_label("inputContentProblem", self)
        theme.themed_style(self.problem, lambda: theme.ink_style(theme.PROBLEM, "QLabel#inputContentProblem"))
        self.problem.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.editor)
        layout.addWidget(self.problem)

    def _on_editor_changed(self) -> None:
        words = "" if self.editor.parse_error else content_problem(self.editor.parsed)
        self.problem.setText(words)
        self.problem.setVisible(bool(words))
        self.editor.messages.setVisible(self.editor.messages.rowCount() > 0)  # room for the form while all is well
        self.changed.emit()

    def show_ask(self, ask: InputAsk, draft: Any = None) -> None:
        self.editor.show_schema(ask.requested_schema)
        if draft is not None:
            self.editor.set_arguments(draft)

    @property
    def valid(self) -> bool:
        """The answer parses and its check found nothing (a check that could not be made does not pass)."""
        editor = self.editor
        validation = editor.validation
        return (
            not editor.parse_error
            and validation is not None
            and validation.failure is None
            and not validation.problems
            and not content_problem(editor.parsed)
        )


class UrlPage(QWidget):
    """A URL the server asks the person to visit: the whole URL (`inputRequestUrl`), its host apart and emphasised
    (`inputRequestHost`), why it is not opened or what to know before (`inputRequestUrlWarning`); Open
    (`inputOpenUrlButton`: https, or http to this machine, only) and Copy (`inputCopyUrlButton`).

    Attributes:
        facts: what is shown of the URL (None: nothing shown).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.facts: UrlFacts | None = None
        self.url = plain_text_view("inputRequestUrl", self)
        self.url.setMaximumHeight(URL_HEIGHT)
        self.url.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.host = plain_label("inputRequestHost", self)
        font = QFont(self.host.font())
        font.setBold(True)
        font.setPointSize(font.pointSize() + 2)
        self.host.setFont(font)
        self.warning = plain_label("inputRequestUrlWarning", self)
        theme.themed_style(self.warning, lambda: theme.ink_style(theme.CAUTION, "QLabel#inputRequestUrlWarning"))
        self.open = button("Open in browser and accept", "inputOpenUrlButton", self)
        self.copy = button("Copy URL", "inputCopyUrlButton", self)
        row = QHBoxLayout()
        row.addWidget(self.open)
        row.addWidget(self.copy)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.host)
        layout.addWidget(self.url)
        layout.addWidget(self.warning)
        layout.addLayout(row)
        layout.addStretch(1)

    def show_ask(self, ask: InputAsk, answerable: bool) -> None:
        facts = url_facts(ask.url or "")
        self.facts = facts
        set_capped_text(self.url, facts.shown)
        if facts.decoded:
            self.host.setText(f"Host: {facts.host}  (decoded: {facts.decoded})")
        else:
            self.host.setText(f"Host: {facts.host}" if facts.host else "Host: none (this is not a web address)")
        self.warning.setText("\n".join(words for words in (facts.refusal, facts.warning) if words))
        self.warning.setVisible(bool(facts.refusal or facts.warning))
        self.open.setEnabled(facts.target is not None)
        self.open.setText("Open in browser and accept" if answerable else "Open in browser")


class SamplingPage(QWidget):
    """A sampling request as sent (`samplingRequest`), and the reply the person writes: its text (`samplingReply`),
    the model named (`samplingModel`, "human" unless changed) and the stop reason (`samplingStopReason`);
    `samplingSendButton` sends it, `samplingRejectButton` refuses the request."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = plain_text_view("samplingRequest", self)
        self.reply = QPlainTextEdit(self)
        self.reply.setObjectName("samplingReply")
        self.reply.setTabChangesFocus(True)  # Tab goes on to the model's name: no keyboard trap
        self.reply.setPlaceholderText("The reply the server gets as the model's message")
        self.model = QLineEdit("human", self)
        self.model.setObjectName("samplingModel")
        self.stop = QComboBox(self)
        self.stop.setObjectName("samplingStopReason")
        self.stop.setEditable(True)
        self.stop.addItems(list(STOP_REASONS))
        self.send = button("Send reply", "samplingSendButton", self)  # shown in the panel's row of answers
        self.reject = button("Reject", "samplingRejectButton", self)
        fields = QFormLayout()
        for caption, field in (("Model:", self.model), ("Stop reason:", self.stop)):
            label = QLabel(self)
            label.setTextFormat(Qt.TextFormat.PlainText)  # every label of the window is plain text
            label.setText(caption)
            fields.addRow(label, field)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.request, 2)
        layout.addWidget(self.reply, 1)
        layout.addLayout(fields)

    def show_ask(self, ask: InputAsk, draft: Any = None) -> None:
        set_capped_text(self.request, sampling_words(ask.params))
        self.reply.setPlainText(draft if isinstance(draft, str) else "")
        self.model.setText("human")
        self.stop.setCurrentIndex(0)

    def reply_parts(self) -> tuple[str, str, str]:
        """What the person wrote: the text, the model's name and the stop reason."""
        return (
            self.reply.toPlainText()[:REPLY_LIMIT],
            self.model.text().strip() or "human",
            self.stop.currentText().strip(),
        )
