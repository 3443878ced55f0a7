"""Requests the server answers by asking: the rounds of input_required (2026-07-28) and the server's own
requests during a call (the eras before), answered through one `Asking` and recorded round by round.

Why not the SDK's driver (`mcp.client._input_required`, private): it hides the rounds,
aborts the whole flow on one refused request, and cannot stop for a person's answer
that breaks the requested schema. The loop below sends each attempt raw on
`Connection.request` (a new JSON-RPC id each time, the SDK mints it), echoes
`requestState` exactly as received and omits it when the server sent none, and keeps
`inputResponses` and `requestState` on the attempts of their own request only.

On the older eras the server sends `elicitation/create`, `sampling/createMessage` and
`roots/list` itself while the call runs. `AskingDesk` receives them through the
session's callbacks and hands each to the flow of the call in flight (a request on
those eras names no call: with several calls in flight, the oldest is credited), with
the call's clock stopped while a person answers.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

import anyio
import mcp_types as types
from mcp.client.session import ClientRequestContext

from catalog_inspector.core.calls import (
    ELICIT,
    KNOWN_METHODS,
    LIST_ROOTS,
    MAX_REQUEST_STATE_BYTES,
    MAX_ROUNDS,
    SAMPLE,
    Answerer,
    ContentCheck,
    FieldProblem,
    InputAnswer,
    InputAsk,
    Round,
    RoundLog,
    check_content_in_process,
    closed,
    roots_answer,
    unanswerable,
    with_defaults,
)
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind, make_error
from catalog_inspector.core.pointer import pointer_of
from catalog_inspector.core.session.clock import PausableClock
from catalog_inspector.core.text import visible

if TYPE_CHECKING:  # the connection holds a desk of this module: only its type is needed here
    from catalog_inspector.core.session.connection import Connection

__all__ = ["Asking", "AskingDesk", "Stopped", "send_asking"]

_STATE_ONLY_BACKOFF = (0.05, 0.25)  # a round with only requestState: retried after 50 ms, doubling to 250 ms


@dataclass
class Asking:
    """How the questions of one request are answered, and where its rounds are kept.

    Attributes:
        answerer: answers elicitation and sampling requests (a person, the answers file); None:
            nobody is there, each is closed unanswered (elicitation `cancel`, sampling refused).
        roots: what `roots/list` is answered with, unasked (`[{"uri", "name"}]`).
        max_rounds: input_required rounds answered before the request is given up (`rounds_exceeded`).
        max_ask_bytes: the largest input request taken (the page byte cap).
        check: checks accepted elicitation content against the requested schema.
        log: the rounds, as they happen.
    """

    answerer: Answerer | None = None
    roots: Sequence[Mapping[str, str]] = ()
    max_rounds: int = MAX_ROUNDS
    max_ask_bytes: int = 4 * 1024 * 1024
    check: ContentCheck = check_content_in_process
    log: RoundLog = field(default_factory=RoundLog)
    server: str = ""

    @classmethod
    def of(
        cls,
        spec: ServerSpec,
        limits: Limits,
        answerer: Answerer | None = None,
        check: ContentCheck = check_content_in_process,
        log: RoundLog | None = None,
    ) -> Asking:
        """One request's asking on `spec`'s server: its roots, its rounds budget and its page byte cap."""
        return cls(
            answerer,
            spec.roots,
            limits.max_rounds,
            limits.max_page_bytes,
            check,
            log if log is not None else RoundLog(),
            spec.name,
        )


@dataclass(frozen=True)
class Stopped:
    """The request was given up between rounds: nothing more was sent.

    `layer` is `rounds_exceeded` or `input_invalid`; `result` the server's last answer (the question).
    """

    layer: Literal["rounds_exceeded", "input_invalid"]
    message: str
    result: dict[str, Any] | None = None


@dataclass
class _Flow:
    """A request in flight on an older-era connection: where the server's own requests go."""

    asking: Asking
    clock: PausableClock
    stop: anyio.CancelScope
    stopped: Stopped | None = None
    asked: int = 0
    since: float = field(default_factory=time.perf_counter)


