"""`Runtime.apply` on its own: a configuration read again keeps what did not change (its supervisor, session,
catalog and report), replaces what changed, and leaves no process of what went; the desks follow."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from catalog_inspector.core.calls import CallRecord, CallStore
from catalog_inspector.core.config import EntryProblem, Limits, ServerSpec
from catalog_inspector.core.drift import History, Pins, save_pins
from catalog_inspector.core.steps import run_whole
from catalog_inspector.runtime import Runtime, ServerState, ServerSupervisor
from tests.helpers import Runtimes, alive, demo_spec, next_turn, pids_in, spin_until_gone
from tests.runtime.test_desks import snapshot

LIMITS = Limits(request_timeout=5.0, deadline=30.0)
WAIT = 20_000


def server(tmp_path: Path, name: str, mode: str = "normal", *extra: str) -> ServerSpec:
    """A demo server that writes its pid (and its helpers') to `<name>.pids`, so each server's are known."""
    return demo_spec(mode, "--pidfile", str(tmp_path / f"{name}-{mode}.pids"), *extra, name=name)


def pids(spec: ServerSpec) -> list[int]:
    return pids_in(Path(spec.args[spec.args.index("--pidfile") + 1]))


def ready(qtbot: Any, runtime: Runtime, supervisor: ServerSupervisor) -> None:
    """Walk and wait until its catalog has its report (the tracker keeps it, and lists its history)."""
    supervisor.refresh()
    qtbot.waitUntil(lambda: runtime.tracker.report_for(supervisor) is not None, timeout=WAIT)
    assert supervisor.state is ServerState.READY


def test_a_new_configuration_keeps_what_is_unchanged_replaces_what_changed_and_stops_what_went(
    qtbot: Any, tmp_path: Path, runtimes: Runtimes
) -> None:
    keep, change = server(tmp_path, "keep"), server(tmp_path, "change")
    drop = server(tmp_path, "drop", "normal", "--spawn-child")  # its helper must go with it too
    store = CallStore(tmp_path / "calls")
    runtime = runtimes.runtime([keep, change, drop], history=History(tmp_path / "history"), call_store=store)
    kept, old_change, old_drop = runtime.supervisors
    for supervisor in runtime.supervisors:
        ready(qtbot, runtime, supervisor)
    qtbot.waitUntil(lambda: runtime.tracker.collisions.get("echo") == ("keep", "change", "drop"), timeout=WAIT)
    catalog, connection, report = kept.accepted, kept.connection, runtime.tracker.report_for(kept)
    going = pids(change) + pids(drop)
    assert len(pids(drop)) == 2 and all(alive(pid) for pid in going + pids(keep))
    deleted: list[str] = []
    old_change.destroyed.connect(lambda: deleted.append("change"))
    old_drop.destroyed.connect(lambda: deleted.append("drop"))
    added, changed = server(tmp_path, "added", "single"), server(tmp_path, "change", "single")
    earlier = CallRecord(
        at="2026-01-01T00:00:00.000+00:00", kind="tool", name="echo", arguments={}, outcome="ok", duration_ms=1.0
    )
    store.record(added, earlier)  # a call made on this entry in an earlier run
    spawned = len(runtimes.pids)

    histories: list[str] = []
    runtime.calls.history_changed.connect(histories.append)
    with qtbot.waitSignal(runtime.servers_changed, timeout=1_000):
        runtime.apply([added, keep, changed])
    qtbot.waitUntil(lambda: "added" in histories, timeout=WAIT)  # a new entry's history is read from disk

    assert [s.spec for s in runtime.supervisors] == [added, keep, changed], "in the new config's order"
    new_added, still, new_change = runtime.supervisors
    assert still is kept and kept.accepted is catalog and kept.connection is connection, "the same session"
    assert kept.state is ServerState.READY and runtime.tracker.report_for(kept) is report
    assert new_change is not old_change and new_change.accepted is None
    assert new_added.state is new_change.state is ServerState.NOT_CONNECTED, "started when selected, not before"
    spin_until_gone(qtbot, going)
    assert all(alive(pid) for pid in pids(keep)), "the unchanged server's process runs on"
    assert len(runtimes.pids) == spawned and pids(added) == [] and pids(changed) == [], "nothing new was started"
    qtbot.waitUntil(lambda: sorted(deleted) == ["change", "drop"], timeout=WAIT)

    tracker, calls = runtime.tracker, runtime.calls
    assert "drop" not in tracker.reports and "drop" not in tracker.entries and "drop" not in calls.histories
    qtbot.waitUntil(lambda: tracker.collisions == {}, timeout=WAIT)  # only "keep" has a catalog now
    assert calls.histories["added"] == [earlier], "a new entry's own history is read"

    ready(qtbot, runtime, new_change)  # the desks follow the new supervisor
    report_of_change = tracker.report_for(new_change)
    assert report_of_change is not None and report_of_change.diff is None, "another command: its own history"
    assert runtime.supervisor("change") is new_change and runtime.supervisor("drop") is None


def test_the_same_configuration_again_is_no_news_but_new_problems_or_a_new_order_are(
    qtbot: Any, runtimes: Runtimes
) -> None:
    first, second = ServerSpec(name="first", command="first-server"), ServerSpec(name="second", command="second")
    runtime = runtimes.runtime([first, second])
    supervisors = list(runtime.supervisors)
    news: list[bool] = []
    runtime.servers_changed.connect(lambda: news.append(True))
    runtime.apply([first, second])
    assert news == [] and runtime.supervisors == supervisors, "a file saved unchanged"
    problem = EntryProblem("ws", "type 'websocket' is not supported")
    runtime.apply([first, second], [problem])
    assert news == [True] and runtime.supervisors == supervisors and runtime.problems == [problem]
    runtime.apply([second, first], [problem])
    assert len(news) == 2 and runtime.supervisors == supervisors[::-1], "reordered, each kept"
    assert all(s.state is ServerState.NOT_CONNECTED for s in runtime.supervisors)


def test_a_configuration_read_while_quitting_is_ignored(qtbot: Any, runtimes: Runtimes) -> None:
    first = ServerSpec(name="first", command="first-server")
    runtime = runtimes.runtime([first])
    supervisors = list(runtime.supervisors)
    with qtbot.waitSignal(runtime.shutdown_finished, timeout=WAIT):
        runtime.shutdown()
        runtime.apply([ServerSpec(name="second", command="second-server")])
    assert runtime.supervisors == supervisors


class GatedOffload:
    """The offload's shape, run in the test's thread (as `test_desks.FakeOffload`), where a function named in
    `held` waits until the test releases it: a job can be caught in flight while the configuration changes."""

    def __init__(self) -> None:
        self.held: dict[str, asyncio.Event] = {}
        self.waiting: set[str] = set()
        self.closed = False

    async def run(self, fn: Callable[..., Any], *args: Any, name: str = "") -> Any:
        name = name or getattr(fn, "__name__", "")
        gate = self.held.get(name)
        if gate is not None:
            self.waiting.add(name)
            await gate.wait()
        await next_turn()
        return fn(*args)

    async def in_slices(self, steps: Any) -> Any:
        """Work the real offload runs in slices on the loop: held and run the same way, by its function's name."""
        return await self.run(lambda: run_whole(steps), name=steps.__name__)

    async def check_result(self, tool: dict[str, Any], result: dict[str, Any]) -> Any:
        raise AssertionError("no call is made here")

    async def aclose(self) -> None:
        self.closed = True


@pytest.mark.parametrize("then", ["replaced", "removed"])
@pytest.mark.parametrize("held", ["build_report_steps", "entries"])
def test_a_tracking_job_in_flight_when_its_server_goes_leaves_nothing_of_it_for_the_name(
    qtbot: Any, qloop: Any, tmp_path: Path, held: str, then: str
) -> None:
    """The drift made, or the history listed, for an entry the configuration replaced or dropped meanwhile is not
    the server's that has the name now: a replaced command would show the old one's approval and snapshots."""
    old = ServerSpec(name="files", command="files-server")
    offload = GatedOffload()
    offload.held[held] = release = asyncio.Event()
    history = History(tmp_path / "history")
    catalog = snapshot("a")
    save_pins(history.directory(old), Pins.of(catalog.tools.items, "2026-01-01T00:00:00.000+00:00"))  # approved
    runtime = Runtime([old], Limits(), offload=offload, history=history)  # type: ignore[arg-type]
    supervisor, tracker = runtime.supervisors[0], runtime.tracker
    news: list[str] = []
    for signal in (tracker.report_ready, tracker.history_changed, tracker.approval_changed):
        signal.connect(news.append)
    supervisor.accepted = catalog
    supervisor.catalog_accepted.emit(catalog)  # as a walk would: drift, then the history kept and listed
    qtbot.waitUntil(lambda: held in offload.waiting, timeout=WAIT)
    news.clear()
    runtime.apply([ServerSpec(name="files", command="another-server")] if then == "replaced" else [])
    release.set()
    qtbot.waitUntil(lambda: len(runtime.tasks) == 0, timeout=WAIT)
    assert news == [], "no news for the name from a job of the entry that went"
    assert tracker.pins.get("files") is None and "files" not in tracker.entries and "files" not in tracker.reports
    with qtbot.waitSignal(runtime.shutdown_finished, timeout=WAIT):
        runtime.shutdown()


@pytest.mark.parametrize("then", ["replaced", "removed"])
@pytest.mark.parametrize(("intent", "held"), [("approve", "check_pins_steps"), ("forget", "forget_pins")])
def test_an_approval_in_flight_when_its_server_goes_is_not_the_new_servers(
    qtbot: Any, qloop: Any, tmp_path: Path, intent: str, held: str, then: str
) -> None:
    """Approving (or forgetting) the entry the configuration then replaces or drops says nothing of the name."""
    old = ServerSpec(name="files", command="files-server")
    offload = GatedOffload()
    history = History(tmp_path / "history")
    runtime = Runtime([old], Limits(), offload=offload, history=history)  # type: ignore[arg-type]
    supervisor, tracker = runtime.supervisors[0], runtime.tracker
    supervisor.accepted = snapshot("a")
    offload.held[held] = release = asyncio.Event()
    news: list[str] = []
    tracker.approval_changed.connect(news.append)
    if intent == "approve":
        assert tracker.approve("files")
    else:
        tracker.forget_approval("files")
    qtbot.waitUntil(lambda: held in offload.waiting, timeout=WAIT)
    runtime.apply([ServerSpec(name="files", command="another-server")] if then == "replaced" else [])
    release.set()
    qtbot.waitUntil(lambda: len(runtime.tasks) == 0, timeout=WAIT)
    assert news == [], "no approval news for the name from a job of the entry that went"
    assert "files" not in tracker.pins or tracker.pins["files"] is None
    assert "files" not in tracker.reports
    with qtbot.waitSignal(runtime.shutdown_finished, timeout=WAIT):
        runtime.shutdown()
