"""`visible`: every hidden character written out, everything else kept, whatever the text."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from catalog_inspector.core.text import visible

HIDDEN = {"Cf", "Cc", "Co", "Cs", "Zl", "Zp"}


def one_by_one(text: str, keep_newlines: bool) -> str:
    """The definition, a character at a time."""
    out = []
    for char in text:
        if (keep_newlines and char in "\n\t") or unicodedata.category(char) not in HIDDEN:
            out.append(char)
        else:
            code = ord(char)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
    return "".join(out)


@given(st.text(st.characters(codec=None)), st.booleans())
def test_visible_escapes_exactly_the_hidden_characters(text: str, keep_newlines: bool) -> None:
    assert visible(text, keep_newlines=keep_newlines) == one_by_one(text, keep_newlines)


def test_bidi_overrides_zero_width_tags_and_separators_are_written_out() -> None:
    assert visible("a\u202eb\u200bc\U000e0041d\u2028e\x1b[31m") == "a\\u202eb\\u200bc\\U000e0041d\\u2028e\\u001b[31m"
    assert visible("line\n\tnext", keep_newlines=True) == "line\n\tnext"
    assert visible("x" * 10 + "\u202e", limit=5) == "xxxxx…"
