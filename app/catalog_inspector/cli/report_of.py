"""The `--report` model (`core.reports`) of what a command found with one server: a `ServerReport` of a verdict.

Pointers point into the new snapshot document (`/tools/3/inputSchema/properties/x`);
an item gone from the catalog (removed, a pin gone) has none: it is in no document
the run wrote.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from catalog_inspector import __version__
from catalog_inspector.cli.common import EXIT_CODES, FAIL_ON
from catalog_inspector.cli.verdict import Verdict
from catalog_inspector.core.calls import LINT_LEVELS, LintRow
from catalog_inspector.core.catalog import LIST_KINDS, LIST_NAMES, Snapshot, item_key
from catalog_inspector.core.drift import CatalogDiff, Severity
from catalog_inspector.core.reports import (
    ERROR,
    NOTE,
    WARNING,
    Finding,
    ServerReport,
    parse_report_option,
    severity_of_drift,
    write_reports,
)

__all__ = ["call_report", "report_options", "server_report", "write_report_files"]

_LINT_LEVELS = {"error": ERROR, "warning": WARNING, "info": NOTE}
_PIN_WHY = "an item differs from the approved lockfile: what a host trusts changed since it was approved"


def report_options(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """The `--report` options read (a ValueError names the one that is wrong, or a file named twice)."""
    options = [parse_report_option(text) for text in getattr(args, "report", [])]
    paths = [path for _, path in options]
    if len(set(paths)) != len(paths):
        raise ValueError("--report names one file twice")
    return options


def write_report_files(command: str, options: list[tuple[str, Path]], reports: list[ServerReport]) -> int:
    """Write the reports; 0, or the exit code after saying on stderr why one was not written."""
    try:
        write_reports(options, reports, __version__)
    except OSError as exc:
        print(f"mcp-catalog-inspector {command}: cannot write a report: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_CODES["usage"]
    except ValueError as exc:  # NaN a server sent, which JSON cannot carry
        print(f"mcp-catalog-inspector {command}: cannot write a report: {exc}", file=sys.stderr)
        return EXIT_CODES["failed"]
    return 0


class _Places:
    """Where each item of a snapshot is in its document: `/tools/3`, `/prompts/items/0`."""

    def __init__(self, snapshot: Snapshot) -> None:
        self._places: dict[tuple[str, str], str] = {}
        for name in LIST_NAMES:
            base = "/tools" if name == "tools" else f"/{name}/items"
            for index, item in enumerate(snapshot.lists[name].items):
                self._places.setdefault((name, item_key(name, item)), f"{base}/{index}")

    def of(self, kind: str, key: str, inner: str = "") -> str:
        place = self._places.get((kind, key))
        return place + inner if place is not None else ""


def items_of(snapshot: Snapshot) -> tuple[str, ...]:
    return tuple(f"{name}/{item_key(name, item)}" for name in LIST_NAMES for item in snapshot.lists[name].items)


def _at_bar(severity: str, failing: bool) -> str:
    """A finding that fails the command fails its report too (at least a warning); one below the bar is a note."""
    if not failing:
        return NOTE
    return WARNING if severity == NOTE else severity


def _drift(diff: CatalogDiff, places: _Places, fail_on: str) -> Iterator[Finding]:
    bar = FAIL_ON[fail_on].rank

    def level(severity: Severity) -> str:
        return _at_bar(severity_of_drift(severity), severity.rank >= bar)

    for name, changes in diff.lists.items():
        kind = LIST_KINDS[name]
        for item in changes.removed:
            key = item_key(name, item)
            yield Finding("drift", "removed", level(Severity.BREAKING), f"{kind.key_noun} {key} removed", f"{name}/{key}",
                          rule_help="an item a caller used is gone")  # fmt: skip
        for change in changes.changed:
            for one in change.changes:
                where = f"{one.field} {one.pointer}" if one.pointer else one.field
                yield Finding(
                    "drift",
                    "changed",
                    level(one.severity),
                    f"{change.key}: {where}: {one.reason}",
                    f"{name}/{change.key}",
                    places.of(name, change.key, f"/{one.field}{one.pointer}"),
                    "a field of an item changed since the baseline",
                )
        for item in changes.added:
            key = item_key(name, item)
            yield Finding("drift", "added", level(Severity.INFO), f"{kind.key_noun} {key} added", f"{name}/{key}",
                          places.of(name, key), "an item the baseline did not have")  # fmt: skip
        for move in changes.moved:
            yield Finding("drift", "moved", level(Severity.INFO), f"{move.key} moved from place {move.old_index} to {move.new_index}",
                          f"{name}/{move.key}", places.of(name, move.key), "an item changed its place")  # fmt: skip


def _lint(rows: list[LintRow], places: _Places, level: str) -> Iterator[Finding]:
    bar = LINT_LEVELS.index(level) if level in LINT_LEVELS else -1  # not binding: every issue a note
    for row in rows:
        yield Finding(
            "lint",
            row.code,
            _at_bar(_LINT_LEVELS.get(row.severity, NOTE), LINT_LEVELS.index(row.severity) <= bar),
            f"{row.item}: {row.message}",
            f"tools/{row.item}",
            places.of("tools", row.item, row.pointer),
            row.why,
        )


def server_report(
    verdict: Verdict | None,
    snapshot: Snapshot,
    command: str,
    fail_on: str = "any",
    snapshot_file: Path | None = None,
    duration_s: float = 0.0,
    budgets_asked: bool = False,
) -> ServerReport:
    """What the command found with the server `snapshot` walked (`verdict`: None when no check ran: the walk
    failed before any)."""
    server = str(snapshot.source.get("name") or snapshot.source.get("target") or "?")
    places = _Places(snapshot)
    findings: list[Finding] = []
    checks = ["walk"]
    error = None
    if snapshot.error is not None:
        error = snapshot.error.message
        findings.append(Finding("walk", str(snapshot.error.kind), ERROR, snapshot.error.message, rule_help=(
            "the walk did not produce a whole catalog")))  # fmt: skip
    for name in snapshot.partial:
        failed = snapshot.lists[name].error
        words = failed.message if failed is not None else "not walked whole"
        findings.append(Finding("walk", "partial", ERROR, f"{LIST_KINDS[name].plural}: {words}",
                                rule_help="a list was not walked whole: the catalog is partial"))  # fmt: skip
    if verdict is not None:
        if verdict.diff is not None:
            checks.append("drift")
            findings.extend(_drift(verdict.diff, places, fail_on))
        if verdict.pins is not None:
            checks.append("pins")
            for d in verdict.pins.diffs:
                findings.append(Finding("pins", f"pin_{d.change}", ERROR, f"{d.kind}: {d.name}: {d.words()}",
                                        f"{d.kind}/{d.name}", places.of(d.kind, d.name), _PIN_WHY))  # fmt: skip
        if verdict.lint is not None:
            checks.append("lint")
            findings.extend(_lint(verdict.lint, places, verdict.lint_level))
        if budgets_asked:
            checks.append("tokens")
            for line in verdict.budgets:
                code = "max_tokens" if "--max-tokens" in line else "token_growth"
                findings.append(
                    Finding("tokens", code, ERROR, line, rule_help="the tools cost more tokens than allowed")
                )
    tokens = None
    if verdict is not None and verdict.count is not None:
        tokens = dict(verdict.count.to_json())
        if verdict.tokens is not None:
            tokens.update(baseline_total=verdict.tokens.old.total, delta=verdict.tokens.delta)
    return ServerReport(
        server=server,
        command=command,
        status=snapshot.status,
        checks=tuple(checks),
        items=items_of(snapshot),
        findings=tuple(findings),
        tokens=tokens,
        snapshot_file=str(snapshot_file) if snapshot_file is not None and str(snapshot_file) != "-" else None,
        error=error,
        duration_s=duration_s,
    )


_CALLED = {"call": "tools", "prompt": "prompts", "read": "resources"}


def call_report(
    command: str,
    snapshot: Snapshot,
    outcome: str,
    target: str,
    code: int,
    summary: str | None,
    snapshot_file: Path | None = None,
) -> ServerReport:
    """What `call` (`prompt`, `read`) found: the walk, and the call's outcome (a failure unless it exited 0)."""
    walked = server_report(None, snapshot, command, snapshot_file=snapshot_file)
    item = f"{_CALLED[command]}/{target}"
    words = summary or f"{outcome}: {target}"
    finding = Finding("call", outcome, ERROR if code else NOTE, words, item, rule_help="the test call's outcome")
    findings = walked.findings if snapshot.error is not None else (*walked.findings, finding)
    return replace(walked, status=outcome, checks=(*walked.checks, "call"), items=(item,), findings=findings)
