"""What each response measured and why one was refused, filed by JSON-RPC id; an event stream's framing.

`ResponseSizes` and `RequestFaults` are where the transports (`core.transport.meter`,
`core.transport.bodies`, `core.transport.stdio`) leave what they learnt of a response
for the caller of its request; `SseEventMeter` splits an event stream into events
the way the SDK's parser does, so a size can be matched to the message it carried.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable

from catalog_inspector.core.errors import CatalogError

__all__ = ["MAX_PENDING", "RequestFaults", "RequestId", "ResponseSizes", "SseEventMeter"]

RequestId = int | str

MAX_PENDING = 1024  # sizes nobody asked for (notifications' requests, abandoned calls) are dropped oldest first


class ResponseSizes:
    """Bytes per response, by JSON-RPC id (as a string: the wire may say 7 or "7")."""

    def __init__(self) -> None:
        self._sizes: OrderedDict[str, int] = OrderedDict()

    def add(self, request_id: RequestId, size: int) -> None:
        key = str(request_id)
        self._sizes[key] = self._sizes.get(key, 0) + size
        self._sizes.move_to_end(key)
        while len(self._sizes) > MAX_PENDING:
            self._sizes.popitem(last=False)

    def pop(self, request_id: RequestId) -> int | None:
        return self._sizes.pop(str(request_id), None)


class RequestFaults:
    """Why a response was refused as it arrived, by JSON-RPC id: what that request's caller is told.

    The SDK turns a body it could not read into a generic JSON-RPC error; the
    transport knows the real reason (over the byte cap, broken off, redirected
    to another origin) and files it here under the id of the request.
    """

    def __init__(self) -> None:
        self._faults: OrderedDict[str, CatalogError] = OrderedDict()
        self.last: CatalogError | None = None

    def add(self, request_id: RequestId, error: CatalogError) -> None:
        self._faults[str(request_id)] = error
        self._faults.move_to_end(str(request_id))
        self.last = error
        while len(self._faults) > MAX_PENDING:
            self._faults.popitem(last=False)

    def pop(self, request_id: RequestId) -> CatalogError | None:
        return self._faults.pop(str(request_id), None)

    def discard(self, request_id: RequestId, error: CatalogError) -> None:
        """Forget `error` if it is still what this request's caller would be told (it no longer applies)."""
        key = str(request_id)
        if self._faults.get(key) is error:
            del self._faults[key]
            if self.last is error:
                self.last = None


class SseEventMeter:
    """Splits an event stream's bytes into events and queues the size of each `message` event with data.

    It follows the framing the SDK's parser applies (lines end in LF or CRLF; a
    blank line ends an event; the event type defaults to `message`; an event
    with empty data is skipped as a keep-alive), so the queue lines up with the
    messages the SDK delivers.
    """

    def __init__(self, sizes: deque[int], cap: int | None = None, check: Callable[[bytes], str] | None = None) -> None:
        self.sizes = sizes
        self.cap = cap
        self.over: int | None = None  # the size of the first event found over `cap`
        self.bad = ""  # why the first `message` event whose data failed `check` was refused ("" when none was)
        self._check = check  # says why an event's data is not acceptable, or ""
        self._line = bytearray()
        self._bytes = 0
        self._event = b""
        self._data = 0
        self._payload: list[bytes] = []

    def feed(self, chunk: bytes) -> None:
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            self._line += chunk[start:end]
            self._bytes += end - start + 1
            self._on_line(bytes(self._line).rstrip(b"\r"))
            self._line.clear()
            start = end + 1
        rest = chunk[start:]
        if self.cap is not None and self._bytes + len(rest) > self.cap and self.over is None:
            self.over = self._bytes + len(rest)
            return  # the event is refused: its unfinished line is not kept
        self._line += rest
        self._bytes += len(rest)

    def _on_line(self, line: bytes) -> None:
        if self.cap is not None and self._bytes > self.cap and self.over is None:
            self.over = self._bytes
        if not line:
            if self._data and self._event in (b"", b"message"):
                self.sizes.append(self._bytes)
                if self._check is not None and not self.bad:
                    self.bad = self._check(b"\n".join(self._payload))
            self._bytes, self._event, self._data = 0, b"", 0
            self._payload = []
            return
        name, _, value = line.partition(b":")
        value = value[1:] if value.startswith(b" ") else value
        if name == b"event":
            self._event = value
        elif name == b"data":
            self._data += len(value) + (1 if self._data else 0)
            if self._check is not None:
                self._payload.append(value)
