"""One test call as a document (`mcp-call-result/1`): its outcome, the exit code each outcome means, the JSON.

Plain data: no SDK import. `core.session.requests` sends the request and reports the
*layer* it stopped at; this module folds that layer, the output verdict and
the argument check into the one outcome a script reads:

    layer (core.session.requests)   verdict (core.calls.validation)             outcome
    ───────────────────  ────────────────────────────────────  ──────────────
    ok                   valid, no_schema                      ok
    ok                   invalid, missing_structured_content,  output_invalid
                         bad_schema, too_large, over_budget,
                         crashed
    protocol             —                                     output_invalid
    tool_error           —                                     tool_error
    server_error         —                                     jsonrpc_error
    unknown_tool         —                                     unknown_tool
    timeout              —                                     timeout
    connection, cut_off,
    cancelled            —                                     connection
    (argument check)     —                                     invalid_arguments
    (walk not accepted)  —                                     catalog_failed

`argument_errors` and `output_errors` hold what a validator found, each at a
JSON pointer into the arguments or the structured content. A schema that could
not be used at all (invalid, an unresolvable `$ref`, nested too deeply) or an
output that could not be checked (no `structuredContent` although the tool
declares an output schema) is one entry at the root (`""`) whose `keyword` names
why (`bad_schema`, `unresolvable_ref`, `too_large`, `missing_structured_content`,
…): never a JSON Schema keyword, so a script can tell them apart.

`error` says in words why the call did not succeed: the tool's own error
text, the JSON-RPC error (the server's message and code), the timeout, the
lost connection, the malformed answer, the walk, what was not sent and why. It
is null exactly when the outcome is `ok`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from catalog_inspector.core.calls.validation import FieldProblem, ResultVerdict, Validation
from catalog_inspector.core.errors import ErrorInfo

if TYPE_CHECKING:
    from catalog_inspector.core.calls.outcome import CallOutcome
    from catalog_inspector.core.catalog import Snapshot

__all__ = [
    "FORMAT",
    "CallError",
    "CallReport",
    "Outcome",
    "argument_problems",
    "catalog_failed",
    "counted",
    "not_sent",
    "report_of",
]

FORMAT = "mcp-call-result/1"
ERROR_TEXT_LIMIT = 2000  # characters of a failed tool's own text quoted in `error.message`


class Outcome(enum.StrEnum):
    """Where one test call ended; `exit_code` is what the `call` command exits with."""

    # The server answered, the tool succeeded, and its structured content honours the output schema (or it has none).
    OK = "ok"
    # The arguments break the input schema, or it cannot be used to check them: nothing was sent.
    INVALID_ARGUMENTS = "invalid_arguments"
    # The tool is not in the accepted catalog: nothing was sent.
    UNKNOWN_TOOL = "unknown_tool"
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

    @property
    def exit_code(self) -> int:
        """0 ok; 1 answered but wrong; 3 not sent; 4 no answer (2 is kept for usage errors)."""
        return _EXIT_CODES[self]


_EXIT_CODES = {
    Outcome.OK: 0,
    Outcome.TOOL_ERROR: 1,
    Outcome.JSONRPC_ERROR: 1,
    Outcome.OUTPUT_INVALID: 1,
    Outcome.INVALID_ARGUMENTS: 3,
    Outcome.UNKNOWN_TOOL: 3,
    Outcome.TIMEOUT: 4,
    Outcome.CONNECTION: 4,
    Outcome.CATALOG_FAILED: 4,
}

_LAYER_OUTCOMES = {
    "ok": Outcome.OK,
    "tool_error": Outcome.TOOL_ERROR,
    "unknown_tool": Outcome.UNKNOWN_TOOL,
    "server_error": Outcome.JSONRPC_ERROR,
    "timeout": Outcome.TIMEOUT,
    "protocol": Outcome.OUTPUT_INVALID,  # the server answered, with something that is not a CallToolResult
}
# Verdicts on an answered call that leave it `ok`: anything else is `output_invalid`.
_CLEAN_VERDICTS = frozenset({"valid", "no_schema"})
# Verdicts that are no check at all: the output errors hold one entry at the root saying why.
_NOT_CHECKED = frozenset({"missing_structured_content", "bad_schema", "too_large", "over_budget", "crashed"})


@dataclass(frozen=True)
class CallError:
    """Why the call did not succeed: words and the JSON-RPC code where there is one.

    `details` are the facts behind the message (`ErrorInfo.details`: a server's
    last stderr lines, say); they are for the summary line, not the document.
    """

    message: str
    code: int | None = None
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "code": self.code}


@dataclass(frozen=True)
class CallReport:
    """Everything the `call` command says about one call (the `mcp-call-result/1` document).

    Attributes:
        tool: the tool's name as asked for.
        arguments: the arguments as given (sent as they are, or not sent).
        outcome: where the call ended.
        argument_errors: what is wrong with the arguments (checked before sending).
        sent: whether a `tools/call` request was sent.
        result: the result exactly as the server sent it (wire JSON), or None.
        output_errors: what is wrong with the result against the tool's output schema.
        error: why the call did not succeed, or None.
        duration_ms: from sending to the answer (or the failure); None when nothing was sent.
    """

    tool: str
    arguments: dict[str, Any]
    outcome: Outcome
    argument_errors: tuple[FieldProblem, ...] = ()
    sent: bool = False
    result: dict[str, Any] | None = None
    output_errors: tuple[FieldProblem, ...] = ()
    error: CallError | None = None
    duration_ms: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "tool": self.tool,
            "arguments": self.arguments,
            "argument_errors": [_problem_json(p) for p in self.argument_errors],
            "sent": self.sent,
            "outcome": str(self.outcome),
            "result": self.result,
            "output_errors": [_problem_json(p) for p in self.output_errors],
            "error": self.error.to_json() if self.error is not None else None,
            "duration_ms": self.duration_ms,
        }


def counted(count: int, noun: str) -> str:
    """ "1 problem", "2 problems"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _problem_json(problem: FieldProblem) -> dict[str, str]:
    return {"path": problem.pointer, "message": problem.message, "keyword": problem.keyword}


