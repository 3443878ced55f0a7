"""The input request panel: the server's question that waits for the person, shown in place of a result.

It renders one tab's `Answer` (the Call tab's, or a request box's): which server asks
(`inputRequestServer`), its message as plain text (`inputRequestMessage`), why a
re-run asks again (`inputRequestNote`), then a page for the kind of question
(`ui.widgets.input_pages`): a form for an elicitation in form mode, the URL for
one in URL mode, the request and a reply to write for sampling. Roots never reach
it: they are answered from the entry, unasked. Accept (`inputAcceptButton`,
enabled only while the form's answer is valid), Decline (`inputDeclineButton`) and
Cancel (`inputCancelButton`) answer an elicitation; a -32042 error's URLs are shown
the same way with nothing to answer (`inputDismissButton` puts them away).

What the person typed for a question is kept while it waits, across switching
servers and back. The panel never awaits: it hands the answer to the presenter.

A tab holds its panel in an `InputSlot`, which builds it on the first question (or when
asked for it): four tabs carry one, questions are rare, and each panel is ~12 ms of the
window's pages to build.
"""

from __future__ import annotations

import weakref
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QScrollArea, QStackedWidget, QVBoxLayout, QWidget

from catalog_inspector.core.calls import ELICIT, SAMPLE, InputAsk, accept, cancel, decline, reject, reply
from catalog_inspector.core.text import visible
from catalog_inspector.runtime.asks import PendingAsk
from catalog_inspector.ui import theme
from catalog_inspector.ui.accessible import describe
from catalog_inspector.ui.keyboard import follow_layout
from catalog_inspector.ui.presenters.answer import Answer
from catalog_inspector.ui.presenters.checks import Checks
from catalog_inspector.ui.presenters.questions import asker_words, message_words
from catalog_inspector.ui.widgets.input_pages import FormPage, SamplingPage, UrlPage, button
from catalog_inspector.ui.widgets.labels import plain_label

__all__ = ["InputRequestPanel", "InputSlot"]

NOTICE_WORDS = (
    "The server refused the request until this page is visited (JSON-RPC -32042, URL elicitation required): "
    "open it, then send the request again."
)


