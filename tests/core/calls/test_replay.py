"""A call's answers kept as an answers file: the rules a person's answers make, given again, bounded, and the
command that repeats the call with them."""

from __future__ import annotations

import json
import shlex
import subprocess
from dataclasses import replace
from pathlib import Path

from catalog_inspector.core.calls import (
    ELICIT,
    LIST_ROOTS,
    SAMPLE,
    FieldProblem,
    InputAsk,
    Round,
    accept,
    cancel,
    decline,
    reject,
    reply,
    roots_answer,
)
from catalog_inspector.core.calls.replay import (
    ANSWERS_LIMIT,
    ROUNDS_KEPT,
    answers_document,
    command_with_answers,
    kept_rounds,
    replay_answer,
)
from catalog_inspector.core.calls.store import CallRecord, CallStore
from catalog_inspector.core.config import ServerSpec

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
PLAN = {
    "type": "object",
    "properties": {"plan": {"type": "string", "default": "free"}, "email": {"type": "string"}},
}
ROOTS = ({"uri": "file:///tmp/project", "name": "project"},)
SPEC = ServerSpec(name="asks", command="python", args=("-m", "asks"))


def form(message: str, schema: object = NAME, key: str | None = "k") -> InputAsk:
    return InputAsk(key, ELICIT, {"mode": "form", "message": message, "requestedSchema": schema})


def sampling(text: str) -> InputAsk:
    return InputAsk("s", SAMPLE, {"messages": [{"role": "user", "content": {"type": "text", "text": text}}]})


def signup_rounds() -> list[Round]:
    name, plan = form("What is your name?"), form("Thanks, Ada. Which plan?", PLAN)
    summary, roots = sampling("Summarise this"), InputAsk("r", LIST_ROOTS, {})
    return [
        Round(1, "modern", (name, roots), (accept(name, {"name": "Ada"}), roots_answer(roots, ROOTS))),
        Round(2, "modern", (plan, summary), (accept(plan, {"email": "ada@example.org"}), reply(summary, "Short."))),
    ]


def test_the_answers_a_person_gave_become_the_answers_file_in_the_order_asked() -> None:
    document = answers_document(signup_rounds(), ROOTS)
    assert document == {
        "elicitation": [
            {"match": "What is your name?", "action": "accept", "content": {"name": "Ada"}},
            {"match": "Thanks, Ada. Which plan?", "action": "accept", "content": {"email": "ada@example.org"}},
        ],
        "sampling": [{"match": "Summarise this", "text": "Short.", "model": "human", "stopReason": "endTurn"}],
        "roots": [{"uri": "file:///tmp/project", "name": "project"}],
    }


def test_unanswered_questions_and_answers_that_broke_the_schema_are_left_to_be_asked_again() -> None:
    closed, bad = form("Closed?"), form("Bad?")
    declined, rejected = form("No?"), sampling("Refuse")
    invalid = replace(accept(bad, {"name": 5}), problems=(FieldProblem("/name", "5 is not a string", "type"),))
    rounds = [
        Round(1, "legacy", (closed,), (cancel(closed, unanswered=True),)),
        Round(2, "legacy", (bad,), (invalid,)),
        Round(3, "legacy", (declined, rejected), (decline(declined), reject(rejected))),
    ]
    assert answers_document(rounds) == {
        "elicitation": [{"match": "No?", "action": "decline"}],
        "sampling": [{"match": "Refuse", "reject": True}],
    }
    assert answers_document([Round(1, "modern", ())]) is None, "nothing answered: no file"


def test_a_question_without_a_message_makes_a_rule_that_matches_anything_and_comes_last() -> None:
    silent, said = form(""), form("Said")
    rounds = [Round(1, "legacy", (silent,), (decline(silent),)), Round(2, "legacy", (said,), (cancel(said),))]
    document = answers_document(rounds)
    assert document is not None
    assert document["elicitation"] == [{"match": "Said", "action": "cancel"}, {"action": "decline"}]


def test_the_kept_answers_are_given_again_completed_with_defaults_and_none_for_a_new_question() -> None:
    document = answers_document(signup_rounds(), ROOTS)
    again = replay_answer(document, form("thanks, ada. which plan? (case is ignored)", PLAN))
    assert again is not None and again.response == {
        "action": "accept",
        "content": {"plan": "free", "email": "ada@example.org"},
    }
    summary = replay_answer(document, sampling("Please Summarise this now"))
    assert summary is not None and summary.action == "reply" and summary.response is not None
    assert summary.response["content"] == {"type": "text", "text": "Short."}
    assert replay_answer(document, form("Something never asked")) is None
    assert replay_answer(None, form("What is your name?")) is None


def test_a_big_answer_set_is_not_kept_and_rounds_are_bounded() -> None:
    ask = form("Long?")
    huge = [Round(1, "legacy", (ask,), (accept(ask, {"name": "x" * ANSWERS_LIMIT}),))]
    assert answers_document(huge) is None
    many = [Round(n, "legacy", (form(f"Q{n}"),)) for n in range(1, ROUNDS_KEPT + 10)]
    kept = kept_rounds(many)
    assert len(kept) == ROUNDS_KEPT and kept[0]["requests"][0]["message"] == "Q1"


def test_the_history_keeps_rounds_and_answers_across_a_restart(tmp_path: Path) -> None:
    rounds = signup_rounds()
    record = CallRecord(
        "2026-12-01T10:00:00.000+00:00", "tool", "signup", {}, "ok", 20.0,
        rounds=kept_rounds(rounds), rounds_total=2, answers=answers_document(rounds, ROOTS),
    )  # fmt: skip
    CallStore(tmp_path).record(SPEC, record)
    (again,) = CallStore(tmp_path).history(SPEC)
    assert again == record
    assert again.rounds[1]["responses"][0]["action"] == "accept"


def test_copy_as_command_writes_the_answers_file_then_runs_the_call_with_it(tmp_path: Path) -> None:
    answers = {"elicitation": [{"match": "it's $HOME `x`", "action": "accept", "content": {"name": "O'Neil"}}]}
    snippet = command_with_answers(SPEC, "greet", {}, answers)
    # The snippet as a shell runs it, with the command swapped for one that shows what it was given.
    runnable = snippet.replace("mcp-catalog-inspector call", "printf '%s\\n'")
    done = subprocess.run(["sh", "-c", runnable], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert json.loads((tmp_path / "answers.json").read_text()) == answers, "nothing in the file was expanded"
    words = shlex.split(snippet.splitlines()[-1])
    assert words[:7] == ["mcp-catalog-inspector", "call", "greet", "--args", "{}", "--answers", "answers.json"]
    assert words[7:] == ["--", "python", "-m", "asks"] and "answers.json" in done.stdout
    assert command_with_answers(SPEC, "greet", {}, None) == shlex.join(
        ["mcp-catalog-inspector", "call", "greet", "--args", "{}", "--", "python", "-m", "asks"]
    )
