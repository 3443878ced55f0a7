"""`check`: walk a live server like `snapshot` and compare its catalog with a baseline snapshot file."""

from __future__ import annotations

import argparse

from catalog_inspector.cli.common import UsageError, spec_from, usage
from catalog_inspector.cli.diff import load_snapshot, report
from catalog_inspector.cli.snapshot import exit_code, say_why, walk, write_out
from catalog_inspector.core.drift import catalog_items, diff_catalogs


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `check` command: the diff on stdout; 3, 4 or 5 as `snapshot` when the walk itself was not accepted."""
    try:
        spec = spec_from(args)
        baseline = load_snapshot(args.baseline)
        if args.out is not None and str(args.out) == "-":
            raise UsageError("check prints the diff on stdout: give --out a file for the snapshot")
    except UsageError as exc:
        return usage(parser, "check", str(exc))
    snapshot = walk(args, spec)
    if args.out is not None and (written := write_out("check", snapshot, args.out)):
        return written
    say_why(snapshot)
    if snapshot.status != "complete":
        return exit_code(snapshot)
    diff = diff_catalogs(catalog_items(baseline), catalog_items(snapshot))
    return report(diff, args.json, args.fail_on, "check")
