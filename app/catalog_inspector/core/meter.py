"""Counting each response's bytes on the wire, so a page's size is measured, never re-serialised.

Re-serialising every page only to learn its size cost 0.3 s per 100,000 tools
and a second copy of each page. Instead each transport counts the bytes it
reads and files them under the JSON-RPC id of the response:

- stdio: the length of the response's line (`core.stdio` records it);
- Streamable HTTP: the bytes of the POST response that answered the request
  (JSON body or event stream), counted as they arrive (`MeteredHTTPTransport`);
- legacy SSE: the bytes of each `message` event on the GET stream, matched to
  the messages the SDK delivers in the same order (`SseEventMeter` + `MeteredReadStream`).

The id a request was sent under is minted inside the SDK; `ProbingWriteStream`
sees it on its way to the transport, in the sending task, and hands it to the
caller through a context variable (`probe_request_id`).
"""

from __future__ import annotations

import contextvars
import json
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

import anyio
import httpx2
import mcp_types as types
from mcp.shared.message import SessionMessage

__all__ = [
    "MeteredHTTPTransport",
    "MeteredReadStream",
    "ProbingWriteStream",
    "ResponseSizes",
    "SseEventMeter",
    "probe_request_id",
]

RequestId = int | str
T = TypeVar("T")

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


_sent_ids: contextvars.ContextVar[list[RequestId] | None] = contextvars.ContextVar("sent_ids", default=None)


@contextmanager
def probe_request_id() -> Iterator[list[RequestId]]:
    """Collect the ids of the requests this task sends inside the block (the first one is ours)."""
    ids: list[RequestId] = []
    token = _sent_ids.set(ids)
    try:
        yield ids
    finally:
        _sent_ids.reset(token)


class _Wrapped:
    """A stream in front of a transport's stream: closing or leaving it closes the inner one."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


class ProbingWriteStream(_Wrapped, Generic[T]):
    """The write stream the SDK session sends into; notes each request's id for `probe_request_id`.

    The SDK awaits `send()` in the task that made the request, so the context
    variable set by that task is visible here.
    """

    async def send(self, item: T, /) -> None:
        ids = _sent_ids.get()
        if ids is not None and isinstance(item, SessionMessage) and isinstance(item.message, types.JSONRPCRequest):
            ids.append(item.message.id)
        await self._inner.send(item)


class SseEventMeter:
    """Splits an event stream's bytes into events and queues the size of each `message` event with data.

    It follows the framing the SDK's parser applies (lines end in LF or CRLF; a
    blank line ends an event; the event type defaults to `message`; an event
    with empty data is skipped as a keep-alive), so the queue lines up with the
    messages the SDK delivers.
    """

    def __init__(self, sizes: deque[int]) -> None:
        self.sizes = sizes
        self._line = bytearray()
        self._bytes = 0
        self._event = b""
        self._data = 0

    def feed(self, chunk: bytes) -> None:
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            self._line += chunk[start:end]
            self._bytes += end - start + 1
            self._on_line(bytes(self._line).rstrip(b"\r"))
            self._line.clear()
            start = end + 1
        rest = chunk[start:]
        self._line += rest
        self._bytes += len(rest)

    def _on_line(self, line: bytes) -> None:
        if not line:
            if self._data and self._event in (b"", b"message"):
                self.sizes.append(self._bytes)
            self._bytes, self._event, self._data = 0, b"", 0
            return
        name, _, value = line.partition(b":")
        value = value[1:] if value.startswith(b" ") else value
        if name == b"event":
            self._event = value
        elif name == b"data":
            self._data += len(value) + (1 if self._data else 0)


class MeteredReadStream(_Wrapped, Generic[T]):
    """The legacy SSE read stream: files each delivered response under its id with its event's size."""

    def __init__(self, inner: Any, queued: deque[int], sizes: ResponseSizes) -> None:
        super().__init__(inner)
        self._queued = queued
        self._sizes = sizes

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> T:
        item: T = await self._inner.receive()
        size = self._queued.popleft() if self._queued else None
        message = getattr(item, "message", None)
        if size is not None and isinstance(message, types.JSONRPCResponse | types.JSONRPCError) and message.id is not None:
            self._sizes.add(message.id, size)
        return item

    def __aiter__(self) -> MeteredReadStream[T]:
        return self

    async def __anext__(self) -> T:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError) as exc:
            raise StopAsyncIteration from exc


class _CountedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, count: Any) -> None:
        self._inner = inner
        self._count = count

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._inner:
            self._count(chunk)
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


def _request_id_of(body: bytes) -> RequestId | None:
    # Our own request, small: parsing it once is cheaper than anything else that finds its id.
    try:
        message = json.loads(body)
    except ValueError:
        return None
    request_id = message.get("id") if isinstance(message, dict) else None
    return request_id if isinstance(request_id, int | str) else None


class MeteredHTTPTransport(httpx2.AsyncBaseTransport):
    """An httpx transport that counts response bytes as they arrive.

    Streamable HTTP: a POST's response bytes go to the id of the request it carried.
    Legacy SSE (`events` given): the GET stream is split into events for `SseEventMeter`.
    """

    def __init__(self, inner: httpx2.AsyncBaseTransport, sizes: ResponseSizes, events: deque[int] | None = None) -> None:
        self._inner = inner
        self._sizes = sizes
        self._events = events

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        stream = response.stream
        if not isinstance(stream, httpx2.AsyncByteStream):
            return response
        if request.method == "GET" and self._events is not None:
            meter = SseEventMeter(self._events)
            response.stream = _CountedStream(stream, meter.feed)
        elif request.method == "POST" and self._events is None:
            try:
                request_id = _request_id_of(request.content)
            except httpx2.RequestNotRead:
                request_id = None
            if request_id is not None:
                sizes = self._sizes
                response.stream = _CountedStream(stream, lambda chunk: sizes.add(request_id, len(chunk)))
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()
