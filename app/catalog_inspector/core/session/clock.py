"""A time limit that stops while a person is being waited for: their time is not the server's.

Like the SDK's own request clock (`waiting_on_a_person`, private). One kind serves the
handshake (stopped while a sign-in waits in the browser) and each attempt of a test
request (stopped while a person answers the server's question).
"""

from __future__ import annotations

import math

import anyio

__all__ = ["PausableClock"]


class PausableClock:
    """`seconds` (None: no limit) on `scope`, counted from `start()`; `pause(True)` and `pause(False)` come in
    pairs, from any task of the loop."""

    def __init__(self, seconds: float | None) -> None:
        self.scope = anyio.CancelScope()
        self._left = math.inf if seconds is None else seconds
        self._started = False
        self._pauses = 0

    def start(self) -> None:
        self._started = True
        if not self._pauses:
            self.scope.deadline = anyio.current_time() + self._left

    def pause(self, waiting: bool) -> None:
        if waiting:
            self._pauses += 1
            if self._pauses == 1 and self._started:
                self._left = max(0.0, self.scope.deadline - anyio.current_time())
                self.scope.deadline = math.inf
        elif self._pauses:
            self._pauses -= 1
            if self._pauses == 0 and self._started:
                self.scope.deadline = anyio.current_time() + self._left
