"""Writing files safely: whole or not at all, and never over something that is not a file."""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

__all__ = ["file_stem", "write_text_safely"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_stem(name: str, limit: int) -> str:
    """`name` as a file name every platform takes: each run of other characters one `-`, no `-` or `.` at
    either end (no hidden file, no `..`), at most `limit` characters; "server" when nothing is left."""
    return _UNSAFE.sub("-", name).strip("-.")[:limit] or "server"


def write_text_safely(out: Path, write: Callable[[IO[str]], object]) -> None:
    """Call `write` with a text handle for `out`.

    A regular file (or a new path) is replaced atomically: written next to its
    target and renamed, so an interrupted run never leaves half a file, a
    replaced file keeps its permissions, and a symlink's target is replaced,
    not the link. Anything else (a FIFO, a character device such as
    /dev/stdout) is written through directly: renaming over a device path
    would replace the device with a file.

    Raises:
        OSError: the file could not be written (nothing was replaced).
    """
    try:
        mode: int | None = os.stat(out).st_mode  # follows links: /dev/stdout is a link to a pipe, a tty or a file
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with out.open("w", encoding="utf-8") as handle:
            write(handle)
        return
    target = Path(os.path.realpath(out))
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())  # on disk before the rename makes it the file: a crash keeps one whole version
        if mode is not None:
            os.chmod(tmp, stat.S_IMODE(mode))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
