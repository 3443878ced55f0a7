"""Test calls keep the four error layers apart and judge output against the accepted schema."""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
import pytest

from catalog_inspector.core.calls import CallOutcome
from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import Limits
from catalog_inspector.core.session import SessionWorker, call_tool
from tests.helpers import demo_spec

LIMITS = Limits(request_timeout=5.0, deadline=30.0)


@pytest.fixture
async def live() -> AsyncIterator[tuple[SessionWorker, Snapshot]]:
    ready = anyio.Event()
    results: list[Snapshot] = []

    def walked(snapshot: Snapshot) -> None:
        results.append(snapshot)
        ready.set()

    worker = SessionWorker(demo_spec("normal"), LIMITS)
    async with anyio.create_task_group() as tg:
        tg.start_soon(worker.run, walked)
        with anyio.fail_after(30):
            await ready.wait()
        yield worker, results[0]
        worker.stop()


async def _call(live: tuple[SessionWorker, Snapshot], name: str, args: dict) -> CallOutcome:
    worker, snapshot = live
    assert worker.connection is not None
    return await call_tool(worker.connection, snapshot, name, args)


@pytest.mark.anyio
async def test_a_result_that_honours_its_schema_is_valid(live: tuple[SessionWorker, Snapshot]) -> None:
    outcome = await _call(live, "echo", {"text": "ab", "repeat": 2})
    assert outcome.layer == "ok" and outcome.verdict is not None and outcome.verdict.verdict == "valid"


@pytest.mark.anyio
async def test_a_result_that_violates_its_schema_is_shown_with_the_pointer(
    live: tuple[SessionWorker, Snapshot],
) -> None:
    outcome = await _call(live, "count_items", {"items": ["a"]})
    assert outcome.layer == "ok", "the payload is kept, not swallowed by a validation error"
    assert outcome.result is not None and outcome.result["structuredContent"] == {"count": "many"}
    assert outcome.verdict is not None and outcome.verdict.verdict == "invalid"
    assert [p.pointer for p in outcome.verdict.problems] == ["/count"]


@pytest.mark.anyio
async def test_is_error_is_the_tool_failing_not_the_call(live: tuple[SessionWorker, Snapshot]) -> None:
    outcome = await _call(live, "delete_everything", {"confirm": True})
    assert outcome.layer == "tool_error"
    assert outcome.verdict is not None and outcome.verdict.verdict == "tool_error"


@pytest.mark.anyio
async def test_an_unknown_tool_is_refused_locally(live: tuple[SessionWorker, Snapshot]) -> None:
    outcome = await _call(live, "not_in_catalog", {})
    assert outcome.layer == "unknown_tool" and outcome.result is None
