"""The offload on its own: work runs on its threads, answers come back to the loop's thread, failures are
raised to whoever awaits them, and closing refuses new work, drops what waits and kills the sandbox."""

from __future__ import annotations

import asyncio
import threading

import anyio
import pytest

from catalog_inspector.core.calls import Failure
from catalog_inspector.runtime.offload import THREADS, Offload, OffloadClosed
from catalog_inspector.runtime.tasks import TaskSet
from tests.helpers import alive, next_turn

pytestmark = pytest.mark.anyio  # asyncio: the conftest's anyio_backend

CATASTROPHIC = {"type": "string", "pattern": "^(a+)+$"}
SLOW_TEXT = "a" * 40 + "!"  # 2**40 ways to split the a's before `re` gives up
WAIT = 10.0  # seconds: a deadline for what takes milliseconds


def _thread_name() -> str:
    return threading.current_thread().name


def test_a_job_runs_on_an_offload_thread_and_its_answer_comes_back_on_the_gui_thread(qtbot, qloop) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QCoreApplication, QThread

    offload = Offload()
    answers: list[tuple[str, bool]] = []
    errors: list[BaseException] = []
    gui = QCoreApplication.instance()
    assert gui is not None

    def answer(ran_on: str) -> None:
        answers.append((ran_on, QThread.currentThread() is gui.thread()))

    TaskSet().spawn(offload.run(_thread_name), answer, errors.append)
    qtbot.waitUntil(lambda: bool(answers or errors), timeout=10_000)
    assert errors == [] and len(answers) == 1
    ran_on, on_gui_thread = answers[0]
    assert ran_on.startswith("inspector-offload") and on_gui_thread
    closed = asyncio.ensure_future(offload.aclose())
    qtbot.waitUntil(closed.done, timeout=10_000)


async def test_a_slow_job_does_not_hold_up_the_next_one() -> None:
    offload = Offload()
    both = threading.Barrier(2, timeout=WAIT)  # passed only if two jobs run at the same time
    try:
        with anyio.fail_after(WAIT):
            indices = await asyncio.gather(offload.run(both.wait), offload.run(both.wait))
        assert sorted(indices) == [0, 1]
    finally:
        await offload.aclose()


async def test_what_a_job_raises_is_raised_to_its_awaiter_and_the_thread_serves_on() -> None:
    offload = Offload()
    failure = ValueError("a damaged file")

    def broken() -> None:
        raise failure

    try:
        with pytest.raises(ValueError) as raised:
            await offload.run(broken)
        assert raised.value is failure
        assert await offload.run(sum, [1, 2, 3]) == 6, "arguments are passed on; the pool still works"
    finally:
        await offload.aclose()


async def test_submit_runs_fire_and_forget_work_on_an_offload_thread() -> None:
    offload = Offload()
    try:
        future = offload.submit(_thread_name)
        assert future is not None
        assert future.result(timeout=WAIT).startswith("inspector-offload")
    finally:
        await offload.aclose()


async def test_once_closed_no_work_is_accepted_and_none_of_it_runs() -> None:
    offload = Offload()
    await offload.aclose()
    ran: list[bool] = []
    assert offload.closed
    with pytest.raises(OffloadClosed) as refused:
        await offload.run(ran.append, True)
    assert isinstance(refused.value, RuntimeError), "quitting is no bug: the task set stays quiet about it"
    assert offload.submit(lambda: ran.append(True)) is None
    assert ran == []


async def test_closing_drops_work_not_started_and_lets_running_work_answer() -> None:
    offload = Offload()
    release = threading.Event()
    running = threading.Semaphore(0)
    ran: list[str] = []

    def busy(name: str) -> str:
        running.release()
        release.wait(WAIT)
        ran.append(name)
        return name

    busy_jobs = [asyncio.ensure_future(offload.run(busy, f"busy {n}")) for n in range(THREADS)]
    queued = asyncio.ensure_future(offload.run(ran.append, "queued"))
    for _ in range(THREADS):
        assert await anyio.to_thread.run_sync(running.acquire, True, WAIT), "every thread is busy"
    with anyio.fail_after(WAIT):
        await offload.aclose()  # returns with the busy jobs still running: quitting is not held up by them
    assert ran == [] and not any(job.done() for job in busy_jobs), "the busy jobs were not waited for"
    with anyio.fail_after(WAIT):
        await asyncio.wait([queued])
    assert queued.cancelled(), "work that had not started is dropped, as a cancellation (no failure to report)"
    release.set()
    with anyio.fail_after(WAIT):
        answers = await asyncio.gather(*busy_jobs)
    assert answers == [f"busy {n}" for n in range(THREADS)] and "queued" not in ran


async def test_validation_runs_in_the_sandbox_within_the_offloads_budget_and_closing_kills_it() -> None:
    offload = Offload(budget=0.3)
    try:
        with anyio.fail_after(WAIT):
            stopped = await offload.validate(CATASTROPHIC, SLOW_TEXT)
        assert stopped.failure is Failure.OVER_BUDGET and "0.3 s budget" in stopped.detail
        with anyio.fail_after(WAIT):
            assert (await offload.validate(CATASTROPHIC, "aaa")).valid, "a fresh worker for the next check"
        verdict = await offload.check_result({"outputSchema": {"type": "object"}}, {"structuredContent": {}})
        assert verdict.verdict == "valid"
        pid = offload.sandbox.pid
        assert pid is not None and alive(pid)
    finally:
        await offload.aclose()
    assert offload.sandbox.pid is None and not alive(pid), "no validation worker outlives the offload"


