"""A refresh runs in a separate candidate session; a rejected one never touches the active one.

The SDK caches tool output schemas per session, page by page, while a listing
runs. These tests show both sides: our candidate refresh keeps the active
session validating against the accepted catalog, and the same walk done in
place would have rewritten the SDK's cache with a catalog we rejected.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import mcp_types as types
import pytest

from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.session import SessionWorker, call_tool
from tests.helpers import assert_all_gone, demo_spec, http_demo

LIMITS = Limits(request_timeout=5.0, deadline=30.0)


async def _refresh_scenario(spec: ServerSpec) -> None:
    pids: list[int] = []
    accepted = anyio.Event()
    results: list[Snapshot] = []

    def on_active(snapshot: Snapshot) -> None:
        results.append(snapshot)
        accepted.set()

    active = SessionWorker(spec, LIMITS, on_spawn=pids.append)
    async with anyio.create_task_group() as tg:
        tg.start_soon(active.run, on_active)
        with anyio.fail_after(30):
            await accepted.wait()
        good = results[0]
        assert good.status == "complete"
        assert active.connection is not None

        # The refresh: a candidate session walks; it is rejected and closes itself.
        candidate_results: list[Snapshot] = []
        candidate = SessionWorker(spec, LIMITS, on_spawn=pids.append)
        with anyio.fail_after(30):
            await candidate.run(candidate_results.append)
        rejected = candidate_results[0]
        assert rejected.status == "rejected"
        assert rejected.error is not None and rejected.error.kind == "duplicate_name"
        assert candidate.connection is None

        # The active session still answers, judged against the accepted catalog.
        outcome = await call_tool(active.connection, good, "echo", {"text": "hi"})
        assert outcome.layer == "ok"
        assert outcome.verdict is not None and outcome.verdict.verdict == "valid"
        assert outcome.result is not None and outcome.result["structuredContent"] == {"text": "hi", "length": 2}

        # The same walk done in place, through the SDK's own list_tools, rewrites
        # the session's output-schema cache page by page with the rejected twin …
        session = active.connection.session
        cursor: str | None = None
        names: list[str] = []
        while True:
            params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
            page = await session.list_tools(params=params)
            names += [t.name for t in page.tools]
            if page.next_cursor is None:
                break
            cursor = page.next_cursor
        assert names.count("echo") == 2, "the in-place walk saw the duplicate too"
        # … so the SDK would now validate the very same call against the catalog we refused.
        with pytest.raises(RuntimeError, match="Invalid structured content"):
            await session.call_tool("echo", {"text": "hi"})
        active.stop()
    if pids:
        assert_all_gone(pids)


@pytest.mark.anyio
async def test_rejected_refresh_over_stdio_leaves_the_active_session_alone(tmp_path: Path) -> None:
    await _refresh_scenario(demo_spec("refresh-duplicate", "--state", str(tmp_path / "state.json")))


@pytest.mark.anyio
async def test_rejected_refresh_over_http_leaves_the_active_session_alone() -> None:
    with http_demo("refresh-duplicate") as url:
        await _refresh_scenario(ServerSpec(name="http", transport="http", url=url))
