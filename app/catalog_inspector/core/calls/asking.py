"""When a server asks for input during a request: what it asked, what it was answered, round by round.

A `tools/call`, `prompts/get` or `resources/read` may be answered with a question
instead of a result. On a 2026-07-28 connection the answer is `resultType:
"input_required"` with `inputRequests` (server-chosen key → an elicitation, sampling
or roots request) and an opaque `requestState`; the client answers each and sends the
original request again. On older connections the same three requests arrive from the
server while the call runs. Either way they are `InputAsk`s here, each answered by an
`InputAnswer`, grouped into `Round`s that the Call tab, the history and
`mcp-call-result/1` show.

Plain data and pure checks, no SDK: `core.session.asking` drives the rounds on a
connection and asks an `Answerer` (a person in the app, the answers file in the CLI).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from catalog_inspector.core.calls.validation import FieldProblem, Validation, validate
from catalog_inspector.core.text import visible

__all__ = [
    "ELICIT",
    "LIST_ROOTS",
    "MAX_REQUEST_STATE_BYTES",
    "MAX_ROUNDS",
    "SAMPLE",
    "URL_ELICITATION_REQUIRED",
    "RoundLog",
    "Answerer",
    "ContentCheck",
    "Era",
    "InputAnswer",
    "InputAsk",
    "Round",
    "accept",
    "cancel",
    "check_content_in_process",
    "checking_with",
    "closed",
    "decline",
    "elicitation_schema_problems",
    "merge_round",
    "reject",
    "reply",
    "roots_answer",
    "schema_defaults",
    "unanswerable",
    "url_elicitations",
    "with_defaults",
]

ELICIT = "elicitation/create"
SAMPLE = "sampling/createMessage"
LIST_ROOTS = "roots/list"
KNOWN_METHODS = (ELICIT, SAMPLE, LIST_ROOTS)

MAX_ROUNDS = 10  # rounds of input_required per request (the SDKs' default), `maxRounds` / `--max-rounds`
MAX_REQUEST_STATE_BYTES = 1024 * 1024  # one requestState the client is asked to echo
TEXT_LIMIT = 2000  # characters of a server's message kept in a round's record

Era = Literal["modern", "legacy"]
# modern  2026-07-28: the question came in an input_required result, under a key
# legacy  2025-11-25 and before: the server sent the request itself while the call ran (no key)

Action = Literal["accept", "decline", "cancel", "reply", "reject", "roots", "error"]
# accept / decline / cancel  an elicitation's answer, as the spec names them
# reply                      a sampling request answered with a message (the person wrote it)
# reject                     a sampling request refused (an error to the server)
# roots                      roots/list answered with the configured roots
# error                      the request could not be answered (an unknown method, a malformed request)


@dataclass(frozen=True)
class InputAsk:
    """One request the server made of the client: its method and params exactly as sent (wire JSON)."""

    key: str | None
    method: str
    params: dict[str, Any]
    era: Era = "modern"
    server: str = ""  # the server entry's name (the app shows who asks)

    @property
    def mode(self) -> str | None:
        """An elicitation's mode, `form` (the default when absent) or `url`; None for other methods."""
        if self.method != ELICIT:
            return None
        mode = self.params.get("mode")
        return mode if isinstance(mode, str) else "form"

    @property
    def message(self) -> str:
        """What the server says to the person: an elicitation's message, a sampling request's last user text."""
        if self.method == ELICIT:
            said = self.params.get("message")
            return said if isinstance(said, str) else ""
        if self.method == SAMPLE:
            return last_user_text(self.params)
        return ""

    @property
    def url(self) -> str | None:
        url = self.params.get("url") if self.mode == "url" else None
        return url if isinstance(url, str) else None

    @property
    def requested_schema(self) -> Any:
        return self.params.get("requestedSchema") if self.mode == "form" else None

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "method": self.method,
            "mode": self.mode,
            "message": visible(self.message, TEXT_LIMIT) if self.message else None,
            "url": self.url,
        }


URL_ELICITATION_REQUIRED = -32042  # a JSON-RPC error: the server wants pages visited first (2025-11-25 and later)


def url_elicitations(code: int | None, data: Any, server: str = "", limit: int = 10) -> tuple[InputAsk, ...]:
    """The pages a -32042 error asks the person to visit (`data.elicitations`), as URL questions with no key; ()
    for any other error."""
    found = data.get("elicitations") if code == URL_ELICITATION_REQUIRED and isinstance(data, dict) else None
    if not isinstance(found, list):
        return ()
    return tuple(
        InputAsk(None, ELICIT, {**item, "mode": "url"}, "legacy", server)
        for item in found
        if isinstance(item, dict) and isinstance(item.get("url"), str)
    )[:limit]


