"""`approve`: walk a server like `snapshot` and write the lockfile of its whole catalog (`core.drift.lockfile`)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

from catalog_inspector.cli.common import EXIT_CODES, UsageError, spec_from, usage
from catalog_inspector.cli.snapshot import exit_code, say_why, walk
from catalog_inspector.core.catalog import LIST_KINDS, LIST_NAMES
from catalog_inspector.core.drift import Pins, read_lockfile, write_lockfile
from catalog_inspector.core.files import InputError


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `approve` command: one line on stdout naming what was pinned and where; nothing written on a failure."""
    try:
        spec = spec_from(args)
        if str(args.out) == "-":
            raise UsageError("approve writes a lockfile: give --out a file")
    except UsageError as exc:
        return usage(parser, "approve", str(exc))
    before = None
    if args.out.exists():
        try:
            before = read_lockfile(args.out)
        except (OSError, ValueError, InputError) as exc:
            return usage(parser, "approve", f"{exc} (move it away to start a new approval)")
    snapshot = walk(args, spec)
    say_why(snapshot)
    if snapshot.status != "complete" or snapshot.partial:
        unwalked = ", ".join(LIST_KINDS[name].plural for name in snapshot.partial)
        why = f"{unwalked} not walked whole" if unwalked else "the walk was not accepted"
        print(f"not approved: {why}; {args.out} is unchanged", file=sys.stderr)
        return exit_code(snapshot)
    stamp = datetime.now(UTC).isoformat(timespec="milliseconds")
    pins = Pins.of_snapshot(snapshot, stamp, before)
    try:
        write_lockfile(args.out, pins)
    except OSError as exc:
        print(f"mcp-catalog-inspector approve: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_CODES["usage"]
    counts = [
        _count(len(snapshot.lists[name].items), LIST_KINDS[name].plural)
        for name in LIST_NAMES
        if snapshot.lists[name].items
    ]
    kept = sum(1 for pin in pins.items if pin.approved_at != stamp)
    again = f" ({kept:,} unchanged since their approval)" if kept else ""
    print(f"Approved {', '.join(counts) or 'an empty catalog'}{again} → {args.out}")
    return EXIT_CODES["complete"]


def _count(count: int, plural: str) -> str:
    return f"{count:,} {plural[:-1] if count == 1 else plural}"
