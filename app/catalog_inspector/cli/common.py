"""What every command shares: exit codes, usage errors, the server from the flags, budgets, signals."""

from __future__ import annotations

import argparse
import difflib
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TypeVar

import anyio

from catalog_inspector.cli.oauth import with_oauth_flags
from catalog_inspector.cli.profile import with_client_flags
from catalog_inspector.core.config import (
    ConfigError,
    Limits,
    ServerSpec,
    check_header,
    check_url,
    limits_for,
    load_config,
)
from catalog_inspector.core.drift import Severity
from catalog_inspector.core.errors import (
    CatalogError,
    ErrorKind,
    make_error,
)
from catalog_inspector.core.paths import user_config_file
from catalog_inspector.core.redact import redacted_url
from catalog_inspector.core.text import visible

EXIT_CODES = {"complete": 0, "drift": 1, "usage": 2, "rejected": 3, "failed": 4, "auth": 5}

MESSAGE_LIMIT = 2000
# Seconds each schema check of `call` (the arguments, the result) may run in the sandbox before it is
# stopped and reported `over_budget`: the app's budget too (`runtime.offload.VALIDATION_BUDGET`).
CHECK_BUDGET = 2.0

# Why a document a server's data went into was not written: the SDK's JSON parser takes NaN and Infinity.
NOT_JSON = "it holds NaN or Infinity (as the server sent them), which JSON has no way to write"

FAIL_ON = {"any": Severity.INFO, "warning": Severity.WARNING, "breaking": Severity.BREAKING}


class UsageError(Exception):
    """Bad command-line input; exit code 2."""


def with_oauth(spec: ServerSpec, args: argparse.Namespace) -> ServerSpec:
    try:
        return with_oauth_flags(spec, args)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def spec_from(args: argparse.Namespace) -> ServerSpec:
    """The server the flags name, with `--protocol-era`, `--log-level`, `--roots` and the client profile flags
    applied over its entry's own."""
    spec = _spec_from(args)
    era = getattr(args, "protocol_era", None)
    if era is not None:
        spec = replace(spec, protocol_era=era)
    level = getattr(args, "log_level", None)
    if level is not None:
        spec = replace(spec, log_level=level)
    try:
        return with_client_flags(spec, args)  # after the era: a pinned version cannot go with "modern"
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


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
        return with_oauth(spec, args)
    if args.url is not None:
        try:
            check_url(args.url, "--url")  # the scheme, the host, the port: a usage error, not a failed walk
        except ConfigError as exc:
            raise UsageError(str(exc)) from exc
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
        return with_oauth(spec, args)
    return with_oauth(configured(args), args)


def configured(args: argparse.Namespace) -> ServerSpec:
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
    raise UsageError(f"no server named {visible(args.server, 200)!r} in {path} ({_names(args.server, every)})")


NAMES_SHOWN = 5  # of the config's servers, in the line that says a name is not among them


def _names(wanted: str, every: list[str]) -> str:
    """The config's names, shown on a terminal: all of a few; of many, the count and the closest (or the first)."""
    if len(every) <= NAMES_SHOWN:
        return "servers: " + (", ".join(visible(name, 200) for name in every) or "none")
    close = difflib.get_close_matches(wanted, every, n=NAMES_SHOWN)
    if close:
        return f"{len(every):,} servers; did you mean " + " or ".join(repr(visible(name, 200)) for name in close) + "?"
    return f"{len(every):,} servers: " + ", ".join(visible(name, 200) for name in every[:NAMES_SHOWN]) + ", …"


def limits_of(args: argparse.Namespace, spec: ServerSpec) -> Limits:
    """The flags given, else the server entry's budgets, else the defaults."""
    given = {
        "max_pages": args.max_pages,
        "max_items": args.max_items,
        "max_page_bytes": args.max_page_bytes,
        "request_timeout": args.timeout,
        "deadline": args.deadline,
        "max_rounds": getattr(args, "max_rounds", None),
        "task_deadline": getattr(args, "task_deadline", None),
    }
    base = limits_for(spec, Limits())
    return replace(base, **{name: value for name, value in given.items() if value is not None})


def usage(parser: argparse.ArgumentParser, command: str, message: str) -> int:
    parser.print_usage(sys.stderr)
    print(f"mcp-catalog-inspector {command}: error: {message}", file=sys.stderr)
    return EXIT_CODES["usage"]


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


def stopped(name: str, what: str) -> CatalogError:
    return make_error(ErrorKind.CANCELLED, f"stopped by {name} before {what} finished")