def last_user_text(params: Mapping[str, Any]) -> str:
    """The text of the last user message of a sampling request ('' when it has none)."""
    messages = params.get("messages")
    if not isinstance(messages, list):
        return ""
    for message in reversed(messages):
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        content = message.get("content")
        blocks = content if isinstance(content, list) else [content]
        texts = [b["text"] for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str)]
        if texts:
            return "\n".join(texts)
    return ""


@dataclass(frozen=True)
class InputAnswer:
    """How one request was answered.

    Attributes:
        key: the request's key (None on the legacy era).
        action: what was done (see `Action`).
        response: the result sent back (wire JSON); None when nothing was (an error, a rejection).
        error: why the request was refused or not answered, in words.
        unanswered: nobody answered it (a person closed the dialog, no rule of the answers file
            matched): the call goes on, and it ends `input_unanswered`.
        problems: the answer breaks the requested schema: nothing more is sent (`input_invalid`).
    """

    key: str | None
    action: Action
    response: dict[str, Any] | None = None
    error: str | None = None
    unanswered: bool = False
    problems: tuple[FieldProblem, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "action": self.action, "error": self.error}


@dataclass(frozen=True)
class Round:
    """One exchange: what the server asked (after its answer to the last attempt) and what it was told.

    `latency_ms` is the server's time: from sending the attempt to its answer (modern),
    or from the call's start or the last answer to this request (legacy). The person's
    time is not in it. `request_state_bytes` is None when the server sent no state.
    """

    index: int
    era: Era
    requests: tuple[InputAsk, ...]
    responses: tuple[InputAnswer, ...] = ()
    request_state_bytes: int | None = None
    latency_ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "era": self.era,
            "requests": [ask.to_json() for ask in self.requests],
            "responses": [answer.to_json() for answer in self.responses],
            "request_state_bytes": self.request_state_bytes,
            "latency_ms": round(self.latency_ms, 3),
        }


Answerer = Callable[[InputAsk], Awaitable[InputAnswer]]
"""Answers one elicitation or sampling request (roots are answered from the configuration, unasked)."""

ContentCheck = Callable[[Any, Any], Awaitable[tuple[FieldProblem, ...]]]
"""Checks an elicitation's accepted content against its requested schema (the CLI's runs in the sandbox)."""


# Answers, built the same way by the app and the answers file.


def accept(ask: InputAsk, content: dict[str, Any] | None = None) -> InputAnswer:
    response: dict[str, Any] = {"action": "accept"}
    if content is not None and ask.mode == "form":
        response["content"] = content
    return InputAnswer(ask.key, "accept", response)


def decline(ask: InputAsk) -> InputAnswer:
    return InputAnswer(ask.key, "decline", {"action": "decline"})


def cancel(ask: InputAsk, unanswered: bool = False) -> InputAnswer:
    return InputAnswer(ask.key, "cancel", {"action": "cancel"}, unanswered=unanswered)


def reply(ask: InputAsk, text: str, model: str = "human", stop_reason: str = "endTurn") -> InputAnswer:
    response: dict[str, Any] = {
        "role": "assistant",
        "content": {"type": "text", "text": text},
        "model": model or "human",
    }
    if stop_reason:
        response["stopReason"] = stop_reason
    return InputAnswer(ask.key, "reply", response)


def reject(
    ask: InputAsk, why: str = "the person rejected the sampling request", unanswered: bool = False
) -> InputAnswer:
    return InputAnswer(ask.key, "reject", error=why, unanswered=unanswered)


def closed(ask: InputAsk, why: str) -> InputAnswer:
    """What a question nobody answered gets, as a person closing the dialog would: an elicitation `cancel`, a
    sampling request refused; marked unanswered (the call goes on, and ends `input_unanswered`)."""
    return reject(ask, why, unanswered=True) if ask.method == SAMPLE else cancel(ask, unanswered=True)


def unanswerable(ask: InputAsk, why: str) -> InputAnswer:
    return InputAnswer(ask.key, "error", error=why)


def roots_answer(ask: InputAsk, roots: Sequence[Mapping[str, str]]) -> InputAnswer:
    return InputAnswer(ask.key, "roots", {"roots": [dict(root) for root in roots]})


# The requested schema: its defaults, and what a strict client would refuse in it.

_PRIMITIVES = frozenset({"string", "number", "integer", "boolean"})
_FORMATS = frozenset({"email", "uri", "date", "date-time"})
_PROPERTY_KEYS = frozenset(
    {
        "type", "title", "description", "default", "enum", "enumNames", "oneOf", "anyOf", "items",
        "format", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems",
    }
)  # fmt: skip


