"""`diff`: two snapshot files compared, the report as text or JSON, the exit code by `--fail-on`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from catalog_inspector.cli.common import EXIT_CODES, FAIL_ON, NOT_JSON, UsageError, usage
from catalog_inspector.cli.tokens import TokenDelta, token_delta
from catalog_inspector.core.catalog import FORMAT, LIST_KINDS, LIST_NAMES, Snapshot, item_key
from catalog_inspector.core.drift import ABSENT, CatalogDiff, Severity, diff_snapshots
from catalog_inspector.core.files import MAX_SNAPSHOT_BYTES, InputError, read_json
from catalog_inspector.core.text import visible

VALUE_LIMIT = 160  # characters of an old or new value in the text report


def load_snapshot(path: Path) -> Snapshot:
    """A snapshot file with a catalog to compare; a UsageError names the file and what is wrong with it."""
    try:
        data = read_json(path, MAX_SNAPSHOT_BYTES, "snapshot files")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except InputError as exc:
        raise UsageError(str(exc)) from exc  # names the file: over the cap, not UTF-8, not strict JSON, too deep
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise UsageError(f"{path} is not a snapshot: its format is {found!r}, not {FORMAT!r}")
    try:
        snapshot = Snapshot.from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise UsageError(f"{path} is not a snapshot: {type(exc).__name__}: {exc}") from exc
    if snapshot.status != "complete":  # its tools were not accepted (a list of its own that failed is only skipped)
        kind = snapshot.error.kind if snapshot.error is not None else "?"
        raise UsageError(f"{path} is a {snapshot.status} snapshot ({kind}): it holds no catalog to compare")
    for name in LIST_NAMES:
        key = LIST_KINDS[name].key_field
        for position, item in enumerate(snapshot.lists[name].items):
            if not isinstance(item, dict) or not isinstance(item.get(key), str):
                raise UsageError(
                    f"{path} is not a snapshot: {name} item {position} is not an object with a string {key!r}"
                )
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
    for name in diff.not_compared:
        lines.append(f"Not compared: {LIST_KINDS[name].plural} (a walk did not list them whole)")
    if diff.empty:
        lines.append("No changes." if not diff.not_compared else "No changes in the lists compared.")
    else:
        lines.append("Summary: " + ", ".join(f"{counts.get(s, 0)} {s.value}" for s in Severity))
    return lines


def report(
    diff: CatalogDiff, as_json: bool, fail_on: str, command: str = "diff", tokens: TokenDelta | None = None
) -> int:
    """Print the diff (and the change in tokens, when both catalogs were counted); the exit code by `fail_on`
    (or 4 when a live server's NaN keeps it from being JSON)."""
    if as_json:
        document = diff.to_json()
        if tokens is not None:
            document["tokens"] = tokens.to_json()
        try:
            text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)
        except ValueError:  # only `check` can meet one: the files `diff` reads are strict JSON
            print(f"mcp-catalog-inspector {command}: cannot write the diff: {NOT_JSON}", file=sys.stderr)
            return EXIT_CODES["failed"]
        sys.stdout.write(text + "\n")
    else:
        lines = diff_lines(diff)
        # Only a change in cost is news (an unchanged catalog still reads "No changes." alone, as it always did),
        # and it goes above the last line, which stays the summary.
        if tokens is not None and tokens.tools():
            lines[-1:-1] = tokens.lines()
        sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()
    worst = diff.worst()
    failed = worst is not None and worst.rank >= FAIL_ON[fail_on].rank
    return EXIT_CODES["drift"] if failed else EXIT_CODES["complete"]


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `diff` command: two snapshot files compared."""
    from catalog_inspector.cli.report_of import report_options, server_report, write_report_files
    from catalog_inspector.cli.verdict import Verdict

    try:
        old, new = load_snapshot(args.old), load_snapshot(args.new)
        reports = report_options(args)
    except (UsageError, ValueError) as exc:  # ValueError: a --report option
        return usage(parser, "diff", str(exc))
    diff, tokens = diff_snapshots(old, new), token_delta(old, new)
    code = report(diff, args.json, args.fail_on, tokens=tokens)
    if reports:
        verdict = Verdict(new, diff, tokens, tokens.new if tokens is not None else None)
        made = server_report(verdict, new, "diff", args.fail_on, args.new)
        return write_report_files("diff", reports, [made]) or code
    return code
