"""`sweep`: walk every server of a config at once (bounded), judge each, print one table, exit with the worst.

Each server is walked as `snapshot` walks one, under its own budgets and deadline, at
most `--parallel` at a time. A server that hangs is stopped by its own deadline (and a
grace period after it, should its process ignore the first stop); one that crashes
ends its own walk: neither delays the others past their own deadline.

What the app does with a walk, the sweep does too, in the same places (`--history`:
the app's own by default): an accepted catalog is kept in the server's history; the
drift is against the last catalog kept (the app's or an earlier sweep's); the pins are
the server's approval (made in the app, or imported there from `approve`'s lockfile).

Exit code: the worst of the servers' own, by number (5 authorization, 4 failed,
3 rejected, 1 drift at or above --fail-on, a pin differs, lint at or above --lint,
or a token budget broken; 0 all clean). A server skipped because its entry is broken
counts as a usage error (2).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import anyio

from catalog_inspector.cli.common import EXIT_CODES, MESSAGE_LIMIT, UsageError, limits_of, usage
from catalog_inspector.cli.oauth import use_oauth_hooks
from catalog_inspector.cli.report_of import report_options, server_report, write_report_files
from catalog_inspector.cli.snapshot import error_line, exit_code
from catalog_inspector.cli.tokens import budget_failures, token_delta
from catalog_inspector.cli.verdict import Verdict
from catalog_inspector.core.calls import catalog_lint, lint_counts
from catalog_inspector.core.catalog import Snapshot, count_snapshot, failed_snapshot, preload, source_of
from catalog_inspector.core.config import ConfigError, ServerSpec, load_config
from catalog_inspector.core.drift import History, Severity, check_pins, diff_snapshots, load_pins
from catalog_inspector.core.errors import ErrorKind, make_error
from catalog_inspector.core.paths import history_dir, user_config_file
from catalog_inspector.core.session import SessionWorker
from catalog_inspector.core.text import visible

__all__ = ["run"]

GRACE = 10.0  # seconds past a server's own deadline before its walk is abandoned as a timeout
NAME_WIDTH = 32


@dataclass
class Swept:
    """One server of the sweep: its walk and every check of it (None until walked; `problem`: never walked)."""

    name: str
    spec: ServerSpec | None = None
    problem: str | None = None
    snapshot: Snapshot | None = None
    verdict: Verdict | None = None
    seconds: float = 0.0
    code: int = 0
    notes: list[str] = field(default_factory=list)


def _chosen(args: argparse.Namespace) -> list[Swept]:
    path = args.config or user_config_file()
    try:
        loaded = load_config(path)
    except ConfigError as exc:
        raise UsageError(str(exc)) from exc
    every = {spec.name: spec for spec in loaded.specs}
    problems = {problem.name: problem.message for problem in loaded.problems}
    if not args.server:
        # Disabled entries stay out of a sweep of everything, as the app does not walk them by itself.
        found = [Swept(spec.name, spec) for spec in loaded.specs if not spec.disabled]
        found.extend(Swept(name, problem=message) for name, message in problems.items())
        if not found:
            raise UsageError(f"no servers in {path}")
        return found
    chosen = []
    for name in args.server:
        if name in every:
            chosen.append(Swept(name, every[name]))
        elif name in problems:
            chosen.append(Swept(name, problem=problems[name]))
        else:
            raise UsageError(f"no server named {visible(name, 200)!r} in {path}")
    return chosen


async def _walk(one: Swept, args: argparse.Namespace, limiter: anyio.CapacityLimiter) -> None:
    assert one.spec is not None
    spec = one.spec
    limits = limits_of(args, spec)
    async with limiter:
        started = time.perf_counter()
        snapshot = None
        with anyio.move_on_after(limits.deadline + GRACE):
            snapshot = await SessionWorker(spec, limits).walk_once()
        if snapshot is None:
            words = f"the walk did not end within its deadline of {limits.deadline:g} s and {GRACE:g} s more"
            snapshot = failed_snapshot(make_error(ErrorKind.TIMEOUT, words), source_of(spec), started)
        one.snapshot, one.seconds = snapshot, time.perf_counter() - started


def _judge(one: Swept, args: argparse.Namespace, history: History) -> None:
    """The app's bookkeeping and every check, for one walked server (on a worker thread)."""
    assert one.spec is not None and one.snapshot is not None
    snapshot = one.snapshot
    one.code = exit_code(snapshot)
    if snapshot.status != "complete":
        return
    latest = history.latest(one.spec)
    previous = latest[1] if latest is not None and latest[1].status == "complete" else None
    verdict = Verdict(snapshot)
    if previous is not None:
        verdict.diff = diff_snapshots(previous, snapshot)
        verdict.tokens = token_delta(previous, snapshot)
    verdict.count = verdict.tokens.new if verdict.tokens is not None else count_snapshot(snapshot)
    verdict.budgets = budget_failures(args, verdict.count, None)  # growth is check's: a sweep sets no baseline
    pins = load_pins(history.directory(one.spec))
    if pins is not None:
        verdict.pins = check_pins(pins, snapshot)
    verdict.lint, verdict.lint_level = catalog_lint(snapshot), args.lint or ""  # "": counted, not binding
    one.verdict = verdict
    try:
        history.save(one.spec, snapshot)
    except OSError as exc:
        one.notes.append(f"its history was not saved: {exc.strerror or exc}")
    if not snapshot.partial and verdict.failed(args.fail_on):  # lint binds only with --lint (level "" else)
        one.code = EXIT_CODES["drift"]


