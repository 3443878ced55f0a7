"""The `call`, `prompt` and `read` commands' work: walk the catalog, check the arguments, make one test
request, answer what the server asks on the way (the answers file), judge the answer.

    mcp-catalog-inspector call TOOL [--args JSON | --args-file FILE] [--send-invalid] [--call-timeout S]
                              [--task] [--task-deadline S]
                              [--check-budget S] [--answers FILE | --decline-all] [--max-rounds N]
                              [--roots URI...] [snapshot options]
                              (-- COMMAND [ARG...] | --url URL ... | --server NAME ...)
    mcp-catalog-inspector prompt NAME [--args JSON] [the same options]
    mcp-catalog-inspector read URI [the same options]

`cli` parses the command line and prints; this module turns a server and a
`CallPlan` into a `CallReport` (`core.calls.report`). The walk and the call share
one session: `SessionWorker.run` keeps an accepted session open until it is
told to stop, so the call is made on the very connection whose catalog was
accepted, then the worker is stopped (it exits the SDK contexts it entered).

Both checks (the arguments against the input schema, the result against the
output schema) run in the sandbox's worker process (`core.calls.Sandbox`), each
within `CallPlan.check_budget` seconds, as in the app: the schemas are the
server's, and a `pattern` like `^(a+)+$` or `uniqueItems` over 40,000 objects
held this process for minutes when they ran here, deaf to SIGTERM because the
check never gave the event loop back. A check over its budget is stopped (the
worker killed) and reported `over_budget`; the worker is killed when the
command ends, however it ends.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

import anyio

from catalog_inspector.cli.common import (
    CHECK_BUDGET,
    EXIT_CODES,
    MESSAGE_LIMIT,
    NOT_JSON,
    UsageError,
    limits_of,
    spec_from,
    stopped,
    until_signalled,
    usage,
)
from catalog_inspector.cli.oauth import use_oauth_hooks
from catalog_inspector.cli.report_of import call_report, report_options, write_report_files
from catalog_inspector.cli.snapshot import write_out
from catalog_inspector.core.calls import (
    AnswerRules,
    AnswersError,
    CallError,
    CallOutcome,
    CallReport,
    Failure,
    FieldProblem,
    Judge,
    Outcome,
    ResultVerdict,
    RuleAnswerer,
    Sandbox,
    TaskLog,
    Validation,
    argument_problems,
    catalog_failed,
    checking_with,
    counted,
    find_tool,
    list_failed,
    not_sent,
    parse_answers,
    report_of,
)
from catalog_inspector.core.catalog import Snapshot, failed_snapshot, source_of
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import AUTH_STEPS, internal_error, last_words
from catalog_inspector.core.files import (
    MAX_ARGUMENTS_BYTES,
    InputError,
    parse_json,
    read_bounded,
    read_stream_bounded,
    read_text,
)
from catalog_inspector.core.session import (
    Asking,
    Connection,
    SessionWorker,
    call_tool,
    get_prompt,
    read_resource,
)
from catalog_inspector.core.text import visible

__all__ = [
    "ArgumentsError",
    "CallPlan",
    "authorization_failed",
    "load_arguments",
    "summary_line",
    "walk_and_call",
    "write_report",
]

PROBLEM_LIMIT = 100  # problems reported per side; the first ones in instance order
SUMMARY_LIMIT = 2000  # characters of untrusted text in the stderr line


class ArgumentsError(ValueError):
    """`--args` or `--args-file` does not hold a JSON object (a usage error)."""


@dataclass(frozen=True)
class CallPlan:
    """What to call, with what, how long to wait for the answer, and how the server's questions are answered.

    `tool` is the tool's name, the prompt's name (`method` prompts/get) or the resource's URI
    (resources/read); `rules` the answers file (or `--decline-all`), `roots` the roots to give;
    `task` runs the call as a task (`--task`; a tool whose taskSupport is required runs as one anyway).
    """

    tool: str
    arguments: dict[str, Any]
    send_invalid: bool = False
    timeout: float | None = None
    check_budget: float = CHECK_BUDGET  # seconds for each schema check, in the sandbox
    send_excluded: bool = False
    method: str = "tools/call"
    rules: AnswerRules = field(default_factory=AnswerRules)
    roots: tuple[dict[str, str], ...] = ()
    task: bool = False


def load_arguments(text: str | None, path: Path | None) -> dict[str, Any]:
    """The arguments from `--args` or `--args-file` (`-` is stdin); `{}` when neither is given.

    A file (or stdin) is read within `MAX_ARGUMENTS_BYTES`; either is strict JSON (no NaN or Infinity).

    Raises:
        ArgumentsError: unreadable, too large, not JSON, nested too deeply, or not a JSON object; the
            message says which.
    """
    where = "--args"
    try:
        if path is not None:
            where = f"--args-file {path}"
            text = read_text(_read_arguments(path, where), where)
        if text is None:
            return {}
        value = parse_json(text, where)
    except OSError as exc:
        raise ArgumentsError(f"cannot read {where}: {exc.strerror or exc}") from exc
    except InputError as exc:
        raise ArgumentsError(str(exc)) from exc
    if not isinstance(value, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(value), "a number")
        raise ArgumentsError(f"{where} must be a JSON object of arguments, not {kind}")
    return value


def _read_arguments(path: Path, where: str) -> bytes:
    what = "arguments"
    if str(path) == "-":
        return read_stream_bounded(sys.stdin.buffer, MAX_ARGUMENTS_BYTES, where, what)
    return read_bounded(path, MAX_ARGUMENTS_BYTES, what, where)


async def check_arguments(
    sandbox: Sandbox, tool: dict[str, Any], arguments: dict[str, Any], budget: float
) -> tuple[FieldProblem, ...]:
    """The arguments against the tool's input schema, in the sandbox, within `budget` seconds."""
    validation = await sandbox.validate(tool.get("inputSchema"), arguments, budget)
    if validation.failure is Failure.OVER_BUDGET:  # the schema is usable, only too slow: say that, not "unusable"
        message = f"the arguments were not checked: {validation.detail} (--check-budget)"
        return (FieldProblem("", message, str(Failure.OVER_BUDGET)),)
    return argument_problems(validation)


