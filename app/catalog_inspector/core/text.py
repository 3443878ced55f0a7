"""Making untrusted text safe to show: visible control characters, bounded length, name checks."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

__all__ = ["elide", "first_line", "is_plain_name", "visible", "visible_json"]

_PLAIN_NAME = re.compile(r"[A-Za-z0-9._-]{1,128}")
# Format (Cf: zero-width, bidi overrides, tag characters), control, private use, surrogates, separators.
_HIDDEN_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Zl", "Zp"})


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


# Only these can be hidden; the rest (printable ASCII) is passed over at C speed by the regex engine.
_CANDIDATE = re.compile(r"[^\x20-\x7e]")


def _shown(match: re.Match[str]) -> str:
    char = match.group()
    return _escape(char) if unicodedata.category(char) in _HIDDEN_CATEGORIES else char


def _shown_keeping_lines(match: re.Match[str]) -> str:
    char = match.group()
    return char if char in "\n\t" else _shown(match)


def visible(text: str, limit: int | None = None, keep_newlines: bool = False) -> str:
    """`text` with every invisible or direction-changing character written out as `\\uXXXX`."""
    if limit is not None and len(text) > limit:
        text = text[:limit]
        suffix = "…"
    else:
        suffix = ""
    probe = text.replace("\n", "").replace("\t", "") if keep_newlines else text
    if probe.isprintable():  # fast path (C speed): every hidden category is non-printable
        return text + suffix
    return _CANDIDATE.sub(_shown_keeping_lines if keep_newlines else _shown, text) + suffix


def _json_escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # JSON spells a character beyond the BMP as a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def visible_json(value: Any, indent: int | None = None) -> str:
    """`value` as JSON text with every invisible or direction-changing character written as a JSON escape.

    Unlike `visible(json.dumps(value))` the text still parses to `value`, so an editor may show it.
    """
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    if text.replace("\n", "").isprintable():  # fast path: every hidden category is non-printable
        return text
    # Raw newlines are the indentation (json.dumps escapes those inside strings); any other hidden
    # character can only be inside a string, where a \u escape stands for the same character.
    return "".join(
        _json_escape(char) if char != "\n" and unicodedata.category(char) in _HIDDEN_CATEGORIES else char
        for char in text
    )


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
