"""`snapshot`: walk one server's catalog under budgets and write its snapshot JSON, whatever happened."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio

from catalog_inspector.cli.common import (
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
from catalog_inspector.core.calls import PageWork, derived_keys
from catalog_inspector.core.catalog import (
    PageRecord,
    Snapshot,
    failed_snapshot,
    preload,
    source_of,
    unimplemented_words,
    write_json,
)
from catalog_inspector.core.config import (
    Limits,
    ServerSpec,
)
from catalog_inspector.core.errors import (
    AUTH_STEPS,
    ErrorInfo,
    ErrorKind,
    auth_step,
    code_words,
    last_words,
    transport_hint,
)
from catalog_inspector.core.files import write_text_safely
from catalog_inspector.core.gc_pause import collector_paused
from catalog_inspector.core.session import SessionWorker
from catalog_inspector.core.text import visible


def _write(snapshot: Snapshot, out: Path | None, bare: bool = False, extra: dict[str, Any] | None = None) -> None:
    """Stream the snapshot JSON to stdout (`-` too), or safely to `out` (see `write_text_safely`), with the
    document's derived keys (`derived_keys`: tokens, lint; `extra` when made already) at its end (`bare`: both
    null)."""
    if bare:
        extra = {"tokens": None, "lint": None}
    elif extra is None:
        extra = derived_keys(snapshot, lines=True)
    if out is None or str(out) == "-":
        write_json(snapshot, sys.stdout, extra)
        sys.stdout.flush()
        return
    write_text_safely(out, lambda handle: write_json(snapshot, handle, extra))


def write_out(
    command: str, snapshot: Snapshot, out: Path | None, bare: bool = False, extra: dict[str, Any] | None = None
) -> int:
    """Write the snapshot (see `_write`); 0, or the exit code after saying on stderr why it was not written.

    A reader that closed stdout is not a failure to report here: `BrokenPipeError` goes up to `cli.main`.
    """
    where = "stdout" if out is None or str(out) == "-" else str(out)
    try:
        _write(snapshot, out, bare, extra)
    except BrokenPipeError:
        raise
    except OSError as exc:
        print(f"mcp-catalog-inspector {command}: cannot write {where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_CODES["usage"]
    except ValueError:
        # NaN or Infinity in what the server sent (the SDK's parser takes them): JSON has no way to write them.
        print(f"mcp-catalog-inspector {command}: cannot write {where}: {NOT_JSON}", file=sys.stderr)
        return EXIT_CODES["failed"]
    return 0


def summary_line(snapshot: Snapshot) -> str | None:
    """The one line on stderr that says why a walk was not accepted, with the server's own last words."""
    if snapshot.error is None:
        return None
    return error_line(snapshot.status, snapshot.error)


def error_line(status: str, error: ErrorInfo) -> str:
    """`failed: connection (tools, page 1): …`: a list's status and error as the CLI says them."""
    where = f" ({error.list_name}, page {error.page})" if error.page is not None else ""
    step = auth_step(error)
    if step is not None:
        where = f" ({step} step: {AUTH_STEPS[step]})"
    named = code_words(error)
    code = f"{named.text}: " if named is not None else ""
    line = f"{status}: {error.kind}{where}: {code}{visible(error.message, MESSAGE_LIMIT)}"
    hint = transport_hint(error, app=False)
    if hint:
        line += f"; {hint}"
    said = last_words(error.details)
    if said:
        line += f"; {said}"
    return line


def list_lines(snapshot: Snapshot) -> list[str]:
    """One line per list judged on its own beside accepted tools: each that failed or was rejected (`partial:`),
    and each the server offers but does not implement (`note:`, a finding, not a failure)."""
    lines = []
    for name in snapshot.partial:
        result = snapshot.lists[name]
        assert result.error is not None
        lines.append("partial: " + error_line(result.status, replace(result.error, list_name=name)))
    for name in snapshot.unimplemented:
        lines.append(f"note: {name}: {unimplemented_words(name)} (it answered -32601, method not found)")
    return lines


def exit_code(snapshot: Snapshot) -> int:
    """The worst list decides: 5 for a failed authorization, else the status of the tools list or, when the tools
    were accepted, of the first other list that failed or was rejected (3 rejected, 4 failed; 0 when every list
    was walked whole, was not offered, or is not implemented)."""
    if snapshot.error is not None and snapshot.error.kind is ErrorKind.AUTH:
        return EXIT_CODES["auth"]
    partial = snapshot.partial
    return EXIT_CODES[snapshot.lists[partial[0]].status if partial else snapshot.status]


async def walk_until_signalled(spec: ServerSpec, limits: Limits, work: PageWork | None = None) -> Snapshot:
    """One walk, as `SessionWorker.walk_once`; TERM, HUP or INT stop it: the server's process group is
    killed without a grace period and the snapshot says `failed`, kind `cancelled`, with the pages reached.

    `work`: counts and lints the pages as they come (`PageWork`), beside the walk; done when this returns.
    """
    pages: dict[str, list[PageRecord]] = {}
    worker = SessionWorker(
        spec,
        limits,
        on_page=lambda name, page: pages.setdefault(name, []).append(page),
        on_items=work.page if work is not None else None,
    )
    started = time.perf_counter()
    snapshot: Snapshot | None = None
    async with anyio.create_task_group() as group:
        if work is not None:
            group.start_soon(work.follow)
        try:
            # No grace period on a signal: whoever sent it is waiting for us.
            snapshot, name = await until_signalled(worker.walk_once, worker.faults.quit_soon)
        finally:
            if work is not None:
                wanted = snapshot is not None and snapshot.status == "complete"
                work.walked(wanted)
                if not wanted:  # nothing is derived from it: not even the token table's load is waited for
                    group.cancel_scope.cancel()
    if snapshot is not None:
        return snapshot
    return failed_snapshot(stopped(name, "the walk"), source_of(spec), started, pages=pages)


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `snapshot` command: the snapshot JSON on stdout (or `--out`), one line on stderr when it was not accepted."""
    try:
        spec = spec_from(args)
    except UsageError as exc:
        return usage(parser, "snapshot", str(exc))
    # Nothing of the walk is garbage before the process ends: the collector would only rescan the catalog.
    with collector_paused():
        work = None if args.bare else PageWork(spec.name)
        snapshot = walk(args, spec, work)
        extra = work.keys(snapshot, lines=True) if work is not None else None
        if written := write_out("snapshot", snapshot, args.out, args.bare, extra):
            return written
    say_why(snapshot)
    return exit_code(snapshot)


def walk(args: argparse.Namespace, spec: ServerSpec, work: PageWork | None = None) -> Snapshot:
    """One walk of `spec` under the budgets the flags and the entry give, stopped by a signal if one comes.

    `work`: the document's tokens and lint made as the pages come (`PageWork`; it loads the token table);
    without it and without `--bare`, the table loads while the walk waits on the server.
    """
    use_oauth_hooks(args, MESSAGE_LIMIT, spec)
    if work is None and not getattr(args, "bare", False):
        preload()
    return anyio.run(walk_until_signalled, spec, limits_of(args, spec), work)


def say_why(snapshot: Snapshot) -> None:
    """The summary line on stderr, if the walk was not accepted; a line for each list judged on its own else."""
    line = summary_line(snapshot)
    for said in [line] if line is not None else list_lines(snapshot):
        print(said, file=sys.stderr)
