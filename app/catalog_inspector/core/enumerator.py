"""The bounded enumerator: walks one paginated list to its end, or rejects it.

The walk ends only when a page's next cursor is `None` (the empty string is a
valid cursor). It is bounded by a page budget, an item budget, a byte cap per
response, the set of cursors already sent (catches A->A and A->B->A) and a
duplicate-key check. A walk that stops early is a rejection, never a smaller
success. Every page, good or bad, is recorded on a timeline.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types

from catalog_inspector.core.config import Limits
from catalog_inspector.core.errors import CatalogError, ErrorKind, make_error

__all__ = [
    "LIST_KINDS",
    "ListKind",
    "PageFetcher",
    "PageRecord",
    "Timeline",
    "walk_list",
]


@dataclass(frozen=True)
class ListKind:
    """One paginated list method and how its items are keyed."""

    name: str  # snapshot key: tools, resources, resource_templates, prompts
    method: str  # tools/list …
    result_key: str  # the array in the result: tools, resources, resourceTemplates, prompts
    key_field: str  # what must be unique: name, uri, uriTemplate
    capability: str  # the server capability that offers it
    noun: str  # for messages: "tool name", "resource URI" …
    request: Callable[[types.PaginatedRequestParams | None], Any]


LIST_KINDS: dict[str, ListKind] = {
    k.name: k
    for k in (
        ListKind("tools", "tools/list", "tools", "name", "tools", "tool name", lambda p: types.ListToolsRequest(params=p)),
        ListKind(
            "resources", "resources/list", "resources", "uri", "resources", "resource URI",
            lambda p: types.ListResourcesRequest(params=p),
        ),
        ListKind(
            "resource_templates", "resources/templates/list", "resourceTemplates", "uriTemplate", "resources",
            "resource template", lambda p: types.ListResourceTemplatesRequest(params=p),
        ),
        ListKind(
            "prompts", "prompts/list", "prompts", "name", "prompts", "prompt name",
            lambda p: types.ListPromptsRequest(params=p),
        ),
    )
}


@dataclass(frozen=True)
class PageRecord:
    """One page of a walk as it happened.

    `outcome` is "ok" or the `ErrorKind` that stopped the walk on this page.
    """

    index: int
    cursor: str | None
    next_cursor: str | None
    items: int
    names: tuple[str, ...]
    bytes: int
    latency_ms: float
    outcome: str = "ok"

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "cursor": self.cursor,
            "next_cursor": self.next_cursor,
            "items": self.items,
            "names": list(self.names),
            "bytes": self.bytes,
            "latency_ms": self.latency_ms,
            "outcome": self.outcome,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PageRecord:
        return cls(
            index=int(data["index"]),
            cursor=data.get("cursor"),
            next_cursor=data.get("next_cursor"),
            items=int(data["items"]),
            names=tuple(data.get("names", ())),
            bytes=int(data["bytes"]),
            latency_ms=float(data["latency_ms"]),
            outcome=str(data.get("outcome", "ok")),
        )


PageFetcher = Callable[[str | None], Awaitable[dict[str, Any]]]
"""Sends one list request with the given cursor (None for the first page) and returns the raw result."""


@dataclass
class Timeline:
    """The pages of one walk, appended as they arrive; also the page in flight.

    Attributes:
        pages: finished pages, in order.
        in_flight: (index, cursor, start) of the request being waited on, if any.
        on_page: called with each finished page (for a live view); progress, not a result.
    """

    pages: list[PageRecord] = field(default_factory=list)
    in_flight: tuple[int, str | None, float] | None = None
    on_page: Callable[[PageRecord], None] | None = None

    def add(self, record: PageRecord) -> None:
        self.pages.append(record)
        self.in_flight = None
        if self.on_page is not None:
            self.on_page(record)

    def fail_in_flight(self, kind: ErrorKind) -> int:
        """Record the request that was cut off (by the overall deadline); returns its page index."""
        if self.in_flight is None:
            return len(self.pages)
        index, cursor, start = self.in_flight
        self.add(PageRecord(index, cursor, None, 0, (), 0, (time.perf_counter() - start) * 1000, str(kind)))
        return index


def _short(cursor: str, limit: int = 40) -> str:
    return repr(cursor if len(cursor) <= limit else cursor[:limit] + "…")


def _page_items(kind: ListKind, raw: dict[str, Any], index: int) -> list[dict[str, Any]]:
    items = raw.get(kind.result_key)
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise make_error(ErrorKind.PROTOCOL, f"page {index}: '{kind.result_key}' is not a list of objects", index)
    for item in items:
        if not isinstance(item.get(kind.key_field), str):
            raise make_error(ErrorKind.PROTOCOL, f"page {index}: an item has no string '{kind.key_field}'", index)
    return items


def _next_cursor(raw: dict[str, Any], index: int) -> str | None:
    cursor = raw.get("nextCursor")
    if cursor is not None and not isinstance(cursor, str):
        raise make_error(ErrorKind.PROTOCOL, f"page {index}: nextCursor is not a string", index)
    return cursor


async def walk_list(kind: ListKind, fetch: PageFetcher, limits: Limits, timeline: Timeline) -> list[dict[str, Any]]:
    """Walk every page of `kind` and return all items, exactly as sent.

    Raises:
        CatalogError: `WalkRejected` (a rule or a budget) or `WalkFailed` (no
            usable answer), with the index of the first offending page; that
            page is on the timeline with its outcome set.
    """
    items: list[dict[str, Any]] = []
    first_seen: dict[str, int] = {}
    sent: dict[str, int] = {}
    cursor: str | None = None
    index = 0
    while True:
        start = time.perf_counter()
        timeline.in_flight = (index, cursor, start)
        try:
            raw = await fetch(cursor)
        except CatalogError as exc:
            timeline.add(PageRecord(index, cursor, None, 0, (), 0, (time.perf_counter() - start) * 1000, str(exc.kind)))
            raise make_error(exc.kind, exc.info.message, index, exc.info.code) from exc
        latency = (time.perf_counter() - start) * 1000
        size = len(json.dumps(raw, separators=(",", ":"), ensure_ascii=False).encode())
        try:
            page_items = _page_items(kind, raw, index)
            next_cursor = _next_cursor(raw, index)
        except CatalogError as exc:
            timeline.add(PageRecord(index, cursor, None, 0, (), size, latency, str(exc.kind)))
            raise
        names = tuple(str(item[kind.key_field]) for item in page_items)
        if cursor is not None:
            sent[cursor] = index
        try:
            _check_page(kind, limits, index, size, names, first_seen, len(items), next_cursor, sent)
        except CatalogError as exc:
            # The page is published with its verdict: a live view never shows an offender as "ok".
            timeline.add(PageRecord(index, cursor, next_cursor, len(page_items), names, size, latency, str(exc.kind)))
            raise
        timeline.add(PageRecord(index, cursor, next_cursor, len(page_items), names, size, latency))
        items.extend(page_items)
        if next_cursor is None:
            return items
        cursor = next_cursor
        index += 1


def _check_page(
    kind: ListKind,
    limits: Limits,
    index: int,
    size: int,
    names: tuple[str, ...],
    first_seen: dict[str, int],
    count_before: int,
    next_cursor: str | None,
    sent: dict[str, int],
) -> None:
    """Apply every rule to one page, in a fixed order; raise the first that fails."""
    if size > limits.max_page_bytes:
        raise make_error(
            ErrorKind.SIZE_LIMIT, f"page {index} is {size:,} bytes, over the {limits.max_page_bytes:,}-byte cap", index
        )
    for name in names:
        if name in first_seen:
            where = "earlier on the same page" if first_seen[name] == index else f"on page {first_seen[name]}"
            raise make_error(
                ErrorKind.DUPLICATE_NAME,
                f"{kind.noun} {name!r} appears again on page {index} (first seen {where})",
                index,
            )
        first_seen[name] = index
    if count_before + len(names) > limits.max_items:
        raise make_error(
            ErrorKind.ITEM_LIMIT,
            f"the item budget of {limits.max_items:,} ran out on page {index} "
            f"({count_before + len(names):,} items by the end of that page)",
            index,
        )
    if next_cursor is None:
        return
    if next_cursor in sent:
        raise make_error(
            ErrorKind.CURSOR_REPEATED,
            f"page {index} returned next cursor {_short(next_cursor)}, already sent for page {sent[next_cursor]}: "
            "the walk would loop",
            index,
        )
    if index + 1 >= limits.max_pages:
        raise make_error(
            ErrorKind.PAGE_LIMIT,
            f"the page budget of {limits.max_pages:,} ran out: page {index} still has a next cursor",
            index,
        )
