"""The command line's grammar: every command, its options and its help (also the app's `--help`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from catalog_inspector.cli.common import CHECK_BUDGET, FAIL_ON
from catalog_inspector.cli.oauth import add_oauth_options
from catalog_inspector.cli.profile import add_client_options
from catalog_inspector.core.config import (
    LOG_LEVELS,
    PROTOCOL_ERAS,
    Limits,
)
from catalog_inspector.core.paths import user_config_file


def positive(kind: type) -> Any:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from exc
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be greater than 0: {text!r}")
        return value

    return parse


def add_walk_options(command: argparse.ArgumentParser, remainder: bool = True, out: bool = True) -> None:
    """The server selection and the budgets, shared by `snapshot`, `check` and `call`.

    `remainder`: `-- COMMAND [ARG...]` is an argparse REMAINDER. A command with a
    positional of its own (`call TOOL`) cannot have one (argparse would hand the
    REMAINDER every option after the positional), so `main` splits that off itself.
    """
    target = command.add_mutually_exclusive_group()
    target.add_argument("--url", help="a Streamable HTTP (or, with --sse, legacy SSE) endpoint")
    target.add_argument("--server", metavar="NAME", help="a server from the config file")
    command.add_argument("--sse", action="store_true", help="the --url speaks the legacy SSE transport")
    command.add_argument("--header", action="append", default=[], metavar="'K: V'", help="HTTP header (repeatable)")
    command.add_argument("--config", type=Path, help=f"the mcpServers JSON file (default: {user_config_file()})")
    # Unset flags fall back to the server entry's "budgets", then to these defaults (see `limits_of`).
    defaults = Limits()
    command.add_argument("--max-pages", type=positive(int), help=f"default {defaults.max_pages}")
    command.add_argument("--max-items", type=positive(int), help=f"default {defaults.max_items}")
    command.add_argument("--max-page-bytes", type=positive(int), help=f"default {defaults.max_page_bytes}")
    command.add_argument(
        "--timeout", type=positive(float), help=f"seconds per request (default {defaults.request_timeout:g})"
    )
    command.add_argument(
        "--deadline", type=positive(float), help=f"seconds for everything (default {defaults.deadline:g})"
    )
    if out:
        command.add_argument("--out", type=Path, help="write the snapshot JSON here instead of stdout")
        command.add_argument(
            "--bare",
            action="store_true",
            help="write the walk alone: `tokens` and `lint` null, not computed (the fastest capture of a huge "
            "catalog: counting and linting 10,000 tools takes about half a second more)",
        )
    command.add_argument(
        "--protocol-era",
        choices=PROTOCOL_ERAS,
        help='auto: discover (2026-07-28), else initialize (the default, or the entry\'s "protocolEra"); '
        "legacy: initialize only; modern: 2026-07-28 discovery only",
    )
    command.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        help="the least severe log message (notifications/message) asked of the server (default info, or the "
        "entry's \"logLevel\"): in each request's _meta on 2026-07-28, by logging/setLevel before",
    )
    add_oauth_options(command)
    add_client_options(command)
    if remainder:
        command.add_argument("stdio", nargs=argparse.REMAINDER, help="-- COMMAND [ARG...] for a stdio server")


def add_fail_on(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--fail-on",
        choices=tuple(FAIL_ON),
        default="any",
        help="exit 1 when a change at or above this severity is found (default: any change)",
    )
    command.add_argument("--json", action="store_true", help="print the diff as JSON instead of text")


def add_token_budgets(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--max-tokens",
        type=positive(int),
        metavar="N",
        help="exit 1 when the tools cost more than N tokens (o200k_base, as a host sends them to a model)",
    )
    command.add_argument(
        "--max-token-growth",
        type=float,
        metavar="PERCENT",
        help="exit 1 when the tools cost more than PERCENT percent more tokens than the baseline's",
    )


def add_report_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--report",
        action="append",
        default=[],
        metavar="FORMAT=FILE",
        help="also write a report for CI: junit, markdown (a pull-request comment) or sarif (2.1.0); FILE - is "
        "stdout (repeatable)",
    )


def add_asking_options(command: argparse.ArgumentParser) -> None:
    """How the server's questions are answered (elicitation, sampling, roots), shared by `call`, `prompt`, `read`."""
    answers = command.add_mutually_exclusive_group()
    answers.add_argument(
        "--answers", type=Path, metavar="FILE", help="answer the server's questions by the rules in FILE (JSON)"
    )
    answers.add_argument(
        "--decline-all", action="store_true", help="decline every elicitation and reject every sampling request"
    )
    command.add_argument(
        "--max-rounds",
        type=positive(int),
        metavar="N",
        help=f"rounds of input_required answered before giving up (default {Limits().max_rounds})",
    )
    command.add_argument(
        "--roots", nargs="+", action="extend", default=[], metavar="URI", help="file:// roots to give (repeatable)"
    )


