"""Invariants of the bounded enumerator over generated page sequences (hypothesis).

The page source here is a plain function over generated data: it stands in for
a server's paging logic, which is exactly what the enumerator must not trust.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_inspector.core.catalog import LIST_KINDS, Fetched, Timeline, walk_list
from catalog_inspector.core.config import Limits
from catalog_inspector.core.errors import CatalogError, ErrorKind, make_error

TOOLS = LIST_KINDS["tools"]
NAMES = st.sampled_from([f"t{i}" for i in range(12)])


@dataclass
class Source:
    """Pages (names, next page index or None), and the cursor that addresses each page."""

    pages: list[tuple[list[str], int | None]]
    cursors: list[str]
    endless: bool = False
    requests: int = 0

    async def fetch(self, cursor: str | None) -> Fetched:
        self.requests += 1
        index = 0 if cursor is None else self._index(cursor)
        if self.endless:
            names, nxt = [f"e{index}"], index + 1
        else:
            names, nxt = self.pages[index]
        result: dict[str, Any] = {"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in names]}
        if nxt is not None:
            result["nextCursor"] = self._cursor(nxt)
        return Fetched(result, len(json.dumps(result)))

    def _cursor(self, index: int) -> str:
        return f"fresh-{index}" if self.endless else self.cursors[index]

    def _index(self, cursor: str) -> int:
        if self.endless:
            return int(cursor.removeprefix("fresh-"))
        if cursor not in self.cursors:
            raise make_error(ErrorKind.SERVER_ERROR, "unknown cursor", code=-32602)
        return self.cursors.index(cursor)


@st.composite
def sources(draw: st.DrawFn) -> Source:
    if draw(st.integers(0, 9)) == 0:
        return Source([], [], endless=True)
    count = draw(st.integers(1, 8))
    pages = []
    for i in range(count):
        names = draw(st.lists(NAMES, max_size=4))
        last = i == count - 1
        nxt = (
            draw(st.one_of(st.none(), st.integers(0, count - 1)))
            if last
            else draw(st.one_of(st.just(i + 1), st.just(i + 1), st.integers(0, count - 1), st.none()))
        )
        pages.append((names, nxt))
    # Cursors are opaque: sometimes the empty string addresses a real page.
    empty_at = draw(st.one_of(st.none(), st.integers(1, max(1, count - 1))))
    cursors = ["" if i == empty_at else f"c{i}-{draw(st.integers(0, 999))}" for i in range(count)]
    if len(set(cursors)) != len(cursors):
        cursors = [f"c{i}" if c else c for i, c in enumerate(cursors)]
    return Source(pages, cursors)


def oracle(source: Source, limits: Limits) -> tuple[str, int, list[str]]:
    """What a correct walk must do, stated rule by rule: (outcome, offending page, names)."""
    seen_names: set[str] = set()
    sent: set[str] = set()
    names: list[str] = []
    index = 0
    page_no = 0
    while True:
        if source.endless:
            page_names, nxt = [f"e{index}"], index + 1
        else:
            page_names, nxt = source.pages[index]
        for name in page_names:
            if name in seen_names:
                return "duplicate_name", page_no, []
            seen_names.add(name)
        names.extend(page_names)
        if len(names) > limits.max_items:
            return "item_limit", page_no, []
        if nxt is None:
            return "complete", page_no, names
        cursor = source._cursor(nxt)
        if cursor in sent:
            return "cursor_repeated", page_no, []
        if page_no + 1 >= limits.max_pages:
            return "page_limit", page_no, []
        sent.add(cursor)
        index, page_no = nxt, page_no + 1


def run_walk(source: Source, limits: Limits) -> tuple[str, int, list[str], Timeline]:
    timeline = Timeline()

    async def go() -> tuple[str, int, list[str]]:
        try:
            items = await walk_list(TOOLS, source.fetch, limits, timeline)
        except CatalogError as exc:
            assert exc.info.page is not None
            return str(exc.kind), exc.info.page, []
        return "complete", len(timeline.pages) - 1, [i["name"] for i in items]

    outcome, page, names = anyio.run(go)
    return outcome, page, names, timeline


@settings(max_examples=400, deadline=None)
@given(source=sources(), max_pages=st.integers(1, 10), max_items=st.integers(0, 20))
def test_walk_matches_the_rules_and_never_returns_a_partial_catalog(
    source: Source, max_pages: int, max_items: int
) -> None:
    limits = Limits(max_pages=max_pages, max_items=max_items)
    # The first page is addressed by no cursor; a page pointing back at it re-sends its cursor.
    if not source.endless and source.cursors:
        source.cursors[0] = source.cursors[0] or "c0"
    expected = oracle(source, limits)
    outcome, page, names, timeline = run_walk(source, limits)
    assert (outcome, page, names) == expected
    # Budgets hold whatever happened.
    assert source.requests <= max_pages
    assert len(timeline.pages) == source.requests
    # The offending page is the last on the timeline and carries the outcome.
    last = timeline.pages[-1]
    assert last.index == page
    assert last.outcome == ("ok" if outcome == "complete" else outcome)
    assert all(p.outcome == "ok" for p in timeline.pages[:-1])
    if outcome == "complete":
        assert last.next_cursor is None
        assert len(names) == len(set(names)) <= max_items
        assert sum(p.items for p in timeline.pages) == len(names)


@pytest.mark.parametrize("empty_page", [0, 1, 2])
def test_empty_pages_with_a_next_cursor_do_not_end_the_walk(empty_page: int) -> None:
    pages: list[tuple[list[str], int | None]] = [(["a"], 1), (["b"], 2), (["c"], None)]
    pages[empty_page] = ([], pages[empty_page][1])
    source = Source(pages, ["c0", "", "c2"])
    outcome, _, names, timeline = run_walk(source, Limits())
    assert outcome == "complete" and len(timeline.pages) == 3
    assert [p.cursor for p in timeline.pages] == [None, "", "c2"]
    assert len(names) == 2


def test_a_failing_request_is_on_the_timeline_with_its_cursor() -> None:
    source = Source([(["a"], 1), (["b"], None)], ["c0", "c1"])
    source.cursors[1] = "c1"
    broken = Source(source.pages, source.cursors)

    async def fetch(cursor: str | None) -> Fetched:
        if cursor == "c1":
            raise make_error(ErrorKind.TIMEOUT, "no answer")
        return await broken.fetch(cursor)

    timeline = Timeline()

    async def go() -> CatalogError:
        with pytest.raises(CatalogError) as caught:
            await walk_list(TOOLS, fetch, Limits(), timeline)
        return caught.value

    error = anyio.run(go)
    assert (error.kind, error.info.page) == (ErrorKind.TIMEOUT, 1)
    assert [(p.index, p.cursor, p.outcome) for p in timeline.pages] == [(0, None, "ok"), (1, "c1", "timeout")]
