"""The runtime's side of a server's questions, without widgets: the real "asks" demo server on both eras, questions
queued per server and answered by a person (here, the test), withdrawn with their call, replayed on a re-run."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from catalog_inspector.core.calls import CallOutcome, accept, decline, reply
from catalog_inspector.core.config import Limits
from catalog_inspector.runtime import CallTicket, Runtime, ServerState, ServerSupervisor
from catalog_inspector.runtime.asks import PendingAsk
from tests.helpers import demo_spec, recording_registry, spin_until_gone

LIMITS = Limits(request_timeout=5.0, deadline=30.0)
ROOTS = ({"uri": "file:///tmp/demo-project", "name": "demo project"},)


class Asks:
    """One runtime for the module: the asks demo on 2026-07-28 (`modern`) and on initialize (`legacy`)."""

    def __init__(self, qtbot: QtBot, tmp_path: Path) -> None:
        self.pids: list[int] = []
        base = demo_spec("asks", name="asks")
        specs = [
            replace(base, roots=ROOTS, budgets={"max_rounds": 2}),
            replace(base, name="asks legacy", protocol_era="legacy", budgets={"max_rounds": 2}),
        ]
        self.runtime = Runtime(specs, LIMITS, recording_registry(tmp_path / "sessions", self.pids))
        self.asked: list[PendingAsk] = []
        self.finished: dict[CallTicket, CallOutcome] = {}
        for supervisor in self.runtime.supervisors:
            supervisor.input_asked.connect(self.asked.append)
            supervisor.call_finished.connect(self.finished.__setitem__)
            supervisor.refresh()
        for supervisor in self.runtime.supervisors:
            qtbot.waitUntil(lambda s=supervisor: s.state is ServerState.READY, timeout=30_000)

    def __getitem__(self, era: str) -> ServerSupervisor:
        return self.runtime.supervisors[0 if era == "modern" else 1]

    def question(self, qtbot: QtBot, ticket: CallTicket) -> PendingAsk:
        qtbot.waitUntil(lambda: any(p.ticket is ticket for p in self.asked), timeout=10_000)
        found = next(p for p in self.asked if p.ticket is ticket)
        self.asked.remove(found)
        return found

    def outcome(self, qtbot: QtBot, ticket: CallTicket) -> CallOutcome:
        qtbot.waitUntil(lambda: ticket in self.finished, timeout=15_000)
        return self.finished.pop(ticket)


@pytest.fixture(scope="module")
def asks(request: pytest.FixtureRequest, module_qloop: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Asks]:
    qtbot = QtBot(request)
    rig = Asks(qtbot, tmp_path_factory.mktemp("asks"))
    yield rig
    with qtbot.waitSignal(rig.runtime.shutdown_finished, timeout=20_000):
        rig.runtime.shutdown()
    spin_until_gone(qtbot, rig.pids)


def text_of(outcome: CallOutcome) -> str:
    assert outcome.result is not None, outcome.summary()
    return str(outcome.result["content"][0]["text"])


@pytest.mark.parametrize("era", ["modern", "legacy"])
def test_a_question_waits_for_the_person_and_their_answer_reaches_the_server(
    asks: Asks, qtbot: QtBot, era: str
) -> None:
    supervisor = asks[era]
    ticket = supervisor.call_tool("greet", {}, 5.0)
    assert ticket is not None
    pending = asks.question(qtbot, ticket)
    assert pending.server == supervisor.spec.name and pending.ask.message == "What is your name?"
    assert supervisor.asks.pending == [pending] and pending.ask.era == era
    with qtbot.waitSignal(supervisor.input_settled, timeout=5_000) as settled:
        assert supervisor.answer_input(pending, accept(pending.ask, {"name": "Ada"}))
    assert settled.args == [pending] and supervisor.asks.pending == []
    assert not supervisor.answer_input(pending, decline(pending.ask)), "an answered question takes no second answer"
    outcome = asks.outcome(qtbot, ticket)
    assert text_of(outcome) == "Hello, Ada!" and str(outcome.outcome) == "ok"
    assert [r.index for r in outcome.rounds] == [1] and outcome.rounds[0].responses[0].action == "accept"
    record = asks.runtime.calls.histories[supervisor.spec.name][-1]
    assert record.rounds[0]["requests"][0]["message"] == "What is your name?" and record.rounds_total == 1
    assert record.answers == {
        "elicitation": [{"match": "What is your name?", "action": "accept", "content": {"name": "Ada"}}]
    }, "the history keeps the answers, to give them again"


def test_two_questions_at_once_each_keep_their_own_answer(asks: Asks, qtbot: QtBot) -> None:
    supervisor = asks["modern"]
    first, second = supervisor.call_tool("greet", {}, 5.0), supervisor.call_tool("summarise", {}, 5.0)
    assert first is not None and second is not None
    name, summary = asks.question(qtbot, first), asks.question(qtbot, second)
    assert supervisor.asks.pending == [name, summary], "the second question did not replace the first"
    supervisor.answer_input(summary, reply(summary.ask, "Servers ask.", "me"))
    supervisor.answer_input(name, accept(name.ask, {"name": "Grace"}))
    assert text_of(asks.outcome(qtbot, first)) == "Hello, Grace!"
    assert text_of(asks.outcome(qtbot, second)) == "Summary by me: Servers ask."


@pytest.mark.parametrize("era", ["modern", "legacy"])
def test_cancelling_the_call_withdraws_its_question_and_says_the_server_waited(
    asks: Asks, qtbot: QtBot, era: str
) -> None:
    supervisor = asks[era]
    ticket = supervisor.call_tool("signup", {}, 5.0)
    assert ticket is not None
    pending = asks.question(qtbot, ticket)
    with qtbot.waitSignal(supervisor.input_settled, timeout=5_000):
        assert supervisor.cancel_call(ticket)
    assert supervisor.asks.pending == [] and pending.future.done()
    outcome = asks.outcome(qtbot, ticket)
    assert outcome.layer == "cancelled" and outcome.error is not None
    assert "while the server waited for an answer (round 1)" in outcome.error.message
    assert [r.index for r in outcome.rounds] == [1]
    again = supervisor.call_tool("greet", {}, 5.0)  # the session is still usable
    assert again is not None
    name = asks.question(qtbot, again)
    supervisor.answer_input(name, decline(name.ask))
    assert text_of(asks.outcome(qtbot, again)) == "You declined to give your name."


def test_a_re_run_gives_the_kept_answers_and_asks_again_only_where_they_no_longer_fit(asks: Asks, qtbot: QtBot) -> None:
    supervisor = asks["modern"]
    kept = {
        "elicitation": [
            {"match": "what is your name", "action": "accept", "content": {"name": "Ada"}},
            {"match": "Which plan", "action": "accept", "content": {"email": "ada@example.org", "seats": 500}},
        ]
    }
    ticket = supervisor.call_tool("signup", {}, 5.0, answers=kept)
    assert ticket is not None
    pending = asks.question(qtbot, ticket)  # the name was given again; the plan's seats break maximum 50
    assert pending.ask.message.startswith("Thanks, Ada.") and "no longer fits" in pending.note
    assert "/seats" in pending.note
    supervisor.answer_input(pending, accept(pending.ask, {"email": "ada@example.org", "seats": 5}))
    outcome = asks.outcome(qtbot, ticket)
    assert text_of(outcome) == "Signed up Ada on free (5 seats), mail to ada@example.org."
    assert [r.responses[0].action for r in outcome.rounds] == ["accept", "accept"]


def test_the_entrys_rounds_budget_stops_a_server_that_never_stops_asking(asks: Asks, qtbot: QtBot) -> None:
    supervisor = asks["modern"]
    ticket = supervisor.call_tool("insist", {}, 5.0, answers={"elicitation": [{"action": "accept"}]})
    assert ticket is not None
    outcome = asks.outcome(qtbot, ticket)
    assert str(outcome.outcome) == "rounds_exceeded" and len(outcome.rounds) == 3, "two rounds answered, then stopped"
    assert asks.asked == [], "a re-run's kept answers asked nobody"


def test_roots_are_answered_from_the_entry_unasked_and_the_log_says_what_was_given(asks: Asks, qtbot: QtBot) -> None:
    supervisor = asks["modern"]
    ticket = supervisor.call_tool("roots", {}, 5.0)
    assert ticket is not None
    assert text_of(asks.outcome(qtbot, ticket)) == "Roots: file:///tmp/demo-project"
    assert "roots/list answered with 1 root: file:///tmp/demo-project (demo project)" in supervisor.log.text()
    assert asks.asked == []


def test_a_prompt_and_a_resource_ask_too(asks: Asks, qtbot: QtBot) -> None:
    # One at a time: on older eras a question names no request, and the oldest one in flight is credited.
    supervisor = asks["legacy"]
    prompt = supervisor.get_prompt("welcome", {}, 5.0)
    assert prompt is not None
    pending = asks.question(qtbot, prompt)
    supervisor.answer_input(pending, accept(pending.ask, {"name": "Lin"}))
    assert "Lin" in str(asks.outcome(qtbot, prompt).result)
    resource = supervisor.read_resource("demo://asks/secret/cake", 5.0)
    assert resource is not None
    pending = asks.question(qtbot, resource)
    supervisor.answer_input(pending, accept(pending.ask, {"name": "Kim"}))
    assert "for Kim" in str(asks.outcome(qtbot, resource).result)
