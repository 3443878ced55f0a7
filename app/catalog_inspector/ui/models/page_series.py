"""The figures a picture of a walk needs, kept as its pages arrive: the shared scales of the timeline's bars, the
items so far, and the latency maxima a chart draws at any width. Plain Python over `PageRecord`s; no Qt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple

from catalog_inspector.core.catalog import PageRecord
from catalog_inspector.core.config import Limits
from catalog_inspector.core.errors import ErrorKind

__all__ = ["Bar", "BudgetLine", "PageSeries", "budget_line", "size_text"]


def size_text(n: int) -> str:
    """A byte count in a few characters: 900 B, 12.3 KiB, 4.0 MiB."""
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n / 1024 / 1024:.1f} MiB"


class Bar(NamedTuple):
    """A timeline cell drawn as a bar, all a view needs in one answer (it paints every cell in view, every time).

    Attributes:
        share: the value on the scale its column shares, 0 to 1 (the bar's length).
        limit: where the byte cap that stopped the walk stands on that scale (Bytes only), else None.
        text: the cell's text, as its display role says it.
        plain: no background and a regular font (not the page that stopped the walk, nor a related one).
    """

    share: float
    limit: float | None
    text: str
    plain: bool


@dataclass(frozen=True)
class BudgetLine:
    """The budget that stopped a walk: the line the walk crossed.

    Attributes:
        kind: what ran out (an `ErrorKind` value): `page_limit` (a line after the last page allowed, across the
            pages), `item_limit` (a line at the budget, across the items so far) or `size_limit` (a line at the
            byte cap, across the Bytes bars).
        value: the budget: pages allowed, items allowed, bytes allowed in one response.
        page: the page on which it ran out.
    """

    kind: str
    value: int
    page: int

    @property
    def words(self) -> str:
        if self.kind == ErrorKind.PAGE_LIMIT:
            return f"the page budget of {self.value:,} ran out: page {self.page} still had a next cursor"
        if self.kind == ErrorKind.ITEM_LIMIT:
            return f"the item budget of {self.value:,} ran out on page {self.page}"
        return f"page {self.page} is over the byte cap of {size_text(self.value)}"


def budget_line(kind: str, page: int, limits: Limits | None) -> BudgetLine | None:
    """The line a walk stopped on `page` with `kind` crossed, when a budget stopped it and its value is known.

    The page budget is known from the pages themselves (the walk stops on the last page it allows); the item
    budget and the byte cap only from the walk's `limits`.
    """
    value = limits.budget_of(kind) if limits is not None else None
    if value is None and kind == ErrorKind.PAGE_LIMIT:
        value = page + 1
    return BudgetLine(kind, value, page) if value is not None else None


class PageSeries:
    """Per-page figures of one walk, appended page by page: O(log n) per page, never a rescan of the pages.

    A chart `width` pixels wide draws `blocks(width)`: the slowest latency of each block of 2**k pages, for the
    smallest k that needs at most `width` blocks. Levels of block maxima are kept as pages arrive (level k holds
    the maxima of blocks of 2**k pages, the last block partial), so a paint does O(width) work at any page count,
    and a spike stays visible however many pages share its pixel.

    Attributes:
        latency_max, bytes_max: the shared scales of the Latency and Bytes bars (the largest value so far).
        slowest, heaviest: the index of the first page with that latency, those bytes (None before a page).
        cumulative: the items by the end of each page.
    """

    def __init__(self, pages: Sequence[PageRecord] = ()) -> None:
        latencies = [page.latency_ms for page in pages]
        sizes = [page.bytes for page in pages]
        self.cumulative: list[int] = list(accumulate(page.items for page in pages))
        self.latency_max = max(latencies, default=0.0)
        self.bytes_max = max(sizes, default=0)
        self.slowest = latencies.index(self.latency_max) if latencies else None
        self.heaviest = sizes.index(self.bytes_max) if sizes else None
        # Built whole, level by level (pairs of the level below): O(n) for a walk shown at once.
        self._levels: list[list[float]] = [latencies]
        while len(self._levels[-1]) > 1:
            self._levels.append(_pairs(self._levels[-1]))

    def __len__(self) -> int:
        return len(self._levels[0])

    @property
    def items(self) -> int:
        """The items of every page so far."""
        return self.cumulative[-1] if self.cumulative else 0

    def append(self, page: PageRecord) -> None:
        """Count one more page (the next in the walk)."""
        index, latency = len(self), page.latency_ms
        self.cumulative.append(self.items + page.items)
        if latency > self.latency_max or self.slowest is None:
            self.latency_max, self.slowest = latency, index
        if page.bytes > self.bytes_max or self.heaviest is None:
            self.bytes_max, self.heaviest = page.bytes, index
        self._levels[0].append(latency)
        for level, maxima in enumerate(self._levels[1:], start=1):
            block = index >> level
            if block == len(maxima):
                maxima.append(latency)
            elif latency > maxima[block]:
                maxima[block] = latency
        if len(self._levels[-1]) > 1:  # the top level had one block: it has two now, so one more level
            self._levels.append(_pairs(self._levels[-1]))

    def blocks(self, width: int) -> tuple[int, Sequence[float]]:
        """(pages per block, the slowest latency of each block), at most `width` blocks (none if width < 1)."""
        if width < 1 or not len(self):
            return 1, ()
        level = next(k for k, maxima in enumerate(self._levels) if len(maxima) <= width)
        return 1 << level, self._levels[level]


def _pairs(values: list[float]) -> list[float]:
    """The larger of each pair of neighbours (the last one alone when the count is odd)."""
    pairs = list(map(max, values[0::2], values[1::2]))
    if len(values) % 2:
        pairs.append(values[-1])
    return pairs
