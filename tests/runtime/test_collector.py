"""The collector on its own: when it freezes, what a freeze does to the objects alive then, and that the
runtime feeds it every page and every accepted catalog of every supervisor it has."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication

from catalog_inspector.core.catalog import PageRecord
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.runtime.collector import FREEZE_EVERY, Collector
from catalog_inspector.runtime.runtime import Runtime
from tests.runtime.test_desks import snapshot


class Item:
    """An object a weak reference can follow (a plain dict or list cannot be)."""

    def __init__(self) -> None:
        self.me: Item | None = None


def scanned(obj: object) -> bool:
    """The cycle collector still looks at `obj` (frozen objects are in no generation it scans)."""
    return any(tracked is obj for tracked in gc.get_objects())


@pytest.fixture(autouse=True)
def _thawed() -> Iterator[None]:
    """Each test starts with nothing frozen and leaves nothing frozen: what a freeze keeps from the collector
    would otherwise be kept from every later test's collection too."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def page(items: int) -> PageRecord:
    return PageRecord(index=0, cursor=None, next_cursor=None, items=items, names=(), bytes=0, latency_ms=1.0)


def test_pages_freeze_once_enough_items_piled_up_and_the_count_starts_again(qtbot: Any) -> None:
    collector = Collector()
    collector.items_arrived(FREEZE_EVERY - 1)
    assert collector.freezes == 0 and gc.get_freeze_count() == 0
    collector.items_arrived(1)
    collector.items_arrived(FREEZE_EVERY)
    assert collector.freezes == 0, "not in the event that brought the page: its own work is a frame's worth"
    qtbot.waitUntil(lambda: collector.freezes == 1, timeout=5_000)
    assert gc.get_freeze_count() > 0
    QCoreApplication.processEvents()
    QCoreApplication.processEvents()
    assert collector.freezes == 1, "one freeze after the event, however many pages it brought"
    collector.items_arrived(FREEZE_EVERY - 1)
    QCoreApplication.processEvents()
    assert collector.freezes == 1, "the items counted before the freeze do not count again"


def test_a_frozen_object_is_no_longer_scanned_and_still_dies_with_its_last_reference() -> None:
    kept = Item()
    died: list[bool] = []
    watch = weakref.ref(kept, lambda _ref: died.append(True))
    assert scanned(kept)
    Collector()._freeze()
    assert not scanned(kept), "frozen: a full collection no longer rescans it"
    del kept
    assert died == [True], "plain data is freed by reference counting the moment it becomes garbage"
    assert watch() is None


def test_young_garbage_is_collected_before_the_freeze_not_frozen_with_the_rest() -> None:
    gc.disable()  # no automatic collection: only the collector's own pass may free the cycle
    try:
        cycle = Item()
        cycle.me = cycle
        watch = weakref.ref(cycle)
        del cycle
        assert watch() is not None, "a cycle outlives its last outside reference"
        Collector()._freeze()
        assert watch() is None, "the young pass freed it: a frozen cycle would have lived until the app exits"
    finally:
        gc.enable()


def test_settling_freezes_now_and_once_after_the_event_however_often_it_is_asked(qtbot: Any) -> None:
    collector = Collector()
    collector.settle()
    collector.settle()
    assert collector.freezes == 2, "now, each time: the views about to build rows must not rescan the catalog"
    rows = Item()  # what a view builds over the catalog in the same event
    assert scanned(rows)
    qtbot.waitUntil(lambda: collector.freezes == 3, timeout=5_000)
    assert not scanned(rows), "the freeze after the event takes what the event built"
    QCoreApplication.processEvents()
    QCoreApplication.processEvents()
    assert collector.freezes == 3, "one freeze after the event, not one per request"


def test_the_runtime_feeds_its_collector_every_page_and_acceptance_of_its_supervisors(qtbot: Any, qloop: Any) -> None:
    runtime = Runtime([ServerSpec(name="first", command="first-server")], Limits())
    first = runtime.supervisors[0]
    collector = runtime.collector
    # Counted at once, synchronously (other work of the runtime may freeze too, in later events: counts of
    # freezes are compared around one emit only).
    first.page_arrived.emit("tools", page(FREEZE_EVERY))
    qtbot.waitUntil(lambda: collector.freezes >= 1, timeout=5_000)  # after the page's event
    catalog = snapshot("a")
    first.accepted = catalog
    before = collector.freezes
    first.catalog_accepted.emit(catalog)
    assert collector.freezes == before + 1, "an accepted catalog at once"
    runtime.apply([ServerSpec(name="second", command="second-server")])
    (second,) = runtime.supervisors
    pending = collector.pending
    second.page_arrived.emit("tools", page(3))
    assert collector.pending == pending + 3, "a supervisor the configuration added is fed in too"
    first.page_arrived.emit("tools", page(3))
    assert collector.pending == pending + 3, "a retired one no longer is"
    with qtbot.waitSignal(runtime.shutdown_finished, timeout=20_000):
        runtime.shutdown()