def schema_defaults(schema: Any) -> dict[str, Any]:
    """The defaults the requested schema gives its properties (SEP-1034), as the content to send."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return {}
    return {
        name: prop["default"]
        for name, prop in properties.items()
        if isinstance(name, str) and isinstance(prop, dict) and "default" in prop
    }


def with_defaults(schema: Any, content: Mapping[str, Any] | None) -> dict[str, Any]:
    """`content` completed with the schema's defaults for the properties it leaves out."""
    return {**schema_defaults(schema), **(content or {})}


def elicitation_schema_problems(schema: Any) -> list[str]:
    """What a strict client would refuse in a form elicitation's requested schema ([] when it is in the spec's subset).

    The spec allows a flat object whose properties are strings (with `format` email, uri,
    date or date-time), numbers, integers, booleans, enums (plain, titled with
    `oneOf`/`const`/`title`, or a multi-select array of enums), with titles, descriptions,
    defaults and min/max bounds.
    """
    if not isinstance(schema, dict):
        return ["the requested schema is not a JSON object"]
    found: list[str] = []
    if schema.get("type") != "object":
        found.append('the requested schema is not {"type": "object"}')
    properties = schema.get("properties")
    if properties is None:
        properties = {}
    if not isinstance(properties, dict):
        return [*found, "its properties are not an object"]
    for name, prop in properties.items():
        where = f"property {visible(str(name), 80)!r}"
        if not isinstance(prop, dict):
            found.append(f"{where} is not a schema object")
            continue
        kind = prop.get("type")
        if kind == "array":
            items = prop.get("items")
            if not isinstance(items, dict) or not (
                isinstance(items.get("enum"), list) or isinstance(items.get("anyOf"), list)
            ):
                found.append(f"{where} is an array that is not a multi-select of enum values")
        elif kind not in _PRIMITIVES and not (kind is None and isinstance(prop.get("oneOf"), list)):
            found.append(f"{where} has type {visible(json.dumps(kind), 80)}: only string, number, integer, boolean")
        fmt = prop.get("format")
        if fmt is not None and fmt not in _FORMATS:
            found.append(f"{where} has format {visible(json.dumps(fmt), 80)}: only email, uri, date, date-time")
        extra = sorted(str(key) for key in prop if key not in _PROPERTY_KEYS and not str(key).startswith("x-"))
        if extra:
            found.append(f"{where} uses {', '.join(visible(k, 40) for k in extra[:5])}, outside the spec's subset")
    return found


Validate = Callable[[Any, Any], Awaitable[Validation]]
"""Validates an instance against a schema: in this thread, in the CLI's sandbox, in the app's offload."""


def checking_with(validate: Validate) -> ContentCheck:
    """A `ContentCheck` by `validate`: its problems, or one problem at the root saying why nothing was checked."""

    async def check(schema: Any, content: Any) -> tuple[FieldProblem, ...]:
        validation = await validate(schema, content)
        if validation.failure is not None:
            words = f"the answer could not be checked against the requested schema: {validation.detail}"
            return (FieldProblem("", words, str(validation.failure)),)
        return validation.problems

    return check


async def _validate_here(schema: Any, content: Any) -> Validation:
    return validate(schema, content, limit=50, message_limit=500)


check_content_in_process = checking_with(_validate_here)
"""The accepted content against the requested schema, in this thread (the default: tests, nobody to ask)."""


def merge_round(rounds: list[Round], entry: Round) -> None:
    """`entry` into `rounds`: in place of the round of the same index (its answers came), else at the end."""
    for position, known in enumerate(rounds):
        if known.index == entry.index:
            rounds[position] = entry
            return
    rounds.append(entry)


@dataclass
class RoundLog:
    """The rounds of one request as they happen (the app shows them live; the report keeps them)."""

    rounds: list[Round] = field(default_factory=list)
    on_round: Callable[[Round], None] | None = None
    clock: Callable[[], float] = time.perf_counter  # one clock for a request's duration and its answering time
    _waiting: int = 0  # answers being waited for now (the older eras' questions can overlap)
    _waited_s: float = 0.0
    _since: float = 0.0

    def waiting(self, started: bool) -> None:
        """A question went to the answerer (`started`), or its answer came: the time between is the person's."""
        now = self.clock()
        if started:
            if self._waiting == 0:
                self._since = now
            self._waiting += 1
        else:
            self._waiting -= 1
            if self._waiting == 0:
                self._waited_s += now - self._since

    @property
    def answering_ms(self) -> float:
        """How long answers were waited for, overlapping questions counted once: not the server's time."""
        ongoing = self.clock() - self._since if self._waiting else 0.0
        return (self._waited_s + ongoing) * 1000

    def put(self, entry: Round) -> None:
        """Add a round, or replace the one of the same index (its answers came)."""
        merge_round(self.rounds, entry)
        if self.on_round is not None:
            self.on_round(entry)