def _arguments_options(command: argparse.ArgumentParser, what: str) -> None:
    given = command.add_mutually_exclusive_group()
    given.add_argument("--args", dest="call_args", metavar="JSON", help=f"the arguments, {what}")
    given.add_argument("--args-file", type=Path, metavar="FILE", help="read the arguments from FILE (- is stdin)")


def _target_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--call-timeout", type=positive(float), metavar="S", help="seconds to wait for each answer (default: --timeout)"
    )
    add_asking_options(command)
    add_report_option(command)
    add_walk_options(command, remainder=False)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcp-catalog-inspector",
        # The top-level help is also the app's (`main` routes -h/--help here): its options first, then the commands.
        usage="%(prog)s [--config FILE | --self-test]\n       %(prog)s COMMAND [OPTIONS]",
        description="Inspect MCP server catalogs. Without a command, opens the desktop app.\n\n"
        "app options:\n"
        "  --config FILE  an mcpServers JSON file to use instead of the user's\n"
        "  --self-test    offscreen in a throwaway home: walk a demo server, make a test call, exit 0 if all passed",
        epilog="Each command lists its own options: %(prog)s COMMAND --help",
        formatter_class=lambda prog: argparse.RawDescriptionHelpFormatter(prog, max_help_position=14),
    )
    commands = parser.add_subparsers(dest="command", required=True, prog="mcp-catalog-inspector")  # not the usage above
    snap = commands.add_parser(
        "snapshot",
        help="walk a server's catalog and write its snapshot JSON",
        description="Walk every paginated list of one server under budgets and write the snapshot JSON "
        "(whether the walk succeeded or not). Exit 0 complete, 2 usage, 3 rejected, 4 failed, "
        "5 the server's authorization (OAuth sign-in) failed.",
    )
    add_walk_options(snap)
    diff = commands.add_parser(
        "diff",
        help="compare two snapshot files",
        description="Print what changed between two mcp-catalog-snapshot/1 files, grouped by severity. "
        "Exit 0 when nothing at or above --fail-on changed, 1 when something did, 2 on usage errors.",
    )
    diff.add_argument("old", type=Path, metavar="OLD.json")
    diff.add_argument("new", type=Path, metavar="NEW.json")
    add_fail_on(diff)
    add_report_option(diff)
    approve = commands.add_parser(
        "approve",
        help="walk a server and write its catalog's lockfile (pins)",
        description="Walk the server like `snapshot` and pin every item of every list (tools, prompts, resources, "
        "resource templates: each one's digest, its fields' and its body's) in a lockfile a person can commit. "
        "An item an existing lockfile at --out approved unchanged keeps its approval time. A walk that was not "
        "accepted, or a list that was not walked whole, writes nothing. Exit 0 written, 2 usage, 3, 4 or 5 as "
        "snapshot.",
    )
    approve.add_argument(
        "--out", type=Path, default=Path("mcp-catalog.lock.json"), help="the lockfile (default mcp-catalog.lock.json)"
    )
    add_walk_options(approve, out=False)
    check = commands.add_parser(
        "check",
        help="walk a live server and judge it: drift, pins, lint, tokens",
        description="Walk the server like `snapshot` and judge its catalog: the diff against --baseline, the items "
        "against a --pins lockfile, the --lint, the token budgets (at least one of them). Exit 0 all passed "
        "(no drift at or above --fail-on), 1 drift, a pin differs, lint at or above its level or a token budget broken, "
        "2 usage, 3, 4 or 5 when the walk was rejected or failed (as snapshot). "
        "The diff goes to stdout; --out also writes the new snapshot.",
    )
    check.add_argument("--baseline", type=Path, metavar="OLD.json", help="the snapshot to compare with")
    check.add_argument(
        "--pins",
        type=Path,
        metavar="LOCKFILE",
        help="exit 1 when any item differs from this lockfile (written by `approve`)",
    )
    check.add_argument(
        "--lint",
        nargs="?",
        const="error",
        choices=("error", "warning", "info"),
        metavar="LEVEL",
        help="lint the tools as strict hosts would; exit 1 on an issue at or above LEVEL (default error; "
        "warning, info)",
    )
    add_fail_on(check)
    add_token_budgets(check)
    add_report_option(check)
    add_walk_options(check)
    call = commands.add_parser(
        "call",
        usage="%(prog)s TOOL [--args JSON | --args-file FILE] [--send-invalid] [--call-timeout S] [--check-budget S]\n"
        "       [--task] [--task-deadline S]\n"
        "       [--answers FILE | --decline-all] [--max-rounds N] [--roots URI...] [--protocol-era ERA]\n"
        "       [snapshot options]\n"
        "       (-- COMMAND [ARG...] | --url URL [--header 'K: V']... [--sse] | --server NAME [--config FILE])",
        help="walk a server's catalog, then make one test call and judge it",
        description="Walk the server like `snapshot`, check the arguments against the tool's input schema, "
        "call it unless they are invalid, and judge the result against the accepted output schema. Prints one "
        "mcp-call-result/1 JSON document. Exit 0 ok, 1 tool_error, jsonrpc_error or output_invalid, 2 usage, "
        "3 invalid_arguments, unknown_tool, excluded_tool (not sent) or input_invalid, 4 timeout, connection or catalog_failed, "
        "5 when the server's authorization stopped the walk or the call. "
        "6 input_unanswered or rounds_exceeded (the server's questions; see --answers). "
        "4 task_cancelled (run as a task, the server cancelled it). "
        "--out also writes the walk's snapshot.",
    )
    call.add_argument("tool", metavar="TOOL", help="the name of the tool to call")
    _arguments_options(call, "a JSON object (default: {})")
    call.add_argument("--send-invalid", action="store_true", help="send even arguments that break the input schema")
    call.add_argument(
        "--send-excluded",
        action="store_true",
        help="call even a tool conforming 2026-07-28 clients exclude (an invalid x-mcp-header annotation)",
    )
    call.add_argument(
        "--task",
        action="store_true",
        help="run the call as a task (2025-11-25: params.task; 2026-07-28: the io.modelcontextprotocol/tasks "
        "extension declared on this request, the server decides) and follow it with tasks/get to its end; the "
        "document's `task` says its id and every status. A tool whose execution.taskSupport is required runs as a "
        "task without --task, as a conforming client must (the document's task.note says so)",
    )
    call.add_argument(
        "--task-deadline",
        type=positive(float),
        metavar="S",
        help=f"seconds a task may take to end before tasks/cancel is sent and the call is a timeout "
        f"(default {Limits().task_deadline:g}, the entry's budgets.taskDeadline)",
    )
    call.add_argument(
        "--check-budget",
        type=positive(float),
        default=CHECK_BUDGET,
        metavar="S",
        help="seconds each schema check (the arguments, the result) may take before it is stopped and "
        f"reported over_budget (default {CHECK_BUDGET:g})",
    )
    _target_options(call)
    prompt = commands.add_parser(
        "prompt",
        usage="%(prog)s NAME [--args JSON | --args-file FILE] [--answers FILE | --decline-all] [--max-rounds N]\n"
        "       [--roots URI...] [snapshot options] (-- COMMAND [ARG...] | --url URL ... | --server NAME ...)",
        help="walk a server's catalog, then get one prompt",
        description="Walk the server like `snapshot`, then send prompts/get for NAME with its arguments (a JSON "
        "object of strings) on the same session. Prints one mcp-call-result/1 document (`prompt` names it). "
        "Outcomes and exit codes as `call`.",
    )
    prompt.add_argument("name", metavar="NAME", help="the prompt's name")
    _arguments_options(prompt, "a JSON object of strings (default: {})")
    _target_options(prompt)
    read = commands.add_parser(
        "read",
        usage="%(prog)s URI [--answers FILE | --decline-all] [--max-rounds N] [--roots URI...]\n"
        "       [snapshot options] (-- COMMAND [ARG...] | --url URL ... | --server NAME ...)",
        help="walk a server's catalog, then read one resource",
        description="Walk the server like `snapshot`, then send resources/read for URI on the same session. "
        "Prints one mcp-call-result/1 document (`uri` names it). Outcomes and exit codes as `call`.",
    )
    read.add_argument("uri", metavar="URI", help="the resource's URI (a template's expansion too)")
    _target_options(read)
    completion = commands.add_parser(
        "complete",
        usage="%(prog)s (--prompt NAME | --template URI_TEMPLATE) ARGUMENT PREFIX [--context JSON]\n"
        "       [snapshot options] (-- COMMAND [ARG...] | --url URL ... | --server NAME ...)",
        help="walk a server's catalog, then ask it to complete one argument",
        description="Walk the server like `snapshot`, then send completion/complete for ARGUMENT of the prompt "
        "NAME or of the resource template URI_TEMPLATE, with PREFIX typed and --context the other arguments. "
        'Prints {"values": [...], "total": N, "has_more": false} (at most 100 values; `error` too when there are '
        "none). Exit 0 answered, 2 usage, 4 the walk or the request failed (or the server declares no "
        "completions), 5 when the server's authorization stopped the walk.",
    )
    which = completion.add_mutually_exclusive_group(required=True)
    which.add_argument("--prompt", metavar="NAME", help="complete an argument of this prompt")
    which.add_argument("--template", metavar="URI_TEMPLATE", help="complete a variable of this resource template")
    completion.add_argument("argument", metavar="ARGUMENT", help="the argument's (or variable's) name")
    completion.add_argument("prefix", metavar="PREFIX", help="what is typed so far ('' for nothing)")
    completion.add_argument(
        "--context", metavar="JSON", help="the other arguments already filled in: a JSON object of strings"
    )
    add_walk_options(completion, remainder=False)
    _add_sweep(commands)
    signout = commands.add_parser(
        "signout",
        help="forget the sign-in kept for an HTTP server",
        description="Forget the tokens and the client registration kept in the keyring for one server "
        "(the sign-in of an earlier snapshot, check or call). Exit 0 (also when nothing was kept), "
        "2 usage, 4 the keyring refused.",
    )
    target = signout.add_mutually_exclusive_group(required=True)
    target.add_argument("--url", help="the server's URL, as given to --url")
    target.add_argument("--server", metavar="NAME", help="a server from the config file")
    signout.add_argument("--config", type=Path, help=f"the mcpServers JSON file (default: {user_config_file()})")
    return parser


