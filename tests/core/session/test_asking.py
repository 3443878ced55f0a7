"""A request the server answers by asking: every round answered, recorded, bounded; never called a result.

Real servers: the bundled "asks" demo (an SDK `MCPServer`) on both eras, over stdio and
Streamable HTTP, and a hand-written 2026-07-28 server (tests/fixtures/mrtr_server.py) that
shows what came back on the wire.
"""

from __future__ import annotations

import math
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest

from catalog_inspector.core.calls import (
    CallOutcome,
    InputAnswer,
    InputAsk,
    Outcome,
    RoundLog,
    accept,
    cancel,
    decline,
    reject,
    reply,
)
from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.session import Asking, SessionWorker, call_tool, get_prompt, read_resource
from catalog_inspector.core.session.clock import PausableClock
from tests.helpers import DEMO, ROOT, forked, http_demo

LIMITS = Limits(request_timeout=10.0, deadline=30.0)
ROOTS = ({"uri": "file:///home/ada/project", "name": "project"},)
ASKS = (*DEMO, "--mode", "asks")


def asks_spec(era: str = "auto", *extra: str) -> ServerSpec:
    return ServerSpec(name="asks", command=ASKS[0], args=(*ASKS[1:], *extra), roots=ROOTS, protocol_era=era)  # type: ignore[arg-type]


def mrtr_spec() -> ServerSpec:
    return ServerSpec(name="mrtr", command=sys.executable, args=forked("tests.fixtures.mrtr_server")[1:], cwd=str(ROOT))


@asynccontextmanager
async def live(spec: ServerSpec, limits: Limits = LIMITS) -> AsyncIterator[tuple[SessionWorker, Snapshot]]:
    ready = anyio.Event()
    worker = SessionWorker(spec, limits)
    async with anyio.create_task_group() as group:
        group.start_soon(worker.run, lambda _snapshot: ready.set())
        with anyio.fail_after(30):
            await ready.wait()
        assert worker.snapshot is not None and worker.snapshot.status == "complete", worker.snapshot
        try:
            yield worker, worker.snapshot
        finally:
            worker.stop()


Answer = Callable[[InputAsk], InputAnswer]


def answering(answer: Answer, **options: Any) -> Asking:
    async def answerer(ask: InputAsk) -> InputAnswer:
        return answer(ask)

    return Asking(answerer, roots=ROOTS, **options)


async def called(pair: tuple[SessionWorker, Snapshot], tool: str, asking: Asking | None, **args: Any) -> CallOutcome:
    worker, snapshot = pair
    assert worker.connection is not None
    return await call_tool(worker.connection, snapshot, tool, args, 10.0, asking=asking)


def text_of(outcome: CallOutcome) -> str:
    assert outcome.result is not None, outcome
    return str(outcome.result["content"][0]["text"])


def person(ask: InputAsk) -> InputAnswer:
    """Answers as a person filling in the demo's questions would."""
    if ask.method == "sampling/createMessage":
        return reply(ask, "Servers ask; clients answer.", model="ada")
    if ask.mode == "url":
        return accept(ask)
    if "plan" in str(ask.requested_schema):
        return accept(ask, {"email": "ada@example.org"})
    return accept(ask, {"name": "Ada"})


