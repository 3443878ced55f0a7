"""Counting each response's bytes on the wire, so a page's size is measured, never re-serialised.

Re-serialising every page only to learn its size cost 0.3 s per 100,000 tools
and a second copy of each page. Instead each transport counts the bytes it
reads and files them under the JSON-RPC id of the response:

- stdio: the length of the response's line (`core.transport.stdio` records it);
- Streamable HTTP: the bytes of the POST response that answered the request
  (JSON body or event stream), counted as they arrive (`MeteredHTTPTransport`),
  which also cuts a body off at the byte cap while it arrives, so a page never
  has to fit in memory before it is refused;
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
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

import anyio
import httpx2
import mcp_types as types
from mcp.shared.message import SessionMessage

from catalog_inspector.core.errors import CatalogError, ErrorKind, make_error
from catalog_inspector.core.redact import redacted_url
from catalog_inspector.core.transport.classify import http_status_error

__all__ = [
    "AUTH_CAP",
    "EventStreamCut",
    "MeteredHTTPTransport",
    "MeteredReadStream",
    "ProbingWriteStream",
    "RequestFaults",
    "ResponseCut",
    "ResponseSizes",
    "SseEventMeter",
    "over_cap",
    "probe_request_id",
    "request_id_of",
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


def over_cap(size: int, cap: int, what: str = "a response") -> CatalogError:
    """The size_limit error for a response cut off after `size` bytes, over `cap`."""
    return make_error(
        ErrorKind.SIZE_LIMIT,
        f"{what} exceeded the {cap:,}-byte cap (cut off after {size:,} bytes)",
        details={"budget": cap, "value": size},
    )


class ResponseCut(httpx2.StreamError):
    """A JSON body refused as it arrived; the SDK answers its request with a parse error."""


class EventStreamCut(httpx2.SSEError):
    """An event stream refused as it arrived; the SDK resolves its request as abandoned."""


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

    def __init__(self, sizes: deque[int], cap: int | None = None) -> None:
        self.sizes = sizes
        self.cap = cap
        self.over: int | None = None  # the size of the first event found over `cap`
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
        if (
            size is not None
            and isinstance(message, types.JSONRPCResponse | types.JSONRPCError)
            and message.id is not None
        ):
            self._sizes.add(message.id, size)
        return item

    def __aiter__(self) -> MeteredReadStream[T]:
        return self

    async def __anext__(self) -> T:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError) as exc:
            raise StopAsyncIteration from exc


class _CappedBody(httpx2.AsyncByteStream):
    """A POST response body counted and checked as it arrives.

    Over the cap (the whole body for JSON, one event for an event stream) it files
    a size_limit fault and stops reading. A JSON body that breaks off files a
    connection fault: the SDK would otherwise let the transport error end the
    whole session, losing which page it was.
    """

    def __init__(
        self, inner: httpx2.AsyncByteStream, request_id: RequestId, sizes: ResponseSizes, faults: RequestFaults,
        cap: int | None, events: bool,
    ) -> None:  # fmt: skip
        self._inner = inner
        self._id = request_id
        self._sizes = sizes
        self._faults = faults
        self._cap = cap
        self._events = SseEventMeter(deque(maxlen=0), cap) if events else None
        self._total = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        cut = EventStreamCut if self._events is not None else ResponseCut
        chunks = aiter(self._inner)
        while True:
            try:
                chunk = await anext(chunks)
            except StopAsyncIteration:
                return
            except httpx2.TransportError as exc:
                if self._events is not None:
                    raise  # a broken event stream may be resumed: the SDK decides
                self._faults.add(self._id, _broken_off(exc, self._total))
                raise cut(str(exc)) from exc
            self._total += len(chunk)
            self._sizes.add(self._id, len(chunk))
            over = self._over(chunk)
            if over is not None:
                self._faults.add(self._id, over_cap(over, self._cap or 0))
                raise cut(f"over the {self._cap}-byte cap")
            yield chunk

    def _over(self, chunk: bytes) -> int | None:
        if self._cap is None:
            return None
        if self._events is None:
            return self._total if self._total > self._cap else None
        self._events.feed(chunk)
        return self._events.over

    async def aclose(self) -> None:
        await self._inner.aclose()


def _broken_off(exc: httpx2.TransportError, received: int) -> CatalogError:
    if isinstance(exc, httpx2.TimeoutException):
        return make_error(ErrorKind.TIMEOUT, f"the response stopped arriving after {received:,} bytes")
    return make_error(ErrorKind.CONNECTION, f"the response broke off after {received:,} bytes: {exc}")


def _request_id_of(body: bytes) -> RequestId | None:
    # Our own request, small: parsing it once is cheaper than anything else that finds its id.
    try:
        message = json.loads(body)
    except ValueError:
        return None
    request_id = message.get("id") if isinstance(message, dict) else None
    return request_id if isinstance(request_id, int | str) else None


def request_id_of(request: httpx2.Request) -> RequestId | None:
    """The JSON-RPC id a POST carries, or None (another method, a notification, a body not yet read)."""
    if request.method != "POST":
        return None
    try:
        return _request_id_of(request.content)
    except httpx2.RequestNotRead:
        return None


# The extension an OAuth flow's own requests carry (metadata, registration, token): their response is
# capped at its value in bytes. The SDK reads those responses whole, with no limit of its own.
AUTH_CAP = "catalog_inspector.auth_cap"


class _CappedAuthBody(httpx2.AsyncByteStream):
    """An OAuth flow's response, cut off at its cap: the flow fails (step and size said) instead of reading on."""

    def __init__(self, inner: httpx2.AsyncByteStream, cap: int) -> None:
        self._inner = inner
        self._cap = cap

    async def __aiter__(self) -> AsyncIterator[bytes]:
        total = 0
        async for chunk in self._inner:
            total += len(chunk)
            if total > self._cap:
                raise ResponseCut(f"the response exceeded the {self._cap:,}-byte cap")
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


