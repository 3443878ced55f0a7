"""The `mcp-catalog-inspector` entry point: a subcommand runs headless, anything else opens the app."""

from __future__ import annotations

import sys

__all__ = ["main"]

HEADLESS_COMMANDS = ("snapshot", "diff", "check", "call")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and (args[0] in HEADLESS_COMMANDS or args[0] in ("-h", "--help")):
        from catalog_inspector import cli

        return cli.main(args)
    from catalog_inspector.ui.app import run_app

    return run_app(args)