def argument_problems(validation: Validation) -> tuple[FieldProblem, ...]:
    """The argument errors of a validation; an input schema that could not be used is one entry at the root."""
    if validation.failure is not None:
        message = f"the arguments were not checked: the input schema cannot be used: {validation.detail}"
        return (FieldProblem("", message, str(validation.failure)),)
    return validation.problems


def output_problems(verdict: ResultVerdict | None) -> tuple[FieldProblem, ...]:
    """The output errors of a verdict; a result that could not be checked is one entry at the root."""
    if verdict is None or verdict.verdict in _CLEAN_VERDICTS or verdict.verdict == "tool_error":
        return ()
    if verdict.verdict == "invalid":
        return verdict.problems
    return (FieldProblem("", verdict.detail or verdict.verdict.replace("_", " "), verdict.verdict),)


def outcome_of(layer: str, verdict: ResultVerdict | None) -> Outcome:
    """The outcome of a call that was sent, from the layer it stopped at and the verdict on its result."""
    outcome = _LAYER_OUTCOMES.get(layer, Outcome.CONNECTION)  # cut_off, cancelled: the answer never came
    if outcome is Outcome.OK and verdict is not None and verdict.verdict not in _CLEAN_VERDICTS:
        return Outcome.OUTPUT_INVALID
    return outcome


def _tool_error(result: dict[str, Any]) -> CallError:
    """The failed tool's own words: its first text block, cut to a bound."""
    content = result.get("content")
    blocks = content if isinstance(content, list) else []
    text = next((b["text"] for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str)), None)
    if text is None:
        return CallError("the tool reported isError: true (with no text)")
    if len(text) > ERROR_TEXT_LIMIT:
        text = text[:ERROR_TEXT_LIMIT] + f"… [{len(text) - ERROR_TEXT_LIMIT:,} more characters]"
    return CallError(f"the tool reported isError: true: {text}")


def _output_error(problems: tuple[FieldProblem, ...]) -> CallError:
    if len(problems) == 1 and problems[0].pointer == "" and problems[0].keyword in _NOT_CHECKED:
        return CallError(f"the result was not checked against the output schema: {problems[0].message}")
    return CallError(f"the result breaks the tool's output schema ({counted(len(problems), 'problem')})")


def _call_error(info: ErrorInfo) -> CallError:
    # A JSON-RPC error keeps the server's own message (the classified one adds our words around it).
    said = info.details.get("message")
    message = said if isinstance(said, str) and info.code is not None else info.message
    return CallError(message, info.code, dict(info.details))


def report_of(
    tool: str, arguments: dict[str, Any], argument_errors: tuple[FieldProblem, ...], outcome: CallOutcome
) -> CallReport:
    """The report of a call that went out (unknown tools included: `call_tool` refuses those itself)."""
    kind = outcome_of(outcome.layer, outcome.verdict)
    sent = kind is not Outcome.UNKNOWN_TOOL
    output_errors = output_problems(outcome.verdict) if kind is not Outcome.TOOL_ERROR else ()
    error: CallError | None = None
    if outcome.error is not None:
        error = _call_error(outcome.error)
    elif kind is Outcome.TOOL_ERROR and outcome.result is not None:
        error = _tool_error(outcome.result)
    elif kind is Outcome.OUTPUT_INVALID:
        error = _output_error(output_errors)
    return CallReport(
        tool=tool,
        arguments=arguments,
        outcome=kind,
        argument_errors=argument_errors,
        sent=sent,
        result=outcome.result,
        output_errors=output_errors,
        error=error,
        duration_ms=outcome.latency_ms if sent else None,
    )


def not_sent(
    tool: str,
    arguments: dict[str, Any],
    outcome: Outcome,
    message: str,
    argument_errors: tuple[FieldProblem, ...] = (),
    details: dict[str, Any] | None = None,
) -> CallReport:
    """The report of a call that was never sent (invalid arguments, unknown tool, a session already gone)."""
    error = CallError(message, details=details or {})
    return CallReport(tool, arguments, outcome, argument_errors, error=error)


def catalog_failed(tool: str, arguments: dict[str, Any], snapshot: Snapshot) -> CallReport:
    """The report when the walk before the call was not accepted: its status, kind, where, and the message."""
    error = snapshot.error
    if error is None:  # not a complete snapshot, yet no error: say so rather than guess
        return not_sent(tool, arguments, Outcome.CATALOG_FAILED, f"the catalog walk ended {snapshot.status}")
    where = f" on {error.list_name} page {error.page}" if error.page is not None and error.list_name else ""
    message = f"the catalog walk was not accepted ({snapshot.status}: {error.kind}{where}): {error.message}"
    return CallReport(
        tool, arguments, Outcome.CATALOG_FAILED, error=CallError(message, error.code, dict(error.details))
    )