class InputRequestPanel(QFrame):
    """Renders the question an `Answer` shows; see the module docstring.

    Attributes:
        answer: the Answer rendered (None: nothing is bound).
        shown: the question shown (a notice's URL too), or None.
        form, url, sampling: the pages.

    Signals:
        wanted(bool): whether there is a question to show (the owner shows the panel in place of the result).
    """

    wanted = Signal(bool)

    def __init__(self, checks: Checks, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inputRequestPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        theme.themed_style(
            self, lambda: theme.frame_style("QFrame#inputRequestPanel", theme.QUESTION, theme.QUESTION_LINE)
        )
        self.answer: Answer | None = None
        self.shown: InputAsk | None = None
        self._pending: PendingAsk | None = None
        self._drafts: weakref.WeakKeyDictionary[PendingAsk, Any] = weakref.WeakKeyDictionary()
        # In a scroll area: the panel sits in place of a result, and must not make the window's smallest size bigger.
        scroller = QScrollArea(self)
        scroller.setWidgetResizable(True)
        scroller.setFrameShape(QFrame.Shape.NoFrame)
        scroller.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the question's fields (the view follows)
        body = QWidget(scroller)
        scroller.setWidget(body)
        self._build(body, checks)
        # The answers stay in sight below the scrolled question, whatever its size.
        row = QHBoxLayout()
        for made in (self.accept_button, self.decline_button, self.cancel_button, self.dismiss_button,
                     self.sampling.send, self.sampling.reject):  # fmt: skip
            row.addWidget(made)
        row.addStretch(1)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 4)
        outer.addWidget(scroller, 1)
        outer.addLayout(row)
        self._show()

    def _build(self, body: QWidget, checks: Checks) -> None:
        self.server = plain_label("inputRequestServer", body)
        font = self.server.font()
        font.setBold(True)
        self.server.setFont(font)
        self.message = plain_label("inputRequestMessage", body)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = plain_label("inputRequestNote", body)
        self.form = FormPage(checks, body)
        self.form.changed.connect(self._update_buttons)
        self.url = UrlPage(body)
        self.url.open.clicked.connect(self.open_url)
        self.url.copy.clicked.connect(self.copy_url)
        self.sampling = SamplingPage(body)
        self.sampling.send.clicked.connect(self.send_reply)
        self.sampling.reject.clicked.connect(self.reject_request)
        self.pages = QStackedWidget(body)
        for page in (self.form, self.url, self.sampling):
            self.pages.addWidget(page)
        self.accept_button = button("Accept", "inputAcceptButton", self)
        self.accept_button.clicked.connect(self.accept)
        self.decline_button = button("Decline", "inputDeclineButton", self)
        self.decline_button.clicked.connect(self.decline)
        self.cancel_button = button("Cancel (no answer)", "inputCancelButton", self)
        self.cancel_button.setToolTip("Close the question without answering: the server is told it was cancelled")
        self.cancel_button.clicked.connect(self.cancel)
        self.dismiss_button = button("Dismiss", "inputDismissButton", self)
        self.dismiss_button.clicked.connect(self.dismiss)
        layout = QVBoxLayout(body)
        layout.addWidget(self.server)
        layout.addWidget(self.message)
        layout.addWidget(self.note)
        layout.addWidget(self.pages, 1)

    def bind(self, answer: Answer | None) -> None:
        """Render this tab's answer (None: nothing)."""
        if answer is self.answer:
            return
        self._keep_draft()
        if self.answer is not None:
            self.answer.asked.disconnect(self._on_answer_asked)
        self.answer = answer
        if answer is not None:
            answer.asked.connect(self._on_answer_asked)
        self._pending = None
        self._show()

    # -- what is shown ------------------------------------------------------------------
    def _on_answer_asked(self) -> None:
        self._show()

    def _show(self) -> None:
        answer = self.answer
        pending = answer.asking if answer is not None else None
        notice = answer.notice[0] if answer is not None and answer.notice and pending is None else None
        if pending is not None and pending is self._pending:
            self._update_header(pending)  # the same question: a second one may wait behind it now
            return
        self._keep_draft()
        self._pending = pending
        self.shown = pending.ask if pending is not None else notice
        if self.shown is None:
            self._update_buttons()  # none shown: none of them widens the window either
            self.wanted.emit(False)
            return
        ask = self.shown
        if pending is not None:
            self._update_header(pending)
            self.message.setText(message_words(ask))
            self.note.setText(visible(pending.note, 1000))
        else:
            server = visible(answer.supervisor.spec.name, 120) if answer is not None else ""
            self.server.setText(f"“{server}” asks you to visit a page")
            self.message.setText(message_words(ask))
            self.note.setText(NOTICE_WORDS)
        self.note.setVisible(bool(self.note.text()))
        draft = self._drafts.get(pending) if pending is not None else None
        if ask.method == SAMPLE:
            self.sampling.show_ask(ask, draft)
            self.pages.setCurrentWidget(self.sampling)
        elif ask.mode == "url":
            self.url.show_ask(ask, pending is not None)
            self.pages.setCurrentWidget(self.url)
        else:
            self.form.show_ask(ask, draft)
            self.pages.setCurrentWidget(self.form)
        self._update_buttons()
        self.wanted.emit(True)

    def _update_header(self, pending: PendingAsk) -> None:
        answer = self.answer
        rounds = answer.rounds if answer is not None else []
        self.server.setText(asker_words(pending, rounds, answer.waiting if answer is not None else 1))

    def _keep_draft(self) -> None:
        pending = self._pending
        if pending is None or pending.future.done():
            return
        if pending.ask.method == SAMPLE:
            self._drafts[pending] = self.sampling.reply.toPlainText()
        elif pending.ask.mode == "form" and not self.form.editor.parse_error:
            self._drafts[pending] = self.form.editor.parsed

    def _update_buttons(self) -> None:
        ask, question = self.shown, self._pending is not None
        elicitation = ask is not None and ask.method == ELICIT
        for made in (self.accept_button, self.decline_button, self.cancel_button):
            made.setVisible(elicitation and question)
        self.dismiss_button.setVisible(ask is not None and not question)
        for made in (self.sampling.send, self.sampling.reject):
            made.setVisible(question and ask is not None and ask.method == SAMPLE)
        self.accept_button.setEnabled(question and (ask is not None and (ask.mode == "url" or self.form.valid)))

    # -- the person's answers --------------------------------------------------------------
    def _respond(self, answer: Any) -> bool:
        return self.answer is not None and self.answer.respond(answer)

    def accept(self) -> bool:
        """Accept the question shown: a form's answer only while it is valid."""
        ask = self.shown
        if ask is None or self._pending is None or not self.accept_button.isEnabled():
            return False
        return self._respond(accept(ask, self.form.editor.parsed if ask.mode == "form" else None))

    def decline(self) -> bool:
        return self.shown is not None and self._pending is not None and self._respond(decline(self.shown))

    def cancel(self) -> bool:
        return self.shown is not None and self._pending is not None and self._respond(cancel(self.shown))

    def send_reply(self) -> bool:
        if self.shown is None or self._pending is None:
            return False
        text, model, stop = self.sampling.reply_parts()
        return self._respond(reply(self.shown, text, model, stop))

    def reject_request(self) -> bool:
        return self.shown is not None and self._pending is not None and self._respond(reject(self.shown))

    def open_url(self) -> bool:
        """Open the URL shown in the system browser (https, or http to this machine, only) and, for a question,
        accept it; False when it is not opened."""
        facts = self.url.facts
        if facts is None or facts.target is None:
            return False
        if not QDesktopServices.openUrl(facts.target):
            self.note.setText("No browser could be opened: copy the URL into one on this machine.")
            self.note.setVisible(True)
            return False
        if self._pending is not None and self.shown is not None:
            self._respond(accept(self.shown))
        return True

    def copy_url(self) -> None:
        if self.url.facts is not None:
            QGuiApplication.clipboard().setText(self.url.facts.shown)

    def dismiss(self) -> None:
        if self.answer is not None:
            self.answer.dismiss_notice()