async def _sweep(chosen: list[Swept], args: argparse.Namespace, history: History) -> None:
    limiter = anyio.CapacityLimiter(args.parallel)

    async def one(entry: Swept) -> None:
        await _walk(entry, args, limiter)
        # Pure Python (a diff, the lint): on a thread, so that the other walks' timers keep their time.
        await anyio.to_thread.run_sync(_judge, entry, args, history)

    async with anyio.create_task_group() as group:
        for entry in chosen:
            if entry.spec is not None:
                group.start_soon(one, entry)


def _drift_cell(verdict: Verdict | None) -> str:
    if verdict is None or verdict.diff is None:
        return "first walk" if verdict is not None else "-"
    counts = verdict.diff.counts()
    return "/".join(str(counts.get(severity, 0)) for severity in Severity)


def _row(one: Swept) -> dict[str, Any]:
    """The server's line of the table, as JSON."""
    snapshot, verdict = one.snapshot, one.verdict
    row: dict[str, Any] = {"server": one.name, "exit_code": one.code, "seconds": round(one.seconds, 3)}
    if one.problem is not None:
        return {**row, "status": "skipped", "error": one.problem}
    assert snapshot is not None
    row["status"] = "partial" if snapshot.partial else snapshot.status
    row["error"] = error_line(snapshot.status, snapshot.error) if snapshot.error is not None else None
    row["tools"] = len(snapshot.tools.items) if snapshot.status == "complete" else None
    if verdict is not None:
        row["tokens"] = verdict.count.total if verdict.count is not None else None
        counts = verdict.diff.counts() if verdict.diff is not None else None
        row["drift"] = {str(s): counts.get(s, 0) for s in Severity} if counts is not None else None
        row["pins"] = None if verdict.pins is None else ("clean" if verdict.pins.clean else len(verdict.pins.diffs))
        row["lint"] = lint_counts(verdict.lint or [])
    if one.notes:
        row["notes"] = list(one.notes)
    return row


def _table(swept: list[Swept]) -> list[str]:
    header = f"{'server':<{NAME_WIDTH}} {'status':<9} {'tools':>7} {'tokens':>9}  {'drift b/w/i':<11} {'pins':<10} lint e/w/i"
    lines = [header]
    for one in swept:
        row = _row(one)
        name = visible(one.name, NAME_WIDTH)
        name = name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"
        tools = f"{row['tools']:,}" if row.get("tools") is not None else "-"
        tokens = f"{row['tokens']:,}" if row.get("tokens") is not None else "-"
        pins = row.get("pins")
        pins_cell = "-" if pins is None else "ok" if pins == "clean" else f"{pins} differ"
        lint = row.get("lint")
        lint_cell = "/".join(str(lint[level]) for level in ("error", "warning", "info")) if lint else "-"
        lines.append(
            f"{name:<{NAME_WIDTH}} {row['status']:<9} {tools:>7} {tokens:>9}  {_drift_cell(one.verdict):<11} "
            f"{pins_cell:<10} {lint_cell}"
        )
    for one in swept:
        row = _row(one)
        if row.get("error"):
            lines.append(f"{visible(one.name, 200)}: {visible(str(row['error']), MESSAGE_LIMIT)}")
        for note in one.notes:
            lines.append(f"{visible(one.name, 200)}: {note}")
    return lines


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `sweep` command: the table (or `--json`) on stdout; the worst server's exit code."""
    started = time.monotonic()
    try:
        chosen = _chosen(args)
        reports = report_options(args)
    except (UsageError, ValueError) as exc:
        return usage(parser, "sweep", str(exc))
    history = History(args.history or history_dir())
    use_oauth_hooks(args, MESSAGE_LIMIT)
    preload()
    anyio.run(_sweep, chosen, args, history)
    for one in chosen:
        if one.problem is not None:
            one.code = EXIT_CODES["usage"]
    if args.json:
        document = {"servers": [_row(one) for one in chosen], "seconds": round(time.monotonic() - started, 3)}
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write("".join(line + "\n" for line in _table(chosen)))
    sys.stdout.flush()
    if reports:
        made = [
            server_report(
                one.verdict, one.snapshot, "sweep", args.fail_on, None, one.seconds, args.max_tokens is not None
            )
            for one in chosen
            if one.snapshot is not None
        ]
        if failed := write_report_files("sweep", reports, made):
            return failed
    return max((one.code for one in chosen), default=0)
