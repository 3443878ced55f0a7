"""The head start: a command's stdio server started before the engine is imported, so both start at once.

A walk cannot begin before two start-ups are done: ours (the SDK and its two generations of
models, about a second of imports) and the server's (often the same SDK, another second).
Done one after the other they add up; this starts the server first, from the command line
alone, and the engine takes that very process when it asks for it (`core.processes`).

Only the plain form `COMMAND [OPTION...] -- SERVER [ARG...]` is read here: argparse ends
the options at the first `--`, so what follows is exactly the server the command will
start, with no environment of its own and no working directory. The environment is the
SDK's allowlist, copied (importing the SDK is what this avoids; a test keeps the copy
true). Anything else (`--server`, `--url`, `--help`, a `check` whose baseline or lockfile is not a
plain file: it may never come, and then no server is to start) gets no head start and is
started as always. A head start that the command does not take (a usage error came first) is killed
when the command ends.

Signals keep what they did before: while the engine loads, TERM, HUP and INT are held
(nothing else runs that could answer them); from `loaded` on, one kills the server if the
command has not taken it yet, then does what it always did (INT: "stopped by SIGINT",
exit 130; TERM and HUP: the default, death by that signal). A walk listens for them itself,
as it always did.

Imports only what needs no SDK: `core.processes` and the standard library.
"""

from __future__ import annotations

import os
import signal
import stat
import sys
import threading
from types import FrameType

from catalog_inspector.core.processes import end_unclaimed, start_early

__all__ = ["INHERITED_ENVIRONMENT", "begin", "finish", "inherited_environment", "loaded"]

WALKING = ("snapshot", "check", "approve", "call", "prompt", "read")
# mcp.client.stdio.DEFAULT_INHERITED_ENV_VARS on POSIX (no head start on Windows).
INHERITED_ENVIRONMENT = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
HELD_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)  # as cli.common.STOP_SIGNALS

_held: dict[int, object] = {}  # signal -> the handler it had before the head start
_pending: list[int] = []


def inherited_environment() -> dict[str, str]:
    """What `mcp.client.stdio.get_default_environment()` gives a server on POSIX: the allowlist, no shell functions."""
    return {
        key: value
        for key in INHERITED_ENVIRONMENT
        if (value := os.environ.get(key)) is not None and not value.startswith("()")
    }


def begin(argv: list[str]) -> bool:
    """Start the server `argv` names after its `--`, if the command walks one; whether one was started."""
    if sys.platform == "win32" or len(argv) < 3 or argv[0] not in WALKING or "--" not in argv:
        return False
    cut = argv.index("--")
    options, server = argv[1:cut], argv[cut + 1 :]
    if not server or any(word in ("-h", "--help") for word in options):
        return False
    if argv[0] == "check" and not _inputs_are_files(options):
        return False  # check starts no server while its baseline may never come (a FIFO): its deadline decides
    if threading.current_thread() is not threading.main_thread():
        return False  # signals can be held only from the main thread
    for signum in HELD_SIGNALS:
        previous = signal.signal(signum, _hold)
        _held.setdefault(signum, previous)  # begun twice (a test running commands in-process): the first one's
    if start_early(server, env=inherited_environment(), cwd=None):
        return True
    finish()
    return False


def _inputs_are_files(options: list[str]) -> bool:
    """Whether every file `check` reads before its walk (`--baseline`, `--pins`) is a regular file."""
    for index, word in enumerate(options):
        for flag in ("--baseline", "--pins"):
            path = options[index + 1] if word == flag and index + 1 < len(options) else None
            if word.startswith(flag + "="):
                path = word.partition("=")[2]
            if path is not None:
                try:
                    if not stat.S_ISREG(os.stat(path).st_mode):
                        return False
                except OSError:
                    return False
    return True


def _hold(signum: int, _frame: FrameType | None) -> None:
    _pending.append(signum)


def _act(signum: int, _frame: FrameType | None = None) -> None:
    end_unclaimed()  # nobody else would: the server is not the command's yet
    _release()
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    signal.raise_signal(signum)  # its own handler again (by default: the end of this process)


def loaded() -> None:
    """The engine is loaded and the command begins: a signal held meanwhile is answered now, later ones at once."""
    if not _held:
        return
    if (held := _take_pending()) is not None:
        _act(held)
        return
    for signum in HELD_SIGNALS:
        signal.signal(signum, _act)


def finish() -> None:
    """The command is over: the handlers it replaced go back, and a signal still held is delivered."""
    for signum in HELD_SIGNALS:
        if signal.getsignal(signum) not in (_hold, _act):
            _held.pop(signum, None)  # a walk's receiver took it over: it left that signal's default behind
    _release()
    if (held := _take_pending()) is not None:
        signal.raise_signal(held)


def _take_pending() -> int | None:
    """The first signal held (the others were the same request, repeated), or None."""
    signum = _pending[0] if _pending else None
    _pending.clear()
    return signum


def _release() -> None:
    while _held:
        signum, handler = _held.popitem()
        signal.signal(signum, handler)  # type: ignore[arg-type]
