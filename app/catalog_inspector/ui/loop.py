"""The app's asyncio loop over Qt (qasync), made to behave as asyncio's own loop does: async generators and executor."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

__all__ = ["adopt_asyncgen_hooks", "use_thread_pool"]


def adopt_asyncgen_hooks(loop: Any) -> None:
    """Give async generators the loop's first-iteration and finalizer hooks.

    asyncio's `run_forever` installs them; qasync's does not, so a generator left
    suspended (httpx's body iterators, when a response is cut off at the byte cap)
    was finalized in whatever task dropped it, where its cleanup raised: the
    legacy SSE reader then died with a cancel scope it did not enter and the
    refused page lost its number. With the hooks, the loop closes such a
    generator in a task of its own, as under `asyncio.run` or `anyio.run`.
    """
    sys.set_asyncgen_hooks(firstiter=loop._asyncgen_firstiter_hook, finalizer=loop._asyncgen_finalizer_hook)


def use_thread_pool(loop: Any) -> ThreadPoolExecutor:
    """Give the loop a plain thread pool as its default executor (DNS lookups, anyio's threads).

    qasync's own default is a pool of QThreads that nothing stops unless the loop is
    closed: a QThread still running when Python exits is fatal in Qt 6 (abort, exit
    134), which is how a test that resolved a host name ended the whole test run.
    Plain threads are joined at exit like asyncio's, and the app's loop shuts the
    pool down when it closes.
    """
    pool = ThreadPoolExecutor(thread_name_prefix="loop-executor")
    loop.set_default_executor(pool)
    return pool