@pytest.mark.anyio
@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_every_kind_is_answered_and_recorded_on_both_eras(era: str) -> None:
    async with live(asks_spec(era)) as pair:
        greeted = await called(pair, "greet", answering(person))
        assert greeted.outcome is Outcome.OK and text_of(greeted) == "Hello, Ada!"
        (first,) = greeted.rounds
        assert first.era == era and first.index == 1
        assert [(a.method, a.mode, a.message) for a in first.requests] == [
            ("elicitation/create", "form", "What is your name?")
        ]
        assert [a.action for a in first.responses] == ["accept"]
        assert (first.requests[0].key == "name") is (era == "modern")
        assert (first.request_state_bytes is not None) is (era == "modern")

        signed = await called(pair, "signup", answering(person))
        # Two rounds; the second answer was completed with the requested schema's defaults (SEP-1034).
        assert text_of(signed) == "Signed up Ada on free (1 seats), mail to ada@example.org."
        assert [entry.index for entry in signed.rounds] == [1, 2]
        second = signed.rounds[1].responses[0].response
        assert second == {
            "action": "accept",
            "content": {"plan": "free", "newsletter": True, "seats": 1, "email": "ada@example.org"},
        }

        consent = await called(pair, "consent", answering(person))
        asked = consent.rounds[0].requests[0]
        assert asked.mode == "url" and asked.url == "https://consent.example.invalid/approve?request=demo-asks"
        assert text_of(consent).startswith("Consent opened")
        if era == "legacy":  # the server's notifications/elicitation/complete is said in the log
            said = "[mcp-catalog-inspector] the server says the URL elicitation 'demo-consent-1' is complete"
            assert said in pair[0].log.lines

        summary = await called(pair, "summarise", answering(person))
        assert text_of(summary) == "Summary by ada: Servers ask; clients answer."
        assert summary.rounds[0].requests[0].message.startswith("Summarise in one line:")

        rooted = await called(pair, "roots", answering(person))
        assert text_of(rooted) == "Roots: file:///home/ada/project"
        assert rooted.rounds[0].responses[0].action == "roots"


@pytest.mark.anyio
@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_declined_cancelled_rejected_and_unanswered_questions_are_said_as_such(era: str) -> None:
    async with live(asks_spec(era)) as pair:
        declined = await called(pair, "greet", answering(decline))
        assert declined.outcome is Outcome.OK and text_of(declined) == "You declined to give your name."
        cancelled = await called(pair, "greet", answering(cancel))
        assert text_of(cancelled) == "You closed the question about your name without answering."
        rejected = await called(pair, "summarise", answering(reject))
        assert rejected.rounds[0].responses[0].action == "reject"
        if era == "modern":
            # A refusal leaves the key out; the server asks the same again, and is not asked a third time.
            assert rejected.outcome is Outcome.ROUNDS_EXCEEDED and len(rejected.rounds) == 2
            assert rejected.error is not None and "asked again what was refused" in rejected.error.message
        else:
            assert rejected.outcome is Outcome.JSONRPC_ERROR  # the server could not go on: its request failed

        nobody = await called(pair, "greet", None)
        # Answered as a person closing the dialog would; the result is kept, and the outcome says so.
        assert nobody.outcome is Outcome.INPUT_UNANSWERED and nobody.layer == "ok"
        assert text_of(nobody) == "You closed the question about your name without answering."
        assert nobody.rounds[0].responses[0].unanswered


@pytest.mark.anyio
@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_an_answer_that_breaks_the_requested_schema_sends_nothing_more(era: str) -> None:
    async with live(asks_spec(era)) as pair:
        outcome = await called(pair, "greet", answering(lambda ask: accept(ask, {"name": ""})))
        assert outcome.outcome is Outcome.INPUT_INVALID and outcome.outcome.exit_code == 3
        assert outcome.error is not None and "/name" in outcome.error.message
        assert outcome.rounds[0].responses[0].problems[0].keyword == "minLength"
        # Content an elicitation result cannot carry (an object), whatever the schema says: refused, not sent.
        nested = await called(pair, "greet", answering(lambda ask: accept(ask, {"name": "Ada", "x": {"a": 1}})))
        assert nested.outcome is Outcome.INPUT_INVALID
        assert [p.pointer for p in nested.rounds[0].responses[0].problems] == ["/x"]
        again = await called(pair, "greet", answering(person))  # the session is still good
        assert text_of(again) == "Hello, Ada!"


