"""Snapshots: everything one walk of a server found, frozen, with a stable JSON form.

Items are kept exactly as the server sent them (MCP wire JSON, camelCase).
`format: mcp-catalog-snapshot/1` round-trips through `to_json`/`from_json`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal

import anyio
import mcp_types as types

from catalog_inspector.core.config import Limits
from catalog_inspector.core.connection import Connection
from catalog_inspector.core.enumerator import LIST_KINDS, ListKind, PageRecord, Timeline, walk_list
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind, make_error

__all__ = ["FORMAT", "ListResult", "Snapshot", "failed_snapshot", "source_of", "take_snapshot"]

FORMAT = "mcp-catalog-snapshot/1"

ListStatus = Literal["complete", "rejected", "failed", "not_offered"]
Status = Literal["complete", "rejected", "failed"]


@dataclass(frozen=True)
class ListResult:
    """One list of a snapshot: its status, its items (only when complete) and its timeline."""

    status: ListStatus
    items: tuple[dict[str, Any], ...] = ()
    pages: tuple[PageRecord, ...] = ()
    error: ErrorInfo | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "items": list(self.items),
            "pages": [p.to_json() for p in self.pages],
            "error": self.error.to_json() if self.error else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ListResult:
        error = data.get("error")
        return cls(
            status=data["status"],
            items=tuple(data.get("items", ())),
            pages=tuple(PageRecord.from_json(p) for p in data.get("pages", ())),
            error=ErrorInfo.from_json(error) if error else None,
        )


NOT_OFFERED = ListResult("not_offered")


@dataclass(frozen=True)
class Snapshot:
    """What one walk of one server found.

    Attributes:
        status/error: the whole snapshot; the first list that failed decides them.
        server: name, version (and title) from the server's own info, plus protocol_version.
        lists: tools, resources, resource_templates, prompts.
        source: the configured server's name and how it was reached.
    """

    status: Status
    error: ErrorInfo | None
    server: dict[str, Any]
    capabilities: dict[str, Any]
    instructions: str | None
    lists: dict[str, ListResult]
    source: dict[str, Any] = field(default_factory=dict)
    taken_at: str = ""
    duration_ms: float = 0.0

    @property
    def tools(self) -> ListResult:
        return self.lists["tools"]

    def to_json(self) -> dict[str, Any]:
        tools = self.tools
        return {
            "format": FORMAT,
            "status": self.status,
            "error": self.error.to_json() if self.error else None,
            "server": self.server,
            "source": self.source,
            "taken_at": self.taken_at,
            "duration_ms": self.duration_ms,
            "capabilities": self.capabilities,
            "instructions": self.instructions,
            "tools": list(tools.items) if tools.status == "complete" else [],
            "pages": [p.to_json() for p in tools.pages],
            "tools_status": tools.status,
            "tools_error": tools.error.to_json() if tools.error else None,
            **{name: self.lists[name].to_json() for name in ("resources", "resource_templates", "prompts")},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Snapshot:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document (format is {data.get('format')!r})")
        tools_error = data.get("tools_error")
        lists = {
            "tools": ListResult(
                status=data.get("tools_status", data["status"]),
                items=tuple(data.get("tools", ())),
                pages=tuple(PageRecord.from_json(p) for p in data.get("pages", ())),
                error=ErrorInfo.from_json(tools_error) if tools_error else None,
            ),
            **{name: ListResult.from_json(data[name]) for name in ("resources", "resource_templates", "prompts")},
        }
        error = data.get("error")
        return cls(
            status=data["status"],
            error=ErrorInfo.from_json(error) if error else None,
            server=dict(data.get("server", {})),
            capabilities=dict(data.get("capabilities", {})),
            instructions=data.get("instructions"),
            lists=lists,
            source=dict(data.get("source", {})),
            taken_at=str(data.get("taken_at", "")),
            duration_ms=float(data.get("duration_ms", 0.0)),
        )


def _summarize(lists: dict[str, ListResult]) -> tuple[Status, ErrorInfo | None]:
    for name in LIST_KINDS:
        result = lists[name]
        if result.status in ("rejected", "failed"):
            assert result.error is not None
            return result.status, replace(result.error, list_name=name)
    return "complete", None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def failed_snapshot(error: CatalogError, source: dict[str, Any], started: float | None = None) -> Snapshot:
    """A snapshot for a server that could not even be connected to."""
    info = error.info
    status: Status = "rejected" if info.kind.rejected else "failed"
    lists = {name: ListResult(status, error=info) for name in LIST_KINDS}
    return Snapshot(
        status=status,
        error=replace(info, list_name="tools"),
        server={"name": None, "version": None, "protocol_version": None},
        capabilities={},
        instructions=None,
        lists=lists,
        source=source,
        taken_at=_now(),
        duration_ms=(time.perf_counter() - started) * 1000 if started is not None else 0.0,
    )


async def _walk_one(
    connection: Connection, kind: ListKind, limits: Limits, deadline: float, on_page: Callable[[str, PageRecord], None] | None
) -> ListResult:
    timeline = Timeline(on_page=(lambda record: on_page(kind.name, record)) if on_page else None)

    async def fetch(cursor: str | None) -> dict[str, Any]:
        connection.check_faults()
        params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        raw = await connection.request(kind.request(params))
        connection.check_faults()
        return raw

    if anyio.current_time() >= deadline:
        message = f"not walked: the overall deadline of {limits.deadline:g} s had run out"
        return ListResult("failed", error=ErrorInfo(ErrorKind.TIMEOUT, message))
    try:
        with anyio.fail_after(deadline - anyio.current_time()):
            items = await walk_list(kind, fetch, limits, timeline)
    except CatalogError as exc:
        status: ListStatus = "rejected" if exc.kind.rejected else "failed"
        return ListResult(status, (), tuple(timeline.pages), exc.info)
    except TimeoutError:
        page = timeline.fail_in_flight(ErrorKind.TIMEOUT)
        info = make_error(
            ErrorKind.TIMEOUT, f"the overall deadline of {limits.deadline:g} s ran out while waiting for page {page}", page
        ).info
        return ListResult("failed", (), tuple(timeline.pages), info)
    return ListResult("complete", tuple(items), tuple(timeline.pages))


async def take_snapshot(
    connection: Connection,
    limits: Limits,
    *,
    deadline: float | None = None,
    on_page: Callable[[str, PageRecord], None] | None = None,
    started: float | None = None,
) -> Snapshot:
    """Walk every list the server offers, each to its end or its first offence.

    Args:
        deadline: absolute `anyio.current_time()` by which everything must be done
            (default: `limits.deadline` from now).
        on_page: called with (list name, page) as pages arrive.
    """
    started = started if started is not None else time.perf_counter()
    deadline = deadline if deadline is not None else anyio.current_time() + limits.deadline
    lists: dict[str, ListResult] = {}
    broken_in: str | None = None
    for name, kind in LIST_KINDS.items():
        if connection.capabilities.get(kind.capability) is None:
            lists[name] = NOT_OFFERED
        elif broken_in is not None:
            # The connection is unusable; say so instead of repeating the other list's error.
            message = f"not walked: the connection failed while walking {broken_in}"
            lists[name] = ListResult("failed", error=ErrorInfo(ErrorKind.CONNECTION, message))
        else:
            lists[name] = await _walk_one(connection, kind, limits, deadline, on_page)
            if connection.faults.first is not None:
                broken_in = name
    status, error = _summarize(lists)
    info = connection.server_info
    return Snapshot(
        status=status,
        error=error,
        server={
            "name": info.get("name"),
            "version": info.get("version"),
            "title": info.get("title"),
            "protocol_version": connection.protocol_version,
        },
        capabilities=connection.capabilities,
        instructions=connection.instructions,
        lists=lists,
        source=source_of(connection.spec),
        taken_at=_now(),
        duration_ms=(time.perf_counter() - started) * 1000,
    )


def source_of(spec: Any) -> dict[str, Any]:
    return {"name": spec.name, "transport": spec.transport, "target": spec.describe()}

