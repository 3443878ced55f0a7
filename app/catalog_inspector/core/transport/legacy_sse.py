"""The legacy HTTP+SSE client transport, bounded: our byte cap, a deadline on setting up, no hang on failure.

The SDK's `sse_client` follows the same protocol (GET an event stream, wait for
the `endpoint` event, POST each message there) but cannot be used as it is:

- it reads events under its own fixed 1 MiB limit (`sse_within_origin`'s
  default, which `sse_client` does not expose), so a page under our cap failed
  and a page over it was not called a size limit;
- its reader hands a failure to a zero-capacity stream that nobody reads until
  the endpoint has arrived, so a server that never sends the endpoint held a
  walk forever, whatever the deadline;
- a POST that fails ends its writer with a log line, leaving the request to
  wait for its timeout.

This module keeps the SDK's pieces (origin-checked requests and event source,
message parsing) and fixes those three.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urljoin, urlparse

import anyio
import httpx2
import mcp_types as types
from anyio.abc import TaskStatus
from mcp.shared.message import SessionMessage

from catalog_inspector.core.errors import CatalogError, ErrorKind, make_error
from catalog_inspector.core.redact import redacted_url
from catalog_inspector.core.transport.classify import classify
from catalog_inspector.core.transport.http_faults import http_status_error
from catalog_inspector.core.transport.sdk import request_within_origin, sse_within_origin
from catalog_inspector.core.transport.sizes import RequestFaults
from catalog_inspector.core.transport.wire import parse_message

__all__ = ["legacy_sse_client"]

FRAMING_ALLOWANCE = 64 * 1024  # the SDK's parser counts `data:` prefixes too; our meter refuses first
# How a Streamable HTTP endpoint answers a GET without a session: it speaks the other transport.
STREAMABLE_ANSWERS = frozenset({400, 405, 406})
NOT_LEGACY = "this endpoint does not speak legacy SSE"


@asynccontextmanager
async def legacy_sse_client(
    url: str,
    client: httpx2.AsyncClient,
    *,
    cap: int,
    setup_timeout: float,
    faults: RequestFaults,
    on_fault: Callable[[CatalogError], None],
) -> AsyncIterator[tuple[Any, Any]]:
    """Open the event stream, wait up to `setup_timeout` for the endpoint, yield (read, write) streams.

    `client` carries the headers, timeouts and metering transport. A failed POST
    answers its request at once with the classified reason filed in `faults`.

    Raises:
        CatalogError: no event stream (connection; with `try_transport` when the answer looks
            like Streamable HTTP), no endpoint in time (timeout), or an endpoint on another origin (protocol).
    """
    async with sse_within_origin(client, url, max_event_size=cap + FRAMING_ALLOWANCE) as events:
        _check_event_stream(url, events.response)
        read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)

        async def reader(task_status: TaskStatus[str] = anyio.TASK_STATUS_IGNORED) -> None:
            started = False
            try:
                async for sse in events:
                    if sse.event == "endpoint" and not started:
                        endpoint = _endpoint(url, sse.data)
                        started = True
                        task_status.started(endpoint)
                    elif sse.event == "message" and sse.data:
                        try:
                            message = parse_message(sse.data)  # strict JSON: NaN or Infinity is refused
                        except ValueError as exc:
                            await read_writer.send(exc)
                            continue
                        await read_writer.send(SessionMessage(message))
            except Exception as exc:
                if not started:
                    raise  # `start()` re-raises it: nothing reads the stream yet
                await read_writer.send(exc)
            finally:
                await read_writer.aclose()

        async def post(endpoint: str, session_message: SessionMessage) -> None:
            message = session_message.message
            try:
                response = await request_within_origin(
                    client, "POST", endpoint, json=message.model_dump(by_alias=True, mode="json", exclude_unset=True)
                )
                response.raise_for_status()
            except Exception as exc:
                if not isinstance(message, types.JSONRPCRequest):
                    on_fault(classify(exc))
                    return
                filed = faults.pop(message.id)  # the transport's own reason (over the cap, redirected) first
                faults.add(message.id, filed or classify(exc))
                error = types.ErrorData(code=types.CONNECTION_CLOSED, message=f"POST failed: {exc}")
                reply = types.JSONRPCError(jsonrpc="2.0", id=message.id, error=error)
                with anyio.move_on_after(1):
                    await read_writer.send(SessionMessage(reply))

        async def writer(endpoint: str) -> None:
            async with write_reader, anyio.create_task_group() as posts:
                async for session_message in write_reader:
                    posts.start_soon(post, endpoint, session_message)

        async with read_writer, read_stream, write_stream, write_reader, anyio.create_task_group() as group:
            try:
                with anyio.fail_after(setup_timeout):
                    endpoint = await group.start(reader)
            except TimeoutError as exc:
                raise make_error(
                    ErrorKind.TIMEOUT, f"the server sent no endpoint event within {setup_timeout:g} s"
                ) from exc
            group.start_soon(writer, endpoint)
            try:
                yield read_stream, write_stream
            finally:
                group.cancel_scope.cancel()


def _check_event_stream(url: str, response: httpx2.Response) -> None:
    """Raise unless the GET opened an event stream; say so when the endpoint speaks Streamable HTTP instead."""
    status = response.status_code
    if status in STREAMABLE_ANSWERS:
        like = "as Streamable HTTP endpoints do"
        raise http_status_error("GET", url, status, words=NOT_LEGACY, hint=like, try_transport="http")
    if status >= 300:
        raise http_status_error("GET", url, status)
    content_type = response.headers.get("content-type", "")
    if not content_type.lower().startswith("text/event-stream"):
        shown = repr(content_type[:100]) if content_type else "none"
        raise http_status_error("GET", url, status, words=NOT_LEGACY, hint=f"not an event stream: Content-Type {shown}")


def _endpoint(url: str, data: str) -> str:
    endpoint = urljoin(url, data)
    ours, theirs = urlparse(url), urlparse(endpoint)
    if (ours.scheme, ours.netloc) != (theirs.scheme, theirs.netloc):
        raise make_error(ErrorKind.PROTOCOL, f"the server's endpoint is on another origin: {redacted_url(endpoint)}")
    return endpoint
