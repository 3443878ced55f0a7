"""How a test request ended, as data: the one table of outcomes, their words and exit codes, and the judge.

Four failure layers stay distinct: an unknown tool (local, nothing sent), the
transport (closed, timed out), a JSON-RPC error response, and a result with
`isError: true` (the server answered; the tool failed). `core.session` sends the
requests and reports the *layer* a request stopped at; `outcome_of` folds that
layer and the verdict on the result into the one `Outcome` that the Call tab, the
call history and the `call` command all say, in the words of `OUTCOMES`:

    layer            verdict                                   outcome
    ───────────────  ────────────────────────────────────────  ──────────────
    ok               valid, no_schema (or no verdict)          ok
    ok               invalid, missing_structured_content,      output_invalid
                     bad_schema, too_large, over_budget,
                     crashed
    protocol         —                                         output_invalid
    tool_error       —                                         tool_error
    server_error     —                                         jsonrpc_error
    (others)         —                                         the outcome of the same name

This module imports no SDK.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from catalog_inspector.core.calls.asking import Round
from catalog_inspector.core.calls.logs import LogMessage
from catalog_inspector.core.calls.tasks import TaskRecord
from catalog_inspector.core.calls.validation import ResultVerdict, check_result
from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.errors import ErrorInfo, ErrorKind, code_words, reason
from catalog_inspector.core.text import visible

__all__ = [
    "OUTCOMES",
    "CallOutcome",
    "Judge",
    "Layer",
    "Outcome",
    "OutcomeWords",
    "cancelled_by_person",
    "find_tool",
    "judge_in_process",
    "layer_of",
    "outcome_of",
]

Layer = Literal[
    "ok",
    "tool_error",
    "unknown_tool",
    "excluded_tool",
    "invalid_arguments",
    "server_error",
    "timeout",
    "connection",
    "protocol",
    "cut_off",
    "cancelled",
    "size_limit",
    "auth",
    "internal",
    "rounds_exceeded",
    "input_invalid",
    "task_cancelled",
]
# ok            the server answered with a result (its verdict says how it measures up to the schema)
# tool_error    the server answered; the tool failed (isError: true)
# unknown_tool  not in the accepted catalog: nothing was sent
# excluded_tool conforming 2026-07-28 clients drop it (an invalid x-mcp-header): nothing was sent
# invalid_arguments  an argument cannot travel (its Mcp-Param header line is too long): nothing was sent
# server_error  a JSON-RPC error response
# timeout       no answer within the call's timeout (the server was sent a cancellation)
# connection    the transport closed or the process died
# protocol      the answer was malformed
# cut_off       a refresh replaced the session the call was made on, and it closed before the answer
# cancelled     stopped on purpose (the user's Cancel, a signal to the command line); the server was told
# size_limit    the answer was over the byte cap: refused as it arrived, never read whole
# auth          the server's authorization (an OAuth sign-in or a refused token) stopped the request
# internal      a bug in the inspector (its traceback is in the server log)
# rounds_exceeded  the server was still asking for input after the rounds cap: nothing more was sent
# input_invalid    an answer to the server's question breaks its requested schema: nothing more was sent
# task_cancelled   the call ran as a task, and the server ended it `cancelled` without being asked to


class Outcome(enum.StrEnum):
    """Where one test request ended: the word scripts read (`mcp-call-result/1`) and the history keeps."""

    # The server answered, the tool succeeded, and its structured content honours the output schema (or it has none).
    OK = "ok"
    # The arguments break the input schema, or it cannot be used to check them: nothing was sent.
    INVALID_ARGUMENTS = "invalid_arguments"
    # The tool is not in the accepted catalog: nothing was sent.
    UNKNOWN_TOOL = "unknown_tool"
    # Conforming 2026-07-28 clients drop the tool (its x-mcp-header annotation is invalid): nothing was sent.
    EXCLUDED_TOOL = "excluded_tool"
    # The server answered; the tool failed (`isError: true`).
    TOOL_ERROR = "tool_error"
    # The server answered with a JSON-RPC error response.
    JSONRPC_ERROR = "jsonrpc_error"
    # The server answered, but the result breaks the output schema, cannot be checked against it, or is malformed.
    OUTPUT_INVALID = "output_invalid"
    # No answer within the call timeout.
    TIMEOUT = "timeout"
    # The transport closed or the server process died before the answer came.
    CONNECTION = "connection"
    # The catalog walk before the call was not accepted: nothing was called.
    CATALOG_FAILED = "catalog_failed"
    # Stopped on purpose before the answer came (Cancel in the app, a signal to the command line).
    CANCELLED = "cancelled"
    # A refresh replaced the session the call was made on, and it closed before the answer came (the app only).
    CUT_OFF = "cut_off"
    # The answer was larger than the byte cap; it was refused as it arrived.
    SIZE_LIMIT = "size_limit"
    # The server's authorization stopped the request (details name the step).
    AUTH = "auth"
    # The inspector itself failed; the traceback is in the server log.
    INTERNAL = "internal"
    # The server asked for input that nobody answered (no rule of the answers file, a closed dialog); the call
    # went on, and its result is kept.
    INPUT_UNANSWERED = "input_unanswered"
    # The server was still asking for input after the rounds cap (`--max-rounds`): nothing more was sent.
    ROUNDS_EXCEEDED = "rounds_exceeded"
    # An answer to the server's question breaks the schema it requested: nothing more was sent.
    INPUT_INVALID = "input_invalid"
    # The call ran as a task and the server ended it `cancelled` unasked: there is no result.
    TASK_CANCELLED = "task_cancelled"

    @property
    def exit_code(self) -> int:
        """What the `call` command exits with: 0 ok; 1 answered but wrong; 3 not sent (or an answer broke the
        requested schema); 4 no answer; 5 authorization; 6 the server's questions were not all answered."""
        return OUTCOMES[self].exit_code

    @property
    def heading(self) -> str:
        return OUTCOMES[self].heading

    @classmethod
    def parse(cls, word: str) -> Outcome | None:
        """The outcome a stored word names: today's words, and the layer names older histories kept."""
        try:
            return cls(word)
        except ValueError:
            return _OLD_WORDS.get(word)


