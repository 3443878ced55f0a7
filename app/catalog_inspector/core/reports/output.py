"""`--report FORMAT=FILE`: the option read, and every requested report written whole or not at all."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

from catalog_inspector.core.files import write_text_safely
from catalog_inspector.core.reports.junit import write_junit
from catalog_inspector.core.reports.markdown import write_markdown
from catalog_inspector.core.reports.model import ServerReport
from catalog_inspector.core.reports.sarif import write_sarif

__all__ = ["FORMATS", "STDOUT", "parse_report_option", "render_report", "write_reports"]

FORMATS = ("junit", "markdown", "sarif")
STDOUT = Path("-")  # FILE `-`: the report goes to standard output


def parse_report_option(text: str) -> tuple[str, Path]:
    """`FORMAT=FILE` as (format, path); FILE `-` is `STDOUT`.

    Raises:
        ValueError: no `=`, an unknown format, or no file (the message names the option and the formats).
    """
    name, equals, file = text.partition("=")
    formats = ", ".join(FORMATS)
    if not equals:
        raise ValueError(f"--report takes FORMAT=FILE (FORMAT one of {formats}), not {text!r}")
    fmt = name.strip().lower()
    if fmt not in FORMATS:
        raise ValueError(f"--report: unknown format {name!r} (known: {formats})")
    if not file:
        raise ValueError(f"--report {fmt}= needs a file after '=' ('-' for standard output)")
    return fmt, STDOUT if file == "-" else Path(file)


def render_report(fmt: str, reports: Sequence[ServerReport], tool_version: str) -> str:
    """The text of one report in `fmt` (one of `FORMATS`).

    Raises:
        ValueError: an unknown format.
    """
    if fmt == "junit":
        return write_junit(reports)
    if fmt == "markdown":
        return write_markdown(reports)
    if fmt == "sarif":
        # allow_nan=False: a NaN would make text no other JSON reader takes (see core.files)
        return json.dumps(write_sarif(reports, tool_version), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    raise ValueError(f"unknown report format {fmt!r} (known: {', '.join(FORMATS)})")


def write_reports(options: Sequence[tuple[str, Path]], reports: Sequence[ServerReport], tool_version: str) -> None:
    """Write each requested report: (format, path) pairs from `parse_report_option`.

    Every text is made before any file is touched, so a report that cannot be made leaves
    every file as it was; each file is then replaced whole (`write_text_safely`), or written
    to standard output for `STDOUT`.

    Raises:
        ValueError: an unknown format, or one file named twice (the second would replace the first).
        OSError: a file could not be written (that file is as it was; the ones before it are written).
    """
    seen: set[Path] = set()
    for _fmt, path in options:
        if path in seen:
            raise ValueError(f"--report names {'standard output' if path == STDOUT else str(path)} twice")
        seen.add(path)
    texts = [(path, render_report(fmt, reports, tool_version)) for fmt, path in options]
    for path, text in texts:
        if path == STDOUT:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            write_text_safely(path, _writer(text))


def _writer(text: str) -> Callable[[IO[str]], object]:
    """A `write_text_safely` callback that writes `text` (a function per text: a lambda in the loop would not bind it)."""
    return lambda handle: handle.write(text)
