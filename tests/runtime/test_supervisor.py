"""The runtime on its own (no widgets): supervisors, swaps, cancels, calls, and tasks that always report back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import ErrorKind
from catalog_inspector.core.session import SessionWorker
from catalog_inspector.runtime import CallTicket, Runtime, ServerState, ServerSupervisor
from tests.helpers import alive, demo_spec, recording_registry, spin_until_gone

LIMITS = Limits(request_timeout=5.0, deadline=30.0)
SETTLED = (ServerState.READY, ServerState.STALE, ServerState.FAILED, ServerState.LOST)


class Rig:
    """Builds runtimes whose spawns are recorded; at teardown shuts them down and proves no process is left."""

    def __init__(self, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
        self.qtbot = qtbot
        self.tmp_path = tmp_path
        self.runtimes: list[Runtime] = []
        self.pids: list[int] = []

    def runtime(self, specs: list[ServerSpec], limits: Limits = LIMITS) -> Runtime:
        runtime = Runtime(
            specs, limits, recording_registry(self.tmp_path / f"sessions-{len(self.runtimes)}", self.pids)
        )
        self.runtimes.append(runtime)
        return runtime

    def settle(self, supervisor: ServerSupervisor, timeout: int = 20_000) -> None:
        self.qtbot.waitUntil(lambda: supervisor.state in SETTLED and not supervisor.busy, timeout=timeout)

    def gone(self, pids: list[int]) -> None:
        spin_until_gone(self.qtbot, pids)

    def teardown(self) -> None:
        for runtime in self.runtimes:
            with self.qtbot.waitSignal(runtime.shutdown_finished, timeout=20_000):
                runtime.shutdown()
        if self.pids:
            self.gone(self.pids)


@pytest.fixture
def rig(qtbot, qloop, tmp_path: Path) -> Iterator[Rig]:  # type: ignore[no-untyped-def]
    r = Rig(qtbot, tmp_path)
    yield r
    r.teardown()


def test_cancel_followed_at_once_by_refresh_walks_afresh(rig: Rig, qtbot) -> None:  # type: ignore[no-untyped-def]
    supervisor = rig.runtime([demo_spec("slow", "--delay", "0.3")]).supervisors[0]
    with qtbot.waitSignal(supervisor.page_arrived, timeout=20_000):
        assert supervisor.refresh()
    first_pid = rig.pids[0]
    first_attempt = supervisor.attempt
    assert supervisor.cancel() and supervisor.refresh(), "a refresh right after a cancel is accepted"
    assert supervisor.attempt is not first_attempt
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        pass
    assert supervisor.state is ServerState.READY and not supervisor.busy
    assert [p.index for p in supervisor.accepted.tools.pages] == [0, 1, 2]  # type: ignore[union-attr]
    assert supervisor.attempt is not None and supervisor.attempt.snapshot is supervisor.accepted
    rig.gone([first_pid])  # the cancelled walk's server went away


def test_list_changed_during_a_candidate_walk_leaves_the_new_catalog_stale(rig: Rig, qtbot) -> None:  # type: ignore[no-untyped-def]
    supervisor = rig.runtime([demo_spec("notify")]).supervisors[0]
    supervisor.refresh()
    rig.settle(supervisor)
    assert supervisor.state is ServerState.STALE
    first = supervisor.accepted
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        supervisor.refresh()
    assert supervisor.accepted is not first
    assert supervisor.state is ServerState.STALE, "the candidate heard list_changed while it walked"


def test_the_old_active_sessions_process_is_gone_after_a_swap(rig: Rig, qtbot) -> None:  # type: ignore[no-untyped-def]
    supervisor = rig.runtime([demo_spec("normal")]).supervisors[0]
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        supervisor.refresh()
    old_pid = rig.pids[0]
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        supervisor.refresh()
    assert len(rig.pids) == 2 and supervisor.connection is not None
    assert supervisor.connection.pid == rig.pids[1]
    rig.gone([old_pid])
    assert alive(rig.pids[1])


def test_a_bug_in_the_walk_is_reported_as_an_internal_failure(rig: Rig, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import catalog_inspector.core.session.walk as walk

    async def broken(*_args: object) -> None:
        raise ValueError("boom in the enumerator")

    monkeypatch.setattr(walk, "walk_list", broken)
    supervisor = rig.runtime([demo_spec("normal")]).supervisors[0]
    with qtbot.waitSignal(supervisor.refresh_failed, timeout=20_000):
        supervisor.refresh()
    assert supervisor.state is ServerState.FAILED and not supervisor.busy
    error = supervisor.attempt.snapshot.error  # type: ignore[union-attr]
    assert error is not None and error.kind is ErrorKind.INTERNAL
    assert error.message == "ValueError: boom in the enumerator"
    monkeypatch.undo()
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        assert supervisor.refresh(), "the server is not left busy"


def test_a_task_that_raises_past_the_worker_still_reports_back(rig: Rig, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    async def raising(self: SessionWorker, on_walked: object) -> None:
        raise RuntimeError("a bug past every guard")

    monkeypatch.setattr(SessionWorker, "run", raising)
    supervisor = rig.runtime([demo_spec("normal")]).supervisors[0]
    lines: list[str] = []
    supervisor.log_appended.connect(lines.extend)
    with qtbot.waitSignal(supervisor.refresh_failed, timeout=20_000) as failed:
        supervisor.refresh()
    snapshot = failed.args[0]
    assert (
        snapshot.error.kind is ErrorKind.INTERNAL and "RuntimeError: a bug past every guard" in snapshot.error.message
    )
    assert supervisor.state is ServerState.FAILED and not supervisor.busy
    qtbot.waitUntil(lambda: any("Traceback" in line for line in lines), timeout=5_000)  # the log's next batch
    monkeypatch.undo()
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        assert supervisor.refresh()


def test_two_servers_failing_at_once_each_report_their_own_failure(rig: Rig, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    runtime = rig.runtime(
        [
            demo_spec("crash", name="crashy"),
            demo_spec("flaky", "--state", str(tmp_path / "flaky.json"), name="flaky"),
            demo_spec("normal", name="clean"),
        ]
    )
    for supervisor in runtime.supervisors:
        supervisor.refresh()
    for supervisor in runtime.supervisors:
        rig.settle(supervisor)
    crashy, flaky, clean = runtime.supervisors
    assert crashy.state is flaky.state is ServerState.FAILED and clean.state is ServerState.READY
    crash_error = crashy.attempt.snapshot.error  # type: ignore[union-attr]
    flaky_error = flaky.attempt.snapshot.error  # type: ignore[union-attr]
    assert crash_error is not None and crash_error.kind is ErrorKind.CONNECTION
    assert crash_error.details["exit_code"] == 3 and "[demo] crashing on purpose" in crash_error.details["stderr"]
    assert flaky_error is not None and flaky_error.kind is ErrorKind.SERVER_ERROR and flaky_error.code == -32603


def _ready_with_calls(rig: Rig, qtbot, gate: Path) -> ServerSupervisor:  # type: ignore[no-untyped-def]
    """A ready server whose calls answer only once `gate` exists (however slow the machine, they are in flight)."""
    supervisor = rig.runtime([demo_spec("normal", "--call-gate", str(gate))]).supervisors[0]
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        supervisor.refresh()
    return supervisor


def test_a_call_in_flight_during_a_swap_finishes_on_the_session_it_started_on(rig: Rig, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    gate = tmp_path / "gate"  # the call answers once the gate is open: after the swap
    supervisor = _ready_with_calls(rig, qtbot, gate)
    supervisor.call_drain = 30.0
    old_pid = rig.pids[0]
    finished: list[tuple[CallTicket, object]] = []
    supervisor.call_finished.connect(lambda ticket, outcome: finished.append((ticket, outcome)))
    ticket = supervisor.call_tool("echo", {"text": "hi"})
    assert ticket is not None
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        supervisor.refresh()
    assert not finished, "the swap happened while the call was in flight"
    assert alive(old_pid), "the replaced session waits for its call"
    gate.touch()
    qtbot.waitUntil(lambda: bool(finished), timeout=20_000)
    done_ticket, outcome = finished[0]
    assert done_ticket is ticket
    assert outcome.layer == "ok" and outcome.result["structuredContent"] == {"text": "hi", "length": 2}  # type: ignore[attr-defined]
    rig.gone([old_pid])


def test_a_call_the_swap_cuts_off_says_so_never_connection(rig: Rig, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    supervisor = _ready_with_calls(rig, qtbot, tmp_path / "never-opened")
    supervisor.call_drain = 0.2  # the replaced session will not wait for this call
    finished: list[object] = []
    supervisor.call_finished.connect(lambda _ticket, outcome: finished.append(outcome))
    assert supervisor.call_tool("echo", {"text": "hi"}) is not None
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        supervisor.refresh()
    qtbot.waitUntil(lambda: bool(finished), timeout=20_000)
    outcome = finished[0]
    assert outcome.layer == "cut_off", outcome  # type: ignore[attr-defined]
    assert "replaced the session" in outcome.error.message  # type: ignore[attr-defined]


def test_shutdown_closes_every_server_quickly_even_a_stubborn_one(rig: Rig, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tests.helpers import pids_in

    pidfile = tmp_path / "pids"
    runtime = rig.runtime(
        [demo_spec("normal", "--stubborn", "--spawn-child", "--pidfile", str(pidfile)), demo_spec("single")]
    )
    for supervisor in runtime.supervisors:
        supervisor.refresh()
    for supervisor in runtime.supervisors:
        rig.settle(supervisor)
    rig.runtimes.remove(runtime)
    with qtbot.waitSignal(runtime.shutdown_finished, timeout=20_000):
        runtime.shutdown()
    rig.gone(rig.pids + pids_in(pidfile))


def test_a_catastrophic_output_pattern_is_over_budget_and_the_loop_keeps_running(rig: Rig, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QTimer

    runtime = rig.runtime([demo_spec("hostile")])
    runtime.offload.budget = 1.0
    supervisor = runtime.supervisors[0]
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        supervisor.refresh()
    ticks: list[int] = []
    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    with qtbot.waitSignal(supervisor.call_finished, timeout=20_000) as finished:
        assert supervisor.call_tool("catastrophic_pattern", {}) is not None
    timer.stop()
    outcome = finished.args[1]
    assert outcome.layer == "ok" and outcome.verdict.verdict == "over_budget", outcome.verdict
    assert "budget" in outcome.verdict.detail
    assert outcome.result["structuredContent"]["text"].endswith("!"), "the payload is shown whatever the verdict"
    # Checked in this process, ^(a+)+$ would have held the loop for minutes: no tick could have fired.
    assert len(ticks) >= 10, ticks


def test_an_accepted_catalog_is_kept_out_of_the_cycle_collectors_sight(rig: Rig, qtbot) -> None:  # type: ignore[no-untyped-def]
    import gc

    runtime = rig.runtime([demo_spec("normal")])
    supervisor = runtime.supervisors[0]
    gc.unfreeze()
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        supervisor.refresh()
    assert runtime.collector.freezes >= 1 and gc.get_freeze_count() > 0
    tools = supervisor.accepted.tools.items  # type: ignore[union-attr]
    assert not any(tools[0] is obj for obj in gc.get_objects()), "frozen objects are no longer scanned"
    gc.unfreeze()
