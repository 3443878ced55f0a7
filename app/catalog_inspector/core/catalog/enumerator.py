"""The bounded enumerator: walks one paginated list to its end, or rejects it.

The walk ends only when a page's next cursor is `None` (the empty string is a
valid cursor). It is bounded by a page budget, an item budget, a byte cap per
response, the set of cursors already sent (catches A->A and A->B->A) and a
duplicate-key check. A walk that stops early is a rejection, never a smaller
success. Every page, good or bad, is recorded on a timeline, with its cache hints
as sent (`caching` checks them; a bad hint warns, it never stops a walk).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from catalog_inspector.core.catalog.caching import sent
from catalog_inspector.core.catalog.lists import ListKind
from catalog_inspector.core.catalog.snapshot import PageRecord, offence_of
from catalog_inspector.core.config import Limits
from catalog_inspector.core.errors import CatalogError, ErrorKind, make_error

__all__ = ["Fetched", "PageFetcher", "Timeline", "walk_list"]


@dataclass(frozen=True)
class Fetched:
    """One list response: the result as the server sent it, and its size on the wire (bytes)."""

    result: dict[str, Any]
    size: int


PageFetcher = Callable[[str | None], Awaitable[Fetched]]
"""Sends one list request with the given cursor (None for the first page) and returns its response."""


@dataclass
class Timeline:
    """The pages of one walk, appended as they arrive; also the page in flight.

    Attributes:
        pages: finished pages, in order.
        in_flight: (index, cursor, start) of the request being waited on, if any.
        on_page: called with each finished page (for a live view); progress, not a result.
        on_items: called with the items of each page the walk took (every rule passed), as sent; work
            that can start before the walk is judged (`core.calls.PageWork`), never a result.
    """

    pages: list[PageRecord] = field(default_factory=list)
    in_flight: tuple[int, str | None, float] | None = None
    on_page: Callable[[PageRecord], None] | None = None
    on_items: Callable[[list[dict[str, Any]]], None] | None = None

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


@dataclass
class _Seen:
    """What earlier pages of this walk established: keys (with their first page and item) and cursors sent."""

    keys: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    cursors: dict[str, int] = field(default_factory=dict)  # cursor -> the page it was sent for


async def walk_list(kind: ListKind, fetch: PageFetcher, limits: Limits, timeline: Timeline) -> list[dict[str, Any]]:
    """Walk every page of `kind` and return all items, exactly as sent.

    Raises:
        CatalogError: `WalkRejected` (a rule or a budget) or `WalkFailed` (no
            usable answer), with the index of the first offending page; that
            page is on the timeline with its outcome set.
    """
    items: list[dict[str, Any]] = []
    seen = _Seen()
    cursor: str | None = None
    index = 0
    while True:
        start = time.perf_counter()
        timeline.in_flight = (index, cursor, start)
        try:
            fetched = await fetch(cursor)
        except CatalogError as exc:
            latency = (time.perf_counter() - start) * 1000
            timeline.add(PageRecord(index, cursor, None, 0, (), 0, latency, str(exc.kind), offence_of(exc.info)))
            raise type(exc)(replace(exc.info, page=index)) from exc
        latency = (time.perf_counter() - start) * 1000
        raw, size = fetched.result, fetched.size
        # Kept on every page that has an answer, valid or not: checking them is the lint's job, never a rejection.
        ttl, scope = sent(raw.get("ttlMs")), sent(raw.get("cacheScope"))
        try:
            page_items = _page_items(kind, raw, index)
            next_cursor = _next_cursor(raw, index)
        except CatalogError as exc:
            timeline.add(
                PageRecord(index, cursor, None, 0, (), size, latency, str(exc.kind), ttl_ms=ttl, cache_scope=scope)
            )
            raise
        names = tuple(item[kind.key_field] for item in page_items)
        if cursor is not None:
            seen.cursors[cursor] = index
        try:
            _check_page(kind, limits, index, size, page_items, names, seen, len(items), next_cursor)
        except CatalogError as exc:
            # The page is published with its verdict: a live view never shows an offender as "ok".
            record = PageRecord(
                index,
                cursor,
                next_cursor,
                len(page_items),
                names,
                size,
                latency,
                str(exc.kind),
                offence_of(exc.info),
                ttl_ms=ttl,
                cache_scope=scope,
            )
            timeline.add(record)
            raise
        timeline.add(
            PageRecord(index, cursor, next_cursor, len(page_items), names, size, latency, ttl_ms=ttl, cache_scope=scope)
        )
        items.extend(page_items)
        if timeline.on_items is not None:
            timeline.on_items(page_items)
        if next_cursor is None:
            return items
        cursor = next_cursor
        index += 1


def _check_page(
    kind: ListKind,
    limits: Limits,
    index: int,
    size: int,
    page_items: list[dict[str, Any]],
    names: tuple[str, ...],
    seen: _Seen,
    count_before: int,
    next_cursor: str | None,
) -> None:
    """Apply every rule to one page, in a fixed order; raise the first that fails."""
    if size > limits.max_page_bytes:
        raise make_error(
            ErrorKind.SIZE_LIMIT,
            f"page {index} is {size:,} bytes, over the {limits.max_page_bytes:,}-byte cap",
            index,
            details={"budget": limits.max_page_bytes, "value": size},
        )
    for name, item in zip(names, page_items, strict=True):
        first = seen.keys.get(name)
        if first is not None:
            first_page, first_item = first
            where = "earlier on the same page" if first_page == index else f"on page {first_page}"
            raise make_error(
                ErrorKind.DUPLICATE_NAME,
                f"{kind.key_noun} {name!r} appears again on page {index} (first seen {where})",
                index,
                details={"name": name, "pages": [first_page, index], "definitions": [first_item, item]},
            )
        seen.keys[name] = (index, item)
    total = count_before + len(names)
    if total > limits.max_items:
        raise make_error(
            ErrorKind.ITEM_LIMIT,
            f"the item budget of {limits.max_items:,} ran out on page {index} ({total:,} items by the end of that page)",
            index,
            details={"budget": limits.max_items, "value": total},
        )
    if next_cursor is None:
        return
    if next_cursor in seen.cursors:
        requested = seen.cursors[next_cursor]
        raise make_error(
            ErrorKind.CURSOR_REPEATED,
            f"page {index} returned next cursor {_short(next_cursor)}, already sent for page {requested}: "
            "the walk would loop",
            index,
            details={"cursor": next_cursor, "pages": [requested - 1, index], "requested_page": requested},
        )
    if index + 1 >= limits.max_pages:
        raise make_error(
            ErrorKind.PAGE_LIMIT,
            f"the page budget of {limits.max_pages:,} ran out: page {index} still has a next cursor",
            index,
            details={"budget": limits.max_pages, "value": index + 2},
        )
