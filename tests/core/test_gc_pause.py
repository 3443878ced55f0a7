"""The cyclic collector is held off while a catalog is walked, and given back as it was."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from catalog_inspector.core.gc_pause import collector_paused


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def test_overlapping_holders_keep_it_off_until_the_last_one_ends() -> None:
    gc.enable()
    first, second = collector_paused(), collector_paused()
    first.__enter__()
    assert not gc.isenabled()
    second.__enter__()
    first.__exit__(None, None, None)  # the first walk ends while the second still runs
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()


def test_a_collector_someone_else_disabled_stays_disabled() -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_an_error_in_the_walk_gives_it_back() -> None:
    gc.enable()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a walk that failed")
    assert gc.isenabled()
