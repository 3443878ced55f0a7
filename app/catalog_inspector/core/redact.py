"""Leaving secrets out of what is shown or written: URL credentials and query values, secret-looking arguments.

A configured URL may carry `user:password@` or `?api_key=…`; a stdio command line
may carry `--header 'Authorization: Bearer …'` or `--token …`. Everything that
shows or writes a server's target (snapshots, history, the window, the CLI) goes
through `ServerSpec.describe()`, which uses these; the real values are only used
to connect.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import parse_qsl, urlsplit, urlunsplit

__all__ = ["HIDDEN", "redacted_args", "redacted_url"]

HIDDEN = "…"
_SECRET_WORD = re.compile(r"(?i)(token|secret|passw|api[-_]?key|auth|bearer|credential)")
_HEADER_FLAGS = frozenset({"--header", "-H", "--headers"})


def redacted_url(url: str) -> str:
    """`url` without user, password and fragment, each query value replaced by `…` (the names stay)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if parts.port is not None:
            host = f"{host}:{parts.port}"
        query = "&".join(f"{key}={HIDDEN}" for key, _ in parse_qsl(parts.query, keep_blank_values=True))
        return urlunsplit((parts.scheme, host, parts.path, query, ""))
    except ValueError:
        return "(an unparsable URL)"


def redacted_args(args: Sequence[str]) -> list[str]:
    """Command-line words with what looks like a secret replaced by `…`: header values, the value
    after a flag or in a `name=value` whose name says token/key/secret/password/auth, URLs' credentials."""
    out: list[str] = []
    previous = ""
    for word in args:
        if previous in _HEADER_FLAGS:
            name, sep, _value = word.partition(":")
            word = f"{name}: {HIDDEN}" if sep else HIDDEN
        elif previous.startswith("-") and _SECRET_WORD.search(previous) and "=" not in previous:
            word = HIDDEN
        elif "://" in word:
            word = redacted_url(word)
        elif "=" in word and _SECRET_WORD.search(word.partition("=")[0]):
            word = word.partition("=")[0] + "=" + HIDDEN
        out.append(word)
        previous = word if word.startswith("-") else ""
    return out
