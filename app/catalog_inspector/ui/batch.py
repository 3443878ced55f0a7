"""Pacing the window's work: fast streams (live pages, server log lines) coalesced into a few repaints, and what
waits a frame."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from PySide6.QtCore import QObject, QTimer

__all__ = ["FRAME_MS", "Batcher"]

T = TypeVar("T")
FRAME_MS = 16  # one frame: a hidden page's redraw for a new catalog waits this long, off that catalog's stall


class Batcher(QObject, Generic[T]):
    """Collects items and hands them to `flush` in one call, at most once per `interval_ms`.

    A view that repaints per item stalls under a fast walk or a flooding server;
    one batch per interval keeps it to a few repaints. `keep_last` bounds what
    waits between flushes (older items are dropped first, in constant time each);
    `dropped` says, while `flush` runs, how many were dropped since the last batch.
    """

    def __init__(
        self,
        flush: Callable[[list[T]], None],
        interval_ms: int,
        keep_last: int | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._flush = flush
        self._pending: deque[T] = deque(maxlen=keep_last)
        self._seen = 0  # items added since the last batch
        self.dropped = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._deliver)

    def add(self, item: T) -> None:
        self._pending.append(item)
        self._seen += 1
        if not self._timer.isActive():
            self._timer.start()

    def extend(self, items: Sequence[T]) -> None:
        self._pending.extend(items)
        self._seen += len(items)
        if items and not self._timer.isActive():
            self._timer.start()

    def clear(self) -> None:
        """Drop what waits (the view is about to show something else)."""
        self._timer.stop()
        self._pending.clear()
        self._seen = 0

    def _deliver(self) -> None:
        items = list(self._pending)
        self._pending.clear()
        self.dropped, self._seen = max(0, self._seen - len(items)), 0
        if items:
            self._flush(items)
