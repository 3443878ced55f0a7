"""What a server's supervisor reports about: its state, one walk attempt, one test request's ticket, and the
two relays that pass a request's progress and log messages on as signals.

The values are plain: the window and the desks hold and compare them; the supervisor makes them.
"""

from __future__ import annotations

import enum
import itertools
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from PySide6.QtCore import QTimer

from catalog_inspector.core.calls import REQUEST_LOGS
from catalog_inspector.core.catalog import PageRecord, Snapshot

__all__ = [
    "LOG_BATCH_MS",
    "Attempt",
    "CallTicket",
    "FrameBatch",
    "LogRelay",
    "ProgressRelay",
    "ServerState",
    "next_ticket",
]


class ServerState(enum.Enum):
    NOT_CONNECTED = "not connected"  # nothing attempted yet
    CONNECTING = "connecting"  # a session is starting (spawn, handshake)
    WALKING = "walking"  # a walk runs (first or refresh); the shown catalog is unchanged
    READY = "ready"  # an accepted catalog is active
    STALE = "stale"  # ready, but the server said its list changed since
    FAILED = "failed"  # the latest attempt was rejected or failed (a last good catalog may remain)
    LOST = "connection lost"  # the accepted session ended on its own; its catalog stays, no session is live


# seconds a sign-in is shown past its own wait (the engine ends it at that wait)
# Log lines and a call's log messages go to the window a batch per frame: a flood of log messages arrives one
# per turn of the loop (the SDK hands each notification to a task of its own), so a batch per turn was a
# signal per message; per frame it is one signal per 16 ms, whatever the server sends.
LOG_BATCH_MS = 16


@dataclass
class Attempt:
    """One walk: its pages as they arrive, then its snapshot.

    The runtime is the one owner of these pages; timeline views read them
    through `pages_of` and never keep copies.
    """

    started_at: datetime
    live: dict[str, list[PageRecord]] = field(default_factory=dict)
    snapshot: Snapshot | None = None
    after_stale: bool = False  # started while the server said its catalog had changed
    protocol_version: str | None = None  # the walk's connection's, once it is connected

    def pages_of(self, list_name: str) -> Sequence[PageRecord]:
        if self.snapshot is not None:
            return self.snapshot.lists[list_name].pages
        return self.live.setdefault(list_name, [])


@dataclass(frozen=True, eq=False)
class CallTicket:
    """One test request the runtime is making; compared by identity (its key in `call_finished`).

    `kind` is "tool" (tools/call: `tool` is the tool's name), "resource" (resources/read:
    `tool` is the URI) or "prompt" (prompts/get: `tool` is the prompt's name).
    """

    number: int
    tool: str
    arguments: dict[str, Any] | None
    kind: Literal["tool", "resource", "prompt"] = "tool"
    timeout: float | None = None
    answers: dict[str, Any] | None = None  # a re-run's: the answers kept from the call it repeats (an answers file)
    send_excluded: bool = False  # sent even if conforming 2026-07-28 clients exclude the tool (on purpose)
    task: bool = False  # run as a task ("Run as task"; a tool that requires one runs as one anyway)


_tickets = itertools.count(1)


def next_ticket() -> int:
    """The number of the next test request (unique in this process)."""
    return next(_tickets)


class ProgressRelay:
    """Passes a call's progress notifications on as `call_progress` signals (the SDK's callback shape)."""

    def __init__(self, signal: Any, ticket: CallTicket) -> None:
        self._signal = signal
        self._ticket = ticket

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self._signal.emit(self._ticket, progress, total, message)


class FrameBatch:
    """Items passed on in batches, one per `LOG_BATCH_MS`: a flood costs the GUI thread a signal a frame, not one
    an item. `emit` gets the batch (the latest `keep` items, all when None) and how many arrived."""

    def __init__(self, emit: Callable[[list[Any], int], None], keep: int | None = None) -> None:
        self._emit = emit
        self._pending: deque[Any] = deque(maxlen=keep)
        self._seen = 0

    def __call__(self, item: Any) -> None:
        self._pending.append(item)
        self._seen += 1
        if self._seen == 1:
            QTimer.singleShot(LOG_BATCH_MS, self._flush)

    def _flush(self) -> None:
        batch, seen = list(self._pending), self._seen
        self._pending.clear()
        self._seen = 0
        if batch:
            self._emit(batch, seen)


class LogRelay(FrameBatch):
    """Passes a call's log messages on as `call_logged` signals, a batch per `LOG_BATCH_MS` (as the server log)."""

    def __init__(self, signal: Any, ticket: CallTicket) -> None:
        # What a view can keep of one batch.
        super().__init__(lambda batch, seen: signal.emit(ticket, batch, seen), keep=REQUEST_LOGS)
