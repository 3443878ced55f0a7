"""Files: read within a cap and as strict JSON, written whole or not at all (never over something that is not a file).

Every file the CLI and the app read (config files, snapshots, arguments, pins, the
kept history) goes through `read_bounded`, with the cap for its kind below: a file
over its cap is refused before it is parsed, and a FIFO or a device such as
/dev/zero is read no further than the cap (reading them whole grew past 2 GiB in
seconds). JSON is read strictly (`parse_json`): NaN, Infinity and numbers beyond
a double are refused (Python's json takes them; nothing else does), and nesting
deeper than the interpreter follows is a one-line error, not a RecursionError.
Writers pass `allow_nan=False` for the same reason.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, BinaryIO

__all__ = [
    "MAX_ARGUMENTS_BYTES",
    "MAX_CONFIG_BYTES",
    "MAX_JSONC_BYTES",
    "MAX_SNAPSHOT_BYTES",
    "InputError",
    "NotStandardNumber",
    "file_stem",
    "finite_float",
    "parse_json",
    "read_bounded",
    "read_json",
    "read_stream_bounded",
    "read_text",
    "refuse_constant",
    "write_text_safely",
]

MIB = 1024 * 1024
# The caps, each far above any real file of its kind and far below what would hurt to hold in memory.
MAX_CONFIG_BYTES = 16 * MIB  # config files (ours, other clients'), pins, consent: 10,000 entries are ~2 MB
MAX_SNAPSHOT_BYTES = 128 * MIB  # snapshot files (diff, check --baseline, the kept history): 10,000 tools are ~3 MB
MAX_ARGUMENTS_BYTES = 8 * MIB  # --args-file: the sandbox checks no larger instance (core.calls.sandbox)
# A config that is not strict JSON is read again as JSONC (comments, trailing commas) by json5, which is
# pure Python: about 40 s per MiB, measured. Larger files must be strict JSON.
MAX_JSONC_BYTES = 256 * 1024


class InputError(ValueError):
    """A file (or an argument) that cannot be read as what it should be: over its cap, not UTF-8, not
    strict JSON, or nested too deeply. `str()` is one line naming it: "<name> <reason>".

    Attributes:
        name: how the input is named to the user (its path, or `--args`).
        reason: what is wrong, as the rest of a sentence ("is not valid JSON (line 1, column 2: …)").
    """

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name} {reason}")
        self.name = name
        self.reason = reason


def _size(count: int) -> str:
    if count >= MIB:
        return f"{count / MIB:g} MiB" if count % MIB == 0 else f"{count / MIB:.1f} MiB"
    return f"{count // 1024} KiB" if count % 1024 == 0 else f"{count:,} bytes"


def read_stream_bounded(stream: BinaryIO, limit: int, name: str, what: str) -> bytes:
    """At most `limit` bytes of `stream` (an open binary file, a pipe, stdin), read to its end.

    Raises:
        InputError: there is more than `limit` (a regular file over it is refused before reading).
        OSError: it could not be read.
    """
    try:
        info: os.stat_result | None = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file descriptor (a test's BytesIO, say)
        info = None
    cap = f"the {_size(limit)} cap on {what}"
    if info is not None and stat.S_ISREG(info.st_mode) and info.st_size > limit:
        raise InputError(name, f"is {_size(info.st_size)}, over {cap}; it was not read")
    data = stream.read(limit + 1)  # a buffered stream reads until it has this many bytes or the end
    if len(data) > limit:
        raise InputError(name, f"holds more than {cap}; it was not read")
    return data


def read_bounded(path: Path, limit: int, what: str, name: str | None = None) -> bytes:
    """The bytes of `path`, refused when over `limit` (`what`: the kind of file, for the message).

    A FIFO blocks until someone writes to it, as any reader would; SIGINT interrupts that.

    Raises:
        InputError: over the cap (named `name`, default the path).
        OSError: it could not be opened or read.
    """
    with open(path, "rb") as handle:
        return read_stream_bounded(handle, limit, name if name is not None else str(path), what)


def read_text(data: bytes, name: str) -> str:
    """`data` as UTF-8 text.

    Raises:
        InputError: it is not UTF-8 (the message says at which byte).
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(name, f"is not UTF-8 text (byte {exc.start}: {exc.reason})") from exc


class NotStandardNumber(Exception):
    """NaN, Infinity or a number beyond a double's range, met while parsing (see `refuse_constant`).

    Not a ValueError on purpose: json5 turns every ValueError raised inside it into a bare message.
    """


def refuse_constant(literal: str) -> Any:
    """A `parse_constant` for json (and json5) that refuses NaN, Infinity and -Infinity."""
    raise NotStandardNumber(f"{literal} is not a number in JSON")


def finite_float(literal: str) -> float:
    """A `parse_float` that refuses what a double cannot hold (1e999 would read as Infinity)."""
    number = float(literal)
    if not math.isfinite(number):
        raise NotStandardNumber(f"{literal[:40]} is beyond the range of a double")
    return number


def parse_json(text: str, name: str) -> Any:
    """`text` as strict JSON: no NaN or Infinity, no number beyond a double's range.

    Raises:
        InputError: not JSON, a non-standard number, or nested deeper than the interpreter can follow.
    """
    try:
        return json.loads(text, parse_constant=refuse_constant, parse_float=finite_float)
    except json.JSONDecodeError as exc:
        raise InputError(name, f"is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    except RecursionError as exc:
        raise InputError(name, "nests its JSON too deeply to read") from exc
    except (NotStandardNumber, ValueError) as exc:  # ValueError: an integer past Python's 4,300-digit limit
        raise InputError(name, f"is not valid JSON: {exc}") from exc


def read_json(path: Path, limit: int, what: str, name: str | None = None) -> Any:
    """`path` read within `limit` bytes, as UTF-8, as strict JSON (see `parse_json`).

    Raises:
        InputError: over the cap, not UTF-8, not strict JSON, nested too deeply (the message names it).
        OSError: it could not be opened or read.
    """
    name = name if name is not None else str(path)
    return parse_json(read_text(read_bounded(path, limit, what, name), name), name)


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