@dataclass(frozen=True)
class OutcomeWords:
    """How one outcome is said: a heading (the Call tab, the history, the command's summary line), whether the
    request reached the server, and the `call` command's exit code."""

    heading: str
    sent: bool
    exit_code: int


OUTCOMES: dict[Outcome, OutcomeWords] = {
    Outcome.OK: OutcomeWords("The server answered", True, 0),
    Outcome.TOOL_ERROR: OutcomeWords("Tool error: the server answered with isError: true", True, 1),
    Outcome.JSONRPC_ERROR: OutcomeWords("JSON-RPC error: the server refused the request", True, 1),
    Outcome.OUTPUT_INVALID: OutcomeWords(
        "Output invalid: the answer breaks the tool's output schema, cannot be checked, or is malformed", True, 1
    ),
    Outcome.SIZE_LIMIT: OutcomeWords("Response too large: the answer is over the byte cap and was not read", True, 1),
    Outcome.INVALID_ARGUMENTS: OutcomeWords("Invalid arguments: nothing was sent", False, 3),
    Outcome.UNKNOWN_TOOL: OutcomeWords("Unknown tool: not in the accepted catalog, nothing was sent", False, 3),
    Outcome.EXCLUDED_TOOL: OutcomeWords(
        "Excluded tool: conforming 2026-07-28 clients drop it (an invalid x-mcp-header), nothing was sent", False, 3
    ),
    Outcome.TIMEOUT: OutcomeWords("Timeout: no answer in time (the server was told to cancel)", True, 4),
    Outcome.CONNECTION: OutcomeWords("Connection: the transport closed or the server process is gone", True, 4),
    Outcome.CATALOG_FAILED: OutcomeWords(
        "Catalog not accepted: the walk before the call failed, nothing was called", False, 4
    ),
    Outcome.CANCELLED: OutcomeWords(
        "Cancelled: stopped before the answer came (the server was told to cancel)", True, 4
    ),
    Outcome.CUT_OFF: OutcomeWords("Cut off: a refresh replaced the session before the answer came", True, 4),
    Outcome.INTERNAL: OutcomeWords(
        "Internal error in the inspector (the traceback is in the Server & log tab)", True, 4
    ),
    Outcome.AUTH: OutcomeWords("Authorization failed: the server's sign-in stopped the request", True, 5),
    Outcome.INPUT_UNANSWERED: OutcomeWords(
        "Input unanswered: the server asked for input that nobody answered (the result is kept)", True, 6
    ),
    Outcome.ROUNDS_EXCEEDED: OutcomeWords(
        "Rounds exceeded: the server was still asking for input after the rounds cap; nothing more was sent", True, 6
    ),
    Outcome.INPUT_INVALID: OutcomeWords(
        "Input invalid: an answer breaks the schema the server asked for; nothing more was sent", True, 3
    ),
    Outcome.TASK_CANCELLED: OutcomeWords(
        "Task cancelled: the server ended the task as cancelled without being asked to; there is no result", True, 4
    ),
}

# Layers named differently from their outcome; every other layer is its outcome's own word.
_LAYER_OUTCOMES: dict[str, Outcome] = {"server_error": Outcome.JSONRPC_ERROR, "protocol": Outcome.OUTPUT_INVALID}
# The words histories kept before outcomes had one table (they kept the layer).
_OLD_WORDS = _LAYER_OUTCOMES
SUMMARY_LIMIT = 300  # characters of an error's message in a summary line
# Verdicts on an answered call that leave it `ok`: anything else is `output_invalid`.
CLEAN_VERDICTS = frozenset({"valid", "no_schema"})

