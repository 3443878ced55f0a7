"""The one way passing news reaches the person: a message bridge (qutebrowser's `message` module shape).

Desks, presenters and widgets say `info`, `warning` or `error`; the window's
status bar (and anything else that wants to, such as a test) listens to `shown`.
Each level has its one duration, and every text is made visible and bounded
here: a server's name or error in a message can never render as markup or run
to megabytes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.text import visible

__all__ = ["Level", "Message", "MessageBridge", "failure_words"]

TEXT_LIMIT = 500  # characters of one message


def failure_words(exc: BaseException) -> str:
    """An error in a few words: the OS's own words for a file, the type and message of anything else."""
    if isinstance(exc, OSError):
        return str(exc.strerror or exc)
    return f"{type(exc).__name__}: {exc}"


class Level(enum.Enum):
    """How much a message matters, and so how long the status bar shows it (milliseconds; 0: until replaced)."""

    INFO = 5000  # passing news: a walk's progress, a file written
    WARNING = 8000  # something did not happen as asked, nothing is lost: an answer not remembered
    ERROR = 10000  # something failed that the person asked for: a history file unreadable, a write refused
    PROGRESS = 0  # stays until the next message or `clear` (a walk in progress)

    @property
    def timeout_ms(self) -> int:
        return self.value


@dataclass(frozen=True)
class Message:
    """One piece of news: its level, its words (already visible and bounded), and the server it is about."""

    level: Level
    text: str
    server: str | None = None


class MessageBridge(QObject):
    """Where every user-facing message goes.

    Signals:
        shown(object): a Message to show now.
        cleared(): the news shown is over (a walk ended).
    """

    shown = Signal(object)
    cleared = Signal()

    def info(self, text: str, server: str | None = None) -> None:
        self._show(Level.INFO, text, server)

    def warning(self, text: str, server: str | None = None) -> None:
        self._show(Level.WARNING, text, server)

    def error(self, text: str, server: str | None = None) -> None:
        self._show(Level.ERROR, text, server)

    def progress(self, text: str, server: str | None = None) -> None:
        self._show(Level.PROGRESS, text, server)

    def clear(self) -> None:
        self.cleared.emit()

    def _show(self, level: Level, text: str, server: str | None) -> None:
        if server is not None:
            text = f"{server}: {text}"
        self.shown.emit(Message(level, visible(text, TEXT_LIMIT), server))
