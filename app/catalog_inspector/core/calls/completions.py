"""Completions (`completion/complete`) as data: what a prompt argument or a template variable may be, as the
server suggests, bounded. No SDK: `core.session.completions` sends the request."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any, Literal

from catalog_inspector.core.errors import ErrorInfo, ErrorKind
from catalog_inspector.core.text import visible

__all__ = [
    "COMPLETION_BUDGET",
    "COMPLETION_VALUES",
    "Completion",
    "RefKind",
    "completion_of",
    "completion_ref",
]

COMPLETION_VALUES = 100  # the spec's own cap on one answer; a server that sends more is cut here, and told
COMPLETION_BUDGET = 5.0  # seconds one completion may take: it answers typing, a slow one is of no use
VALUE_LIMIT = 1000  # characters of one suggestion kept

RefKind = Literal["prompt", "template"]


@dataclass(frozen=True)
class Completion:
    """One answer to `completion/complete`, or why there is none.

    Attributes:
        values: the suggestions, as sent (strings only, at most `COMPLETION_VALUES`, each cut to `VALUE_LIMIT`
            characters): what a field takes when one is chosen; shown only through `visible`.
        total: how many the server says there are in all (None when it does not say).
        has_more: the server says there are more than it sent (or it sent more than the cap).
        error: why there are no suggestions (a JSON-RPC error, a timeout, a malformed answer), else None.
    """

    values: tuple[str, ...] = ()
    total: int | None = None
    has_more: bool = False
    error: ErrorInfo | None = None

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {"values": list(self.values), "total": self.total, "has_more": self.has_more}
        if self.error is not None:
            document["error"] = self.error.to_json()
        return document

    def words(self) -> str:
        """The answer in a few words, for the line under the field."""
        if self.error is not None:
            return f"No suggestions: {visible(self.error.message, 200)}"
        if not self.values:
            return "The server has no suggestions for this."
        shown = f"{len(self.values):,} suggestion{'s' if len(self.values) != 1 else ''}"
        if self.total is not None and self.total > len(self.values):
            shown += f" of {self.total:,}"
        return shown + (" (more exist: type more to narrow them)" if self.has_more else "")


def completion_ref(kind: RefKind, item: Mapping[str, Any]) -> dict[str, str] | None:
    """The `ref` of a completion for a prompt (by name) or a resource template (by its URI template)."""
    if kind == "prompt" and isinstance(item.get("name"), str):
        return {"type": "ref/prompt", "name": item["name"]}
    if kind == "template" and isinstance(item.get("uriTemplate"), str):
        return {"type": "ref/resource", "uri": item["uriTemplate"]}
    return None


def completion_of(result: Any) -> Completion:
    """The answer as the server sent it, checked and bounded: `{completion: {values, total?, hasMore?}}`."""
    completion = result.get("completion") if isinstance(result, dict) else None
    values = completion.get("values") if isinstance(completion, dict) else None
    if not isinstance(completion, dict) or not isinstance(values, list):
        return Completion(error=ErrorInfo(ErrorKind.PROTOCOL, "the answer has no completion.values list"))
    strings = list(islice((value[:VALUE_LIMIT] for value in values if isinstance(value, str)), COMPLETION_VALUES + 1))
    total = completion.get("total")
    total = total if isinstance(total, int) and not isinstance(total, bool) and total >= 0 else None
    more = completion.get("hasMore") is True or len(strings) > COMPLETION_VALUES
    return Completion(tuple(strings[:COMPLETION_VALUES]), total, more)
