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
unanswered. The app writes the same file from a call's rounds (`core.calls.replay`) and
answers a re-run by the same rules (`answer_by_rules`).
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
    accept,
    cancel,
    closed,
    decline,
    reject,
    reply,
)

__all__ = ["AnswerRules", "AnswersError", "RuleAnswerer", "answer_by_rules", "parse_answers"]

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


def answer_by_rules(rules: AnswerRules, ask: InputAsk) -> InputAnswer | None:
    """The answer the first matching rule gives `ask` (or `--decline-all`'s), or None when no rule matches."""
    if ask.method == ELICIT:
        if rules.decline_all:
            return decline(ask)
        rule = _first(rules.elicitation, ask.message)
        if rule is None:
            return None
        action = rule.get("action", "accept")
        if action == "decline":
            return decline(ask)
        if action == "cancel":
            return cancel(ask)
        content = rule.get("content")
        return accept(ask, dict(content) if isinstance(content, dict) else {})
    if ask.method == SAMPLE:
        if rules.decline_all:
            return reject(ask, "--decline-all rejects every sampling request")
        rule = _first(rules.sampling, ask.message)
        if rule is None:
            return None
        if rule.get("reject") is True:
            return reject(ask, "the answers file rejects this sampling request")
        return reply(ask, rule["text"], rule.get("model", "human"), rule.get("stopReason", "endTurn"))
    return None


@dataclass
class RuleAnswerer:
    """Answers each elicitation and sampling request by the first rule that matches it; one no rule covers is
    closed unanswered, as a person closing the dialog would (elicitation `cancel`, sampling refused)."""

    rules: AnswerRules = field(default_factory=AnswerRules)

    async def __call__(self, ask: InputAsk) -> InputAnswer:
        found = answer_by_rules(self.rules, ask)
        return found if found is not None else closed(ask, "no rule of the answers file matches this request")
