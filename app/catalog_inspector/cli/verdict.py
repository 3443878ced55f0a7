"""What `check` found about one catalog, every check together: drift, token budgets, pins, lint; printed as the
command's text or JSON, and its exit code (1 when any check asked for failed)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalog_inspector.cli.common import EXIT_CODES, FAIL_ON, NOT_JSON
from catalog_inspector.cli.diff import diff_lines
from catalog_inspector.cli.tokens import TokenDelta, budget_failures, token_delta
from catalog_inspector.core.calls import LINT_LEVELS, LintRow, catalog_lint, lint_lines
from catalog_inspector.core.catalog import Snapshot, TokenCount, count_snapshot
from catalog_inspector.core.drift import CatalogDiff, PinCheck, Pins, check_pins, diff_snapshots
from catalog_inspector.core.text import visible

__all__ = ["Verdict", "judge"]


@dataclass
class Verdict:
    """Every check `check` ran on one walk (None: not asked for)."""

    snapshot: Snapshot
    diff: CatalogDiff | None = None
    tokens: TokenDelta | None = None
    count: TokenCount | None = None
    budgets: list[str] = field(default_factory=list)
    pins: PinCheck | None = None
    pins_file: Path | None = None
    lint: list[LintRow] | None = None
    lint_level: str = "error"

    @property
    def lint_failed(self) -> list[LintRow]:
        """The lint rows at or above the level `--lint` names (none when it names none: `lint_level` "")."""
        if self.lint_level not in LINT_LEVELS:
            return []
        bar = LINT_LEVELS.index(self.lint_level)
        return [row for row in self.lint or () if LINT_LEVELS.index(row.severity) <= bar]

    def drifted(self, fail_on: str) -> bool:
        worst = self.diff.worst() if self.diff is not None else None
        return worst is not None and worst.rank >= FAIL_ON[fail_on].rank

    def failed(self, fail_on: str) -> bool:
        pinned = self.pins is not None and not self.pins.clean
        return self.drifted(fail_on) or bool(self.budgets) or pinned or bool(self.lint_failed)

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = self.diff.to_json() if self.diff is not None else {}
        if self.tokens is not None:
            document["tokens"] = self.tokens.to_json()
        elif self.count is not None:
            document["tokens"] = self.count.to_json()
        if self.budgets:
            document["token_budgets"] = list(self.budgets)
        if self.pins is not None:
            document["pins"] = {"file": str(self.pins_file), **self.pins.to_json()}
        if self.lint is not None:
            document["lint"] = [row.to_json() for row in self.lint]
        return document

    def lines(self) -> list[str]:
        lines = diff_lines(self.diff) if self.diff is not None else []
        if self.tokens is not None and self.tokens.tools():
            lines[-1:-1] = self.tokens.lines()  # above the summary, which stays the last line of the diff
        if self.pins is not None:
            lines.extend(_pin_lines(self.pins, self.pins_file))
        if self.lint is not None:
            lines.extend(lint_lines(self.lint))
        return lines

    def print(self, as_json: bool, fail_on: str) -> int:
        """Print the verdict (the budgets broken on stderr); the exit code (4 when NaN keeps it from being JSON)."""
        if as_json:
            try:
                text = json.dumps(self.to_json(), indent=2, ensure_ascii=False, allow_nan=False)
            except ValueError:
                print(f"mcp-catalog-inspector check: cannot write the result: {NOT_JSON}", file=sys.stderr)
                return EXIT_CODES["failed"]
            sys.stdout.write(text + "\n")
        else:
            sys.stdout.write("".join(line + "\n" for line in self.lines()))
        sys.stdout.flush()
        for line in self.budgets:
            print(line, file=sys.stderr)
        return EXIT_CODES["drift"] if self.failed(fail_on) else EXIT_CODES["complete"]


def _pin_lines(check: PinCheck, path: Path | None) -> list[str]:
    when = check.approved_at[:19].replace("T", " ")
    legacy = " (an approval of tools only, made before _meta was pinned: approve again)" if check.legacy else ""
    head = f"Pins ({path}, approved {when} UTC){legacy}: "
    if check.clean:
        return [head + "every item matches."]
    lines = [head + f"{len(check.diffs):,} differ{'s' if len(check.diffs) == 1 else ''}:"]
    lines.extend(f"  {d.kind}: {visible(d.name, 200)}: {visible(d.words(), 300)}" for d in check.diffs)
    return lines


def judge(args: argparse.Namespace, snapshot: Snapshot, baseline: Snapshot | None, pins: Pins | None) -> Verdict:
    """Run every check the flags ask for on an accepted walk."""
    verdict = Verdict(snapshot)
    if baseline is not None:
        verdict.diff = diff_snapshots(baseline, snapshot)
        verdict.tokens = token_delta(baseline, snapshot)
        verdict.count = verdict.tokens.new if verdict.tokens is not None else None
    else:
        verdict.count = count_snapshot(snapshot)
    verdict.budgets = budget_failures(args, verdict.count, verdict.tokens)
    if pins is not None:
        verdict.pins, verdict.pins_file = check_pins(pins, snapshot), args.pins
    if args.lint:
        verdict.lint, verdict.lint_level = catalog_lint(snapshot), args.lint
    return verdict