def judge_in(sandbox: Sandbox, budget: float) -> Judge:
    """The judge of call results: the accepted output schema, in the sandbox, within `budget` seconds."""

    async def judge(tool: dict[str, Any], result: dict[str, Any]) -> ResultVerdict:
        return await sandbox.check_result(tool, result, budget)

    return judge


async def walk_and_call(
    spec: ServerSpec, limits: Limits, plan: CallPlan, worker: SessionWorker | None = None, task: TaskLog | None = None
) -> tuple[Snapshot, CallReport]:
    """Walk `spec`'s catalog under `limits`; if it is accepted, make the call on the same session.

    Returns the walk's snapshot and the report; the session is closed (and the
    server process gone) when this returns. `worker`: the one to use (the caller
    may need it, to end the server without a grace period); `task`: the log a call run
    as a task fills (default: a new one when `plan.task`; the caller may need it too,
    to say the task in the document of a call a signal stopped).
    """
    worker = worker if worker is not None else SessionWorker(spec, limits)
    walked = anyio.Event()
    # Started by the first check; killed on the way out, also when a signal cancels us.
    sandbox = Sandbox(max_problems=PROBLEM_LIMIT)

    async def session() -> None:
        try:
            await worker.run(lambda _snapshot: walked.set())
        finally:
            walked.set()  # whatever happened, the waiting side must not wait forever

    async with sandbox, anyio.create_task_group() as group:
        group.start_soon(session)
        await walked.wait()
        try:
            report = await _call_on(worker, plan, sandbox, task)
        except Exception as exc:  # the command's task boundary: a bug of ours still ends in one document
            message = f"internal error in the inspector: {internal_error(exc).info.message}"
            report = not_sent(plan.tool, plan.arguments, Outcome.CONNECTION, message)
        finally:
            worker.stop()
    assert worker.snapshot is not None  # run() always reports a snapshot
    return worker.snapshot, report


