"""Hearing a server's log messages (`notifications/message`): each in the server log, and under its request.

Which request a message belongs to: the SDK's client hands the message handler
the notification alone (its transports put no related request id on what they
receive), so it is found two ways:

- Streamable HTTP: a message sent while serving a request rides that request's own
  response stream (2026-07-28 requires it; the SDK's server does so on every era).
  The SDK reads that stream in the context of the task that sent the request, and
  runs the message handler in the context the message was read in, so a context
  variable set around the request (`collecting`) names it exactly. A message read
  on any other stream (the standalone GET, a walk's request) belongs to no test request.
- stdio and legacy HTTP+SSE: one stream carries everything, and the wire says nothing
  of the relation, so a message is put under every test request in flight on that
  connection when it arrives (the Call tab has one at a time; the CLI makes one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from catalog_inspector.core.calls import LogList, LogMessage
from catalog_inspector.core.transport import ServerLog

__all__ = ["OnLog", "RequestLogs", "ServerMessages"]

OnLog = Callable[[LogMessage], None]
"""Hears each of the server's log messages for a request as it arrives (the outcome keeps them too)."""


class RequestLogs(LogList):
    """One request's log messages (bounded), and who hears each as it arrives."""

    def __init__(self, on_log: OnLog | None = None) -> None:
        super().__init__()
        self.on_log = on_log

    def add(self, message: LogMessage) -> None:
        super().add(message)
        if self.on_log is not None:
            self.on_log(message)


# The request whose task the message handler runs in (Streamable HTTP: the task that sent it).
_serving: ContextVar[RequestLogs | None] = ContextVar("serving", default=None)


class ServerMessages:
    """The log messages of one connection: each goes to the server log, and to the requests it relates to.

    `by_stream`: the transport carries each request's messages on its own stream (Streamable HTTP).
    """

    def __init__(self, log: ServerLog, by_stream: bool) -> None:
        self._log = log
        self._by_stream = by_stream
        self._in_flight: list[RequestLogs] = []
        self.heard_count = 0

    def heard(self, level: str, logger: str | None, data: Any) -> LogMessage:
        """One message arrived (in the message handler's context)."""
        message = LogMessage.of(level, logger, data)
        self.heard_count += 1
        self._log.append(message.line())
        for request in self._related():
            request.add(message)
        return message

    def _related(self) -> list[RequestLogs]:
        own = _serving.get()
        if own is not None and own in self._in_flight:
            return [own]
        if self._by_stream:
            return []  # read on another request's stream, or on the standalone one: no test request's
        return list(self._in_flight)

    @contextmanager
    def collecting(self, on_log: OnLog | None = None) -> Iterator[RequestLogs]:
        """The log messages of the request sent inside this block (by this task), bounded; `on_log` hears each."""
        logs = RequestLogs(on_log)
        token = _serving.set(logs)
        self._in_flight.append(logs)
        try:
            yield logs
        finally:
            self._in_flight.remove(logs)
            _serving.reset(token)
