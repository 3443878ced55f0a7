"""The app's loop runs blocking helpers (DNS lookups, anyio threads) on plain threads, never on QThreads."""

from __future__ import annotations

import asyncio
import threading

from tests.ui.conftest import wait_for


def test_the_default_executor_is_a_plain_thread_pool(qtbot, qloop) -> None:  # type: ignore[no-untyped-def]
    # qasync's default (QThreads) aborts the process at exit if one still runs: Qt 6 makes that fatal.
    future = asyncio.ensure_future(qloop.run_in_executor(None, lambda: threading.current_thread().name))
    wait_for(qtbot, future.done, timeout=10_000)
    assert future.result().startswith("loop-executor")