@pytest.mark.anyio
@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_a_server_that_never_stops_asking_meets_the_rounds_cap(era: str) -> None:
    async with live(asks_spec(era)) as pair:
        outcome = await called(pair, "insist", answering(lambda ask: accept(ask, {}), max_rounds=3))
        assert outcome.outcome is Outcome.ROUNDS_EXCEEDED and outcome.outcome.exit_code == 6
        assert len(outcome.rounds) == 4 and outcome.rounds[-1].requests[0].message == "Question 4: are you sure?"
        assert not outcome.rounds[-1].responses or outcome.rounds[-1].responses[0].action == "error"
        assert text_of(await called(pair, "greet", answering(person))) == "Hello, Ada!"


@pytest.mark.anyio
async def test_prompts_and_resources_ask_too() -> None:
    async with live(asks_spec()) as (worker, _snapshot):
        assert worker.connection is not None
        prompt = await get_prompt(worker.connection, "welcome", None, 10.0, asking=answering(person))
        assert prompt.outcome is Outcome.OK and len(prompt.rounds) == 1
        assert (
            prompt.result is not None
            and prompt.result["messages"][0]["content"]["text"] == "Please welcome Ada warmly."
        )
        read = await read_resource(worker.connection, "demo://asks/secret/x", 10.0, asking=answering(person))
        assert read.result is not None and "for Ada" in read.result["contents"][0]["text"]


@pytest.mark.anyio
async def test_streamable_http_asks_the_same_way() -> None:
    with http_demo("asks") as url:
        async with live(ServerSpec(name="asks", transport="http", url=url)) as pair:
            outcome = await called(pair, "signup", answering(person))
            assert outcome.outcome is Outcome.OK and [r.era for r in outcome.rounds] == ["modern", "modern"]
            state_only = await called(pair, "patience", answering(person))
            assert text_of(state_only) == "Done after 2 retries."
            assert [len(r.requests) for r in state_only.rounds] == [0, 0]


# The wire, through the hand-written server.

STATE = 'ünï\u2028"\\/ 🙂 ' + "x" * 1000


@pytest.mark.anyio
async def test_request_state_is_echoed_byte_for_byte_under_a_new_id_each_round() -> None:
    async with live(mrtr_spec()) as pair:
        outcome = await called(pair, "probe", answering(lambda ask: accept(ask, {})), rounds=3, state=STATE)
        assert outcome.outcome is Outcome.OK, outcome
        assert outcome.result is not None
        seen = outcome.result["structuredContent"]["seen"]
        assert len(seen) == 4 and len({attempt["id"] for attempt in seen}) == 4
        assert [attempt["requestState"] for attempt in seen] == [None, STATE, STATE, STATE]
        assert seen[0]["inputResponses"] is None
        for attempt in seen[1:]:
            assert attempt["inputResponses"] == {
                "ask": {"action": "accept", "content": {"ok": True}},
                "roots": {"roots": [{"uri": "file:///home/ada/project", "name": "project"}]},
            }
        assert [entry.request_state_bytes for entry in outcome.rounds] == [len(STATE.encode())] * 3

        stateless = await called(pair, "stateless", answering(lambda ask: accept(ask, {})))
        assert text_of(stateless) == "no state came back, as it should"

        # "Clients MUST treat an absent resultType as complete" (2026-07-28); shown as the server sent it.
        bare = await called(pair, "bare", None)
        assert bare.outcome is Outcome.OK and bare.result == {"content": [{"type": "text", "text": "no resultType"}]}


@pytest.mark.anyio
async def test_a_call_made_between_two_rounds_carries_nothing_of_that_flow() -> None:
    async with live(mrtr_spec()) as pair:
        asked, release = anyio.Event(), anyio.Event()

        async def slow(ask: InputAsk) -> InputAnswer:
            asked.set()
            await release.wait()
            return accept(ask, {})

        outcomes: list[CallOutcome] = []

        async def first() -> None:
            outcomes.append(await called(pair, "probe", Asking(slow, roots=ROOTS), rounds=1, state="flow-1"))

        async with anyio.create_task_group() as group:
            group.start_soon(first)
            with anyio.fail_after(10):
                await asked.wait()
            peek = await called(pair, "peek", Asking(slow))
            release.set()
        assert peek.result is not None and peek.result["structuredContent"] == {
            "inputResponses": False,
            "requestState": False,
        }
        assert outcomes[0].outcome is Outcome.OK


