"""The main modes over real Streamable HTTP and legacy SSE servers on 127.0.0.1."""

from __future__ import annotations

import anyio
import pytest

from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.session import SessionWorker
from tests.helpers import http_demo

LIMITS = Limits(request_timeout=3.0, deadline=30.0, max_pages=20)


async def snapshot_at(url: str, transport: str = "http", limits: Limits = LIMITS) -> Snapshot:
    worker = SessionWorker(ServerSpec(name="remote", transport=transport, url=url), limits)  # type: ignore[arg-type]
    with anyio.fail_after(60):
        return await worker.walk_once()


@pytest.mark.anyio
async def test_normal_catalog_over_streamable_http() -> None:
    with http_demo("normal") as url:
        snapshot = await snapshot_at(url)
    assert snapshot.status == "complete"
    assert [(p.index, p.items) for p in snapshot.tools.pages] == [(0, 1), (1, 0), (2, 2)]
    assert snapshot.server["protocol_version"] == "2026-07-28"


@pytest.mark.anyio
async def test_normal_catalog_over_legacy_sse() -> None:
    with http_demo("normal", sse=True) as url:
        snapshot = await snapshot_at(url, "sse")
    assert snapshot.status == "complete"
    assert len(snapshot.tools.items) == 3


@pytest.mark.anyio
async def test_empty_string_cursor_over_http() -> None:
    with http_demo("empty-cursor") as url:
        snapshot = await snapshot_at(url)
    assert snapshot.status == "complete" and [p.cursor for p in snapshot.tools.pages] == [None, ""]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("mode", "kind", "page"),
    [
        ("duplicate", "duplicate_name", 2),
        ("cycle", "cursor_repeated", 2),
        ("repeat", "cursor_repeated", 1),
        ("generation", "server_error", 1),
        ("hang", "timeout", 1),
    ],
)
async def test_bad_walks_over_http(mode: str, kind: str, page: int) -> None:
    with http_demo(mode) as url:
        snapshot = await snapshot_at(url)
    assert snapshot.error is not None
    assert (snapshot.error.kind, snapshot.error.page) == (kind, page)
    assert snapshot.tools.items == ()


@pytest.mark.anyio
async def test_endless_over_http_stops_at_the_page_budget() -> None:
    with http_demo("endless") as url:
        snapshot = await snapshot_at(url, limits=Limits(request_timeout=3.0, deadline=30.0, max_pages=5))
    assert snapshot.error is not None and (snapshot.error.kind, snapshot.error.page) == ("page_limit", 4)


@pytest.mark.anyio
async def test_nothing_listening_is_a_connection_error() -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    snapshot = await snapshot_at(f"http://127.0.0.1:{port}/mcp")
    assert snapshot.status == "failed"
    assert snapshot.error is not None and snapshot.error.kind == "connection"


@pytest.mark.anyio
async def test_a_wrong_path_is_an_http_failure_not_a_server_answer() -> None:
    with http_demo("normal") as url:
        snapshot = await snapshot_at(url.replace("/mcp", "/not-mcp"))
    assert snapshot.status == "failed"
    assert snapshot.error is not None and snapshot.error.kind == "connection"
    assert "404" in snapshot.error.message
