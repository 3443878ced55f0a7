"""Every demo mode over real stdio: the result, or the exact error kind and page."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from catalog_inspector.core.catalog import PageRecord, Snapshot
from catalog_inspector.core.config import Limits
from catalog_inspector.core.session import SessionWorker
from tests.helpers import assert_all_gone, demo_spec, pids_in

FAST = Limits(request_timeout=3.0, deadline=30.0, max_pages=50)


async def snapshot_of(mode: str, *extra: str, limits: Limits = FAST) -> tuple[Snapshot, list[int]]:
    pids: list[int] = []
    worker = SessionWorker(demo_spec(mode, *extra), limits, on_spawn=pids.append)
    with anyio.fail_after(60):
        return await worker.walk_once(), pids


def outcomes(snapshot: Snapshot) -> list[tuple[int, int, str]]:
    return [(p.index, p.items, p.outcome) for p in snapshot.tools.pages]


@pytest.mark.anyio
async def test_normal_catalog_is_walked_across_an_empty_middle_page() -> None:
    snapshot, pids = await snapshot_of("normal")
    assert snapshot.status == "complete" and snapshot.error is None
    assert [t["name"] for t in snapshot.tools.items] == ["echo", "count_items", "delete_everything"]
    assert outcomes(snapshot) == [(0, 1, "ok"), (1, 0, "ok"), (2, 2, "ok")]
    first, middle, last = snapshot.tools.pages
    assert first.cursor is None and middle.cursor == first.next_cursor and last.next_cursor is None
    assert middle.next_cursor is not None, "an empty page may still have a next cursor"
    assert all(p.bytes > 0 and p.latency_ms >= 0 for p in snapshot.tools.pages)
    for name in ("resources", "resource_templates", "prompts"):
        assert snapshot.lists[name].status == "complete"
        assert len(snapshot.lists[name].pages) == 3
    assert snapshot.server["name"] == "demo-normal"
    assert snapshot.server["protocol_version"] == "2026-07-28"
    assert_all_gone(pids)


@pytest.mark.anyio
async def test_items_are_kept_exactly_as_the_server_sent_them() -> None:
    snapshot, _ = await snapshot_of("normal")
    echo = snapshot.tools.items[0]
    assert echo["inputSchema"]["properties"]["repeat"] == {"type": "integer", "minimum": 1, "maximum": 5, "default": 1}
    assert echo["annotations"] == {"readOnlyHint": True, "idempotentHint": True, "openWorldHint": False}
    assert "outputSchema" in echo


@pytest.mark.anyio
async def test_legacy_server_falls_back_to_initialize() -> None:
    snapshot, _ = await snapshot_of("normal", "--legacy")
    assert snapshot.status == "complete"
    assert snapshot.server["protocol_version"] == "2025-11-25"
    assert snapshot.capabilities["tools"] == {"listChanged": True}


@pytest.mark.anyio
async def test_empty_string_cursor_is_followed_not_taken_for_the_end() -> None:
    snapshot, _ = await snapshot_of("empty-cursor")
    assert snapshot.status == "complete"
    assert [p.cursor for p in snapshot.tools.pages] == [None, ""]
    assert snapshot.tools.pages[0].next_cursor == ""
    assert len(snapshot.tools.items) == 3


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("mode", "kind", "page", "status"),
    [
        ("repeat", "cursor_repeated", 1, "rejected"),
        ("cycle", "cursor_repeated", 2, "rejected"),
        ("duplicate", "duplicate_name", 2, "rejected"),
        ("generation", "server_error", 1, "failed"),
        ("flaky", "server_error", 1, "failed"),
        ("crash", "connection", 1, "failed"),
        ("garbage", "protocol", 1, "failed"),
        ("malformed", "protocol", 1, "failed"),
        ("hang", "timeout", 1, "failed"),
    ],
)
async def test_a_bad_walk_names_its_kind_and_first_offending_page(mode: str, kind: str, page: int, status: str) -> None:
    snapshot, pids = await snapshot_of(mode)
    assert snapshot.status == status
    assert snapshot.error is not None
    assert (snapshot.error.kind, snapshot.error.page, snapshot.error.list_name) == (kind, page, "tools")
    assert snapshot.tools.items == (), "a partial catalog is never kept"
    assert snapshot.tools.pages[-1].index == page and snapshot.tools.pages[-1].outcome == kind
    assert_all_gone(pids)


@pytest.mark.anyio
async def test_error_messages_name_the_offender() -> None:
    dup, _ = await snapshot_of("duplicate")
    assert dup.error is not None and "'echo'" in dup.error.message and "page 0" in dup.error.message
    stale, _ = await snapshot_of("generation")
    assert stale.error is not None and stale.error.code == -32602


@pytest.mark.anyio
async def test_endless_cursors_stop_at_the_page_budget() -> None:
    snapshot, _ = await snapshot_of("endless", limits=Limits(request_timeout=3.0, deadline=30.0, max_pages=7))
    assert snapshot.status == "rejected"
    assert snapshot.error is not None and snapshot.error.kind == "page_limit" and snapshot.error.page == 6
    assert len(snapshot.tools.pages) == 7


@pytest.mark.anyio
async def test_item_budget_rejects_instead_of_truncating() -> None:
    snapshot, _ = await snapshot_of("normal", limits=Limits(request_timeout=3.0, deadline=30.0, max_items=2))
    assert snapshot.status == "rejected"
    assert snapshot.error is not None and (snapshot.error.kind, snapshot.error.page) == ("item_limit", 2)


@pytest.mark.anyio
async def test_huge_page_is_refused_at_the_byte_cap() -> None:
    limits = Limits(request_timeout=10.0, deadline=30.0, max_page_bytes=1024 * 1024)
    snapshot, pids = await snapshot_of("huge", "--huge-mb", "2", limits=limits)
    assert snapshot.error is not None
    assert (snapshot.error.kind, snapshot.error.page) == ("size_limit", 1)
    assert "1,048,576-byte cap" in snapshot.error.message
    assert_all_gone(pids)


@pytest.mark.anyio
async def test_overall_deadline_stops_a_slow_server() -> None:
    # Each page takes 3 s and requests may take 10 s: only the 5 s deadline can stop this walk.
    limits = Limits(request_timeout=10.0, deadline=5.0)
    snapshot, pids = await snapshot_of("slow", "--delay", "3.0", limits=limits)
    assert snapshot.status == "failed"
    assert snapshot.error is not None and snapshot.error.kind == "timeout"
    assert "overall deadline" in snapshot.error.message
    last = snapshot.tools.pages[-1]
    assert (last.index, last.outcome) == (snapshot.error.page, "timeout")
    assert all(snapshot.lists[n].status == "failed" for n in ("resources", "resource_templates", "prompts"))
    assert all(not snapshot.lists[n].pages for n in ("resources", "resource_templates", "prompts"))
    assert_all_gone(pids)


@pytest.mark.anyio
async def test_slow_server_within_budget_is_complete_with_latencies() -> None:
    snapshot, _ = await snapshot_of("slow", "--delay", "0.2")
    assert snapshot.status == "complete"
    assert all(p.latency_ms >= 150 for p in snapshot.tools.pages)


@pytest.mark.anyio
@pytest.mark.parametrize(("mode", "count"), [("single", 3), ("empty", 0)])
async def test_single_and_empty_catalogs(mode: str, count: int) -> None:
    snapshot, _ = await snapshot_of(mode)
    assert snapshot.status == "complete"
    assert len(snapshot.tools.items) == count and len(snapshot.tools.pages) == 1


@pytest.mark.anyio
async def test_drift_changes_the_catalog_between_walks(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    first, _ = await snapshot_of("drift", "--state", str(state))
    second, _ = await snapshot_of("drift", "--state", str(state))
    names = lambda s: {t["name"] for t in s.tools.items}  # noqa: E731
    assert "added_in_walk_0" in names(first) and "added_in_walk_1" in names(second)
    assert "added_in_walk_0" not in names(second)
    echo = lambda s: s.tools.items[0]  # noqa: E731
    assert echo(first)["inputSchema"]["properties"]["repeat"]["type"] == "integer"
    assert echo(second)["inputSchema"]["properties"]["repeat"]["type"] == "string"


@pytest.mark.anyio
async def test_flaky_server_recovers_on_a_manual_retry(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    first, _ = await snapshot_of("flaky", "--state", str(state))
    retry, _ = await snapshot_of("flaky", "--state", str(state))
    assert first.status == "failed" and retry.status == "complete"


@pytest.mark.anyio
async def test_generation_change_fails_once_then_a_fresh_walk_succeeds(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    first, _ = await snapshot_of("generation", "--state", str(state))
    retry, _ = await snapshot_of("generation", "--state", str(state))
    assert first.error is not None and first.error.code == -32602
    assert retry.status == "complete"


@pytest.mark.anyio
@pytest.mark.parametrize("target", ["resources", "resource_templates", "prompts"])
async def test_other_lists_are_paginated_and_checked_too(target: str) -> None:
    snapshot, _ = await snapshot_of("duplicate", "--target", target)
    assert snapshot.tools.status == "complete"
    assert snapshot.lists[target].status == "rejected"
    # Each list is judged on its own: the tools stay accepted, the rejected list says why itself.
    assert snapshot.status == "complete" and snapshot.error is None
    assert snapshot.partial == (target,)
    error = snapshot.lists[target].error
    assert error is not None and error.kind == "duplicate_name"
    assert snapshot.to_json()["lists_status"][target] == "rejected"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("era", "version"),
    [((), "2026-07-28"), (("--legacy",), "2025-11-25")],
    ids=["through subscriptions/listen", "pushed"],
)
async def test_list_changed_notifications_reach_the_caller(era: tuple[str, ...], version: str) -> None:
    """2026-07-28 servers only tell a listener (the demo then publishes only to its bus); older ones push."""
    seen: list[str] = []
    got = anyio.Event()

    def note(method: str) -> None:
        seen.append(method)
        if len(seen) >= 3:
            got.set()

    results: list[Snapshot] = []
    worker = SessionWorker(demo_spec("notify", *era), FAST, on_notification=note)
    async with anyio.create_task_group() as tg:
        tg.start_soon(worker.run, results.append)
        with anyio.fail_after(30):
            await got.wait()
        worker.stop()
    assert seen == ["notifications/tools/list_changed"] * 3
    assert results[0].status == "complete" and results[0].server["protocol_version"] == version


@pytest.mark.anyio
async def test_pages_reach_the_live_callback_as_they_arrive() -> None:
    live: list[tuple[str, PageRecord]] = []
    worker = SessionWorker(demo_spec("normal"), FAST, on_page=lambda name, page: live.append((name, page)))
    snapshot = await worker.walk_once()
    assert [p for n, p in live if n == "tools"] == list(snapshot.tools.pages)


@pytest.mark.anyio
async def test_the_cyclic_collector_is_off_while_pages_arrive_and_back_after() -> None:
    """A full collection rescans the whole catalog walked so far: a quarter of a 100,000-tool walk (issue 24)."""
    import gc

    assert gc.isenabled()
    during: list[bool] = []
    worker = SessionWorker(demo_spec("normal"), FAST, on_page=lambda _name, _page: during.append(gc.isenabled()))
    snapshot = await worker.walk_once()
    assert snapshot.status == "complete" and during and not any(during)
    assert gc.isenabled()


@pytest.mark.anyio
async def test_spawn_failure_is_a_connection_error() -> None:
    from catalog_inspector.core.config import ServerSpec

    results: list[Snapshot] = []
    worker = SessionWorker(ServerSpec(name="missing", command="/nonexistent/server"), FAST)
    await worker.run(results.append)
    assert results[0].status == "failed"
    assert results[0].error is not None and results[0].error.kind == "connection"
    assert "/nonexistent/server" in results[0].error.message


@pytest.mark.anyio
async def test_grandchildren_do_not_survive_a_failed_walk(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    snapshot, _ = await snapshot_of("crash", "--spawn-child", "--pidfile", str(pidfile))
    assert snapshot.error is not None and snapshot.error.kind == "connection"
    pids = pids_in(pidfile)
    assert len(pids) == 2
    assert_all_gone(pids)


@pytest.mark.anyio
async def test_server_stderr_is_captured_and_bounded() -> None:
    from catalog_inspector.core.transport import ServerLog

    log = ServerLog(max_bytes=120)
    await SessionWorker(demo_spec("normal"), FAST, log=log).walk_once()
    assert any("[demo]" in line for line in log.lines)
    assert sum(len(line) + 1 for line in log.lines) <= 120
    assert log.dropped > 0 and "earlier lines dropped" in log.text()


@pytest.mark.anyio
async def test_many_pages_of_synthetic_tools_are_walked_in_order() -> None:
    snapshot, _ = await snapshot_of("many", "--tools", "250", "--page-size", "40")
    assert snapshot.status == "complete"
    assert [p.items for p in snapshot.tools.pages] == [40] * 6 + [10]
    assert [t["name"] for t in snapshot.tools.items] == [f"tool_{n:05d}" for n in range(250)]


@pytest.mark.anyio
async def test_a_server_that_never_answers_the_handshake_times_out_and_is_killed() -> None:
    import sys

    from catalog_inspector.core.config import ServerSpec

    mute = ServerSpec(name="mute", command=sys.executable, args=("-c", "import signal; signal.pause()"))
    pids: list[int] = []
    results: list[Snapshot] = []
    worker = SessionWorker(mute, Limits(request_timeout=1.0, deadline=10.0), on_spawn=pids.append)
    with anyio.fail_after(30):
        await worker.run(results.append)
    assert results[0].status == "failed"
    assert results[0].error is not None and results[0].error.kind == "timeout"
    assert "handshake" in results[0].error.message
    assert_all_gone(pids)


@pytest.mark.anyio
async def test_a_failing_spawn_hook_does_not_leak_the_server() -> None:
    spawned: list[int] = []

    def broken_registry(pid: int) -> None:
        spawned.append(pid)
        raise OSError(28, "No space left on device")

    results: list[Snapshot] = []
    worker = SessionWorker(demo_spec("normal"), FAST, on_spawn=broken_registry)
    with anyio.fail_after(30):
        await worker.run(results.append)
    assert results[0].status == "failed" and results[0].error is not None
    assert results[0].error.kind == "connection"
    assert_all_gone(spawned)