async def test_work_in_slices_lets_the_loop_run_between_them_and_returns_its_result() -> None:
    from catalog_inspector.core.steps import Steps

    offload = Offload()
    let_go: list[bool] = []

    def waits_for_the_loop() -> Steps[str]:
        # Ends only once a callback of the loop has run: it would spin to its cap if no slice ever gave way.
        for _ in range(10_000_000):
            if let_go:
                return "the loop ran between slices"
            yield
        return "starved"

    asyncio.get_running_loop().call_soon(let_go.append, True)
    try:
        with anyio.fail_after(WAIT):
            assert await offload.in_slices(waits_for_the_loop()) == "the loop ran between slices"
    finally:
        await offload.aclose()


async def test_work_in_slices_stops_between_slices_once_the_runtime_closes() -> None:
    from catalog_inspector.core.steps import Steps

    offload = Offload()
    ran: list[int] = []

    started = asyncio.Event()

    def endless() -> Steps[None]:
        while True:
            ran.append(1)
            started.set()
            yield

    async def close_soon() -> None:
        await started.wait()
        await offload.aclose()

    closing = asyncio.ensure_future(close_soon())
    with anyio.fail_after(WAIT), pytest.raises(OffloadClosed):
        await offload.in_slices(endless())
    await closing
    steps_by_then = len(ran)
    await next_turn()
    assert len(ran) == steps_by_then, "no step runs after the work was stopped"


async def test_jobs_in_slices_take_turns_one_slice_a_turn_of_the_loop_and_each_ends_on_its_own() -> None:
    from catalog_inspector.core.steps import Steps

    offload = Offload()
    offload.slice_seconds = 0.0  # one step a slice: the order of steps is the order of slices
    seen: list[str] = []

    def job(name: str, steps: int) -> Steps[str]:
        for i in range(steps):
            seen.append(f"{name}{i}")
            yield
        return f"{name} done"

    ticking = [True]

    def tick() -> None:  # another callback of the loop, rescheduled each turn as the slices are
        if ticking[0]:
            seen.append("turn")
            asyncio.get_running_loop().call_soon(tick)

    try:
        with anyio.fail_after(WAIT):
            first = asyncio.ensure_future(offload.in_slices(job("a", 3)))
            second = asyncio.ensure_future(offload.in_slices(job("b", 2)))
            await next_turn()
            asyncio.get_running_loop().call_soon(tick)
            assert await asyncio.gather(first, second) == ["a done", "b done"]
            ticking[0] = False
        steps = [s for s in seen if s != "turn"]
        assert steps == ["a0", "b0", "a1", "b1", "a2"], "the jobs take turns, each to its own end"
        between = seen[seen.index("b0") :]
        assert all(x == "turn" or y == "turn" for x, y in zip(between, between[1:], strict=False)), seen
    finally:
        await offload.aclose()


async def test_a_job_that_ends_lets_its_awaiter_have_a_turn_to_itself_before_the_next_slice() -> None:
    # Its awaiter may do a frame's work with the result (a report published: the banner, the tree): another
    # job's slice in the same turn would make the two one stall. What the awaiter schedules next comes first.
    from catalog_inspector.core.steps import Steps

    offload = Offload()
    offload.slice_seconds = 0.0
    seen: list[str] = []

    def job(name: str, steps: int) -> Steps[str]:
        for i in range(steps):
            seen.append(f"{name}{i}")
            yield
        return name

    async def publish() -> None:
        await offload.in_slices(job("a", 1))
        seen.append("published")
        asyncio.get_running_loop().call_soon(seen.append, "its repaint")

    try:
        with anyio.fail_after(WAIT):
            first = asyncio.ensure_future(publish())
            second = asyncio.ensure_future(offload.in_slices(job("b", 3)))
            await asyncio.gather(first, second)
        assert seen == ["a0", "b0", "published", "its repaint", "b1", "b2"], seen
    finally:
        await offload.aclose()


async def test_a_job_in_slices_that_fails_or_is_cancelled_goes_and_the_others_go_on() -> None:
    from catalog_inspector.core.steps import Steps

    offload = Offload()
    offload.slice_seconds = 0.0
    closed: list[str] = []
    gone = asyncio.Event()

    def failing() -> Steps[None]:
        yield
        raise ValueError("a bug of the job's own")

    def endless() -> Steps[None]:
        try:
            while True:
                yield
        finally:
            closed.append("endless")
            gone.set()

    def short() -> Steps[int]:
        for _ in range(5):
            yield
        return 5

    try:
        with anyio.fail_after(WAIT):
            doomed = asyncio.ensure_future(offload.in_slices(endless()))
            failed = asyncio.ensure_future(offload.in_slices(failing()))
            ok = asyncio.ensure_future(offload.in_slices(short()))
            with pytest.raises(ValueError, match="job.s own"):
                await failed
            doomed.cancel()
            assert await ok == 5
            await gone.wait()
        assert closed == ["endless"], "a cancelled job's steps are closed, not left to run"
        assert doomed.cancelled()
    finally:
        await offload.aclose()
