"""Fast streams reach a view as a few batches, bounded."""

from __future__ import annotations

from catalog_inspector.ui.batch import Batcher


def test_items_arrive_together_in_order_and_bounded(qtbot) -> None:  # type: ignore[no-untyped-def]
    batches: list[list[int]] = []
    batcher: Batcher[int] = Batcher(batches.append, 10, keep_last=3)
    for n in range(5):
        batcher.add(n)
    qtbot.waitUntil(lambda: bool(batches), timeout=2000)
    assert batches == [[2, 3, 4]]


def test_clear_drops_what_waits(qtbot) -> None:  # type: ignore[no-untyped-def]
    batches: list[list[int]] = []
    batcher: Batcher[int] = Batcher(batches.append, 10)
    batcher.add(1)
    batcher.clear()
    batcher.add(2)
    qtbot.waitUntil(lambda: bool(batches), timeout=2000)
    assert batches == [[2]]


def test_a_flood_keeps_the_last_items_says_how_many_it_dropped_and_stays_linear(qtbot) -> None:  # type: ignore[no-untyped-def]
    seen: list[tuple[list[int], int]] = []
    batcher: Batcher[int] = Batcher(lambda items: seen.append((items, batcher.dropped)), 10, keep_last=500)
    for start in range(0, 200_000, 1000):  # a flooding server's lines, in the chunks they are read in
        batcher.extend(list(range(start, start + 1000)))
    batcher.add(200_000)
    qtbot.waitUntil(lambda: bool(seen), timeout=2000)
    items, dropped = seen[0]
    assert items == list(range(199_501, 200_001)) and dropped == 200_001 - 500
