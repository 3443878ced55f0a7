"""A call's answers to the server's questions, kept to be given again: as the `call` command's answers file.

What a person answered in the app (each accept, decline, cancel, reply and rejection)
becomes a rule of the answers file (`{"elicitation": [...], "sampling": [...],
"roots": [...]}`): a rule's `match` is the start of the message it answered. The same
rules answer a re-run in the app (`replay_answer`) and the `call` command that "copy as
command" writes, so both give the answers the person gave. Where no rule fits a
question (a new message, content that breaks a changed schema), the app asks again.

The history keeps a call's rounds and answers bounded (`kept_rounds`, `ANSWERS_LIMIT`):
messages are the server's text, and the answers are the person's own test data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from catalog_inspector.core.calls.answers import AnswersError, answer_by_rules, parse_answers
from catalog_inspector.core.calls.asking import (
    ELICIT,
    LIST_ROOTS,
    SAMPLE,
    InputAnswer,
    InputAsk,
    Round,
    accept,
    with_defaults,
)
from catalog_inspector.core.calls.store import call_command
from catalog_inspector.core.config import ServerSpec

__all__ = [
    "ANSWERS_FILE",
    "ANSWERS_LIMIT",
    "ROUNDS_KEPT",
    "answers_document",
    "command_with_answers",
    "kept_rounds",
    "replay_answer",
]

MATCH_LIMIT = 200  # characters of a message a rule matches on (a substring of it still matches)
ANSWERS_LIMIT = 64 * 1024  # characters of a call's answers kept; a bigger set is not kept (a re-run asks again)
ROUNDS_KEPT = 20  # rounds of a call the history keeps (the count of all of them is kept too)
ROUNDS_LIMIT = 64 * 1024  # characters of a call's rounds the history keeps
ANSWERS_FILE = "answers.json"
_HEREDOC = "MCP_ANSWERS"  # a JSON document on one line can never be this line


def _rule(ask: InputAsk, answer: InputAnswer) -> dict[str, Any] | None:
    """The rule that gives `answer` to `ask` again, or None for an answer a rule does not give (roots, errors)."""
    found: dict[str, Any] = {"match": ask.message[:MATCH_LIMIT]} if ask.message else {}
    response = answer.response or {}
    if ask.method == ELICIT and answer.action in ("accept", "decline", "cancel"):
        found["action"] = answer.action
        if answer.action == "accept" and isinstance(response.get("content"), dict):
            found["content"] = response["content"]
        return found
    if ask.method == SAMPLE and answer.action == "reply":
        content = response.get("content")
        found["text"] = content.get("text", "") if isinstance(content, dict) else ""
        found["model"] = response.get("model", "human")
        if response.get("stopReason"):
            found["stopReason"] = response["stopReason"]
        return found
    if ask.method == SAMPLE and answer.action == "reject":
        found["reject"] = True
        return found
    return None


def answers_document(rounds: Sequence[Round], roots: Sequence[Mapping[str, str]] = ()) -> dict[str, Any] | None:
    """What a person answered during a call, as an answers file; None when nothing was answered (or it is too big).

    One rule per answer, in the order asked (an answer given twice to the same message is
    one rule); rules without a `match` (a question with no message) come last, as they
    match anything. Answers nobody gave (a closed dialog, a withdrawn question) and
    answers that broke their schema are left out: a re-run asks those again. `roots`
    are the entry's, written when the server asked for them.
    """
    found: dict[str, list[dict[str, Any]]] = {"elicitation": [], "sampling": []}
    asked_roots = False
    for entry in rounds:
        for ask, answer in zip(entry.requests, entry.responses, strict=False):
            asked_roots = asked_roots or ask.method == LIST_ROOTS
            rule = None if answer.unanswered or answer.problems else _rule(ask, answer)
            rules = found["elicitation" if ask.method == ELICIT else "sampling"]
            if rule is not None and rule not in rules:
                rules.append(rule)
    document: dict[str, Any] = {
        kind: [r for r in rules if "match" in r] + [r for r in rules if "match" not in r]
        for kind, rules in found.items()
        if rules
    }
    if asked_roots:
        document["roots"] = [dict(root) for root in roots]
    if not document or len(json.dumps(document, ensure_ascii=False)) > ANSWERS_LIMIT:
        return None
    return document


def replay_answer(document: Mapping[str, Any] | None, ask: InputAsk) -> InputAnswer | None:
    """The answer the document's first matching rule gives `ask` (`core.calls.answers`, as the `call` command
    would), or None when no rule matches or the document is not an answers file.

    An accepted form's content is completed with the requested schema's defaults; whether it
    still fits that schema is for the caller to check (it may have changed since).
    """
    if document is None:
        return None
    try:
        rules = parse_answers(dict(document))
    except AnswersError:
        return None
    answer = answer_by_rules(rules, ask)
    if answer is None or answer.action != "accept" or answer.response is None:
        return answer
    return accept(ask, with_defaults(ask.requested_schema, answer.response.get("content")))


def kept_rounds(rounds: Sequence[Round]) -> tuple[dict[str, Any], ...]:
    """A call's rounds as the history keeps them: the first `ROUNDS_KEPT`, while they fit `ROUNDS_LIMIT`."""
    kept: list[dict[str, Any]] = []
    size = 0
    for entry in rounds[:ROUNDS_KEPT]:
        document = entry.to_json()
        size += len(json.dumps(document, ensure_ascii=False))
        if size > ROUNDS_LIMIT:
            break
        kept.append(document)
    return tuple(kept)


def command_with_answers(spec: ServerSpec, tool: str, arguments: Any, answers: Mapping[str, Any] | None) -> str:
    """The `call` command that repeats a call, with its answers (when it had any) written to `ANSWERS_FILE` first:
    a shell snippet that writes the file (a quoted here-document: nothing in it is expanded), then runs the command."""
    if not answers:
        return call_command(spec, tool, arguments)
    command = call_command(spec, tool, arguments, ANSWERS_FILE)
    document = json.dumps(answers, ensure_ascii=False)
    return f"cat > {ANSWERS_FILE} <<'{_HEREDOC}'\n{document}\n{_HEREDOC}\n{command}"
