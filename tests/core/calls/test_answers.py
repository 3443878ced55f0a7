"""The answers file: its rules, how a request is matched, and the file the app writes from a call's rounds."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from catalog_inspector.core.calls import (
    AnswerRules,
    AnswersError,
    InputAsk,
    Round,
    RuleAnswerer,
    answers_document,
    elicitation_schema_problems,
    parse_answers,
    replay_answer,
    roots_answer,
    schema_defaults,
    with_defaults,
)

SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "plan": {"type": "string", "enum": ["a", "b"], "default": "a"}},
}


def elicit(message: str, key: str | None = "k") -> InputAsk:
    return InputAsk(key, "elicitation/create", {"mode": "form", "message": message, "requestedSchema": SCHEMA})


def sample(text: str) -> InputAsk:
    messages = [
        {"role": "user", "content": {"type": "text", "text": "first"}},
        {"role": "assistant", "content": {"type": "text", "text": "ok"}},
        {"role": "user", "content": [{"type": "text", "text": text}]},
    ]
    return InputAsk("s", "sampling/createMessage", {"messages": messages, "maxTokens": 5})


def answer(rules: AnswerRules, ask: InputAsk) -> Any:
    return anyio.run(RuleAnswerer(rules), ask)


def test_the_first_matching_rule_wins_case_insensitively_and_a_rule_without_match_takes_anything() -> None:
    rules = parse_answers(
        {
            "elicitation": [
                {"match": "NAME", "content": {"name": "Ada"}},
                {"match": "name", "action": "decline"},
                {"action": "cancel"},
            ],
            "sampling": [{"match": "summarise", "text": "short", "model": "m"}, {"reject": True}],
        }
    )
    first = answer(rules, elicit("What is your name?"))
    assert first.action == "accept" and first.response == {"action": "accept", "content": {"name": "Ada"}}
    assert answer(rules, elicit("Anything else?")).action == "cancel"
    assert not answer(rules, elicit("Anything else?")).unanswered  # a rule said cancel: answered
    replied = answer(rules, sample("Please SUMMARISE this"))  # the last user message is matched
    assert replied.response == {
        "role": "assistant",
        "content": {"type": "text", "text": "short"},
        "model": "m",
        "stopReason": "endTurn",
    }
    assert answer(rules, sample("first")).action == "reject"


def test_a_request_no_rule_covers_is_closed_unanswered_and_decline_all_declines() -> None:
    nothing = AnswerRules()
    closed = answer(nothing, elicit("What is your name?"))
    assert closed.action == "cancel" and closed.unanswered and closed.response == {"action": "cancel"}
    refused = answer(nothing, sample("x"))
    assert refused.action == "reject" and refused.unanswered and refused.response is None
    declining = AnswerRules(decline_all=True)
    assert answer(declining, elicit("x")).response == {"action": "decline"}
    assert answer(declining, sample("x")).action == "reject" and not answer(declining, sample("x")).unanswered


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([], "must hold a JSON object"),
        ({"elicitations": []}, "unknown keys: elicitations"),
        ({"elicitation": {}}, "elicitation must be a list of objects"),
        ({"elicitation": [{"match": 3}]}, r"elicitation\[0\]\.match must be a string"),
        ({"elicitation": [{"content": []}]}, r"elicitation\[0\]\.content must be an object"),
        ({"sampling": [{"text": 1}]}, r'sampling\[0\] needs a "text" string'),
        ({"sampling": [{"text": "x", "model": 1}]}, r"sampling\[0\]\.model must be a string"),
        ({"roots": [{"uri": "/home"}]}, r"roots\[0\]\.uri must be a file:// URI"),
    ],
)
def test_a_malformed_file_names_the_rule_and_the_field(value: Any, message: str) -> None:
    with pytest.raises(AnswersError, match=message):
        parse_answers(value)


def test_the_answers_of_a_call_answer_the_same_questions_the_same_way_again() -> None:
    ask_name, ask_more = elicit("What is your name?", "name"), sample("Summarise it")
    rules = parse_answers({"elicitation": [{"content": {"name": "Ada"}}], "sampling": [{"text": "short"}]})
    legacy = InputAsk(None, "sampling/createMessage", ask_more.params, "legacy")
    first, second = answer(rules, ask_name), answer(rules, legacy)
    unanswered = answer(AnswerRules(), elicit("Who else?", "other"))
    roots = InputAsk(None, "roots/list", {}, "legacy")
    rounds = [
        Round(1, "modern", (ask_name, elicit("Who else?", "other")), (first, unanswered)),
        Round(2, "legacy", (legacy,), (second,)),
        Round(3, "legacy", (roots,), (roots_answer(roots, [{"uri": "file:///p"}]),)),
    ]
    written = answers_document(rounds, [{"uri": "file:///p"}])
    assert written == {
        "elicitation": [{"match": "What is your name?", "action": "accept", "content": {"name": "Ada"}}],
        "sampling": [{"match": "Summarise it", "text": "short", "model": "human", "stopReason": "endTurn"}],
        "roots": [{"uri": "file:///p"}],
    }
    # The file the command line reads, and the app's re-run, give the same answers by the same rules.
    again = parse_answers(written)
    assert answer(again, ask_name).response == first.response
    replayed = replay_answer(written, ask_name)  # the app's re-run fills the schema's defaults in at once
    assert replayed is not None and replayed.response == {"action": "accept", "content": {"plan": "a", "name": "Ada"}}
    assert answer(again, elicit("Who else?")).unanswered  # never answered: asked again
    assert replay_answer(written, elicit("Who else?")) is None
    assert replay_answer({"elicitation": "not rules"}, ask_name) is None


def test_defaults_and_the_spec_subset_of_a_requested_schema() -> None:
    assert schema_defaults(SCHEMA) == {"plan": "a"}
    assert with_defaults(SCHEMA, {"name": "x", "plan": "b"}) == {"plan": "b", "name": "x"}
    assert elicitation_schema_problems(SCHEMA) == []
    titled = {"type": "object", "properties": {"t": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]}}}
    multi = {"type": "object", "properties": {"m": {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 1}}}
    assert elicitation_schema_problems(titled) == [] and elicitation_schema_problems(multi) == []
    nested = {
        "type": "object",
        "properties": {
            "address": {"type": "object", "properties": {}},
            "when": {"type": "string", "format": "time"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "code": {"type": "string", "pattern": "^a+$"},
        },
    }
    problems = elicitation_schema_problems(nested)
    assert len(problems) == 5  # the nested object also "uses properties"
    assert any("'address' has type \"object\"" in p for p in problems)
    assert any('format "time"' in p for p in problems)
    assert any("'tags' is an array that is not a multi-select" in p for p in problems)
    assert any("'code' uses pattern" in p for p in problems)
    assert elicitation_schema_problems({"type": "array"}) == ['the requested schema is not {"type": "object"}']
