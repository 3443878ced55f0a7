"""A server's stderr (and our own notes about it), kept bounded by bytes.

Its own module, free of the protocol engine: the window keeps a server's log from
before the engine is imported (`runtime.engine`); the stdio transport writes to it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["MAX_LOG_LINE", "TAIL_WIDTH", "ServerLog"]

MAX_LOG_LINE = 2000
TAIL_WIDTH = 300


@dataclass
class ServerLog:
    """A server's stderr, bounded by bytes: the oldest lines go first.

    Attributes:
        lines: the kept lines, oldest first.
        dropped: how many lines were discarded to stay within `max_bytes`.
        total: how many lines were ever appended (a session notes it at spawn to find its own lines).
    """

    max_bytes: int = 256 * 1024
    lines: deque[str] = field(default_factory=deque)
    dropped: int = 0
    total: int = 0
    _size: int = 0
    on_line: Callable[[str], None] | None = None

    def append(self, line: str) -> None:
        if len(line) > MAX_LOG_LINE:
            line = line[:MAX_LOG_LINE] + f"… [{len(line) - MAX_LOG_LINE} more characters]"
        self.lines.append(line)
        self.total += 1
        self._size += len(line) + 1
        while self._size > self.max_bytes and self.lines:
            self._size -= len(self.lines.popleft()) + 1
            self.dropped += 1
        if self.on_line is not None:
            self.on_line(line)

    def text(self) -> str:
        head = f"[{self.dropped} earlier lines dropped]\n" if self.dropped else ""
        return head + "\n".join(self.lines)

    def tail(self, count: int, since: int = 0, width: int = TAIL_WIDTH) -> list[str]:
        """The last `count` non-blank lines appended after line number `since`, each cut to `width` characters."""
        fresh = min(len(self.lines), self.total - since)
        found: list[str] = []
        for line in reversed(self.lines):
            if fresh <= 0 or len(found) == count:
                break
            fresh -= 1
            if line.strip():
                found.append(line if len(line) <= width else line[: width - 1] + "…")
        return found[::-1]
