"""The figures behind the timeline's picture, kept page by page, against an oracle that recomputes them whole."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from catalog_inspector.core.catalog import PageRecord
from catalog_inspector.core.config import Limits
from catalog_inspector.core.errors import ErrorKind
from catalog_inspector.ui.models.page_series import BudgetLine, PageSeries, budget_line

PAGE = st.tuples(st.floats(min_value=0, max_value=1e6, allow_nan=False), st.integers(0, 500), st.integers(0, 10**7))


def _pages(figures: list[tuple[float, int, int]]) -> list[PageRecord]:
    return [PageRecord(i, None, None, items, (), size, latency) for i, (latency, items, size) in enumerate(figures)]


@given(figures=st.lists(PAGE, max_size=140), shown_at_once=st.integers(0, 140))
def test_figures_kept_page_by_page_are_the_figures_of_all_the_pages(
    figures: list[tuple[float, int, int]], shown_at_once: int
) -> None:
    pages = _pages(figures)
    series = PageSeries(pages[:shown_at_once])  # a walk shown, then grown live
    for page in pages[shown_at_once:]:
        series.append(page)
    latencies = [page.latency_ms for page in pages]
    sizes = [page.bytes for page in pages]
    assert len(series) == len(pages)
    assert series.latency_max == max(latencies, default=0.0)
    assert series.bytes_max == max(sizes, default=0)
    assert series.slowest == (latencies.index(max(latencies)) if pages else None)
    assert series.heaviest == (sizes.index(max(sizes)) if pages else None)
    running = 0
    for page, total in zip(pages, series.cumulative, strict=True):
        running += page.items
        assert total == running
    assert series.items == running
    for width in range(1, len(pages) + 3):
        size, maxima = series.blocks(width)
        assert size & (size - 1) == 0, "a power of two"
        assert len(maxima) == math.ceil(len(pages) / size) <= width
        assert size == 1 or math.ceil(len(pages) / (size // 2)) > width, "the finest blocks that fit"
        assert list(maxima) == [max(latencies[b * size : (b + 1) * size]) for b in range(len(maxima))]
    assert series.blocks(0) == (1, ())


def test_a_budget_line_needs_the_walk_s_limits_except_the_page_budget_which_the_pages_tell() -> None:
    limits = Limits(max_pages=5, max_items=250, max_page_bytes=100_000)
    assert budget_line(ErrorKind.PAGE_LIMIT, 4, limits) == BudgetLine("page_limit", 5, 4)
    assert budget_line(ErrorKind.PAGE_LIMIT, 4, None) == BudgetLine("page_limit", 5, 4)
    assert budget_line(ErrorKind.ITEM_LIMIT, 2, limits) == BudgetLine("item_limit", 250, 2)
    assert budget_line(ErrorKind.ITEM_LIMIT, 2, None) is None
    assert budget_line(ErrorKind.SIZE_LIMIT, 1, limits) == BudgetLine("size_limit", 100_000, 1)
    assert budget_line(ErrorKind.DUPLICATE_NAME, 2, limits) is None
    assert budget_line(ErrorKind.TIMEOUT, 2, limits) is None
    assert BudgetLine("size_limit", 100_000, 1).words == "page 1 is over the byte cap of 97.7 KiB"