def _add_sweep(commands: Any) -> None:
    sweep = commands.add_parser(
        "sweep",
        help="walk every server of a config at once and judge each (one table)",
        description="Walk every server of --config (any shape the app imports: mcpServers, VS Code, "
        "~/.claude.json), or each --server named, at most --parallel at a time, each under its own budgets and "
        "deadline. Keeps each accepted catalog in the server's history as the app does; reports the drift since "
        "the last catalog kept, the app's approval pins, the lint and the tokens. Exit: the worst server's code "
        "(5 authorization, 4 failed, 3 rejected, 2 a broken entry, 1 drift at or above --fail-on, a pin differs, "
        "lint at or above --lint, or --max-tokens broken; 0 all clean).",
    )
    sweep.add_argument("--config", type=Path, help=f"the servers' JSON file (default: {user_config_file()})")
    sweep.add_argument("--server", action="append", default=[], metavar="NAME", help="only this server (repeatable)")
    sweep.add_argument("--parallel", type=positive(int), default=4, metavar="N", help="walks at once (default 4)")
    sweep.add_argument(
        "--history", type=Path, metavar="DIR", help="where each server's history is kept (default: the app's)"
    )
    sweep.add_argument(
        "--lint",
        nargs="?",
        const="error",
        choices=("error", "warning", "info"),
        metavar="LEVEL",
        help="exit 1 on a lint issue at or above LEVEL (default error); without it, lint is only counted",
    )
    sweep.add_argument("--max-tokens", type=positive(int), metavar="N", help="exit 1 for a server over N tokens")
    sweep.add_argument("--timeout", type=positive(float), help="seconds per request (default: each entry's budgets)")
    sweep.add_argument("--deadline", type=positive(float), help="seconds for each walk (default: each entry's)")
    sweep.set_defaults(max_pages=None, max_items=None, max_page_bytes=None)
    add_fail_on(sweep)
    add_report_option(sweep)
    add_oauth_options(sweep)
