"""The engine gate: a walk asked for before the engine is imported waits for it, can be cancelled, and quitting
meanwhile imports nothing and leaves no process."""

from __future__ import annotations

import asyncio
from typing import Any

from catalog_inspector.runtime import ServerState
from catalog_inspector.runtime.engine import EngineGate
from tests.helpers import RUNTIME_WAIT as WAIT
from tests.helpers import Runtimes, demo_spec


def test_a_gate_made_open_calls_at_once_and_an_opened_one_calls_every_waiter_in_order() -> None:
    heard: list[str] = []
    EngineGate().when_loaded(lambda: heard.append("open"))
    assert heard == ["open"]
    gate = EngineGate(loaded=False)
    gate.when_loaded(lambda: heard.append("first"))
    gate.when_loaded(lambda: heard.append("second"))
    assert heard == ["open"], "a closed gate called a waiter"
    gate.open()
    assert heard == ["open", "first", "second"] and gate.loaded
    gate.open()
    assert heard == ["open", "first", "second"], "each waiter is called once"


def test_a_walk_asked_for_before_the_engine_waits_for_it_then_runs(qtbot: Any, runtimes: Runtimes) -> None:
    runtime = runtimes.runtime([demo_spec("normal")], engine=EngineGate(loaded=False))
    supervisor = runtime.supervisors[0]
    with qtbot.waitSignal(supervisor.walk_started, timeout=WAIT):
        assert supervisor.refresh()
    assert supervisor.state is ServerState.CONNECTING and supervisor.busy
    assert not supervisor.refresh(), "one walk at a time, even while it waits"
    assert supervisor.connection is None and not runtimes.pids, "no server is started before the engine"
    started: list[bool] = []
    supervisor.walk_started.connect(lambda: started.append(True))
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=WAIT):
        runtime.engine_loaded()
    assert supervisor.state is ServerState.READY and supervisor.accepted is not None
    assert supervisor.attempt is not None and supervisor.attempt.snapshot is supervisor.accepted
    assert not started, "the walk was announced once, when it was asked for"


def test_cancelling_a_walk_that_waits_for_the_engine_starts_nothing(qtbot: Any, qloop: Any, runtimes: Runtimes) -> None:
    runtime = runtimes.runtime([demo_spec("normal")], engine=EngineGate(loaded=False))
    supervisor = runtime.supervisors[0]
    assert supervisor.refresh()
    assert supervisor.cancel()
    assert supervisor.state is ServerState.NOT_CONNECTED and not supervisor.busy
    runtime.engine_loaded()
    task = asyncio.ensure_future(runtime.tasks.settle(WAIT / 1000))
    qtbot.waitUntil(task.done, timeout=WAIT)
    assert supervisor.state is ServerState.NOT_CONNECTED and supervisor.accepted is None
    assert not runtimes.pids, "a cancelled walk starts no server when the engine comes"


def test_quitting_while_a_walk_waits_for_the_engine_closes_at_once(qtbot: Any, runtimes: Runtimes) -> None:
    gate = EngineGate(loaded=False)
    runtime = runtimes.runtime([demo_spec("normal")], engine=gate)
    supervisor = runtime.supervisors[0]
    assert supervisor.refresh()
    with qtbot.waitSignal(runtime.shutdown_finished, timeout=WAIT):
        runtime.shutdown()
    assert not supervisor.busy and supervisor.accepted is None
    assert not gate.loaded and not runtimes.pids, "quitting neither waits for the engine nor starts a server"