async def _call_on(worker: SessionWorker, plan: CallPlan, sandbox: Sandbox, task: TaskLog | None) -> CallReport:
    """The call, made on the worker's accepted session (or the report of why it was not made)."""
    tool_name, arguments = plan.tool, plan.arguments
    snapshot = worker.snapshot
    if snapshot is None:
        return not_sent(tool_name, arguments, Outcome.CATALOG_FAILED, "the catalog walk ended without a snapshot")
    if snapshot.status != "complete":
        return catalog_failed(tool_name, arguments, snapshot)
    refused = await _refused(plan, snapshot, sandbox)
    if isinstance(refused, CallReport):
        return refused
    problems = refused
    connection = worker.connection
    if connection is None:
        # The session broke between the walk and the call (the process exited, say).
        cause = worker.faults.first
        message = "the session closed before the call could be sent" + (f": {cause.info.message}" if cause else "")
        details = cause.info.details if cause else None
        return not_sent(tool_name, arguments, Outcome.CONNECTION, message, problems, details)
    asking = asking_of(plan, connection, worker.limits, sandbox)
    if plan.task and task is None:
        task = TaskLog()
    outcome = await _send(connection, plan, snapshot, sandbox, asking, task)
    if outcome.layer == "timeout":
        connection.faults.hurry()  # a server that let the call run out gets no grace period to leave
        ran_out = outcome.task is not None and outcome.error is not None and "task deadline" in outcome.error.message
        if outcome.error is not None and plan.timeout is not None and not ran_out:
            said = f"no answer within the call timeout of {plan.timeout:g} s"
            outcome = replace(outcome, error=replace(outcome.error, message=said))
    return report_of(tool_name, arguments, problems, outcome)


async def _refused(plan: CallPlan, snapshot: Snapshot, sandbox: Sandbox) -> CallReport | tuple[FieldProblem, ...]:
    """Why nothing is to be sent (a tool or prompt the catalog lacks, invalid arguments), or the argument
    problems sent anyway (`--send-invalid`)."""
    name = plan.tool
    if plan.method == "prompts/get":
        listed = snapshot.lists["prompts"]
        if not listed.judged:  # the tools were accepted, the prompts list on its own was not
            return list_failed(name, plan.arguments, "prompts", listed)
        prompts = listed.items
        if not any(prompt.get("name") == name for prompt in prompts):
            message = f"{name!r} is not among the {len(prompts)} prompts of the accepted catalog; nothing was sent"
            return not_sent(name, plan.arguments, Outcome.UNKNOWN_TOOL, message)
    if plan.method != "tools/call":
        return ()
    tool = find_tool(snapshot, name)
    if tool is None:
        message = (
            f"{name!r} is not among the {len(snapshot.tools.items)} tools of the accepted catalog; nothing was sent"
        )
        return not_sent(name, plan.arguments, Outcome.UNKNOWN_TOOL, message)
    problems = await check_arguments(sandbox, tool, plan.arguments, plan.check_budget)
    if problems and not plan.send_invalid:
        message = f"the arguments break the input schema ({counted(len(problems), 'problem')}); nothing was sent"
        return not_sent(name, plan.arguments, Outcome.INVALID_ARGUMENTS, message, problems)
    return problems


async def _send(
    connection: Connection, plan: CallPlan, snapshot: Snapshot, sandbox: Sandbox, asking: Asking, task: TaskLog | None
) -> CallOutcome:
    if plan.method == "prompts/get":
        return await get_prompt(connection, plan.tool, plan.arguments, plan.timeout, asking=asking)
    if plan.method == "resources/read":
        return await read_resource(connection, plan.tool, plan.timeout, asking=asking)
    judge = judge_in(sandbox, plan.check_budget)
    return await call_tool(
        connection,
        snapshot,
        plan.tool,
        plan.arguments,
        plan.timeout,
        judge,
        asking=asking,
        send_excluded=plan.send_excluded,
        task=task,
    )


def asking_of(plan: CallPlan, connection: Connection, limits: Limits, sandbox: Sandbox) -> Asking:
    """The server's questions answered by the plan's rules; accepted content checked in the sandbox."""

    async def validate(schema: Any, content: Any) -> Validation:
        return await sandbox.validate(schema, content, plan.check_budget)

    return Asking.of(connection.spec, limits, RuleAnswerer(plan.rules), checking_with(validate))