def _origin(url: httpx2.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


def _redirected_away(request: httpx2.Request, response: httpx2.Response) -> CatalogError | None:
    location = response.headers.get("location")
    if not response.is_redirect or location is None:
        return None
    target = request.url.join(location)
    if _origin(target) == _origin(request.url):
        return None
    origin = f"{request.url.scheme}://{request.url.netloc.decode()}"
    return make_error(
        ErrorKind.CONNECTION,
        f"the server redirected to another origin ({redacted_url(str(target))}): not followed, "
        f"so your headers stay with {origin}",
        details={"status": response.status_code, "location": redacted_url(str(target))},
    )


def _refused_status(request: httpx2.Request, response: httpx2.Response) -> CatalogError | None:
    """The reason for an HTTP error status on a Streamable HTTP POST, when the SDK would hide it.

    The SDK answers such a request with a stand-in ("Server returned an error
    response") that names neither the status nor the URL. A JSON body may be the
    server's own JSON-RPC error, which the SDK passes on: that one is the server's
    to tell. A 404 inside a session is the SDK's "Session terminated", kept too.
    """
    status = response.status_code
    if status < 400 or response.headers.get("content-type", "").lower().startswith("application/json"):
        return None
    if status == 404 and "mcp-session-id" in request.headers:
        return None
    if status == 405:
        words, like = "this endpoint does not take Streamable HTTP requests", "as legacy SSE endpoints do"
        return http_status_error("POST", request.url, status, words=words, hint=like, try_transport="sse")
    return http_status_error("POST", request.url, status)


class MeteredHTTPTransport(httpx2.AsyncBaseTransport):
    """An httpx transport that counts response bytes as they arrive.

    Streamable HTTP: a POST's response bytes go to the id of the request it
    carried; with `cap` and `faults`, the body is cut off at the cap as it
    arrives and redirects to another origin are filed as faults.
    Legacy SSE (`events` given): the GET event stream is split into events for
    `SseEventMeter`; an event over `cap` ends the stream and `on_stream_fault` hears why.
    With `auth` (an OAuth provider handles 401 and 403: it files what they mean itself), an
    OAuth flow's own requests (`AUTH_CAP`) have their responses capped and are not metered.
    """

    def __init__(
        self,
        inner: httpx2.AsyncBaseTransport,
        sizes: ResponseSizes,
        events: deque[int] | None = None,
        *,
        cap: int | None = None,
        faults: RequestFaults | None = None,
        on_stream_fault: Callable[[CatalogError], None] | None = None,
        auth: bool = False,
    ) -> None:
        self._inner = inner
        self._auth = auth
        self._sizes = sizes
        self._events = events
        self._cap = cap
        self._faults = faults if faults is not None else RequestFaults()
        self._on_stream_fault = on_stream_fault

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        stream = response.stream
        if not isinstance(stream, httpx2.AsyncByteStream):
            return response
        auth_cap = request.extensions.get(AUTH_CAP)
        if isinstance(auth_cap, int):
            response.stream = _CappedAuthBody(stream, auth_cap)
            return response
        content_type = response.headers.get("content-type", "").lower()
        if request.method == "GET" and self._events is not None:
            if content_type.startswith("text/event-stream"):  # not a 401's body, nor metadata
                meter = SseEventMeter(self._events, self._cap)
                response.stream = _EventStream(stream, meter, self._on_stream_fault)
        elif request.method == "POST":
            request_id = request_id_of(request)
            if request_id is None:
                return response
            challenged = self._auth and response.status_code in (401, 403)
            if (away := _redirected_away(request, response)) is not None:
                self._faults.add(request_id, away)
            elif self._events is None and not challenged and (status := _refused_status(request, response)):
                self._faults.add(request_id, status)
            if challenged:
                # Answered again once signed in: this body is not the response's size, and the provider says why.
                response.stream = _CappedBody(stream, request_id, ResponseSizes(), self._faults, self._cap, False)
            elif self._events is None:
                events = response.headers.get("content-type", "").lower().startswith("text/event-stream")
                response.stream = _CappedBody(stream, request_id, self._sizes, self._faults, self._cap, events)
            else:
                # Legacy SSE answers on the GET stream; a POST's own body is only an acknowledgement.
                response.stream = _CappedBody(stream, request_id, ResponseSizes(), self._faults, self._cap, False)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


class _EventStream(httpx2.AsyncByteStream):
    """The legacy SSE GET stream: each event's size is queued; an event over the cap ends the stream."""

    def __init__(
        self, inner: httpx2.AsyncByteStream, meter: SseEventMeter, report: Callable[[CatalogError], None] | None
    ) -> None:
        self._inner = inner
        self._meter = meter
        self._report = report

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._inner:
            self._meter.feed(chunk)
            if self._meter.over is not None:
                error = over_cap(self._meter.over, self._meter.cap or 0, "an event on the server's stream")
                if self._report is not None:
                    self._report(error)
                raise EventStreamCut(error.info.message)
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()
