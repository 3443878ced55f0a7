"""The headless command line: the same engine as the app, for scripts and CI.

    mcp-catalog-inspector snapshot [OPTIONS] -- COMMAND [ARG...]
    mcp-catalog-inspector snapshot [OPTIONS] --url URL [--header 'K: V']... [--sse]
    mcp-catalog-inspector snapshot [OPTIONS] --server NAME [--config FILE]
    mcp-catalog-inspector diff OLD.json NEW.json [--json] [--fail-on breaking|warning|any]
    mcp-catalog-inspector check --baseline OLD.json [--fail-on LEVEL] [--json] [snapshot options and server]
    mcp-catalog-inspector call TOOL [--args JSON | --args-file FILE] [--send-invalid] [--call-timeout S]
                              [snapshot options and server]
    mcp-catalog-inspector signout (--url URL | --server NAME [--config FILE])

Exit codes: snapshot 0 complete, 2 usage error, 3 rejected, 4 failed, 5 the server's
authorization failed (kind `auth`); diff 0 nothing at or above `--fail-on` changed,
1 it did, 2 usage; check as diff, or 3/4/5 as snapshot when the walk itself was not
accepted; call 0 ok, 1 answered but wrong, 2 usage, 3 not sent, 4 no answer, 5 no
authorization (`core.call_result.Outcome`; the work is in `cli_call`); signout 0, 2
usage, 4 the keyring refused.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import anyio

from catalog_inspector.cli_call import (
    ArgumentsError,
    CallPlan,
    authorization_failed,
    load_arguments,
    walk_and_call,
    write_report,
)
from catalog_inspector.cli_call import summary_line as call_summary_line
from catalog_inspector.cli_oauth import add_oauth_options, use_oauth_hooks, with_oauth_flags
from catalog_inspector.core.call_result import CallReport, Outcome, not_sent
from catalog_inspector.core.config import (
    ConfigError,
    Limits,
    ServerSpec,
    check_header,
    limits_for,
    load_config,
)
from catalog_inspector.core.diff import ABSENT, CatalogDiff, Severity, diff_catalogs
from catalog_inspector.core.drift import catalog_items
from catalog_inspector.core.errors import (
    AUTH_STEPS,
    CatalogError,
    ErrorKind,
    auth_step,
    make_error,
    stderr_lines,
    transport_hint,
)
from catalog_inspector.core.files import write_text_safely
from catalog_inspector.core.lists import LIST_KINDS, LIST_NAMES, item_key
from catalog_inspector.core.oauth_store import forget
from catalog_inspector.core.paths import user_config_file
from catalog_inspector.core.redact import redacted_url
from catalog_inspector.core.snapshot import FORMAT, PageRecord, Snapshot, failed_snapshot, write_json
from catalog_inspector.core.text import visible
from catalog_inspector.core.walk import source_of
from catalog_inspector.core.worker import SessionWorker

__all__ = ["EXIT_CODES", "main"]

EXIT_CODES = {"complete": 0, "drift": 1, "usage": 2, "rejected": 3, "failed": 4, "auth": 5}
MESSAGE_LIMIT = 2000
VALUE_LIMIT = 160  # characters of an old or new value in the text report
FAIL_ON = {"any": Severity.INFO, "warning": Severity.WARNING, "breaking": Severity.BREAKING}


class UsageError(Exception):
    """Bad command-line input; exit code 2."""


def _positive(kind: type) -> Any:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from exc
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be greater than 0: {text!r}")
        return value

    return parse


def _add_walk_options(command: argparse.ArgumentParser, remainder: bool = True) -> None:
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
    # Unset flags fall back to the server entry's "budgets", then to these defaults (see `_limits`).
    defaults = Limits()
    command.add_argument("--max-pages", type=_positive(int), help=f"default {defaults.max_pages}")
    command.add_argument("--max-items", type=_positive(int), help=f"default {defaults.max_items}")
    command.add_argument("--max-page-bytes", type=_positive(int), help=f"default {defaults.max_page_bytes}")
    command.add_argument("--timeout", type=_positive(float), help=f"seconds per request (default {defaults.request_timeout:g})")
    command.add_argument("--deadline", type=_positive(float), help=f"seconds for everything (default {defaults.deadline:g})")
    command.add_argument("--out", type=Path, help="write the snapshot JSON here instead of stdout")
    add_oauth_options(command)
    if remainder:
        command.add_argument("stdio", nargs=argparse.REMAINDER, help="-- COMMAND [ARG...] for a stdio server")


def _with_oauth(spec: ServerSpec, args: argparse.Namespace) -> ServerSpec:
    try:
        return with_oauth_flags(spec, args)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def _add_fail_on(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--fail-on",
        choices=tuple(FAIL_ON),
        default="any",
        help="exit 1 when a change at or above this severity is found (default: any change)",
    )
    command.add_argument("--json", action="store_true", help="print the diff as JSON instead of text")


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
    _add_walk_options(snap)
    diff = commands.add_parser(
        "diff",
        help="compare two snapshot files",
        description="Print what changed between two mcp-catalog-snapshot/1 files, grouped by severity. "
        "Exit 0 when nothing at or above --fail-on changed, 1 when something did, 2 on usage errors.",
    )
    diff.add_argument("old", type=Path, metavar="OLD.json")
    diff.add_argument("new", type=Path, metavar="NEW.json")
    _add_fail_on(diff)
    check = commands.add_parser(
        "check",
        help="walk a live server and compare it with a baseline snapshot",
        description="Walk the server like `snapshot` and diff its catalog against --baseline. Exit 0 no drift "
        "at or above --fail-on, 1 drift, 2 usage, 3, 4 or 5 when the walk was rejected or failed (as snapshot). "
        "The diff goes to stdout; --out also writes the new snapshot.",
    )
    check.add_argument("--baseline", type=Path, required=True, metavar="OLD.json", help="the snapshot to compare with")
    _add_fail_on(check)
    _add_walk_options(check)
    call = commands.add_parser(
        "call",
        usage="%(prog)s TOOL [--args JSON | --args-file FILE] [--send-invalid] [--call-timeout S] [snapshot options]\n"
        "       (-- COMMAND [ARG...] | --url URL [--header 'K: V']... [--sse] | --server NAME [--config FILE])",
        help="walk a server's catalog, then make one test call and judge it",
        description="Walk the server like `snapshot`, check the arguments against the tool's input schema, "
        "call it unless they are invalid, and judge the result against the accepted output schema. Prints one "
        "mcp-call-result/1 JSON document. Exit 0 ok, 1 tool_error, jsonrpc_error or output_invalid, 2 usage, "
        "3 invalid_arguments or unknown_tool (not sent), 4 timeout, connection or catalog_failed, "
        "5 when the server's authorization stopped the walk or the call. "
        "--out also writes the walk's snapshot.",
    )
    call.add_argument("tool", metavar="TOOL", help="the name of the tool to call")
    given = call.add_mutually_exclusive_group()
    given.add_argument("--args", dest="call_args", metavar="JSON", help="the arguments, a JSON object (default: {})")
    given.add_argument("--args-file", type=Path, metavar="FILE", help="read the arguments from FILE (- is stdin)")
    call.add_argument("--send-invalid", action="store_true", help="send even arguments that break the input schema")
    call.add_argument(
        "--call-timeout", type=_positive(float), metavar="S", help="seconds to wait for the answer (default: --timeout)"
    )
    _add_walk_options(call, remainder=False)
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


def _spec_from(args: argparse.Namespace) -> ServerSpec:
    command = list(args.stdio)
    if command and command[0] == "--":
        command = command[1:]
    chosen = [bool(command), args.url is not None, args.server is not None]
    if sum(chosen) != 1:
        raise UsageError("give exactly one server: -- COMMAND [ARG...], --url URL, or --server NAME")
    if args.sse and args.url is None:
        raise UsageError("--sse goes with --url")
    if args.header and args.url is None:
        raise UsageError("--header goes with --url")
    if command:
        spec = ServerSpec(name=os.path.basename(command[0]), command=command[0], args=tuple(command[1:]))
        return _with_oauth(spec, args)
    if args.url is not None:
        if not args.url.startswith(("http://", "https://")):
            raise UsageError(f"--url must start with http:// or https://: {args.url!r}")
        headers: dict[str, str] = {}
        for header in args.header:
            key, sep, value = header.partition(":")
            if not sep or not key.strip():
                raise UsageError(f"--header must look like 'Name: value': {visible(key, 100)!r}")
            try:
                check_header(key.strip(), value.strip(), "--header")
            except ConfigError as exc:
                raise UsageError(str(exc)) from exc
            headers[key.strip()] = value.strip()
        name = redacted_url(args.url)  # the snapshot's source names it: no credentials in it
        spec = ServerSpec(name=name, transport="sse" if args.sse else "http", url=args.url, headers=headers)
        return _with_oauth(spec, args)
    return _with_oauth(_configured(args), args)


def _configured(args: argparse.Namespace) -> ServerSpec:
    """The server named by --server in the config file (--config, or the user's)."""
    path = args.config or user_config_file()
    try:
        loaded = load_config(path)
    except ConfigError as exc:
        raise UsageError(str(exc)) from exc
    if (spec := loaded.spec(args.server)) is not None:
        return spec  # a disabled entry too: naming it is asking for it
    if (problem := loaded.problem(args.server)) is not None:
        raise UsageError(problem.message)  # other entries' problems are not this command's business
    every = [s.name for s in loaded.specs] + [p.name for p in loaded.problems]
    names = ", ".join(visible(name, 200) for name in every) or "none"  # the config's names, shown on a terminal
    raise UsageError(f"no server named {visible(args.server, 200)!r} in {path} (servers: {names})")


def _write(snapshot: Snapshot, out: Path | None) -> None:
    """Stream the snapshot JSON to stdout (`-` too), or safely to `out` (see `write_text_safely`)."""
    if out is None or str(out) == "-":
        write_json(snapshot, sys.stdout)
        sys.stdout.flush()
        return
    write_text_safely(out, lambda handle: write_json(snapshot, handle))


def summary_line(snapshot: Snapshot) -> str | None:
    """The one line on stderr that says why a walk was not accepted, with the server's own last words."""
    error = snapshot.error
    if error is None:
        return None
    where = f" ({error.list_name}, page {error.page})" if error.page is not None else ""
    step = auth_step(error)
    if step is not None:
        where = f" ({step} step: {AUTH_STEPS[step]})"
    line = f"{snapshot.status}: {error.kind}{where}: {visible(error.message, MESSAGE_LIMIT)}"
    hint = transport_hint(error, app=False)
    if hint:
        line += f"; {hint}"
    said = stderr_lines(error.details)
    if said:
        line += "; the server's last stderr lines: " + " | ".join(said)
    return line


def load_snapshot(path: Path) -> Snapshot:
    """A snapshot file with a catalog to compare; a UsageError names the file and what is wrong with it."""
    try:
        with path.open(encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path} is not a snapshot: it is not valid JSON ({exc})") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise UsageError(f"{path} is not a snapshot: its format is {found!r}, not {FORMAT!r}")
    try:
        snapshot = Snapshot.from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise UsageError(f"{path} is not a snapshot: {type(exc).__name__}: {exc}") from exc
    if snapshot.status != "complete":
        kind = snapshot.error.kind if snapshot.error is not None else "?"
        raise UsageError(f"{path} is a {snapshot.status} snapshot ({kind}): it holds no catalog to compare")
    for name in LIST_NAMES:
        key = LIST_KINDS[name].key_field
        for position, item in enumerate(snapshot.lists[name].items):
            if not isinstance(item, dict) or not isinstance(item.get(key), str):
                raise UsageError(f"{path} is not a snapshot: {name} item {position} is not an object with a string {key!r}")
    return snapshot


def _value(value: Any) -> str:
    if value is ABSENT:
        return "(absent)"
    return visible(json.dumps(value, ensure_ascii=False), VALUE_LIMIT)


def diff_lines(diff: CatalogDiff) -> list[str]:
    """The text report: every change, grouped by severity (breaking first), then a summary line."""
    groups: dict[Severity, list[str]] = {severity: [] for severity in Severity}
    for list_name, changes in diff.lists.items():
        kind = LIST_KINDS[list_name]
        for item in changes.removed:
            groups[Severity.BREAKING].append(f"  {list_name}: {visible(item_key(list_name, item), 200)} removed")
        for change in changes.changed:
            for one in change.changes:
                where = f"{one.field} {one.pointer}" if one.pointer else one.field
                groups[one.severity].append(
                    f"  {list_name}: {visible(change.key, 200)}: {visible(where, 300)}: "
                    f"{_value(one.old)} → {_value(one.new)} ({visible(one.reason, 300)})"
                )
        for item in changes.added:
            groups[Severity.INFO].append(f"  {list_name}: {visible(item_key(list_name, item), 200)} added")
        for move in changes.moved:
            groups[Severity.INFO].append(
                f"  {list_name}: {visible(move.key, 200)} moved from place {move.old_index} to {move.new_index}"
                f" among the {kind.plural} both have"
            )
    lines: list[str] = []
    for severity in Severity:
        if groups[severity]:
            lines.append(f"{severity.value} ({len(groups[severity])}):")
            lines.extend(groups[severity])
    counts = diff.counts()
    if diff.empty:
        lines.append("No changes.")
    else:
        lines.append("Summary: " + ", ".join(f"{counts.get(s, 0)} {s.value}" for s in Severity))
    return lines


def _report(diff: CatalogDiff, as_json: bool, fail_on: str) -> int:
    if as_json:
        json.dump(diff.to_json(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write("\n".join(diff_lines(diff)) + "\n")
    sys.stdout.flush()
    worst = diff.worst()
    failed = worst is not None and worst.rank >= FAIL_ON[fail_on].rank
    return EXIT_CODES["drift"] if failed else EXIT_CODES["complete"]


def _usage(parser: argparse.ArgumentParser, command: str, message: str) -> int:
    parser.print_usage(sys.stderr)
    print(f"mcp-catalog-inspector {command}: error: {message}", file=sys.stderr)
    return EXIT_CODES["usage"]


def _limits(args: argparse.Namespace, spec: ServerSpec) -> Limits:
    """The flags given, else the server entry's budgets, else the defaults."""
    given = {
        "max_pages": args.max_pages,
        "max_items": args.max_items,
        "max_page_bytes": args.max_page_bytes,
        "request_timeout": args.timeout,
        "deadline": args.deadline,
    }
    base = limits_for(spec, Limits())
    return replace(base, **{name: value for name, value in given.items() if value is not None})


def _write_out(command: str, snapshot: Snapshot, out: Path | None) -> bool:
    try:
        _write(snapshot, out)
    except OSError as exc:
        print(f"mcp-catalog-inspector {command}: cannot write {out}: {exc}", file=sys.stderr)
        return False
    return True


def _call(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `call` command: one mcp-call-result/1 document on stdout whatever the server does."""
    try:
        spec = _spec_from(args)
        if args.out is not None and str(args.out) == "-":
            raise UsageError("call prints its result on stdout: give --out a file for the snapshot")
        arguments = load_arguments(args.call_args, args.args_file)
    except (UsageError, ArgumentsError) as exc:
        return _usage(parser, "call", str(exc))
    limits = _limits(args, spec)
    timeout = args.call_timeout if args.call_timeout is not None else limits.request_timeout
    plan = CallPlan(args.tool, arguments, send_invalid=args.send_invalid, timeout=timeout)
    use_oauth_hooks(args, MESSAGE_LIMIT)
    snapshot, report = anyio.run(call_until_signalled, spec, limits, plan)
    write_report(report, sys.stdout)
    line = call_summary_line(report)
    if line is not None:
        print(line, file=sys.stderr)
    if args.out is not None and not _write_out("call", snapshot, args.out):
        return EXIT_CODES["usage"]
    return EXIT_CODES["auth"] if authorization_failed(report) else report.outcome.exit_code


def _exit_code(snapshot: Snapshot) -> int:
    if snapshot.error is not None and snapshot.error.kind is ErrorKind.AUTH:
        return EXIT_CODES["auth"]
    return EXIT_CODES[snapshot.status]


def _signout(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `signout` command: forget what the keyring keeps for one server."""
    try:
        if args.url is not None:
            if not args.url.startswith(("http://", "https://")):
                raise UsageError(f"--url must start with http:// or https://: {args.url!r}")
            url = args.url
        else:
            spec = _configured(args)
            if spec.transport == "stdio":
                raise UsageError(f"{visible(spec.name, 200)!r} is a stdio server: there is no sign-in to forget")
            url = spec.url
    except UsageError as exc:
        return _usage(parser, "signout", str(exc))
    import keyring.errors

    shown = redacted_url(url)
    try:
        found = forget(url)
    except keyring.errors.KeyringError as exc:
        print(f"mcp-catalog-inspector signout: the keyring refused: {visible(str(exc), 300)}", file=sys.stderr)
        return EXIT_CODES["failed"]
    print(f"signed out of {shown}" if found else f"no sign-in was kept for {shown}", file=sys.stderr)
    return EXIT_CODES["complete"]


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
T = TypeVar("T")


async def until_signalled(work: Callable[[], Awaitable[T]], on_signal: Callable[[], None]) -> tuple[T | None, str]:
    """Run `work`; TERM, HUP or INT call `on_signal` and cancel it. Returns its result and "", or None
    and the signal's name. No signal is missed while `work` runs: the receiver is open first."""
    stopped_by: list[str] = []
    result: list[T] = []
    async with anyio.create_task_group() as group:

        async def watch() -> None:
            with anyio.open_signal_receiver(*STOP_SIGNALS) as signals:
                async for signum in signals:
                    stopped_by.append(signal.Signals(signum).name)
                    on_signal()
                    group.cancel_scope.cancel()
                    return

        async def run() -> None:
            result.append(await work())
            group.cancel_scope.cancel()

        group.start_soon(watch)
        group.start_soon(run)
    return (result[0], "") if result else (None, stopped_by[0] if stopped_by else "a signal")


def _stopped(name: str, what: str) -> CatalogError:
    return make_error(ErrorKind.CANCELLED, f"stopped by {name} before {what} finished")


async def walk_until_signalled(spec: ServerSpec, limits: Limits) -> Snapshot:
    """One walk, as `SessionWorker.walk_once`; TERM, HUP or INT stop it: the server's process group is
    killed without a grace period and the snapshot says `failed`, kind `cancelled`, with the pages reached."""
    pages: dict[str, list[PageRecord]] = {}
    worker = SessionWorker(spec, limits, on_page=lambda name, page: pages.setdefault(name, []).append(page))
    started = time.perf_counter()
    # No grace period on a signal: whoever sent it is waiting for us.
    snapshot, name = await until_signalled(worker.walk_once, worker.faults.quit_soon)
    if snapshot is not None:
        return snapshot
    return failed_snapshot(_stopped(name, "the walk"), source_of(spec), started, pages=pages)


async def call_until_signalled(spec: ServerSpec, limits: Limits, plan: CallPlan) -> tuple[Snapshot, CallReport]:
    """`walk_and_call`, stopped by TERM, HUP or INT like a walk: the server goes at once, a document is still made."""
    worker = SessionWorker(spec, limits)
    started = time.perf_counter()
    done, name = await until_signalled(lambda: walk_and_call(spec, limits, plan, worker), worker.faults.quit_soon)
    if done is not None:
        return done
    error = _stopped(name, "the call")
    snapshot = worker.snapshot or failed_snapshot(error, source_of(spec), started)
    return snapshot, not_sent(plan.tool, plan.arguments, Outcome.CONNECTION, error.info.message)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    server_command: list[str] = []
    if argv[:1] == ["call"] and "--" in argv:  # see _add_walk_options: `call` splits its `-- COMMAND` off here
        cut = argv.index("--")
        argv, server_command = argv[:cut], argv[cut + 1 :]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse's own usage errors exit 2 already; keep --help at 0
        return int(exc.code or 0)
    if args.command == "call":
        args.stdio = server_command
        return _call(parser, args)
    if args.command == "signout":
        return _signout(parser, args)
    if args.command == "diff":
        try:
            old, new = load_snapshot(args.old), load_snapshot(args.new)
        except UsageError as exc:
            return _usage(parser, "diff", str(exc))
        return _report(diff_catalogs(catalog_items(old), catalog_items(new)), args.json, args.fail_on)
    try:
        spec = _spec_from(args)
        baseline = load_snapshot(args.baseline) if args.command == "check" else None
        if baseline is not None and args.out is not None and str(args.out) == "-":
            raise UsageError("check prints the diff on stdout: give --out a file for the snapshot")
    except UsageError as exc:
        return _usage(parser, args.command, str(exc))
    use_oauth_hooks(args, MESSAGE_LIMIT)
    snapshot = anyio.run(walk_until_signalled, spec, _limits(args, spec))
    if (args.command == "snapshot" or args.out is not None) and not _write_out(args.command, snapshot, args.out):
        return EXIT_CODES["usage"]
    line = summary_line(snapshot)
    if line is not None:
        print(line, file=sys.stderr)
    if baseline is None or snapshot.status != "complete":
        return _exit_code(snapshot)
    return _report(diff_catalogs(catalog_items(baseline), catalog_items(snapshot)), args.json, args.fail_on)
