"""Says the state changes that matter, once each: a walk finished (accepted, or rejected and why), a request
answered (a test call, a read, a prompt), a server asks for input.

Each is put in the status bar (through the message bridge, as all news) and announced to
assistive technology from it (`ui.accessible.announce`). The presenters' signals say when
something changed; this view keeps what it has said, so a page of a walk, a repaint or a
server chosen again says nothing. A rejected walk is said one turn of the event loop later:
the presenter that ends a walk clears the walk's progress from the status bar after it signals.

Walks and answers are said for the selected server; a question for any server (the others
are told to be selected first, by their presenter's own message).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QStatusBar

from catalog_inspector.ui.accessible import announce
from catalog_inspector.ui.presenters.answer import Answer

if TYPE_CHECKING:
    from catalog_inspector.core.catalog import Snapshot
    from catalog_inspector.runtime import CallTicket
    from catalog_inspector.ui.presenters import AppPresenter, ServerPresenter

__all__ = ["Announcer"]

REQUEST_WORDS = {"tool": "Call answered", "resource": "Read answered", "template": "Read answered",
                 "prompt": "Prompt answered"}  # fmt: skip
TAB_WORDS = {"call": "the Call tab", "resources": "the Resources tab", "prompts": "the Prompts tab"}


class Announcer(QObject):
    """Follows the selected server's presenter (`bind`) and every server's questions.

    Attributes:
        said: what it announced, oldest first (for tests and for nothing else).
    """

    def __init__(self, app: AppPresenter, status_bar: QStatusBar, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self._bar = status_bar
        self._presenter: ServerPresenter | None = None
        self._attempt: Snapshot | None = None  # the latest finished attempt looked at
        self._catalog: Snapshot | None = None  # the catalog shown when bound, or last said
        self._in_flight: dict[Answer, CallTicket | None] = {}
        self._waiting: dict[ServerPresenter, int] = {}  # each server's questions that wait, as last seen
        self._due: list[tuple[str | None, str | None]] = []  # said one turn later: text (None: as shown), server
        self.said: list[str] = []
        app.servers_changed.connect(self._on_app_servers_changed)
        self._on_app_servers_changed()

    def bind(self, presenter: ServerPresenter | None) -> None:
        """Follow this server's walks and answers from now on (None: none); what it shows already is not news."""
        old = self._presenter
        if old is not None:
            old.walks_changed.disconnect(self._on_presenter_walks_changed)
            old.catalog_changed.disconnect(self._on_presenter_catalog_changed)
            for answer in self._in_flight:
                answer.changed.disconnect(self._on_answer_changed)
        self._presenter = presenter
        self._in_flight = {}
        if presenter is None:
            return
        attempt = presenter.supervisor.attempt
        self._attempt = attempt.snapshot if attempt is not None else None
        self._catalog = presenter.catalog
        presenter.walks_changed.connect(self._on_presenter_walks_changed)
        presenter.catalog_changed.connect(self._on_presenter_catalog_changed)
        for answer in (presenter.call.answer, *(box.answer for box in presenter.requests.values())):
            self._in_flight[answer] = answer.ticket
            answer.changed.connect(self._on_answer_changed)

    # -- what happened -------------------------------------------------------------------------
    def _on_presenter_walks_changed(self) -> None:
        """A walk that ended without a catalog: rejected (its reason, as the banner says it) or cancelled."""
        presenter = self._presenter
        attempt = presenter.supervisor.attempt if presenter is not None else None
        snapshot = attempt.snapshot if attempt is not None else None
        if presenter is None or snapshot is None or snapshot is self._attempt:
            return
        self._attempt = snapshot
        if snapshot.status == "complete":
            return  # said when its catalog is shown (`catalog_changed`)
        banner = presenter.banner()
        if banner.kind == "failure":  # the banner's own title and line: "Rejected: Duplicate name on page 2 …"
            reason = f"{banner.title}. {banner.detail}" if banner.detail else banner.title
        else:
            reason = snapshot.error.kind.heading if snapshot.error is not None else snapshot.status
        self._say_later(f"Walk finished without a catalog. {reason}", presenter.name)

    def _on_presenter_catalog_changed(self) -> None:
        presenter = self._presenter
        catalog = presenter.catalog if presenter is not None else None
        if presenter is None or catalog is None or catalog is self._catalog:
            return
        self._catalog = catalog
        tools, pages = len(catalog.tools.items), len(catalog.tools.pages)
        self._say(
            f"Walk finished, catalog accepted: {tools:,} tool{'s' if tools != 1 else ''} "
            f"on {pages:,} page{'s' if pages != 1 else ''}",
            presenter.name,
        )

    def _on_answer_changed(self) -> None:
        for answer, ticket in list(self._in_flight.items()):
            if answer.ticket is ticket:
                continue
            self._in_flight[answer] = answer.ticket
            if ticket is not None and answer.ticket is None and answer.layer:  # it ended, and not by being cleared
                self._say(f"{REQUEST_WORDS[answer.kind]}: {answer.outcome_text}", None)

    def _on_app_servers_changed(self) -> None:
        alive = set(self._app.presenters.values())
        for presenter in [known for known in self._waiting if known not in alive]:
            del self._waiting[presenter]
        for presenter in alive - set(self._waiting):
            self._waiting[presenter] = presenter.waiting
            presenter.input_changed.connect(self._on_presenter_input_changed)

    def _on_presenter_input_changed(self) -> None:
        for presenter, before in list(self._waiting.items()):
            now = presenter.waiting
            self._waiting[presenter] = now
            if now <= before:
                continue
            if presenter.selected:
                tab = TAB_WORDS.get(presenter.question_tab() or "", "its tab")
                self._say(f"{presenter.title} asks for your input: the question is in {tab}.", None, urgent=True)
            else:  # its presenter says so in the status bar, after this signal: announced as it is shown
                self._say_later(None, None)

    # -- saying it ------------------------------------------------------------------------------
    def _say(self, text: str | None, server: str | None, urgent: bool = False) -> None:
        """Put `text` in the status bar (None: what it shows now) and announce what it shows."""
        if text is not None:
            self._app.messages.info(text, server)  # made visible and bounded; the status bar shows it
        words = self._bar.currentMessage()
        if words:
            self.said.append(words)
            announce(self._bar, words, urgent)

    def _say_later(self, text: str | None, server: str | None) -> None:
        """`_say`, urgently, one turn of the event loop later (after the signal's sender has done its part)."""
        if not self._due:
            QTimer.singleShot(0, self, self._flush)
        self._due.append((text, server))

    def _flush(self) -> None:
        due, self._due = self._due, []
        for text, server in due:
            self._say(text, server, urgent=True)
