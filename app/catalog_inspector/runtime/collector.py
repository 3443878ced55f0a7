"""Keeping Python's cycle collector away from catalogs.

A catalog is hundreds of thousands of small dicts and lists that live until the
next catalog replaces them. CPython 3.11's collector rescans every one of them
on each full collection: at 100,000 tools a full collection took 0.1–0.6 s on
the GUI thread, twenty times during one walk and refresh, and freed nothing.

So once a batch of catalog data has arrived (after the event that brought every
`FREEZE_EVERY` items while walking; at once and after the event when a catalog
is accepted) the collector runs a young-generation pass and then `gc.freeze()`s
what is left: frozen objects are never rescanned.
They are still freed by reference counting the moment they become garbage,
which is how catalog data dies (it is plain JSON, without cycles); only a
reference cycle that was alive at a freeze would be kept until the app exits.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

__all__ = ["Collector", "FREEZE_EVERY"]

# Items received since the last freeze. The pass before a freeze scans what arrived since the last one: ~1 ms for
# 1,000 tools here, against 4-5 ms for 5,000, which was the longest event of a 10,000-tool walk and refresh.
FREEZE_EVERY = 1_000


class Collector(QObject):
    """Freezes long-lived objects after catalog data arrives, outside the event that received it.

    Attributes:
        freezes: how many times it froze (for tests and benchmarks).
        pending: items received since the last freeze was asked for.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.freezes = 0
        self._pending_items = 0
        self._scheduled = False

    @property
    def pending(self) -> int:
        """Items received since the last freeze was asked for."""
        return self._pending_items

    def items_arrived(self, count: int) -> None:
        """A page brought `count` items: once enough have piled up, freeze after the event that brought them.

        After, not now: the young pass before a freeze takes a few milliseconds with a page's objects in the young
        generations, and the page's own event (the walk's step, the views' rows) is a frame's worth already.
        """
        self._pending_items += count
        if self._pending_items >= FREEZE_EVERY:
            self._pending_items = 0
            self._freeze_after()

    def settle(self) -> None:
        """A catalog was accepted (or much data arrived): freeze now, and again once the current event is done.

        Now, so the views that are about to build rows over the catalog do not
        trigger a full collection that rescans it; after, to freeze those rows.
        """
        self._freeze()
        self._freeze_after()

    def _freeze_after(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            QTimer.singleShot(0, self._freeze_later)

    def _freeze_later(self) -> None:
        self._scheduled = False
        self._freeze()

    def _freeze(self) -> None:
        self._pending_items = 0
        gc.collect(1)  # the young generations are small: what is garbage there goes first
        gc.freeze()
        self.freezes += 1
