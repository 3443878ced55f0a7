"""The answers file: how a script answers a server's questions (`call --answers FILE`, `prompt`, `read`).

    {"elicitation": [{"match": "name", "action": "accept", "content": {"name": "Ada"}},
                     {"action": "decline"}],
     "sampling": [{"match": "Summarise", "text": "A short summary", "model": "human", "stopReason": "endTurn"},
                  {"reject": true}],
     "roots": [{"uri": "file:///home/ada/project", "name": "project"}]}

A rule's `match` is a case-insensitive substring of the elicitation's message (for
sampling, of the last user message's text); the first matching rule wins; a rule
without `match` matches anything. `accept` without `content` sends the requested
schema's defaults; given content is completed with the defaults and checked against
the requested schema by the driver. A request no rule covers is answered as a person
who closes the dialog would (elicitation `cancel`, sampling refused) and marked
unanswered. The app writes the same file from a call's rounds (`answers_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from catalog_inspector.core.calls.asking import (
    ELICIT,
    SAMPLE,
    InputAnswer,
    InputAsk,
    Round,
    accept,
    cancel,
    decline,
    reject,
    reply,
)

__all__ = ["AnswerRules", "AnswersError", "RuleAnswerer", "answers_of", "parse_answers"]

_ACTIONS = ("accept", "decline", "cancel")
MAX_RULES = 1000


class AnswersError(ValueError):
    """The answers file is not in the format above (the message names the rule and the field)."""


@dataclass(frozen=True)
class AnswerRules:
    elicitation: tuple[dict[str, Any], ...] = ()
    sampling: tuple[dict[str, Any], ...] = ()
    roots: tuple[dict[str, str], ...] = ()
    decline_all: bool = False


def _match(rule: Mapping[str, Any], where: str) -> None:
    if "match" in rule and not isinstance(rule["match"], str):
        raise AnswersError(f"{where}.match must be a string")


def _rules(value: Any, where: str) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(rule, dict) for rule in value):
        raise AnswersError(f"{where} must be a list of objects")
    if len(value) > MAX_RULES:
        raise AnswersError(f"{where} has more than {MAX_RULES} rules")
    return value


def parse_answers(value: Any) -> AnswerRules:
    """The rules of an answers file's JSON.

    Raises:
        AnswersError: naming the rule and the field.
    """
    if not isinstance(value, dict):
        raise AnswersError("the answers file must hold a JSON object")
    unknown = sorted(set(value) - {"elicitation", "sampling", "roots"})
    if unknown:
        raise AnswersError(
            f"the answers file has unknown keys: {', '.join(unknown)} (use elicitation, sampling, roots)"
        )
    elicitation = _rules(value.get("elicitation"), "elicitation")
    for index, rule in enumerate(elicitation):
        where = f"elicitation[{index}]"
        _match(rule, where)
        if rule.get("action", "accept") not in _ACTIONS:
            raise AnswersError(f"{where}.action must be one of {', '.join(_ACTIONS)}")
        if "content" in rule and not isinstance(rule["content"], dict):
            raise AnswersError(f"{where}.content must be an object")
    sampling = _rules(value.get("sampling"), "sampling")
    for index, rule in enumerate(sampling):
        where = f"sampling[{index}]"
        _match(rule, where)
        if rule.get("reject") is True:
            continue
        if not isinstance(rule.get("text"), str):
            raise AnswersError(f'{where} needs a "text" string (or "reject": true)')
        for key in ("model", "stopReason"):
            if key in rule and not isinstance(rule[key], str):
                raise AnswersError(f"{where}.{key} must be a string")
    roots = []
    for index, root in enumerate(_rules(value.get("roots"), "roots")):
        uri, name = root.get("uri"), root.get("name")
        if not isinstance(uri, str) or not uri.startswith("file://"):
            raise AnswersError(f"roots[{index}].uri must be a file:// URI")
        if name is not None and not isinstance(name, str):
            raise AnswersError(f"roots[{index}].name must be a string")
        roots.append({"uri": uri, **({"name": name} if name else {})})
    return AnswerRules(tuple(elicitation), tuple(sampling), tuple(roots))


def _first(rules: Iterable[Mapping[str, Any]], text: str) -> Mapping[str, Any] | None:
    folded = text.casefold()
    return next((rule for rule in rules if "match" not in rule or rule["match"].casefold() in folded), None)


@dataclass
class RuleAnswerer:
    """Answers each elicitation and sampling request by the first rule that matches it."""

    rules: AnswerRules = field(default_factory=AnswerRules)

    async def __call__(self, ask: InputAsk) -> InputAnswer:
        if ask.method == ELICIT:
            return self._elicit(ask)
        if ask.method == SAMPLE:
            return self._sample(ask)
        return cancel(ask, unanswered=True)

    def _elicit(self, ask: InputAsk) -> InputAnswer:
        if self.rules.decline_all:
            return decline(ask)
        rule = _first(self.rules.elicitation, ask.message)
        if rule is None:
            return cancel(ask, unanswered=True)
        action = rule.get("action", "accept")
        if action == "decline":
            return decline(ask)
        if action == "cancel":
            return cancel(ask)
        content = rule.get("content")
        return accept(ask, dict(content) if isinstance(content, dict) else {})

    def _sample(self, ask: InputAsk) -> InputAnswer:
        if self.rules.decline_all:
            return reject(ask, "--decline-all rejects every sampling request")
        rule = _first(self.rules.sampling, ask.message)
        if rule is None:
            return reject(ask, "no rule of the answers file matches this sampling request", unanswered=True)
        if rule.get("reject") is True:
            return reject(ask, "the answers file rejects this sampling request")
        return reply(ask, rule["text"], rule.get("model", "human"), rule.get("stopReason", "endTurn"))


def answers_of(rounds: Iterable[Round], roots: Iterable[Mapping[str, str]] = ()) -> dict[str, Any]:
    """An answers file that gives the same answers again (the app's "copy as command"), in the order asked.

    Each rule matches the question's whole message, so a re-run answers the same questions
    the same way; a question nobody answered gets no rule (it is asked again).
    """
    elicitation: list[dict[str, Any]] = []
    sampling: list[dict[str, Any]] = []
    for entry in rounds:
        asks = {ask.key: ask for ask in entry.requests}
        for position, answer in enumerate(entry.responses):
            ask = asks.get(answer.key) if answer.key is not None else entry.requests[position]
            if ask is None or answer.unanswered:
                continue
            if ask.method == ELICIT and answer.action in _ACTIONS:
                rule: dict[str, Any] = {"match": ask.message, "action": answer.action}
                content = (answer.response or {}).get("content")
                if answer.action == "accept" and isinstance(content, dict):
                    rule["content"] = content
                elicitation.append(rule)
            elif ask.method == SAMPLE and answer.action == "reply" and answer.response is not None:
                said = answer.response.get("content")
                text = said.get("text", "") if isinstance(said, dict) else ""
                sampling.append(
                    {
                        "match": ask.message,
                        "text": text,
                        "model": answer.response.get("model", "human"),
                        "stopReason": answer.response.get("stopReason", "endTurn"),
                    }
                )
            elif ask.method == SAMPLE and answer.action == "reject":
                sampling.append({"match": ask.message, "reject": True})
    found: dict[str, Any] = {}
    if elicitation:
        found["elicitation"] = elicitation
    if sampling:
        found["sampling"] = sampling
    listed = [dict(root) for root in roots]
    if listed:
        found["roots"] = listed
    return found