def _unique(roots: tuple[Any, ...]) -> list[dict[str, str]]:
    seen: dict[str, dict[str, str]] = {}
    for root in roots:
        seen.setdefault(root["uri"], dict(root))
    return list(seen.values())


def writable(report: CallReport) -> CallReport:
    """`report`, or, when its result holds NaN or Infinity (the SDK's parser takes them; JSON has no way to
    write them), the same report without the result, `output_invalid`, saying so."""
    try:
        json.dumps(report.result, allow_nan=False)
    except ValueError:
        message = f"the result was not shown: {NOT_JSON}"
        # Everything else stays as it was (the rounds, what was asked, whether it went out).
        return replace(report, outcome=Outcome.OUTPUT_INVALID, result=None, output_errors=(), error=CallError(message))
    return report


def write_report(report: CallReport, stream: IO[str]) -> None:
    """The document, indented; ASCII-only, so no control or direction character reaches a terminal raw
    (and a lone surrogate a server sent cannot fail the encoding). `report` must be `writable`."""
    json.dump(report.to_json(), stream, indent=2, ensure_ascii=True, allow_nan=False)
    stream.write("\n")
    stream.flush()


# Output errors that say why nothing was checked (`core.calls.report`), never a JSON Schema keyword.
_NO_CHECK = frozenset({*map(str, Failure), "missing_structured_content"})


def _first_problem(problems: tuple[FieldProblem, ...]) -> str:
    first = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    keyword = f" [{first.keyword}]" if first.keyword else ""
    return f"{first.pointer or '(root)'}: {first.message}{keyword}{more}"


def _auth_step(report: CallReport) -> str | None:
    """The step of the authorization flow that stopped the walk or the call (its error's details), or None."""
    if report.outcome not in (Outcome.CATALOG_FAILED, Outcome.CONNECTION, Outcome.AUTH) or report.error is None:
        return None
    step = report.error.details.get("step")
    return step if isinstance(step, str) and step in AUTH_STEPS else None


def authorization_failed(report: CallReport) -> bool:
    """Whether the server's authorization stopped the walk or the call (the `call` command exits 5)."""
    return _auth_step(report) is not None


