import asyncio
import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked `long` first, the rest in their order: at the end of a run, a worker left alone with a long
    one holds the whole run up while a core idles (the two screenshot-driver runs were the last 11 s of 324)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def runtimes(qtbot: Any, qloop: Any, tmp_path: Path) -> Iterator[Any]:
    """Runtimes whose spawns are recorded; shut down at teardown, with proof that no process is left."""
    from tests.helpers import Runtimes

    made = Runtimes(qtbot, tmp_path)
    yield made
    made.teardown()


@pytest.fixture
def test_keyring(tmp_path: Path) -> Iterator[Any]:
    """A keyring of the tests' own (a JSON file under tmp_path) for this process, for the test's duration."""
    from tests.fixtures.file_keyring import selected

    with selected(tmp_path / "keyring.json") as backend:
        yield backend


@pytest.fixture
def qloop(qapp: Any) -> Iterator[Any]:
    """A qasync loop over pytest-qt's QApplication: runtime tasks run while qtbot waits spin Qt."""
    yield from _qasync_loop(qapp)


@pytest.fixture(scope="module")
def module_qloop(qapp: Any) -> Iterator[Any]:
    """`qloop` for a whole module: its tests share one runtime (one server process each) instead of one a test."""
    yield from _qasync_loop(qapp)


def _qasync_loop(qapp: Any) -> Iterator[Any]:
    import qasync

    from catalog_inspector.ui.loop import adopt_asyncgen_hooks, use_thread_pool

    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    hooks = sys.get_asyncgen_hooks()
    adopt_asyncgen_hooks(loop)  # as the app does
    pool = use_thread_pool(loop)
    yield loop
    pool.shutdown(wait=False, cancel_futures=True)
    sys.set_asyncgen_hooks(*hooks)
    asyncio.events._set_running_loop(None)  # the loop never ran run_forever; undo already_running
    asyncio.set_event_loop(None)  # let it go with this test: what its tasks held is collected now, not later


@pytest.fixture(autouse=True)
def _collected() -> Iterator[None]:
    """Collect garbage after each test, after its other fixtures are gone: anything it left unclosed
    (an anyio stream, a file) is reported against it, not against whichever test the collector next runs in."""
    yield
    gc.collect()
    # What outlived its test is kept out of later passes: a full pass over a worker's whole heap (PySide6, the
    # SDK, every earlier test's leftovers) took 0.3-0.6 s, a third of the suite's time in teardowns.
    gc.freeze()


@pytest.fixture(autouse=True, scope="session")
def _zygote() -> None:
    """This worker's zygote, up before the first test: the demo servers and the CLI runs are forked from it."""
    from tests.cli_runner import ZYGOTE

    ZYGOTE.ensure()
