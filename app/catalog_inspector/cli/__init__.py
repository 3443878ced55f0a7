"""The headless command line: the same engine as the app, for scripts and CI. One module per command.

    mcp-catalog-inspector snapshot [OPTIONS] -- COMMAND [ARG...]
    mcp-catalog-inspector snapshot [OPTIONS] --url URL [--header 'K: V']... [--sse]
    mcp-catalog-inspector snapshot [OPTIONS] --server NAME [--config FILE]
    mcp-catalog-inspector diff OLD.json NEW.json [--json] [--fail-on breaking|warning|any]
    mcp-catalog-inspector check --baseline OLD.json [--fail-on LEVEL] [--json] [snapshot options and server]
    mcp-catalog-inspector call TOOL [--args JSON | --args-file FILE] [--send-invalid] [--call-timeout S]
                              [snapshot options and server]
    mcp-catalog-inspector signout (--url URL | --server NAME [--config FILE])

Exit codes: snapshot 0 complete, 2 usage error, 3 rejected, 4 failed, 5 the server's
authorization failed (kind `auth`); diff 0 nothing at or above `--fail-on` changed,
1 it did, 2 usage; check as diff, or 3/4/5 as snapshot when the walk itself was not
accepted; call 0 ok, 1 answered but wrong, 2 usage, 3 not sent, 4 no answer, 5 no
authorization (`core.calls.Outcome`); signout 0, 2 usage, 4 the keyring refused.

The room imports `core` (its faces) and nothing of `ui` or `runtime`: `parser` is the
grammar, `common` what every command shares, and `snapshot`, `diff`, `check`, `call`
and `signout` one command each (`oauth`: the sign-in flags of the commands that walk).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from catalog_inspector.cli import call, check, diff, signout, snapshot
from catalog_inspector.cli.common import EXIT_CODES
from catalog_inspector.cli.parser import build_parser

__all__ = ["EXIT_CODES", "build_parser", "main"]

COMMANDS: dict[str, Callable[..., int]] = {
    "snapshot": snapshot.run,
    "diff": diff.run,
    "check": check.run,
    "call": call.run,
    "signout": signout.run,
}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    server_command: list[str] = []
    if argv[:1] == ["call"] and "--" in argv:  # see parser.add_walk_options: `call` splits its `-- COMMAND` off here
        cut = argv.index("--")
        argv, server_command = argv[:cut], argv[cut + 1 :]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse's own usage errors exit 2 already; keep --help at 0
        return int(exc.code or 0)
    if args.command == "call":
        args.stdio = server_command
    return COMMANDS[args.command](parser, args)
