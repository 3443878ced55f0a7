"""The headless command line: the same engine as the app, for scripts and CI. One module per command.

    mcp-catalog-inspector snapshot [OPTIONS] -- COMMAND [ARG...]
    mcp-catalog-inspector snapshot [OPTIONS] --url URL [--header 'K: V']... [--sse]
    mcp-catalog-inspector snapshot [OPTIONS] --server NAME [--config FILE]
    mcp-catalog-inspector diff OLD.json NEW.json [--json] [--fail-on breaking|warning|any]
    mcp-catalog-inspector check --baseline OLD.json [--fail-on LEVEL] [--json] [snapshot options and server]
    mcp-catalog-inspector call TOOL [--args JSON | --args-file FILE] [--send-invalid] [--call-timeout S]
                              [snapshot options and server]
                              [--answers FILE | --decline-all] [--max-rounds N] [--roots URI...]
    mcp-catalog-inspector prompt NAME [--args JSON] [the call's answering options, snapshot options and server]
    mcp-catalog-inspector read URI [the call's answering options, snapshot options and server]
    mcp-catalog-inspector signout (--url URL | --server NAME [--config FILE])

Exit codes: snapshot 0 complete, 2 usage error, 3 rejected, 4 failed, 5 the server's
authorization failed (kind `auth`); diff 0 nothing at or above `--fail-on` changed,
1 it did, 2 usage; check as diff, or 3/4/5 as snapshot when the walk itself was not
accepted; call, prompt and read 0 ok, 1 answered but wrong, 2 usage, 3 not sent (or an
answer broke the requested schema), 4 no answer, 5 no authorization, 6 the server's
questions were not all answered (`core.calls.Outcome`); signout 0, 2 usage, 4 the keyring refused.
Any command: 130 when SIGINT came while it was not walking (blocked opening a FIFO,
say), 141 when the reader of its output went away (`… | head`), quietly.

The room imports `core` (its faces) and nothing of `ui` or `runtime`: `parser` is the
grammar, `common` what every command shares, and `snapshot`, `diff`, `check`, `call`
(also `prompt` and `read`) and `signout` one command each (`oauth`: the sign-in flags of the commands that walk).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import sys
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from catalog_inspector.cli.head_start import begin, finish, loaded
from catalog_inspector.core.processes import end_unclaimed
from catalog_inspector.core.sdk_packages import defer
from catalog_inspector.core.text import visible

if TYPE_CHECKING:
    from catalog_inspector.cli.common import EXIT_CODES
    from catalog_inspector.cli.parser import build_parser

__all__ = ["EXIT_CODES", "build_parser", "main"]

# Each command's module, imported once the command is known (and its server has its head start).
COMMANDS: dict[str, str] = {
    "snapshot": "snapshot",
    "diff": "diff",
    "check": "check",
    "approve": "approve",
    "sweep": "sweep",
    "call": "call",
    "prompt": "call",
    "read": "call",
    "complete": "complete",
    "signout": "signout",
}


def __getattr__(name: str) -> Any:
    # The face's two names, loaded when asked for: importing them loads the engine.
    if name == "EXIT_CODES":
        return importlib.import_module("catalog_inspector.cli.common").EXIT_CODES
    if name == "build_parser":
        return importlib.import_module("catalog_inspector.cli.parser").build_parser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _command(name: str) -> Callable[..., int]:
    run: Callable[..., int] = importlib.import_module(f"catalog_inspector.cli.{COMMANDS[name]}").run
    return run


INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command Ctrl+C stopped
READER_GONE = 141  # 128 + SIGPIPE, as a shell reports a writer whose reader went away


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    defer()  # the SDK's package bodies, which a command does not need (`core.sdk_packages`)
    begin(argv)  # before the engine's imports: the server starts meanwhile
    try:
        return _main(argv)
    finally:
        end_unclaimed()  # a head start the command did not take (it stopped at a usage error)
        finish()


def _main(argv: list[str]) -> int:
    from catalog_inspector.cli.parser import build_parser

    parser = build_parser()
    if argv and not argv[0].startswith("-") and argv[0] not in COMMANDS:
        return _unknown_command(parser, argv[0])
    server_command: list[str] = []
    # See parser.add_walk_options: the commands with a positional split their `-- COMMAND` off here.
    if argv[:1] in (["call"], ["prompt"], ["read"], ["complete"]) and "--" in argv:
        cut = argv.index("--")
        argv, server_command = argv[:cut], argv[cut + 1 :]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse's own usage errors exit 2 already; keep --help at 0
        return int(exc.code or 0)
    if args.command in ("call", "prompt", "read", "complete"):
        args.stdio = server_command
    try:
        run = _command(args.command)
        loaded()
        return run(parser, args)
    except BrokenPipeError:
        return _reader_gone()
    except KeyboardInterrupt:
        # SIGINT outside a walk (which handles it itself): in open() on a FIFO nobody writes, say.
        print(f"mcp-catalog-inspector {args.command}: stopped by SIGINT", file=sys.stderr)
        return INTERRUPTED


def _unknown_command(parser: argparse.ArgumentParser, word: str) -> int:
    """argparse (3.11) says only "invalid choice"; name the commands and the one that was meant."""
    close = difflib.get_close_matches(word, COMMANDS, n=1)
    guess = f"; did you mean {close[0]}?" if close else ""
    parser.print_usage(sys.stderr)
    print(
        f"mcp-catalog-inspector: error: {visible(word, 100)!r} is not a command{guess} "
        f"(commands: {', '.join(COMMANDS)}; {parser.prog} --help lists them)",
        file=sys.stderr,
    )
    from catalog_inspector.cli.common import EXIT_CODES

    return EXIT_CODES["usage"]


def _reader_gone() -> int:
    """The reader of stdout (or stderr) closed it: nothing is left to say to anyone.

    Python would fail again flushing what is still buffered at exit, and say so on
    stderr: both are pointed at /dev/null first.
    """
    with suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.dup2(devnull, sys.stderr.fileno())
    return READER_GONE