def summary_line(report: CallReport) -> str | None:
    """The one line on stderr that says why a call did not succeed (None when it did), untrusted text made visible."""
    if report.outcome is Outcome.OK:
        return None
    if report.outcome is Outcome.INVALID_ARGUMENTS and report.argument_errors:
        what = "nothing was sent: " + _first_problem(report.argument_errors)
    elif report.outcome is Outcome.OUTPUT_INVALID and report.output_errors:
        first = report.output_errors[0]
        if first.keyword in _NO_CHECK:
            what = f"the result was not checked against the output schema: {first.message} [{first.keyword}]"
        else:
            what = "the result breaks the output schema: " + _first_problem(report.output_errors)
    elif report.error is not None:
        named = report.error.named  # first: it stays when the line is cut
        what = f"{named.text}: {report.error.message}" if named is not None else report.error.message
    else:
        what = str(report.outcome).replace("_", " ")
    step = _auth_step(report)
    if step is not None:
        what = f"authorization failed ({step} step: {AUTH_STEPS[step]}): {what}"
    line = f"{report.outcome}: {visible(report.tool, 200)}: {visible(what, SUMMARY_LIMIT)}"
    said = last_words(report.error.details) if report.error is not None else ""
    if said:
        line += f"; {said}"
    return line


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `call`, `prompt` and `read` commands: one mcp-call-result/1 document on stdout whatever the server does."""
    command = args.command
    try:
        spec = spec_from(args)
        if args.out is not None and str(args.out) == "-":
            raise UsageError(f"{command} prints its result on stdout: give --out a file for the snapshot")
        plan = _plan_of(args)
        reports = report_options(args)
    except (UsageError, ArgumentsError, AnswersError, ValueError) as exc:  # ValueError: a --report option
        return usage(parser, command, str(exc))
    # The roots go on the entry itself: a server may ask for them before any call (right after the handshake).
    spec = replace(spec, roots=tuple(_unique((*spec.roots, *plan.rules.roots, *plan.roots))))
    limits = limits_of(args, spec)
    plan = replace(plan, timeout=args.call_timeout if args.call_timeout is not None else limits.request_timeout)
    use_oauth_hooks(args, MESSAGE_LIMIT, spec)
    snapshot, report = anyio.run(call_until_signalled, spec, limits, plan)
    report = writable(replace(report, method=plan.method))  # every document names what was asked, however it ended
    write_report(report, sys.stdout)
    line = summary_line(report)
    if line is not None:
        print(line, file=sys.stderr)
    if args.out is not None and (written := write_out(command, snapshot, args.out, args.bare)):
        return written
    code = EXIT_CODES["auth"] if authorization_failed(report) else report.outcome.exit_code
    if reports:
        made = call_report(command, snapshot, str(report.outcome), report.tool, code, line, args.out)
        return write_report_files(command, reports, [made]) or code
    return code


_METHODS = {"call": "tools/call", "prompt": "prompts/get", "read": "resources/read"}


def _plan_of(args: argparse.Namespace) -> CallPlan:
    """What the command line asks for (the timeout is filled in once the budgets are known)."""
    method = _METHODS[args.command]
    if method == "resources/read":
        target, arguments = args.uri, {}
    else:
        target = args.tool if method == "tools/call" else args.name
        arguments = load_arguments(args.call_args, args.args_file)
    if method == "prompts/get":
        wrong = sorted(key for key, value in arguments.items() if not isinstance(value, str))
        if wrong:
            raise ArgumentsError(f"a prompt's arguments are strings: {', '.join(visible(k, 60) for k in wrong[:5])}")
    rules = load_answers(args.answers) if args.answers is not None else AnswerRules()
    if args.decline_all:
        rules = replace(rules, decline_all=True)
    roots = []
    for uri in args.roots:
        if not uri.startswith("file://"):
            raise UsageError(f"--roots takes file:// URIs: {visible(uri, 200)!r}")
        roots.append({"uri": uri})
    return CallPlan(
        target,
        arguments,
        send_invalid=getattr(args, "send_invalid", False),
        send_excluded=getattr(args, "send_excluded", False),
        check_budget=getattr(args, "check_budget", CHECK_BUDGET),
        method=method,
        rules=rules,
        roots=tuple(roots),
        task=getattr(args, "task", False),
    )


def load_answers(path: Path) -> AnswerRules:
    """The answers file (`-` is stdin), read within `MAX_ARGUMENTS_BYTES`, strict JSON.

    Raises:
        AnswersError: unreadable, too large, not JSON, or not in the answers format; the message says which.
    """
    where = f"--answers {path}"
    try:
        data = (
            read_stream_bounded(sys.stdin.buffer, MAX_ARGUMENTS_BYTES, where, "answers")
            if str(path) == "-"
            else read_bounded(path, MAX_ARGUMENTS_BYTES, "answers", where)
        )
        value = parse_json(read_text(data, where), where)
    except OSError as exc:
        raise AnswersError(f"cannot read {where}: {exc.strerror or exc}") from exc
    except InputError as exc:
        raise AnswersError(str(exc)) from exc
    try:
        return parse_answers(value)
    except AnswersError as exc:
        raise AnswersError(f"{where}: {exc}") from exc


async def call_until_signalled(spec: ServerSpec, limits: Limits, plan: CallPlan) -> tuple[Snapshot, CallReport]:
    """`walk_and_call`, stopped by TERM, HUP or INT like a walk: the server goes at once, a document is still made."""
    worker = SessionWorker(spec, limits)
    task = TaskLog() if plan.task else None
    started = time.perf_counter()
    done, name = await until_signalled(lambda: walk_and_call(spec, limits, plan, worker, task), worker.faults.quit_soon)
    if done is not None:
        return done
    error = stopped(name, "the call")
    snapshot = worker.snapshot or failed_snapshot(error, source_of(spec), started)
    report = not_sent(plan.tool, plan.arguments, Outcome.CANCELLED, error.info.message)
    if task is not None and task.task_id is not None:  # the task was made (and tasks/cancel sent): say it
        report = replace(report, sent=True, task=task.record())
    return snapshot, report
