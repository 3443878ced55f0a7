"""Taking a snapshot: walk every list a connected server offers, each to its end or its first offence."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import anyio
import mcp_types as types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from catalog_inspector.core.catalog import (
    LIST_KINDS,
    NOT_OFFERED,
    Fetched,
    ListKind,
    ListResult,
    ListStatus,
    PageRecord,
    Snapshot,
    Timeline,
    now_iso,
    source_of,
    summarize,
    walk_list,
)
from catalog_inspector.core.config import Limits
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind, make_error
from catalog_inspector.core.gc_pause import collector_paused
from catalog_inspector.core.jsonrpc_codes import METHOD_NOT_FOUND
from catalog_inspector.core.session.connection import Connection
from catalog_inspector.core.transport import HeaderScreen

__all__ = ["REQUESTS", "OnItems", "take_snapshot"]

OnItems = Callable[[str, list[dict[str, Any]]], None]  # (list name, the items of a page the walk took)

# The protocol binding of each list in `core.catalog.lists` (kept here: it needs the SDK's types).
REQUESTS: dict[str, Callable[[types.PaginatedRequestParams | None], Any]] = {
    "tools": lambda p: types.ListToolsRequest(params=p),
    "resources": lambda p: types.ListResourcesRequest(params=p),
    "resource_templates": lambda p: types.ListResourceTemplatesRequest(params=p),
    "prompts": lambda p: types.ListPromptsRequest(params=p),
}


async def _walk_one(
    connection: Connection,
    kind: ListKind,
    limits: Limits,
    deadline: float,
    on_page: Callable[[str, PageRecord], None] | None,
    screen: HeaderScreen | None = None,
    on_items: OnItems | None = None,
) -> ListResult:
    timeline = Timeline(
        on_page=(lambda record: on_page(kind.name, record)) if on_page else None,
        on_items=(lambda items: on_items(kind.name, items)) if on_items else None,
    )
    make_request = REQUESTS[kind.name]

    async def fetch(cursor: str | None) -> Fetched:
        connection.check_faults()
        params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        fetched = await connection.request(make_request(params))
        connection.check_faults()
        if screen is not None:
            screen.page(fetched.result)
        return fetched

    if anyio.current_time() >= deadline:
        message = f"not walked: the overall deadline of {limits.deadline:g} s had run out"
        return ListResult("failed", error=ErrorInfo(ErrorKind.TIMEOUT, message))
    try:
        with anyio.fail_after(deadline - anyio.current_time()):
            items = await walk_list(kind, fetch, limits, timeline)
    except CatalogError as exc:
        status: ListStatus = "rejected" if exc.kind.rejected else "failed"
        if kind.name != "tools" and _unimplemented(exc.info):
            status = "unimplemented"  # the server's own "no such method": a finding, not a failed walk
        return ListResult(status, (), tuple(timeline.pages), exc.info)
    except TimeoutError:
        page = timeline.fail_in_flight(ErrorKind.TIMEOUT)
        info = make_error(
            ErrorKind.TIMEOUT,
            f"the overall deadline of {limits.deadline:g} s ran out while waiting for page {page}",
            page,
            details={"deadline_s": limits.deadline},
        ).info
        return ListResult("failed", (), tuple(timeline.pages), info)
    return ListResult("complete", tuple(items), tuple(timeline.pages))


def _unimplemented(info: ErrorInfo) -> bool:
    """-32601 (method not found) to a list's first page: the server offers the list's capability but not the list
    (mcp-server-sqlite declares `resources` and has no `resources/templates/list`). The tools list never is: a
    server that declares tools and cannot list them has no tool catalog."""
    return info.kind is ErrorKind.SERVER_ERROR and info.code == METHOD_NOT_FOUND and info.page == 0


async def _walk_all(
    connection: Connection,
    limits: Limits,
    deadline: float,
    on_page: Callable[[str, PageRecord], None] | None,
    screen: HeaderScreen | None,
    on_items: OnItems | None,
) -> dict[str, ListResult]:
    lists: dict[str, ListResult] = {}
    broken_in: str | None = None
    for name, kind in LIST_KINDS.items():
        if connection.capabilities.get(kind.capability) is None:
            lists[name] = NOT_OFFERED
        elif broken_in is not None:
            # The connection is unusable; say so instead of repeating the other list's error.
            message = f"not walked: the connection failed while walking {LIST_KINDS[broken_in].plural}"
            lists[name] = ListResult("failed", error=ErrorInfo(ErrorKind.CONNECTION, message))
        else:
            lists[name] = await _walk_one(
                connection, kind, limits, deadline, on_page, screen if name == "tools" else None, on_items
            )
            if connection.faults.first is not None:
                broken_in = name
    return lists


async def take_snapshot(
    connection: Connection,
    limits: Limits,
    *,
    deadline: float | None = None,
    on_page: Callable[[str, PageRecord], None] | None = None,
    started: float | None = None,
    on_items: OnItems | None = None,
) -> Snapshot:
    """Walk every list the server offers, each to its end or its first offence.

    Args:
        deadline: absolute `anyio.current_time()` by which everything must be done
            (default: `limits.deadline` from now).
        on_page: called with (list name, page) as pages arrive.
        on_items: called with (list name, items) for each page the walk took (`Timeline.on_items`).
    """
    started = started if started is not None else time.perf_counter()
    deadline = deadline if deadline is not None else anyio.current_time() + limits.deadline
    # 2026-07-28: a tool's x-mcp-header annotations decide its calls' headers, or exclude it.
    screen = HeaderScreen() if connection.protocol_version in MODERN_PROTOCOL_VERSIONS else None
    with collector_paused():
        lists = await _walk_all(connection, limits, deadline, on_page, screen, on_items)
    status, error = summarize(lists)
    tools = lists["tools"]
    if tools.status == "complete" and screen is not None:
        connection.param_headers.learn(tools.items, screen)
    excluded = tuple({"name": name, "reason": why} for name, why in connection.param_headers.excluded.items())
    info = connection.server_info
    return Snapshot(
        status=status,
        error=error,
        server={
            "name": info.get("name"),
            "version": info.get("version"),
            "title": info.get("title"),
            "protocol_version": connection.protocol_version,
            **({"icons": info["icons"]} if info.get("icons") else {}),  # as sent: judged where they are shown
        },
        capabilities=connection.capabilities,
        instructions=connection.instructions,
        lists=lists,
        source=source_of(connection.spec),
        taken_at=now_iso(),
        duration_ms=(time.perf_counter() - started) * 1000,
        excluded_tools=excluded,
    )
