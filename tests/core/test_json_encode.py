"""`one_shot`: the same text as `JSONEncoder.encode` for any value, under the options the app uses, and after a
value it refused."""

import json
import math
import threading
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog_inspector.core.json_encode import one_shot

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)
OPTIONS: list[dict[str, Any]] = [
    {"ensure_ascii": False, "allow_nan": False},  # the snapshot document's lines
    {"ensure_ascii": False, "separators": (",", ":"), "default": str},  # the token counter's texts
    {},
    {"sort_keys": True, "separators": (",", ":")},
]


@given(JSON, st.sampled_from(OPTIONS))
def test_any_json_value_is_encoded_as_json_encoder_encodes_it(value: object, options: dict[str, Any]) -> None:
    encode = one_shot(**options)
    expected = json.JSONEncoder(**options).encode(value)
    assert encode(value) == expected
    assert encode(value) == expected  # the kept encoder, again


def test_a_refused_value_raises_as_encode_does_and_the_next_one_is_encoded() -> None:
    encode = one_shot(ensure_ascii=False, allow_nan=False)
    row = {"x": math.nan}
    page = [row]
    looped: list[Any] = []
    looped.append(looped)
    for bad in (page, looped):
        with pytest.raises(ValueError):
            json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode(bad)
        with pytest.raises(ValueError):
            encode(bad)
    # What was being encoded when it stopped is not taken for a circular reference the next time.
    row["x"] = 1.5
    assert encode(page) == '[{"x": 1.5}]'
    assert encode({"é": "\u2028"}) == '{"é": "\u2028"}'
    assert one_shot(default=str)({1: object}) == json.JSONEncoder(default=str).encode({1: object})


def test_with_an_indent_it_is_encode_itself() -> None:
    value = {"a": [1, {"b": None}]}
    assert one_shot(indent=2)(value) == json.dumps(value, indent=2)


def test_two_threads_encode_the_same_objects_at_once() -> None:
    # One thread is held inside its encoding (in `default`, with the list and its dict marked as being encoded)
    # while this one encodes the same list: each thread's encoder has marks of its own.
    inside, second_done = threading.Event(), threading.Event()
    answers: list[str] = []

    def default(value: object) -> str:
        if threading.current_thread() is first:
            inside.set()
            assert second_done.wait(10), "the second encoding never ended"
        return "later"

    encode = one_shot(default=default)
    shared = [{"a": Later()}]
    first = threading.Thread(target=lambda: answers.append(encode(shared)))
    first.start()
    try:
        assert inside.wait(10)
        assert encode(shared) == '[{"a": "later"}]'
    finally:
        second_done.set()
        first.join(10)
    assert answers == ['[{"a": "later"}]']


class Later:
    """A value the encoder hands to `default`."""
