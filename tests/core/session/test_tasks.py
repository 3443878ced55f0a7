"""A call run as a task, on both eras' tasks: followed to its end, its statuses recorded, its questions answered,
bounded by a deadline, cancelled on the server when given up, its result judged like any call's.

The server is real: an SDK lowlevel `Server` in a subprocess (tests/fixtures/tasks_server.py)
that serves 2025-11-25 experimental tasks and the 2026-07-28 tasks extension, and says
what it saw on the wire (its `stats` tool).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest

from catalog_inspector.core.calls import CallOutcome, InputAsk, Outcome, TaskLog, accept
from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.session import Asking, SessionWorker, call_tool
from tests.helpers import ROOT, forked, serving

ERAS = ["legacy", "modern"]
LIMITS = Limits(request_timeout=10.0, deadline=30.0, task_deadline=20.0)


def tasks_spec(era: str, url: str = "") -> ServerSpec:
    if url:
        return ServerSpec(name="tasks", transport="http", url=url, protocol_era=era)  # type: ignore[arg-type]
    return ServerSpec(
        name="tasks",
        command=sys.executable,
        args=forked("tests.fixtures.tasks_server")[1:],
        cwd=str(ROOT),
        protocol_era=era,  # type: ignore[arg-type]
    )


@asynccontextmanager
async def live(era: str, limits: Limits = LIMITS, url: str = "") -> AsyncIterator[tuple[SessionWorker, Snapshot]]:
    ready = anyio.Event()
    worker = SessionWorker(tasks_spec(era, url), limits)
    async with anyio.create_task_group() as group:
        group.start_soon(worker.run, lambda _snapshot: ready.set())
        with anyio.fail_after(30):
            await ready.wait()
        assert worker.snapshot is not None and worker.snapshot.status == "complete", worker.snapshot
        expected = "2025-11-25" if era == "legacy" else "2026-07-28"
        assert worker.connection is not None and worker.connection.protocol_version == expected
        try:
            yield worker, worker.snapshot
        finally:
            worker.stop()


async def as_task(
    pair: tuple[SessionWorker, Snapshot], tool: str, log: TaskLog | None = None, asking: Asking | None = None,
    **arguments: Any,
) -> CallOutcome:  # fmt: skip
    worker, snapshot = pair
    assert worker.connection is not None
    with anyio.fail_after(30):
        return await call_tool(
            worker.connection, snapshot, tool, arguments, 10.0, asking=asking, task=log if log else TaskLog()
        )


async def stats(pair: tuple[SessionWorker, Snapshot]) -> dict[str, Any]:
    worker, snapshot = pair
    assert worker.connection is not None
    outcome = await call_tool(worker.connection, snapshot, "stats", {}, 10.0)
    assert outcome.result is not None
    seen: dict[str, Any] = outcome.result["structuredContent"]
    return seen


def statuses(outcome: CallOutcome) -> list[str]:
    assert outcome.task is not None
    return [state.status for state in outcome.task.states]


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_task_is_followed_to_its_end_its_statuses_kept_and_its_result_judged(era: str) -> None:
    async with live(era) as pair:
        outcome = await as_task(pair, "count", steps=3)
        assert outcome.outcome is Outcome.OK, outcome.summary()
        assert outcome.result is not None and outcome.result["structuredContent"] == {"count": 3}
        assert outcome.verdict is not None and outcome.verdict.verdict == "valid"  # judged against the output schema
        task = outcome.task
        assert task is not None and task.era == era and task.task_id and not task.cancel_sent
        assert statuses(outcome)[0] == "working" and statuses(outcome)[-1] == "completed"
        assert task.states[0].source == "created" and task.states[0].poll_interval_ms == 50
        messages = [state.message for state in task.states]
        assert "counted" in messages and any(m and m.startswith("step ") for m in messages)
        # A poll that says the same as the last one is not kept: no two neighbours are alike.
        assert all(not a.same_as(b) for a, b in zip(task.states, task.states[1:], strict=False))
        seen = await stats(pair)
        if era == "legacy":  # asked for with params.task, progress on our own token
            assert seen["calls"][0] == {"name": "count", "task": {"ttl": 20_000}, "declared": False}
            assert task.progress is not None and (task.progress.progress, task.progress.total) == (3, 3)
            assert task.progress.message == "step 3"
        else:  # the extension declared on this request only; no params.task on this era
            assert seen["calls"][0] == {"name": "count", "task": None, "declared": True}
            assert seen["calls"][-1] == {"name": "stats", "task": None, "declared": False}


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_status_notifications_end_the_wait_for_the_next_poll(era: str) -> None:
    async with live(era) as pair:
        # The server suggests polling every 20 s (30 s is the ceiling): only its notifications can make this quick.
        with anyio.fail_after(8):
            outcome = await as_task(pair, "count", steps=2, step_ms=30, poll_ms=20_000)
        assert outcome.outcome is Outcome.OK
        assert outcome.task is not None
        assert "notification" in {state.source for state in outcome.task.states}
        assert outcome.task.states[0].poll_interval_ms == 20_000
        if era == "modern":  # 2026-07-28: only to a subscriptions/listen that named the task
            assert [outcome.task.task_id] in (await stats(pair))["listens"]


def named(ask: InputAsk) -> Any:
    return accept(ask, {"name": "Ada"})


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_task_that_asks_for_input_is_answered_through_the_asking_and_goes_on(era: str) -> None:
    async def answerer(ask: InputAsk) -> Any:
        return named(ask)

    async with live(era) as pair:
        outcome = await as_task(pair, "ask_name", asking=Asking(answerer))
        assert outcome.outcome is Outcome.OK, outcome.summary()
        assert outcome.result is not None and outcome.result["content"][0]["text"] == "Hello, Ada!"
        assert "input_required" in statuses(outcome) and statuses(outcome)[-1] == "completed"
        (entry,) = outcome.rounds
        assert entry.era == era and entry.requests[0].message == "What is your name?"
        assert [answer.action for answer in entry.responses] == ["accept"]
        seen = await stats(pair)
        if era == "modern":  # the key of the task's inputRequests, answered once, with tasks/update
            assert entry.requests[0].key == "name"
            (update,) = seen["updates"]
            assert update["inputResponses"] == {"name": {"action": "accept", "content": {"name": "Ada"}}}
        else:  # asked by the server itself while tasks/result waited
            assert entry.requests[0].key is None and seen["updates"] == []


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_question_nobody_answers_is_closed_and_the_task_ends_input_unanswered(era: str) -> None:
    async with live(era) as pair:
        outcome = await as_task(pair, "ask_name")  # nobody to answer: closed as a person closing the dialog
        assert outcome.outcome is Outcome.INPUT_UNANSWERED
        assert outcome.result is not None and outcome.result["content"][0]["text"] == "No name given."


@pytest.mark.anyio
async def test_a_task_that_asks_again_what_got_no_answer_is_stopped_not_waited_out() -> None:
    async with live("modern", Limits(request_timeout=10.0, deadline=30.0, task_deadline=120.0)) as pair:
        outcome = await as_task(pair, "insists")  # nobody to answer, and the server asks again the same
        assert outcome.outcome is Outcome.INPUT_UNANSWERED, "not a timeout after the task deadline"
        assert outcome.error is not None and "asked again what was refused or not answered" in outcome.error.message
        assert outcome.task is not None and outcome.task.cancel_sent
        seen = await stats(pair)
        assert seen["cancelled"] == [outcome.task.task_id] and len(seen["updates"]) == 1, "one update, then cancel"


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_task_that_never_ends_runs_into_the_deadline_and_is_cancelled_on_the_server(era: str) -> None:
    async with live(era, Limits(request_timeout=10.0, deadline=30.0, task_deadline=3.0)) as pair:
        outcome = await as_task(pair, "forever")
        assert outcome.outcome is Outcome.TIMEOUT
        assert outcome.error is not None
        assert outcome.error.message == "the task did not end within the task deadline of 3 s; tasks/cancel was sent"
        assert outcome.task is not None and outcome.task.cancel_sent
        seen = await stats(pair)
        assert seen["cancelled"] == [outcome.task.task_id]
        if era == "legacy":  # 2025-11-25 answers tasks/cancel with the task, now cancelled
            assert outcome.task.states[-1].status == "cancelled" and outcome.task.states[-1].source == "cancel"


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_task_whose_call_is_cancelled_is_cancelled_on_the_server_too(era: str) -> None:
    working = anyio.Event()

    def changed(log: TaskLog) -> None:
        if log.states and log.states[-1].message == "working forever":
            working.set()

    log = TaskLog(on_change=changed)
    async with live(era) as pair:
        async with anyio.create_task_group() as group:
            group.start_soon(as_task, pair, "forever", log)
            with anyio.fail_after(10):
                await working.wait()
            group.cancel_scope.cancel()  # as the app's Cancel, or a signal to the command line, does
        assert log.cancel_sent
        seen = await stats(pair)
        assert seen["cancelled"] == [log.task_id]


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_failed_task_is_a_jsonrpc_error_and_one_the_server_cancels_is_task_cancelled(era: str) -> None:
    async with live(era) as pair:
        failed = await as_task(pair, "fail")
        assert failed.outcome is Outcome.JSONRPC_ERROR
        assert failed.error is not None and failed.error.code == -32603 and "the job broke" in failed.error.message
        assert statuses(failed)[-1] == "failed"
        gave_up = await as_task(pair, "gives_up")
        assert gave_up.outcome is Outcome.TASK_CANCELLED and gave_up.outcome.exit_code == 4
        assert gave_up.error is not None
        assert gave_up.error.message == (
            "the server ended the task as cancelled without being asked to (the server gave up)"
        )
        assert gave_up.task is not None and not gave_up.task.cancel_sent


@pytest.mark.anyio
async def test_a_tool_that_requires_a_task_runs_as_one_unasked_on_2025_11_25() -> None:
    async with live("legacy") as pair:
        worker, snapshot = pair
        assert worker.connection is not None
        outcome = await call_tool(worker.connection, snapshot, "needs_task", {}, 10.0)  # no task asked for
        assert outcome.outcome is Outcome.OK and outcome.task is not None
        assert outcome.task.note == "run as a task: the tool's execution.taskSupport is required"
        plain = await as_task(pair, "plain")  # a tool without task support, run as one on purpose
        assert plain.task is not None and plain.task.note == (
            "the tool does not declare execution.taskSupport: a conforming client would not run it as a task"
        )


@pytest.mark.anyio
async def test_on_2026_07_28_a_call_without_the_extension_is_refused_by_a_task_only_tool() -> None:
    async with live("modern") as pair:
        worker, snapshot = pair
        assert worker.connection is not None
        plain = await call_tool(worker.connection, snapshot, "needs_task", {}, 10.0)
        assert plain.outcome is Outcome.JSONRPC_ERROR and plain.error is not None and plain.error.code == -32021
        assert plain.task is None  # no taskSupport on this era: nothing forced it
        outcome = await as_task(pair, "needs_task")
        assert outcome.outcome is Outcome.OK and outcome.task is not None and outcome.task.note is None


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_task_answer_to_a_call_that_did_not_ask_for_one_is_malformed(era: str) -> None:
    async with live(era) as pair:
        worker, snapshot = pair
        assert worker.connection is not None
        outcome = await call_tool(worker.connection, snapshot, "rogue", {}, 10.0)
        assert outcome.outcome is Outcome.OUTPUT_INVALID
        assert outcome.error is not None
        assert outcome.error.message == "the server answered with a task, although the call did not ask for one"


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_over_streamable_http_a_task_runs_as_on_stdio_and_its_polls_name_the_task(era: str) -> None:
    with serving([*forked("tests.fixtures.tasks_server"), "--http"]) as url:
        async with live(era, url=url) as pair:
            outcome = await as_task(pair, "count", steps=2, poll_ms=20_000)  # status notifications end each wait
            assert outcome.outcome is Outcome.OK and statuses(outcome)[-1] == "completed"
            assert outcome.task is not None and "notification" in {s.source for s in outcome.task.states}
            asked = await as_task(pair, "ask_name", asking=Asking(lambda ask: _named(ask)))
            assert asked.outcome is Outcome.OK, asked.summary()
            names = (await stats(pair))["names"]
            # 2026-07-28: Mcp-Name carries the task id (SEP-2663); 2025-11-25 has no such header.
            expected = outcome.task.task_id if era == "modern" else None
            assert names and names[0] == expected


async def _named(ask: InputAsk) -> Any:
    return named(ask)


@pytest.mark.anyio
async def test_a_terminal_status_heard_first_is_not_undone_by_an_older_polls_answer() -> None:
    """On Streamable HTTP a status notification and a poll's answer travel apart: "completed" may come before the
    answer to a poll the server made while the task still worked. Taken, that answer sent the poller back to wait
    a whole poll interval (a task that had ended ran into the call's timeout, seen on a loaded machine)."""
    from types import SimpleNamespace

    from catalog_inspector.core.session.clock import PausableClock
    from catalog_inspector.core.session.tasks import _Run

    connection = SimpleNamespace(protocol_version="2026-07-28")  # all `_Run` reads of its connection here
    run = _Run(connection, Asking(lambda ask: None), TaskLog(), 10.0, PausableClock(10.0))  # type: ignore[arg-type]
    run.task_id = "t1"
    run.heard({"taskId": "t1", "status": "working"}, "get")
    run.heard({"taskId": "t1", "status": "completed"}, "notification")
    run.woken = anyio.Event()
    run.heard({"taskId": "t1", "status": "working"}, "get")  # the older poll's answer
    assert run.current["status"] == "completed"
    assert [state.status for state in run.log.states] == ["working", "completed"]
    assert not run.woken.is_set(), "nothing new: the poller is not woken for it"
