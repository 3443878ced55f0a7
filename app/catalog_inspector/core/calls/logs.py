"""A server's log messages (`notifications/message`) as data: the levels, one message, one request's bounded list.

Plain data, no SDK: `core.session` hears the notifications, puts each in the
server log and under the request it came for. Everything in a message is the
server's: its data is kept as plain text (a string as sent, anything else as
compact JSON), cut to `DATA_LIMIT` characters, its logger to `LOGGER_LIMIT`;
what is shown is made visible where it is shown. A request keeps its latest
`REQUEST_LOGS` messages and counts the ones it let go.
"""

from __future__ import annotations

import json
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


@dataclass(frozen=True)
class LogMessage:
    """One `notifications/message`, bounded.

    Attributes:
        at: when it arrived (local time; the message itself carries none).
        level: its severity (one of `core.config.LOG_LEVELS`: the SDK refuses any other).
        logger: the logger the server named, or None.
        data: its data as plain text (`data_text`).
    """

    at: datetime
    level: str
    logger: str | None
    data: str

    @classmethod
    def of(cls, level: str, logger: str | None, data: Any, at: datetime | None = None) -> LogMessage:
        return cls(
            at=at if at is not None else datetime.now().astimezone(),
            level=level,
            logger=_cut(logger, LOGGER_LIMIT) if logger is not None else None,
            data=data_text(data),
        )

    @property
    def time(self) -> str:
        """`12:34:56.789`."""
        return self.at.strftime("%H:%M:%S.") + f"{self.at.microsecond // 1000:03d}"

    def line(self) -> str:
        """One line (the server's newlines written as `\\n`): time, level, logger, data. Not yet made visible."""
        logger = f" {self.logger}:" if self.logger is not None else ""
        return f"{self.time} [{self.level}]{logger} {self.data}".replace("\r", "\\r").replace("\n", "\\n")

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at.isoformat(timespec="milliseconds"), "level": self.level, "logger": self.logger,
                "data": self.data}  # fmt: skip


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
