"""One server's resource subscriptions as the window sees them: subscribe, unsubscribe, and the updates heard."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from catalog_inspector.core.errors import ErrorInfo, internal_error
from catalog_inspector.core.text import visible
from catalog_inspector.runtime.supervisor import ServerSupervisor
from catalog_inspector.runtime.tasks import TaskSet

if TYPE_CHECKING:
    from catalog_inspector.core.session import ResourceWatches  # the engine's: loaded before a session is

__all__ = ["ResourceWatcher"]

SUBSCRIBE_TIMEOUT = 10.0
NEWS_MS = 100  # a flood of updates is told at most this often


class ResourceWatcher(QObject):
    """Subscriptions live on the session they were made on: a refresh (a new session) ends them, and says so.

    Signals:
        changed(): what is watched, an update heard, or a refusal changed (told at most every `NEWS_MS`).
    """

    changed = Signal()

    def __init__(self, supervisor: ServerSupervisor, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.supervisor = supervisor
        self._tasks = TaskSet()
        self._watches: ResourceWatches | None = None  # the session's watches this one follows
        self.last_update: dict[str, datetime] = {}
        self.problem: dict[str, str] = {}  # why a subscription was refused, by URI
        self._news = QTimer(self)
        self._news.setSingleShot(True)
        self._news.setInterval(NEWS_MS)
        self._news.timeout.connect(self.changed)
        supervisor.state_changed.connect(self._on_supervisor_state_changed)

    @property
    def offered(self) -> bool:
        """Whether the accepted catalog's server declares `resources.subscribe`."""
        accepted = self.supervisor.accepted
        resources = accepted.capabilities.get("resources") if accepted is not None else None
        return isinstance(resources, dict) and resources.get("subscribe") is True

    def _current(self) -> ResourceWatches | None:
        connection = self.supervisor.connection
        return connection.watches if connection is not None else None

    def watched(self) -> list[str]:
        """The URIs the live session is subscribed to."""
        watches = self._current()
        return list(watches.watched) if watches is not None else []

    def watching(self, uri: str) -> bool:
        watches = self._current()
        return watches is not None and uri in watches.watched

    def updates(self, uri: str) -> int:
        watches = self._current()
        return watches.updates.get(uri, 0) if watches is not None else 0

    def words(self, uri: str) -> str:
        """What the window says of `uri`'s subscription ("" when there is nothing to say)."""
        if uri in self.problem:
            return f"Not subscribed: {self.problem[uri]}"
        if not self.watching(uri):
            return ""
        count = self.updates(uri)
        if count == 0:
            return "Subscribed: the server has not said it changed yet."
        when = self.last_update[uri].strftime("%H:%M:%S") if uri in self.last_update else "?"
        times = "once" if count == 1 else f"{count:,} times"
        return f"Subscribed: the server said it changed {times}, last at {when}. Read it again to see it."

    def toggle(self, uri: str) -> bool:
        """Subscribe to `uri`, or unsubscribe if it is watched; False if there is no session (nothing asked)."""
        watches = self._current()
        if watches is None or not self.offered:
            return False
        self._adopt(watches)
        self.problem.pop(uri, None)
        start = watches.unsubscribe if self.watching(uri) else watches.subscribe
        self._tasks.spawn(
            start(uri, SUBSCRIBE_TIMEOUT),
            lambda refused: self._settled(uri, refused),
            lambda exc: self._settled(uri, internal_error(exc).info),
            name=f"{self.supervisor.spec.name}: subscription",
            droppable=True,
        )
        return True

    def _adopt(self, watches: ResourceWatches) -> None:
        if watches is not self._watches:
            self._watches = watches
            self.last_update.clear()
            watches.on_updated = self._on_updated

    def _settled(self, uri: str, refused: ErrorInfo | None) -> None:
        if refused is not None:
            self.problem[uri] = visible(refused.message, 300)
        self.changed.emit()

    def _on_updated(self, uri: str) -> None:
        self.last_update[uri] = datetime.now().astimezone()
        if not self._news.isActive():
            self._news.start()

    def _on_supervisor_state_changed(self) -> None:
        # A new session holds none of the old one's subscriptions: what is shown follows the live one.
        if self._watches is not None and self._current() is not self._watches:
            self._watches = None
            self.last_update.clear()
            self.problem.clear()
            self.changed.emit()
