"""The streams in front of a transport's: the requests the SDK sends, seen on their way, and legacy SSE's sizes.

The id a request was sent under is minted inside the SDK; `ProbingWriteStream`
sees it on its way to the transport, in the sending task, and hands it to the
caller through a context variable (`probe_request_id`). The same stream adds, in the same way, the
extensions one request declares beyond the session's (`declaring_extensions`).
`MeteredReadStream` files each legacy SSE response under its id with the size of its event
(`core.transport.meter` counts them). No HTTP stack: a stdio walk uses these too.
"""

from __future__ import annotations

import contextvars
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

from catalog_inspector.core.transport.sizes import RequestId, ResponseSizes

__all__ = [
    "MeteredReadStream",
    "ProbingWriteStream",
    "WrappedReadStream",
    "declaring_extensions",
    "probe_request_id",
]

T = TypeVar("T")


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


_declared: contextvars.ContextVar[dict[str, dict[str, Any]] | None] = contextvars.ContextVar(
    "declared_extensions", default=None
)


@contextmanager
def declaring_extensions(extensions: dict[str, dict[str, Any]]) -> Iterator[None]:
    """The requests this task sends inside the block declare `extensions` too (2026-07-28 per-request
    capabilities, `_meta` `io.modelcontextprotocol/clientCapabilities`).

    Why here and not in the session: the SDK stamps one capabilities object, fixed at the
    handshake, on every request, and a client declaring the tasks extension may be
    answered with a task on *any* call. An inspector declares it only on the calls a person
    asked to run as tasks, so that a call without it shows what a client without tasks gets.
    """
    token = _declared.set(extensions)
    try:
        yield
    finally:
        _declared.reset(token)


def _declare(message: types.JSONRPCRequest, extensions: dict[str, dict[str, Any]]) -> None:
    meta = message.params.get("_meta") if isinstance(message.params, dict) else None
    capabilities = meta.get(types.CLIENT_CAPABILITIES_META_KEY) if isinstance(meta, dict) else None
    if not isinstance(meta, dict) or not isinstance(capabilities, dict):
        return  # a handshake-era request: no per-request capabilities to add to
    known = capabilities.get("extensions")
    # A new object: the SDK hands every request the same capabilities dict.
    meta[types.CLIENT_CAPABILITIES_META_KEY] = {
        **capabilities,
        "extensions": {**(known if isinstance(known, dict) else {}), **extensions},
    }


class ProbingWriteStream(_Wrapped, Generic[T]):
    """The write stream the SDK session sends into; notes each request's id for `probe_request_id`, and adds
    the extensions of `declaring_extensions` to its capabilities.

    The SDK awaits `send()` in the task that made the request, so the context
    variables set by that task are visible here. `on_request` hears of every request sent
    (the completing stream keeps list results' cache hints for them).
    """

    def __init__(self, inner: Any, on_request: Callable[[types.JSONRPCRequest], None] | None = None) -> None:
        super().__init__(inner)
        self._on_request = on_request

    async def send(self, item: T, /) -> None:
        if isinstance(item, SessionMessage) and isinstance(item.message, types.JSONRPCRequest):
            ids = _sent_ids.get()
            if ids is not None:
                ids.append(item.message.id)
            declared = _declared.get()
            if declared:
                _declare(item.message, declared)
            if self._on_request is not None:
                self._on_request(item.message)
        await self._inner.send(item)


class WrappedReadStream(_Wrapped, Generic[T]):
    """A read stream in front of a transport's: `receive` is the subclass's; iterating and the transport
    context (`last_context`) are the inner stream's."""

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> T:
        item: T = await self._inner.receive()
        return item

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> T:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError) as exc:
            raise StopAsyncIteration from exc


class MeteredReadStream(WrappedReadStream[T]):
    """The legacy SSE read stream: files each delivered response under its id with its event's size."""

    def __init__(self, inner: Any, queued: deque[int], sizes: ResponseSizes) -> None:
        super().__init__(inner)
        self._queued = queued
        self._sizes = sizes

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
