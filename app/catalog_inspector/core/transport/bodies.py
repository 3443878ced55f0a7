"""HTTP response bodies read under a cap, counted once decoded, as they arrive.

httpx decodes a compressed body (`Content-Encoding: gzip`, deflate, br, zstd) only
after the transport has handed it on, so a cap counted on the wire let about a
megabyte of gzip become gigabytes in memory. Here the transport decodes first,
with httpx's own decoders (they yield at most a MiB per step, so nothing inflates
in one go), and drops `Content-Encoding` from the response so nothing decodes it
twice; every cap below counts what a page, an event or a document really is.
Asking for `Accept-Encoding: identity` would not be enough: a hostile server may
compress anyway.

- `CappedBody`: a POST response (JSON body, or event stream event by event), cut
  off at the cap with the reason filed under its request's id;
- `CappedAuthBody`: an OAuth flow's own response, cut off at its cap;
- `EventStream`: the legacy SSE GET stream, each `message` event's size queued.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Callable

import httpx2

from catalog_inspector.core.errors import CatalogError, ErrorKind, make_error
from catalog_inspector.core.text import visible
from catalog_inspector.core.transport.sizes import RequestFaults, RequestId, ResponseSizes, SseEventMeter
from catalog_inspector.core.transport.wire import not_json

__all__ = [
    "CappedAuthBody",
    "CappedBody",
    "EventStream",
    "EventStreamCut",
    "ResponseCut",
    "decoded",
    "over_cap",
]


class ResponseCut(httpx2.StreamError):
    """A JSON body refused as it arrived; the SDK answers its request with a parse error."""


class EventStreamCut(httpx2.SSEError):
    """An event stream refused as it arrived; the SDK resolves its request as abandoned."""


def over_cap(size: int, cap: int, what: str = "a response") -> CatalogError:
    """The size_limit error for a response cut off after `size` bytes, over `cap`."""
    return make_error(
        ErrorKind.SIZE_LIMIT,
        f"{what} exceeded the {cap:,}-byte cap (cut off after {size:,} bytes)",
        details={"budget": cap, "value": size},
    )


def undecodable(exc: httpx2.DecodingError, encoding: str) -> CatalogError:
    """The protocol error for a compressed body that does not decode."""
    return make_error(
        ErrorKind.PROTOCOL,
        f"malformed HTTP response: its {visible(encoding, 40)} compression does not decode ({visible(str(exc), 200)})",
    )


class _Decoded(httpx2.AsyncByteStream):
    """A body as httpx would decode it, piece by piece, read through a response of its own."""

    def __init__(self, raw: httpx2.Response) -> None:
        self._raw = raw

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._raw.aiter_bytes():
            yield chunk

    async def aclose(self) -> None:
        await self._raw.aclose()


def decoded(request: httpx2.Request, response: httpx2.Response, stream: httpx2.AsyncByteStream) -> str | None:
    """Make `response` carry its body decoded (and say no Content-Encoding); return the encoding, or None.

    The headers go with a response of the original's own, which decodes the bytes;
    this one says nothing of them any more, so httpx passes them on as they are.
    """
    codings = [value.strip().lower() for value in response.headers.get_list("content-encoding", split_commas=True)]
    codings = [coding for coding in codings if coding not in ("", "identity")]
    if not codings:
        return None
    raw = httpx2.Response(response.status_code, headers=response.headers, stream=stream, request=request)
    del response.headers["content-encoding"]
    response.headers.pop("content-length", None)  # the length on the wire, not of what is read now
    response.stream = _Decoded(raw)
    return ", ".join(codings)


class CappedBody(httpx2.AsyncByteStream):
    """A response body counted and checked as it arrives.

    Over the cap (the whole body for JSON, one event for an event stream) it files
    a size_limit fault and stops reading. A JSON body that breaks off files a
    connection fault: the SDK would otherwise let the transport error end the
    whole session, losing which page it was. With `refused`, nothing is read: the
    reason is filed and the body cut at once. Without a request id nothing is filed
    (a body no request's caller waits for: the cap still holds).
    """

    def __init__(
        self, inner: httpx2.AsyncByteStream, request_id: RequestId | None, sizes: ResponseSizes,
        faults: RequestFaults, cap: int | None, events: bool, *, encoding: str | None = None,
        refused: CatalogError | None = None, json_body: bool = False,
    ) -> None:  # fmt: skip
        self._inner = inner
        self._id = request_id
        self._sizes = sizes
        self._faults = faults
        self._cap = cap
        self._events = SseEventMeter(deque(maxlen=0), cap, not_json) if events else None
        self._encoding = encoding
        self._refused = refused
        self._total = 0
        self._body = bytearray() if json_body and not events else None  # kept to check it is JSON

    def _file(self, error: CatalogError) -> None:
        if self._id is not None:
            self._faults.add(self._id, error)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        cut = EventStreamCut if self._events is not None else ResponseCut
        if self._refused is not None:
            self._file(self._refused)
            raise cut(self._refused.info.message)
        chunks = aiter(self._inner)
        while True:
            try:
                chunk = await anext(chunks)
            except StopAsyncIteration:
                why = not_json(bytes(self._body)) if self._body else ""
                if why:  # the SDK's parser would take NaN or Infinity: not JSON, and never saved as such
                    self._file(make_error(ErrorKind.PROTOCOL, f"the server sent a response that is not JSON ({why})"))
                    raise ResponseCut(why) from None
                return
            except httpx2.DecodingError as exc:
                self._file(undecodable(exc, self._encoding or "content"))
                raise cut(str(exc)) from exc
            except httpx2.TransportError as exc:
                if self._events is not None:
                    raise  # a broken event stream may be resumed: the SDK decides
                self._file(_broken_off(exc, self._total))
                raise cut(str(exc)) from exc
            self._total += len(chunk)
            if self._id is not None:
                self._sizes.add(self._id, len(chunk))
            over = self._over(chunk)
            if over is not None:
                self._file(over_cap(over, self._cap or 0))
                raise cut(f"over the {self._cap}-byte cap")
            if self._events is not None and self._events.bad:
                error = make_error(
                    ErrorKind.PROTOCOL, f"the server sent an event that is not JSON ({self._events.bad})"
                )
                self._file(error)
                raise cut(error.info.message)
            if self._body is not None:
                self._body += chunk
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


class CappedAuthBody(httpx2.AsyncByteStream):
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


class EventStream(httpx2.AsyncByteStream):
    """The legacy SSE GET stream: each event's size is queued; an event over the cap ends the stream."""

    def __init__(
        self, inner: httpx2.AsyncByteStream, meter: SseEventMeter, report: Callable[[CatalogError], None] | None,
        encoding: str | None = None,
    ) -> None:  # fmt: skip
        self._inner = inner
        self._meter = meter
        self._report = report
        self._encoding = encoding

    def _stop(self, error: CatalogError) -> EventStreamCut:
        if self._report is not None:
            self._report(error)
        return EventStreamCut(error.info.message)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        chunks = aiter(self._inner)
        while True:
            try:
                chunk = await anext(chunks)
            except StopAsyncIteration:
                return
            except httpx2.DecodingError as exc:
                raise self._stop(undecodable(exc, self._encoding or "content")) from exc
            self._meter.feed(chunk)
            if self._meter.over is not None:
                raise self._stop(over_cap(self._meter.over, self._meter.cap or 0, "an event on the server's stream"))
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()