class InputSlot(QObject):
    """The input panel of a tab, in the tab's stack beside its `result`: built when a question first comes to the
    answer it is bound to, or when something asks for `panel`; until then nothing of it exists."""

    def __init__(self, checks: Checks, stack: QStackedWidget, result: QWidget, owner: QWidget) -> None:
        super().__init__(owner)
        self._checks = checks
        self._stack = stack
        self._result = result
        self._owner = owner
        self._panel: InputRequestPanel | None = None
        self._answer: Answer | None = None  # bound while the panel is not built

    @property
    def built(self) -> bool:
        return self._panel is not None

    @property
    def panel(self) -> InputRequestPanel:
        """The panel, built now (and bound to the answer) if it was not."""
        if self._panel is None:
            panel = InputRequestPanel(self._checks, self._owner)
            panel.wanted.connect(self._on_panel_wanted)
            self._stack.addWidget(panel)
            describe(panel)  # as its page's widgets were named when the page was built
            follow_layout(panel)  # Tab reaches its fields in their place, not at the window's end
            self._panel = panel
            answer, self._answer = self._answer, None
            if answer is not None:
                answer.asked.disconnect(self._on_answer_asked)
                panel.bind(answer)
        return self._panel

    def bind(self, answer: Answer | None) -> None:
        """Show `answer`'s questions (None: nothing)."""
        if self._panel is not None:
            self._panel.bind(answer)
            return
        if answer is self._answer:
            return
        if self._answer is not None:
            self._answer.asked.disconnect(self._on_answer_asked)
        self._answer = answer
        if answer is not None:
            answer.asked.connect(self._on_answer_asked)
            self._on_answer_asked()  # a question may wait already

    def _on_answer_asked(self) -> None:
        answer = self._answer
        if answer is not None and (answer.asking is not None or answer.notice):
            _ = self.panel  # built and bound: it shows the question

    def _on_panel_wanted(self, wanted: bool) -> None:
        self._stack.setCurrentWidget(self.panel if wanted else self._result)
