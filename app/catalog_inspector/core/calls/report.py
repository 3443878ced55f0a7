"""One test call as a document (`mcp-call-result/1`): its outcome, the exit code each outcome means, the JSON.

Plain data: no SDK import. `core.session` sends the request and reports the
*layer* it stopped at; `core.calls.outcome` folds that layer and the verdict
into the one outcome a script reads (its table has the words and the exit
codes); an argument check that fails is `invalid_arguments`, a walk that was not
accepted `catalog_failed`, and neither sends anything.

`argument_errors` and `output_errors` hold what a validator found, each at a
JSON pointer into the arguments or the structured content. A schema that could
not be used at all (invalid, an unresolvable `$ref`, nested too deeply) or an
output that could not be checked (no `structuredContent` although the tool
declares an output schema) is one entry at the root (`""`) whose `keyword` names
why (`bad_schema`, `unresolvable_ref`, `too_large`, `missing_structured_content`,
…): never a JSON Schema keyword, so a script can tell them apart.

`error` says in words why the call did not succeed: the tool's own error
text, the JSON-RPC error (the server's message and code, and the code by name:
`code_name`, `code_text`, from `core.jsonrpc_codes`), the timeout, the
lost connection, the malformed answer, the walk, what was not sent and why. It
is null exactly when the outcome is `ok`.

`logs` are the server's log messages (`notifications/message`) for the request, oldest
first: `{at, level, logger, data}`, `data` as plain text (a string as sent, anything else
as compact JSON) cut to 2,000 characters; the latest 200 are kept and `logs_dropped`
counts the older ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from catalog_inspector.core.calls.asking import Round, url_elicitations
from catalog_inspector.core.calls.logs import LogMessage
from catalog_inspector.core.calls.outcome import CLEAN_VERDICTS, OUTCOMES, CallOutcome, Outcome
from catalog_inspector.core.calls.tasks import TaskRecord
from catalog_inspector.core.calls.validation import FieldProblem, ResultVerdict, Validation
from catalog_inspector.core.catalog import LIST_KINDS
from catalog_inspector.core.errors import ErrorInfo
from catalog_inspector.core.jsonrpc_codes import Named, named_code
from catalog_inspector.core.text import visible

if TYPE_CHECKING:
    from catalog_inspector.core.catalog import ListResult, Snapshot

__all__ = [
    "FORMAT",
    "CallError",
    "CallReport",
    "Outcome",
    "argument_problems",
    "catalog_failed",
    "list_failed",
    "counted",
    "not_sent",
    "report_of",
]

FORMAT = "mcp-call-result/1"
ERROR_TEXT_LIMIT = 2000  # characters of a failed tool's own text quoted in `error.message`


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

    @property
    def named(self) -> Named | None:
        """The JSON-RPC code by name (`core.jsonrpc_codes`), with what the error's data says; None without a code."""
        if self.code is None:
            return None
        return named_code(self.code, self.details.get("message"), self.details.get("data"))

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {"message": self.message, "code": self.code}
        named = self.named
        if named is not None:  # added keys: scripts that read `code` read it as before
            document["code_name"] = named.name
            document["code_text"] = named.text
        return document


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
        duration_ms: from sending to the answer (or the failure), less the time its answers were waited for; None when nothing was sent.
        rounds: the server's questions and their answers, round by round.
        method: the request: tools/call, prompts/get or resources/read (`tool` is then the prompt's
            name or the resource's URI; the document says it under `prompt` or `uri` instead).
        task: the task the call ran as (`call --task`, or a tool that requires one), or None.
        logs, logs_dropped: the server's log messages for the request (bounded), and how many older ones went.
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
    rounds: tuple[Round, ...] = ()
    method: str = "tools/call"
    task: TaskRecord | None = None
    logs: tuple[LogMessage, ...] = ()
    logs_dropped: int = 0

    def to_json(self) -> dict[str, Any]:
        target: dict[str, Any] = {"tool": self.tool}
        if self.method == "prompts/get":
            target = {"method": self.method, "tool": None, "prompt": self.tool}
        elif self.method == "resources/read":
            target = {"method": self.method, "tool": None, "uri": self.tool}
        return {
            "format": FORMAT,
            **target,
            "arguments": self.arguments,
            "argument_errors": [_problem_json(p) for p in self.argument_errors],
            "sent": self.sent,
            "outcome": str(self.outcome),
            "result": self.result,
            "output_errors": [_problem_json(p) for p in self.output_errors],
            "error": self.error.to_json() if self.error is not None else None,
            "duration_ms": self.duration_ms,
            "rounds": [entry.to_json() for entry in self.rounds],
            "task": self.task.to_json() if self.task is not None else None,
            "logs": [message.to_json() for message in self.logs],
            "logs_dropped": self.logs_dropped,
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
    if verdict is None or verdict.verdict in CLEAN_VERDICTS or verdict.verdict == "tool_error":
        return ()
    if verdict.verdict == "invalid":
        return verdict.problems
    return (FieldProblem("", verdict.detail or verdict.verdict.replace("_", " "), verdict.verdict),)


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


URLS_SHOWN = 5


def _call_error(info: ErrorInfo) -> CallError:
    # A JSON-RPC error keeps the server's own message (the classified one adds our words around it).
    said = info.details.get("message")
    message = said if isinstance(said, str) and info.code is not None else info.message
    message += _urls_to_open(info.code, info.details.get("data"))
    return CallError(message, info.code, dict(info.details))


def _urls_to_open(code: int | None, data: Any) -> str:
    """The pages a -32042 error asks the person to open, as plain text ("" for any other error)."""
    urls = [ask.url or "" for ask in url_elicitations(code, data, limit=1000)]
    if not urls:
        return ""
    more = f" (and {len(urls) - URLS_SHOWN} more)" if len(urls) > URLS_SHOWN else ""
    return " (the page to open: " + ", ".join(visible(u, 500) for u in urls[:URLS_SHOWN]) + more + ")"


def report_of(
    tool: str, arguments: dict[str, Any], argument_errors: tuple[FieldProblem, ...], outcome: CallOutcome
) -> CallReport:
    """The report of a call that went out (unknown tools included: `call_tool` refuses those itself)."""
    kind = outcome.outcome
    sent = OUTCOMES[kind].sent
    output_errors = output_problems(outcome.verdict) if kind is not Outcome.TOOL_ERROR else ()
    error: CallError | None = None
    if kind is Outcome.INPUT_UNANSWERED:
        then = outcome.error.message if outcome.error is not None else "the call went on"
        error = CallError(f"{_unanswered_words(outcome.rounds)}; {then}")
    elif outcome.error is not None:
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
        rounds=outcome.rounds,
        task=outcome.task,
        logs=outcome.logs,
        logs_dropped=outcome.logs_dropped,
    )


def _unanswered_words(rounds: tuple[Round, ...]) -> str:
    missed = [(entry.index, answer) for entry in rounds for answer in entry.responses if answer.unanswered]
    index, first = missed[0]
    what = f"round {index}" + (f", key {first.key!r}" if first.key is not None else "")
    more = f" (and {len(missed) - 1} more)" if len(missed) > 1 else ""
    return f"the server asked for input that no answer covered ({what}: {first.action}){more}"


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


def list_failed(name: str, arguments: dict[str, Any], list_name: str, listed: ListResult) -> CallReport:
    """The report when the list that names what was asked for (the prompts, say) failed on its own, though the
    tools were accepted: `catalog_failed`, with that list's status and error."""
    error = listed.error
    where = f" page {error.page}" if error is not None and error.page is not None else ""
    said = f"{error.kind}{where}): {error.message}" if error is not None else f"{listed.status})"
    message = f"the {LIST_KINDS[list_name].plural} list was not accepted ({listed.status}: {said}"
    code, details = (error.code, dict(error.details)) if error is not None else (None, {})
    return CallReport(name, arguments, Outcome.CATALOG_FAILED, error=CallError(message, code, details))


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
