"""The app's asyncio loop over Qt (qasync), made to finish async generators the way asyncio's own loop does."""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["adopt_asyncgen_hooks"]


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
