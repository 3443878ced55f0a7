"""Making untrusted text safe to show: visible control characters, bounded length, name checks."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["elide", "first_line", "is_plain_name", "visible"]

_PLAIN_NAME = re.compile(r"[A-Za-z0-9._-]{1,128}")
# Format (Cf: zero-width, bidi overrides, tag characters), control, private use, surrogates, separators.
_HIDDEN_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Zl", "Zp"})


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible(text: str, limit: int | None = None, keep_newlines: bool = False) -> str:
    """`text` with every invisible or direction-changing character written out as `\\uXXXX`."""
    if limit is not None and len(text) > limit:
        text = text[:limit]
        suffix = "…"
    else:
        suffix = ""
    out = []
    for char in text:
        if keep_newlines and char in "\n\t":
            out.append(char)
        elif unicodedata.category(char) in _HIDDEN_CATEGORIES:
            out.append(_escape(char))
        else:
            out.append(char)
    return "".join(out) + suffix


def is_plain_name(name: str) -> bool:
    """True for names made only of ASCII letters, digits, `.`, `_`, `-` (1 to 128 of them)."""
    return _PLAIN_NAME.fullmatch(name) is not None


def elide(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def first_line(text: str, limit: int = 300) -> str:
    """The first line of `text`, elided, with a marker when more follows."""
    line, _, rest = text.partition("\n")
    line = elide(line, limit)
    return line + " …" if rest.strip() and not line.endswith("…") else line