# The layer an error of each kind stops a request at (any other kind: the connection).
_KIND_LAYERS: dict[ErrorKind, Layer] = {
    ErrorKind.SERVER_ERROR: "server_error",
    ErrorKind.TIMEOUT: "timeout",
    ErrorKind.PROTOCOL: "protocol",
    ErrorKind.SIZE_LIMIT: "size_limit",
    ErrorKind.AUTH: "auth",
    ErrorKind.INTERNAL: "internal",
    ErrorKind.CANCELLED: "cancelled",
}


def layer_of(kind: ErrorKind) -> Layer:
    """The layer a classified error stopped a request at."""
    return _KIND_LAYERS.get(kind, "connection")


# Layers at which the server answered: an unanswered question of the server's makes any of them `input_unanswered`.
ANSWERED_LAYERS = frozenset({"ok", "tool_error", "server_error", "protocol"})


def outcome_of(layer: str, verdict: ResultVerdict | None, unanswered: bool = False) -> Outcome:
    """The outcome of a request, from the layer it stopped at, the verdict on its result, and whether a question
    of the server's went unanswered."""
    if unanswered and (layer in ANSWERED_LAYERS or layer == "rounds_exceeded"):
        return Outcome.INPUT_UNANSWERED  # a server that asks until answered: the unanswered question is the cause
    outcome = _LAYER_OUTCOMES.get(layer) or Outcome.parse(layer) or Outcome.CONNECTION
    if outcome is Outcome.OK and verdict is not None and verdict.verdict not in CLEAN_VERDICTS:
        return Outcome.OUTPUT_INVALID
    return outcome


@dataclass(frozen=True)
class CallOutcome:
    """What a test request produced, and at which layer it stopped; `outcome` is the word everyone says."""

    layer: Layer
    result: dict[str, Any] | None = None
    verdict: ResultVerdict | None = None
    error: ErrorInfo | None = None
    latency_ms: float = 0.0
    rounds: tuple[Round, ...] = ()  # the server's questions and their answers, round by round
    task: TaskRecord | None = None  # the task the call ran as (None: a plain call)
    logs: tuple[LogMessage, ...] = ()  # the server's log messages for this request (the latest `REQUEST_LOGS`)
    logs_dropped: int = 0  # older log messages for it that were let go

    @property
    def unanswered(self) -> bool:
        return any(answer.unanswered for entry in self.rounds for answer in entry.responses)

    @property
    def outcome(self) -> Outcome:
        return outcome_of(self.layer, self.verdict, self.unanswered)

    def summary(self) -> str:
        """One line of words: the outcome's heading, and the error (its JSON-RPC code by name) or the verdict."""
        heading = self.outcome.heading
        if self.outcome is Outcome.CANCELLED and self.error is not None and self.error.kind is ErrorKind.CANCELLED:
            return f"Cancelled: {visible(self.error.message, SUMMARY_LIMIT)}"  # the person's own stop: one sentence
        if self.error is not None:
            said = code_words(self.error)
            code = f" — {said.text}" if said is not None else ""
            # A JSON-RPC error's own message: the heading already says the server answered with an error.
            message = reason(self.error) if self.error.kind is ErrorKind.SERVER_ERROR else self.error.message
            return f"{heading}{code}: {visible(message, SUMMARY_LIMIT)}"
        if self.verdict is not None and self.verdict.verdict not in (*CLEAN_VERDICTS, "tool_error"):
            return f"{heading}; output: {self.verdict.verdict.replace('_', ' ')}"
        return heading


def cancelled_by_person(rounds: tuple[Round, ...] = (), task: TaskRecord | None = None) -> CallOutcome:
    """The outcome of a call the person stopped: in one sentence, with the round whose question was still
    unanswered (no answers yet on 2026-07-28, or the question withdrawn with the call on older eras) and
    whether the call's task was sent `tasks/cancel`."""
    words = "you stopped the call, and the server was told to stop"
    last = rounds[-1] if rounds else None
    if last is not None and (len(last.responses) < len(last.requests) or any(a.unanswered for a in last.responses)):
        words = (
            f"you stopped the call while the server waited for an answer (round {last.index}), "
            "and the server was told to stop"
        )
    if task is not None and task.cancel_sent:
        words += "; tasks/cancel was sent for its task"
    return CallOutcome("cancelled", error=ErrorInfo(ErrorKind.CANCELLED, words), rounds=rounds, task=task)


def find_tool(snapshot: Snapshot, name: str) -> dict[str, Any] | None:
    if snapshot.tools.status != "complete":
        return None
    return next((t for t in snapshot.tools.items if t.get("name") == name), None)


Judge = Callable[[dict[str, Any], dict[str, Any]], Awaitable[ResultVerdict]]
"""Checks a raw result against a raw tool's output schema (the app's is bounded, in the sandbox process)."""


async def judge_in_process(tool: dict[str, Any], result: dict[str, Any]) -> ResultVerdict:
    """`check_result` in this thread, with no time limit (the CLI's judge)."""
    return check_result(tool, result)
