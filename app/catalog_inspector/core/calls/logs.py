"""A server's log messages (`notifications/message`) as data: one message, plain text; one request's bounded list.

Plain data, no SDK: `core.session` hears the notifications, puts each in the
server log and under the request it came for. Everything in a message is the
server's: its data is kept as plain text (a string as sent, anything else as
compact JSON), cut to `DATA_LIMIT` characters, its logger to `LOGGER_LIMIT`;
what is shown is made visible where it is shown. A request keeps its latest
`REQUEST_LOGS` messages and counts the ones it let go.
"""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

__all__ = ["REQUEST_LOGS", "LogList", "LogMessage", "data_text"]

DATA_LIMIT = 2000  # characters of one message's data kept
LOGGER_LIMIT = 200  # characters of its logger's name kept
REQUEST_LOGS = 200  # messages one request keeps (the latest); the call document and the Call tab show them


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"… [{len(text) - limit:,} more characters]"


def data_text(data: Any) -> str:
    """A message's data as plain text: a string as sent, anything else as compact JSON; cut to `DATA_LIMIT`."""
    if isinstance(data, str):
        return _cut(data, DATA_LIMIT)
    # The SDK parsed it from JSON, so it writes back (NaN included, as the text `NaN`); `default` only for safety.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    return _cut(text, DATA_LIMIT)


_SECOND: list[Any] = [None, ""]  # the last second shown, and its words: a flood shows thousands a second


def _seconds(second: int) -> str:
    if _SECOND[0] != second:
        local = time.localtime(second)
        _SECOND[:] = [second, f"{local.tm_hour:02d}:{local.tm_min:02d}:{local.tm_sec:02d}"]
    words: str = _SECOND[1]
    return words


@dataclass(frozen=True)
class LogMessage:
    """One `notifications/message`, bounded.

    Attributes:
        at: when it arrived, in seconds since the epoch (the message itself carries no time). A float, not a
            datetime: a flood of messages is stamped and shown at a microsecond or two each (`datetime.now()
            .astimezone()` and `strftime` took 50 µs a message, a third of what the SDK's client spends on one).
        level: its severity (one of `core.config.LOG_LEVELS`: the SDK refuses any other).
        logger: the logger the server named, or None.
        data: its data as plain text (`data_text`).
    """

    at: float
    level: str
    logger: str | None
    data: str

    @classmethod
    def of(cls, level: str, logger: str | None, data: Any, at: float | None = None) -> LogMessage:
        return cls(
            at=at if at is not None else time.time(),
            level=level,
            logger=_cut(logger, LOGGER_LIMIT) if logger is not None else None,
            data=data_text(data),
        )

    @property
    def clock(self) -> str:
        """`12:34:56.789`, local time."""
        return f"{_seconds(int(self.at))}.{int(self.at * 1000) % 1000:03d}"

    def line(self) -> str:
        """One line (the server's newlines written as `\\n`): time, level, logger, data. Not yet made visible."""
        logger = f" {self.logger}:" if self.logger is not None else ""
        return f"{self.clock} [{self.level}]{logger} {self.data}".replace("\r", "\\r").replace("\n", "\\n")

    def to_json(self) -> dict[str, Any]:
        at = datetime.fromtimestamp(self.at).astimezone().isoformat(timespec="milliseconds")
        return {"at": at, "level": self.level, "logger": self.logger, "data": self.data}


@dataclass
class LogList:
    """One request's log messages: the latest `limit`, and how many older ones were let go."""

    limit: int = REQUEST_LOGS
    messages: deque[LogMessage] = field(default_factory=deque)
    dropped: int = 0

    def add(self, message: LogMessage) -> None:
        self.messages.append(message)
        if len(self.messages) > self.limit:
            self.messages.popleft()
            self.dropped += 1

    def kept(self) -> tuple[LogMessage, ...]:
        return tuple(self.messages)
