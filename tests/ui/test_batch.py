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
