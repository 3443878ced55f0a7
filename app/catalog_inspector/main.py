"""The `mcp-catalog-inspector` entry point: a subcommand runs headless, -h lists both, anything else opens the app.

Two hidden first arguments come before both: `--run-demo-server ARGS…` and
`--run-sandbox-worker` run a helper process's module instead of the app. A
frozen bundle (PyInstaller) starts its own helpers that way, since it has no
interpreter to give `-m` to (see `core.launch`); they work from source too.
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Callable

__all__ = ["main"]

HEADLESS_COMMANDS = ("snapshot", "diff", "check", "call", "prompt", "read", "signout")
SANDBOX_WORKER = "catalog_inspector.core.calls.sandbox_worker"


def _run_demo_server(args: list[str]) -> int:
    from catalog_inspector.demo.__main__ import main as demo_main

    demo_main(args)
    return 0


def _run_sandbox_worker(args: list[str]) -> int:
    if args:
        print(f"mcp-catalog-inspector: the sandbox worker takes no arguments, got {args!r}", file=sys.stderr)
        return 2
    # By name, as `python -m` would run it: the worker is a program of its own, not part of a room's face.
    importlib.import_module(SANDBOX_WORKER).main()
    return 0


# By module name, as `core.launch.ENTRY_FLAGS` lists them (a test checks both name the same modules).
HELPERS: dict[str, Callable[[list[str]], int]] = {
    "catalog_inspector.demo": _run_demo_server,
    SANDBOX_WORKER: _run_sandbox_worker,
}


def _skip_the_last_collections() -> None:
    """The command is done: let the interpreter exit without rescanning every object it made.

    Its teardown runs full collections over whatever is alive, and the SDK, pydantic and the
    snapshot leave hundreds of thousands of objects: 0.6-1.0 s after the last word on the
    2-core machine, longer than the whole close of the session (issue 20). Frozen objects are
    never scanned; they are still freed as the modules are cleared (files closed and flushed),
    and the standard streams are flushed as always: only garbage caught in a cycle is left
    to the end of the process, which takes back its memory anyway.
    """
    gc.freeze()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0].startswith("--run-"):
        from catalog_inspector.core.launch import ENTRY_FLAGS

        for module, flag in ENTRY_FLAGS.items():
            if args[0] == flag:
                return HELPERS[module](args[1:])
    # A first word that is no option is a command, known or not: the app takes options only, and the
    # CLI can name the commands and the one that was meant (`snapshto`).
    if args and (args[0] in HEADLESS_COMMANDS or not args[0].startswith("-")):
        from catalog_inspector import cli

        try:
            return cli.main(args)
        finally:
            _skip_the_last_collections()
    if "-h" in args or "--help" in args:  # one help for the app and the commands (cli's top-level parser)
        from catalog_inspector import cli

        return cli.main(["--help"])
    from catalog_inspector.ui.app import run_app

    return run_app(args)
