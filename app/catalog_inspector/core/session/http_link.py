"""Reaching a server over HTTP: Streamable HTTP and legacy SSE, metered and capped, signed in to with OAuth.

`core.session.connection` imports this only for an HTTP server: httpx, the meter, legacy SSE and
the OAuth client stay unloaded in a walk of a stdio server (~55 ms of a command's ~0.65 s of imports).
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import httpx2
from mcp.client.streamable_http import streamable_http_client

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.oauth import InspectorOAuth
from catalog_inspector.core.transport import (
    Faults,
    MeteredHTTPTransport,
    MeteredReadStream,
    ParamHeaders,
    RequestFaults,
    ResponseSizes,
    address_of,
    legacy_sse_client,
)

__all__ = ["endpoint_words", "http_transport"]


def endpoint_words(spec: ServerSpec) -> str:
    """`host:port` of an HTTP server's URL, as a person writes it ("the server" for a URL that is not one)."""
    try:
        return address_of(httpx2.URL(spec.url))[2]
    except httpx2.InvalidURL:
        return "the server"


def http_transport(
    spec: ServerSpec,
    limits: Limits,
    sizes: ResponseSizes,
    refused: RequestFaults,
    faults: Faults,
    setup_timeout: float,
    auth: InspectorOAuth | None = None,
    params: ParamHeaders | None = None,
) -> AbstractAsyncContextManager[Any]:
    """The read and write streams of an HTTP server's transport (`spec.transport` "http" or "sse")."""
    if spec.transport == "sse":
        return _sse(spec, limits, sizes, refused, faults, setup_timeout, auth)
    metered = MeteredHTTPTransport(
        httpx2.AsyncHTTPTransport(),
        sizes,
        cap=limits.max_page_bytes,
        faults=refused,
        auth=auth is not None,
        params=params,
    )
    # The OAuth flow's own requests are built by the provider: the configured headers never go with them.
    http = httpx2.AsyncClient(
        headers=dict(spec.headers),
        timeout=httpx2.Timeout(limits.request_timeout, read=max(limits.request_timeout, 300.0)),
        transport=metered,
        auth=auth,
    )
    return _with_client(
        http, streamable_http_client(spec.url, http_client=http, max_sse_event_size=limits.max_page_bytes)
    )


@asynccontextmanager
async def _sse(
    spec: ServerSpec,
    limits: Limits,
    sizes: ResponseSizes,
    refused: RequestFaults,
    faults: Faults,
    setup_timeout: float,
    auth: InspectorOAuth | None = None,
) -> AsyncIterator[Any]:
    events: deque[int] = deque()
    cap = limits.max_page_bytes
    metered = MeteredHTTPTransport(
        httpx2.AsyncHTTPTransport(),
        sizes,
        events,
        cap=cap,
        faults=refused,
        on_stream_fault=faults.report,
        auth=auth is not None,
    )
    timeout = httpx2.Timeout(limits.request_timeout, read=limits.deadline)
    async with (
        httpx2.AsyncClient(headers=dict(spec.headers), timeout=timeout, transport=metered, auth=auth) as http,
        legacy_sse_client(
            spec.url, http, cap=cap, setup_timeout=setup_timeout, faults=refused, on_fault=faults.report
        ) as (read, write),
    ):
        yield MeteredReadStream(read, events, sizes), write


@asynccontextmanager
async def _with_client(http: httpx2.AsyncClient, inner: AbstractAsyncContextManager[Any]) -> AsyncIterator[Any]:
    async with http, inner as streams:
        yield streams