@pytest.mark.anyio
async def test_cancel_while_a_person_answers_leaves_the_session_usable() -> None:
    async with live(mrtr_spec()) as pair:
        asked = anyio.Event()

        async def never(ask: InputAsk) -> InputAnswer:
            asked.set()
            await anyio.sleep_forever()
            raise AssertionError

        async with anyio.create_task_group() as group:

            async def call() -> None:
                await called(pair, "probe", Asking(never), rounds=1)

            group.start_soon(call)
            with anyio.fail_after(10):
                await asked.wait()
            group.cancel_scope.cancel()
        peek = await called(pair, "peek", None)
        assert peek.outcome is Outcome.OK


@pytest.mark.anyio
async def test_malformed_and_oversized_questions_are_classified() -> None:
    async with live(mrtr_spec(), Limits(request_timeout=10, deadline=30, max_page_bytes=16 * 1024 * 1024)) as pair:
        # An input request of a method nobody here knows is answered with an error for its key; the rest of
        # the question is answered and the call goes on.
        weird = await called(pair, "weird", answering(lambda ask: accept(ask, {})))
        assert weird.outcome is Outcome.OK and weird.result is not None
        assert weird.result["structuredContent"] == {"keys": ["ask", "roots"]}
        (first,) = weird.rounds[:1]
        assert {a.key: a.action for a in first.responses} == {"odd": "error", "ask": "accept", "roots": "roots"}
        assert [a.method for a in first.requests if a.key == "odd"] == ["foo/bar"]
        big = await called(pair, "big_state", answering(person), bytes=2 * 1024 * 1024)
        assert big.outcome is Outcome.OUTPUT_INVALID and big.error is not None
        assert "requestState is over 1,048,576 bytes" in big.error.message
    async with live(mrtr_spec()) as pair:
        huge = await called(pair, "big_state", answering(person), bytes=10 * 1024 * 1024)
        assert huge.outcome is Outcome.SIZE_LIMIT  # over the page cap: refused as it arrived, never read whole


@pytest.mark.anyio
async def test_the_call_clock_stops_while_a_person_answers() -> None:
    clock = PausableClock(5.0)
    clock.start()
    clock.pause(True)
    clock.pause(True)
    assert clock.scope.deadline == math.inf
    clock.pause(False)
    assert clock.scope.deadline == math.inf  # still one pause open
    clock.pause(False)
    assert 4.0 < clock.scope.deadline - anyio.current_time() <= 5.0
    unlimited = PausableClock(None)
    unlimited.start()
    assert unlimited.scope.deadline == math.inf


@pytest.mark.anyio
@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_the_time_a_person_takes_to_answer_is_not_the_servers_latency(era: str) -> None:
    import time

    thought = [0.0]  # seconds the person "took": the request's clock runs them, no test waits them out

    def clock() -> float:
        return time.perf_counter() + thought[0]

    async with live(asks_spec(era)) as pair:
        asking = Asking(roots=ROOTS, log=RoundLog(clock=clock))

        async def slow(ask: InputAsk) -> InputAnswer:
            thought[0] += 600.0  # ten minutes of thinking, on the request's clock
            return person(ask)

        asking.answerer = slow
        started = clock()
        outcome = await called(pair, "greet", asking)
        wall_ms = (clock() - started) * 1000
        assert text_of(outcome) == "Hello, Ada!"
        assert asking.log.answering_ms == pytest.approx(600_000, abs=1), "the thinking, counted once"
        assert wall_ms > 600_000 and 0 <= outcome.latency_ms < wall_ms - 599_000, "the answering time is left out"
