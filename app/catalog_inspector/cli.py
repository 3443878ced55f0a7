"""The headless command line: the same engine as the app, for scripts and CI.

    mcp-catalog-inspector snapshot [OPTIONS] -- COMMAND [ARG...]
    mcp-catalog-inspector snapshot [OPTIONS] --url URL [--header 'K: V']... [--sse]
    mcp-catalog-inspector snapshot [OPTIONS] --server NAME [--config FILE]

Exit codes: 0 complete, 2 usage error, 3 rejected, 4 failed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

import anyio

from catalog_inspector.core.config import ConfigError, Limits, ServerSpec, load_config
from catalog_inspector.core.files import write_text_safely
from catalog_inspector.core.paths import user_config_file
from catalog_inspector.core.snapshot import Snapshot, write_json
from catalog_inspector.core.text import visible
from catalog_inspector.core.worker import SessionWorker

__all__ = ["EXIT_CODES", "main"]

EXIT_CODES = {"complete": 0, "usage": 2, "rejected": 3, "failed": 4}
MESSAGE_LIMIT = 2000


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcp-catalog-inspector",
        description="Inspect MCP server catalogs. Without a command, opens the desktop app.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    snap = commands.add_parser(
        "snapshot",
        help="walk a server's catalog and write its snapshot JSON",
        description="Walk every paginated list of one server under budgets and write the snapshot JSON "
        "(whether the walk succeeded or not). Exit 0 complete, 2 usage, 3 rejected, 4 failed.",
    )
    target = snap.add_mutually_exclusive_group()
    target.add_argument("--url", help="a Streamable HTTP (or, with --sse, legacy SSE) endpoint")
    target.add_argument("--server", metavar="NAME", help="a server from the config file")
    snap.add_argument("--sse", action="store_true", help="the --url speaks the legacy SSE transport")
    snap.add_argument("--header", action="append", default=[], metavar="'K: V'", help="HTTP header (repeatable)")
    snap.add_argument("--config", type=Path, help=f"the mcpServers JSON file (default: {user_config_file()})")
    defaults = Limits()
    snap.add_argument("--max-pages", type=_positive(int), default=defaults.max_pages)
    snap.add_argument("--max-items", type=_positive(int), default=defaults.max_items)
    snap.add_argument("--max-page-bytes", type=_positive(int), default=defaults.max_page_bytes)
    snap.add_argument("--timeout", type=_positive(float), default=defaults.request_timeout, help="seconds per request")
    snap.add_argument("--deadline", type=_positive(float), default=defaults.deadline, help="seconds for everything")
    snap.add_argument("--out", type=Path, help="write the JSON here instead of stdout")
    snap.add_argument("stdio", nargs=argparse.REMAINDER, help="-- COMMAND [ARG...] for a stdio server")
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
        return ServerSpec(name=os.path.basename(command[0]), command=command[0], args=tuple(command[1:]))
    if args.url is not None:
        if not args.url.startswith(("http://", "https://")):
            raise UsageError(f"--url must start with http:// or https://: {args.url!r}")
        headers: dict[str, str] = {}
        for header in args.header:
            key, sep, value = header.partition(":")
            if not sep or not key.strip():
                raise UsageError(f"--header must look like 'Name: value': {header!r}")
            headers[key.strip()] = value.strip()
        return ServerSpec(name=args.url, transport="sse" if args.sse else "http", url=args.url, headers=headers)
    path = args.config or user_config_file()
    try:
        specs = load_config(path)
    except ConfigError as exc:
        raise UsageError(str(exc)) from exc
    for spec in specs:
        if spec.name == args.server:
            return spec
    names = ", ".join(s.name for s in specs) or "none"
    raise UsageError(f"no server named {args.server!r} in {path} (servers: {names})")


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
    line = f"{snapshot.status}: {error.kind}{where}: {visible(error.message, MESSAGE_LIMIT)}"
    stderr = error.details.get("stderr")
    if isinstance(stderr, list) and stderr:
        said = " | ".join(visible(str(text), 300) for text in stderr)
        line += f"; the server's last stderr lines: {said}"
    return line


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse's own usage errors exit 2 already; keep --help at 0
        return int(exc.code or 0)
    try:
        spec = _spec_from(args)
    except UsageError as exc:
        parser.print_usage(sys.stderr)
        print(f"mcp-catalog-inspector snapshot: error: {exc}", file=sys.stderr)
        return EXIT_CODES["usage"]
    limits = Limits(
        max_pages=args.max_pages,
        max_items=args.max_items,
        max_page_bytes=args.max_page_bytes,
        request_timeout=args.timeout,
        deadline=args.deadline,
    )
    snapshot = anyio.run(SessionWorker(spec, limits).walk_once)
    try:
        _write(snapshot, args.out)
    except OSError as exc:
        print(f"mcp-catalog-inspector snapshot: cannot write {args.out}: {exc}", file=sys.stderr)
        return EXIT_CODES["usage"]
    line = summary_line(snapshot)
    if line is not None:
        print(line, file=sys.stderr)
    return EXIT_CODES[snapshot.status]
