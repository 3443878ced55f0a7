"""The runtime's task set: every job reports exactly once, failures always, cancellations never."""

from __future__ import annotations

import asyncio

import pytest

from catalog_inspector.runtime.offload import OffloadClosed
from catalog_inspector.runtime.tasks import TaskSet
from tests.helpers import next_turn

pytestmark = pytest.mark.anyio  # asyncio: the conftest's anyio_backend


class Reports:
    def __init__(self) -> None:
        self.results: list[object] = []
        self.errors: list[BaseException] = []
        self.bugs: list[tuple[str, BaseException]] = []

    def bug(self, where: str, exc: BaseException) -> None:
        self.bugs.append((where, exc))


async def _value(value: object) -> object:
    await next_turn()
    return value


async def _raise(exc: BaseException) -> object:
    await next_turn()
    raise exc


async def test_a_result_and_an_error_each_reach_their_own_callback_once() -> None:
    seen = Reports()
    tasks = TaskSet(seen.bug)
    tasks.spawn(_value(7), seen.results.append, seen.errors.append)
    tasks.spawn(_raise(TypeError("boom")), seen.results.append, seen.errors.append)
    assert len(tasks) == 2
    assert await tasks.settle(5)
    assert seen.results == [7]
    assert [type(e) for e in seen.errors] == [TypeError]
    assert len(tasks) == 0 and not seen.bugs


async def test_a_cancelled_job_reports_nothing_and_a_keyed_one_can_be_found_until_it_ends() -> None:
    seen = Reports()
    tasks = TaskSet(seen.bug)
    started = asyncio.Event()

    async def forever() -> None:
        started.set()
        await asyncio.Event().wait()

    tasks.spawn(forever(), seen.results.append, seen.errors.append, key="walk")
    await started.wait()
    assert tasks.get("walk") is not None
    assert tasks.cancel("walk")
    assert await tasks.settle(5)
    assert tasks.get("walk") is None and not tasks.cancel("walk")
    assert seen.results == [] and seen.errors == []


async def test_offload_closed_is_a_failure_until_shutdown_begins_then_it_is_silence() -> None:
    seen = Reports()
    tasks = TaskSet(seen.bug)
    tasks.spawn(_raise(OffloadClosed("early")), None, seen.errors.append)
    await tasks.settle(5)
    assert len(seen.errors) == 1
    gate = asyncio.Event()

    async def late() -> None:
        await gate.wait()
        raise OffloadClosed("the runtime is shutting down")

    tasks.spawn(late(), None, seen.errors.append)
    tasks.close()
    gate.set()
    await tasks.settle(5)
    assert len(seen.errors) == 1


async def test_a_closing_set_refuses_new_jobs_without_running_them() -> None:
    seen = Reports()
    tasks = TaskSet(seen.bug)
    tasks.close()
    ran: list[bool] = []

    async def job() -> None:
        ran.append(True)

    assert tasks.spawn(job(), None, seen.errors.append) is None
    await next_turn()
    assert ran == [] and len(tasks) == 0


async def test_a_report_that_raises_is_handed_to_the_bug_callback() -> None:
    seen = Reports()
    tasks = TaskSet(seen.bug)

    def broken(_value: object) -> None:
        raise KeyError("the report itself failed")

    tasks.spawn(_value(1), broken, seen.errors.append, name="broken-report")
    await tasks.settle(5)
    assert [(where, type(exc)) for where, exc in seen.bugs] == [("broken-report", KeyError)]


async def test_settle_waits_for_jobs_that_jobs_spawn_and_is_bounded() -> None:
    seen = Reports()
    tasks = TaskSet(seen.bug)

    async def parent() -> None:
        await next_turn()
        tasks.spawn(_value("child"), seen.results.append, seen.errors.append)

    tasks.spawn(parent(), None, seen.errors.append)
    assert await tasks.settle(5)
    assert seen.results == ["child"]
    never = asyncio.Event()
    tasks.spawn(never.wait(), None, seen.errors.append)
    assert not await tasks.settle(0.05)
    tasks.cancel_all()
    assert await tasks.settle(5)


async def test_a_groups_jobs_count_in_the_whole_set_and_the_group_waits_for_its_own_only() -> None:
    seen = Reports()
    runtime = TaskSet(seen.bug)
    server = runtime.group()
    other = asyncio.Event()
    runtime.spawn(other.wait(), None, seen.errors.append)
    server.spawn(_value("mine"), seen.results.append, seen.errors.append)
    assert len(runtime) == 2 and len(server) == 1
    assert await server.settle(5), "the group does not wait for the runtime's other jobs"
    assert seen.results == ["mine"] and len(runtime) == 1
    runtime.close()
    assert server.closing and server.spawn(_value("late"), seen.results.append, seen.errors.append) is None
    other.set()
    assert await runtime.settle(5)
