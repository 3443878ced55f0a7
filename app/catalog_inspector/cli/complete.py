"""`complete`: walk one server, then ask `completion/complete` for one prompt argument or template variable."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import anyio

from catalog_inspector.cli.common import (
    EXIT_CODES,
    MESSAGE_LIMIT,
    UsageError,
    limits_of,
    spec_from,
    stopped,
    until_signalled,
    usage,
)
from catalog_inspector.cli.oauth import use_oauth_hooks
from catalog_inspector.cli.snapshot import summary_line
from catalog_inspector.core.calls import COMPLETION_BUDGET, Completion
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import ErrorKind
from catalog_inspector.core.session import SessionWorker, complete
from catalog_inspector.core.text import visible

__all__ = ["run"]


def _context(text: str | None) -> dict[str, str]:
    """`--context`: the other arguments already filled in, a JSON object of strings."""
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"--context is not JSON: {exc}") from exc
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise UsageError("--context must be a JSON object of strings (the other arguments by name)")
    return value


def _ref(args: argparse.Namespace) -> dict[str, str]:
    if args.prompt is not None:
        return {"type": "ref/prompt", "name": args.prompt}
    return {"type": "ref/resource", "uri": args.template}


async def walk_and_complete(
    spec: ServerSpec, limits: Limits, ref: dict[str, str], argument: str, value: str, context: dict[str, str]
) -> tuple[Completion, int]:
    """Walk `spec` as `snapshot` does; if its tools are accepted, ask for the completion on the same session.
    Returns the answer and the exit code (0, 4 as `call` for a failure, 5 a failed authorization)."""
    worker = SessionWorker(spec, limits)
    walked = anyio.Event()
    budget = min(COMPLETION_BUDGET * 6, limits.request_timeout)  # a command line waits longer than typing does

    async def session() -> None:
        try:
            await worker.run(lambda _snapshot: walked.set())
        finally:
            walked.set()

    async def answer() -> tuple[Completion, int]:
        snapshot, connection = worker.snapshot, worker.connection
        if snapshot is None or snapshot.error is not None or connection is None:
            line = summary_line(snapshot) if snapshot is not None else None
            if line is not None:
                print(line, file=sys.stderr)
            error = snapshot.error if snapshot is not None else None
            code = EXIT_CODES["auth"] if error is not None and error.kind is ErrorKind.AUTH else EXIT_CODES["failed"]
            return Completion(error=error), code
        said = await complete(connection, ref, argument, value, context, budget)
        return said, 0 if said.error is None else EXIT_CODES["failed"]

    async def work() -> tuple[Completion, int]:
        got: list[tuple[Completion, int]] = []
        async with anyio.create_task_group() as group:
            group.start_soon(session)
            await walked.wait()
            try:
                got.append(await answer())
            finally:
                worker.stop()
        return got[0]

    done, name = await until_signalled(work, worker.faults.quit_soon)
    if done is not None:
        return done
    return Completion(error=stopped(name, "the completion").info), EXIT_CODES["failed"]


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `complete` command: `{"values": [...], "total": N, "has_more": false}` on stdout (and `error` when
    there are none: 4 as `call`; 5 when the server's authorization stopped the walk)."""
    try:
        spec = spec_from(args)
        context = _context(args.context)
    except UsageError as exc:
        return usage(parser, "complete", str(exc))
    limits = limits_of(args, spec)
    use_oauth_hooks(args, MESSAGE_LIMIT, spec)
    answer, code = anyio.run(walk_and_complete, spec, limits, _ref(args), args.argument, args.prefix, context)
    document: dict[str, Any] = answer.to_json()
    sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    if answer.error is not None and code != EXIT_CODES["auth"]:
        print(f"failed: {answer.error.kind}: {visible(answer.error.message, MESSAGE_LIMIT)}", file=sys.stderr)
    return code