class AskingDesk:
    """Receives the server's own requests (older eras) through the session's callbacks.

    A request that arrives while no call is in flight is answered as `idle` says (the server's
    roots and budgets), by `fallback` (the app: the person; the CLI: nobody).
    """

    def __init__(self, idle: Asking) -> None:
        self.idle = idle
        self.server = idle.server
        self.fallback: Answerer | None = None
        self.on_idle_ask: Callable[[InputAsk, InputAnswer], None] | None = None
        self._flows: list[_Flow] = []

    def callbacks(self) -> dict[str, Any]:
        """The `ClientSession` keyword arguments that declare elicitation (form, url), sampling and roots."""
        return {
            "elicitation_callback": self._elicit,
            "sampling_callback": self._sample,
            "list_roots_callback": self._list_roots,
        }

    def open(self, flow: _Flow) -> None:
        self._flows.append(flow)

    def close(self, flow: _Flow) -> None:
        if flow in self._flows:
            self._flows.remove(flow)

    async def _elicit(self, context: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        answer = await self._answer(InputAsk(None, ELICIT, _wire(params), "legacy", self.server))
        if answer.response is None:
            return types.ErrorData(code=types.INVALID_REQUEST, message=answer.error or "not answered")
        return types.ElicitResult.model_validate(answer.response)

    async def _sample(self, context: ClientRequestContext, params: types.CreateMessageRequestParams) -> Any:
        answer = await self._answer(InputAsk(None, SAMPLE, _wire(params), "legacy", self.server))
        if answer.response is None:
            return types.ErrorData(code=types.INVALID_REQUEST, message=answer.error or "not answered")
        return types.CreateMessageResult.model_validate(answer.response)

    async def _list_roots(self, context: ClientRequestContext) -> Any:
        answer = await self._answer(InputAsk(None, LIST_ROOTS, {}, "legacy", self.server))
        return types.ListRootsResult.model_validate(answer.response or {"roots": []})

    async def _answer(self, ask: InputAsk) -> InputAnswer:
        flow = self._flows[0] if self._flows else None
        if flow is None:
            answer = await _answer_one(ask, replace(self.idle, answerer=self.fallback, log=RoundLog()))
            if self.on_idle_ask is not None:
                self.on_idle_ask(ask, answer)
            return answer
        flow.asked += 1
        now = time.perf_counter()
        entry = Round(flow.asked, "legacy", (ask,), latency_ms=(now - flow.since) * 1000)
        flow.asking.log.put(entry)
        if flow.asked > flow.asking.max_rounds:
            words = f"the server was still asking after {flow.asking.max_rounds} requests; the call was stopped"
            flow.stopped = Stopped("rounds_exceeded", words)
            flow.stop.cancel()
            answer = unanswerable(ask, "too many requests: the call was stopped")
            flow.asking.log.put(replace(entry, responses=(answer,)))
            return answer
        flow.clock.pause(True)
        try:
            answer = await _answer_one(ask, flow.asking)
        finally:
            flow.clock.pause(False)
            flow.since = time.perf_counter()
        flow.asking.log.put(replace(entry, responses=(answer,)))
        if answer.problems:
            flow.stopped = Stopped("input_invalid", _invalid_words(answer))
            flow.stop.cancel()
        return answer


def _wire(params: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = params.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


def _invalid_words(answer: InputAnswer) -> str:
    first = answer.problems[0]
    where = first.pointer or "(root)"
    more = f" (and {len(answer.problems) - 1} more)" if len(answer.problems) > 1 else ""
    return f"the answer breaks the requested schema at {where}: {first.message}{more}; nothing more was sent"


async def _answer_one(ask: InputAsk, asking: Asking) -> InputAnswer:
    """One request answered: roots from the configuration, the rest by the answerer (checked), unknown ones refused."""
    if ask.method == LIST_ROOTS:
        return roots_answer(ask, asking.roots)
    if ask.method not in KNOWN_METHODS:
        return unanswerable(ask, f"the inspector cannot answer {visible(ask.method, 100)!r}")
    if ask.method == ELICIT and ask.mode not in ("form", "url"):
        return unanswerable(ask, f"unknown elicitation mode {visible(str(ask.mode), 40)!r}")
    if asking.answerer is None:
        return closed(ask, "nobody was there to answer the request")
    asking.log.waiting(True)
    try:
        answer = await asking.answerer(ask)
    finally:
        asking.log.waiting(False)
    if ask.method == ELICIT and answer.action == "accept" and ask.mode == "form" and answer.response is not None:
        schema = ask.requested_schema
        content = with_defaults(schema, answer.response.get("content"))
        problems = _unsendable(content) or await asking.check(schema, content)
        if problems:
            return replace(answer, problems=problems, error="the answer breaks the requested schema")
        answer = replace(answer, response={"action": "accept", "content": content})
    return answer


def _unsendable(content: dict[str, Any]) -> tuple[FieldProblem, ...]:
    """What an elicitation result cannot carry: its content's values are strings, numbers, booleans, null or
    lists of strings (the spec's flat form), whatever the requested schema allows."""
    found = []
    for name, value in content.items():
        flat = value is None or isinstance(value, str | int | float | bool)
        listed = isinstance(value, list) and all(isinstance(item, str) for item in value)
        if not (flat or listed):
            words = "an elicitation answer holds strings, numbers, booleans or lists of strings only"
            found.append(FieldProblem(pointer_of([str(name)]), words, "type"))
    return tuple(found)


def _input_required(result: dict[str, Any], max_bytes: int) -> tuple[dict[str, Any], str | None] | str:
    """The input requests and the state of an input_required result, or why it cannot be taken."""
    requests = result.get("inputRequests")
    state = result.get("requestState")
    if requests is not None and not isinstance(requests, dict):
        return "the input_required result's inputRequests is not an object"
    if state is not None and not isinstance(state, str):
        return "the input_required result's requestState is not a string"
    if not requests and state is None:
        return "the input_required result has neither inputRequests nor requestState"
    if state is not None and len(state.encode("utf-8", "surrogatepass")) > MAX_REQUEST_STATE_BYTES:
        return f"the requestState is over {MAX_REQUEST_STATE_BYTES:,} bytes; it was not echoed"
    for key, request in (requests or {}).items():
        size = len(json.dumps(request, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            return f"the input request {visible(str(key), 100)!r} is over {max_bytes:,} bytes"
    return requests or {}, state


def _ask_of(key: str, request: Any, server: str) -> InputAsk:
    if not isinstance(request, dict):
        return InputAsk(key, "", {}, "modern", server)
    method = request.get("method")
    params = request.get("params")
    return InputAsk(
        key, method if isinstance(method, str) else "", params if isinstance(params, dict) else {}, "modern", server
    )


async def _answer_all(asks: list[InputAsk], asking: Asking) -> tuple[InputAnswer, ...]:
    answers: dict[int, InputAnswer] = {}

    async def one(index: int, ask: InputAsk) -> None:
        answers[index] = await _answer_one(ask, asking)

    async with anyio.create_task_group() as group:
        for index, ask in enumerate(asks):
            group.start_soon(one, index, ask)
    return tuple(answers[index] for index in range(len(asks)))


Attempt = Callable[[dict[str, Any]], Any]
"""Builds the request to send from the extra params of an attempt (`inputResponses`, `requestState`)."""


async def send_asking(
    connection: Connection,
    attempt: Attempt,
    asking: Asking,
    timeout: float | None,
    progress: Any = None,
) -> dict[str, Any] | ErrorInfo | Stopped:
    """Send a request that the server may answer by asking; answer every round until it gives a result.

    Returns the final result (wire JSON), the classified error that stopped an attempt, or
    `Stopped` (rounds exceeded, an answer that breaks its schema). `timeout` bounds each
    attempt's wait for the server; the person's time is never counted.
    """
    desk = connection.desk
    extra: dict[str, Any] = {}
    index = 0
    delay = _STATE_ONLY_BACKOFF[0]
    while True:
        stop = anyio.CancelScope()
        clock = PausableClock(timeout)
        clock.start()
        flow = _Flow(asking, clock, stop, asked=len(asking.log.rounds))
        if desk is not None:
            desk.open(flow)
        started = time.perf_counter()
        answered: dict[str, Any] | ErrorInfo | None = None
        try:
            with stop, clock.scope:
                try:
                    answered = (await connection.request(attempt(extra), timeout=math.inf, progress=progress)).result
                except CatalogError as exc:
                    answered = exc.info
        finally:
            if desk is not None:
                desk.close(flow)
        latency = (time.perf_counter() - started) * 1000
        if flow.stopped is not None:
            return flow.stopped
        if answered is None:  # the clock ran out (the SDK told the server to cancel)
            said = f"no answer within {timeout:g} s (the server was sent a cancellation)" if timeout else "no answer"
            return make_error(ErrorKind.TIMEOUT, said).info
        if isinstance(answered, ErrorInfo) or answered.get("resultType") != "input_required":
            return answered
        index = len(asking.log.rounds) + 1
        taken = _input_required(answered, asking.max_ask_bytes)
        if isinstance(taken, str):
            return make_error(ErrorKind.PROTOCOL, taken).info
        requests, state = taken
        asks = [_ask_of(str(key), request, asking.server) for key, request in requests.items()]
        state_bytes = len(state.encode("utf-8", "surrogatepass")) if state is not None else None
        entry = Round(index, "modern", tuple(asks), request_state_bytes=state_bytes, latency_ms=latency)
        asking.log.put(entry)
        if index > asking.max_rounds:
            words = f"the server was still asking after {asking.max_rounds} rounds; nothing more was sent"
            return Stopped("rounds_exceeded", words, answered)
        if asks:
            delay = _STATE_ONLY_BACKOFF[0]
            answers = await _answer_all(asks, asking)
        else:
            await anyio.sleep(delay)
            delay = min(delay * 2, _STATE_ONLY_BACKOFF[1])
            answers = ()
        previous = asking.log.rounds[-2] if len(asking.log.rounds) > 1 else None
        asking.log.put(replace(entry, responses=answers))
        invalid = next((answer for answer in answers if answer.problems), None)
        if invalid is not None:
            return Stopped("input_invalid", _invalid_words(invalid), answered)
        if answers and _nothing_given(answers) and _same_asks(previous, entry):
            # The server asks again what was refused or left unanswered: another round would only say the same.
            words = "the server asked again what was refused or not answered; nothing more was sent"
            return Stopped("rounds_exceeded", words, answered)
        extra = {}
        if asks:
            extra["inputResponses"] = {a.key: a.response for a in answers if a.response is not None}
        if state is not None:
            extra["requestState"] = state


def _nothing_given(answers: tuple[InputAnswer, ...]) -> bool:
    """No answer of the round carries anything (all refused, unanswered, or unanswerable)."""
    return all(a.unanswered or a.response is None for a in answers)


def _same_asks(previous: Round | None, entry: Round) -> bool:
    if previous is None or not _nothing_given(previous.responses):
        return False
    key = [(a.key, a.method, a.params) for a in previous.requests]
    return bool(key) and key == [(a.key, a.method, a.params) for a in entry.requests]


def call_tool_attempt(name: str, arguments: dict[str, Any] | None) -> Attempt:
    def attempt(extra: dict[str, Any]) -> Any:
        params = {"name": name, **({"arguments": arguments} if arguments is not None else {}), **extra}
        return types.CallToolRequest(params=types.CallToolRequestParams.model_validate(params))

    return attempt


def get_prompt_attempt(name: str, arguments: dict[str, str] | None) -> Attempt:
    def attempt(extra: dict[str, Any]) -> Any:
        params = {"name": name, **({"arguments": arguments} if arguments is not None else {}), **extra}
        return types.GetPromptRequest(params=types.GetPromptRequestParams.model_validate(params))

    return attempt


def read_resource_attempt(uri: str) -> Attempt:
    def attempt(extra: dict[str, Any]) -> Any:
        return types.ReadResourceRequest(params=types.ReadResourceRequestParams.model_validate({"uri": uri, **extra}))

    return attempt
