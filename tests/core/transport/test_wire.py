"""`core.transport.wire`: a line is strict JSON or it is refused, with the reason; numbers beyond a double too."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_inspector.core.transport.wire import not_json

TOO_BIG = "a number too large for a double (JSON numbers must be finite)"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"a": 1e400}', TOO_BIG),
        ('{"a": 1E+400}', TOO_BIG),
        ('{"a": -1.5e309}', TOO_BIG),
        ("[0, 12e0999]", TOO_BIG),
        ('{"a": {"b": [1, 2, 3e400]}}', TOO_BIG),
        ('{"a": 1e308}', ""),  # the largest exponent a double holds
        ('{"a": 1e-400}', ""),  # too small underflows to zero: a finite number
        ('{"a": 0.5e-999}', ""),
        ('{"a": "1e400"}', ""),  # in a string: text
        ('{"tool_00001e400": "x"}', ""),
        ('{"a": 1e400', None),  # not JSON at all: the parser's own words
    ],
)
def test_a_number_beyond_a_double_is_refused_wherever_it_is(text: str, why: str | None) -> None:
    found = not_json(text.encode())
    if why is None:
        assert found
    else:
        assert found == why


@settings(max_examples=200, deadline=None)
@given(
    mantissa=st.integers(-(10**6), 10**6),
    fraction=st.one_of(st.none(), st.integers(0, 999)),
    marker=st.sampled_from(["e", "E"]),
    sign=st.sampled_from(["", "+", "-"]),
    exponent=st.integers(0, 1200),
    pad=st.text(alphabet="etool_0123 ", max_size=20),
)
def test_any_number_is_refused_exactly_when_it_is_beyond_a_double(
    mantissa: int, fraction: int | None, marker: str, sign: str, exponent: int, pad: str
) -> None:
    number = f"{mantissa}{'' if fraction is None else f'.{fraction}'}{marker}{sign}{exponent}"
    text = json.dumps({"pad": pad, "n": [None]}).replace("null", number)
    finite = float(number) not in (float("inf"), float("-inf"))
    assert not_json(text.encode()) == ("" if finite else TOO_BIG)
