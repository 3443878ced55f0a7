"""`core.transport.sdk.validate_server_result`: the SDK's check of every result, without the dump it throws away.

It must accept and refuse exactly what the installed SDK's own check does, with the same errors:
each case runs through both (the SDK's is `serialize_server_result`, the validation and the dump).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp_types import methods
from pydantic import ValidationError

from catalog_inspector.core.transport import sdk

TOOL = {"name": "search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
CACHE = {"cacheScope": "private", "resultType": "complete", "ttlMs": 0}  # what 2026-07-28 list results must carry
RESULTS: list[tuple[str, str, Any]] = [
    ("tools/list", "2025-11-25", {"tools": [TOOL], "nextCursor": "2"}),
    ("tools/list", "2026-07-28", {"tools": [TOOL], **CACHE}),
    ("tools/list", "2026-07-28", {"tools": [TOOL]}),  # no cache hints: refused
    ("tools/list", "2025-11-25", {"tools": [{"name": "no schema"}]}),
    ("tools/list", "2025-11-25", {"tools": [{"name": 3, "inputSchema": {"type": "object"}}]}),
    ("tools/list", "2025-11-25", {"tools": "not a list"}),
    ("tools/list", "2026-07-28", {"tools": [TOOL], **CACHE, "ttlMs": -1}),
    ("prompts/list", "2025-11-25", {"prompts": [{"name": "p", "arguments": [{"name": "a"}]}]}),
    ("resources/list", "2025-11-25", {"resources": [{"uri": "file:///a", "name": "a"}]}),
    ("resources/list", "2025-11-25", {"resources": [{"uri": 7, "name": "a"}]}),
    ("tools/call", "2025-11-25", {"content": [{"type": "text", "text": "hi"}]}),
    ("tools/call", "2025-11-25", {"content": [{"type": "nope"}]}),
    ("ping", "2025-11-25", {}),
    ("tools/list", "1999-01-01", {"tools": []}),  # not a version: ValueError
    ("no/such/method", "2025-11-25", {}),  # not a method of the version: KeyError
]


def _outcome(check: Any, method: str, version: str, data: Any) -> tuple[str, Any]:
    try:
        check(method, version, data)
    except ValidationError as exc:
        return "ValidationError", exc.errors(include_url=False)
    except (ValueError, KeyError) as exc:
        return type(exc).__name__, str(exc)
    return "ok", None


def test_the_sessions_check_of_every_result_is_ours() -> None:
    assert methods.validate_server_result is sdk.validate_server_result


@pytest.mark.parametrize(("method", "version", "data"), RESULTS)
def test_it_accepts_and_refuses_what_the_sdks_own_check_does(method: str, version: str, data: Any) -> None:
    ours = _outcome(sdk.validate_server_result, method, version, data)
    theirs = _outcome(methods.serialize_server_result, method, version, data)
    assert ours == theirs


def test_the_cases_above_cover_both_answers() -> None:
    kinds = {_outcome(sdk.validate_server_result, *case)[0] for case in RESULTS}
    assert kinds == {"ok", "ValidationError", "ValueError", "KeyError"}


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
TOOLISH = st.fixed_dictionaries(
    {}, optional={"name": JSON | st.text(max_size=8), "inputSchema": JSON | st.just({"type": "object"})}
)


LISTISH = st.fixed_dictionaries(
    {},
    optional={
        "tools": st.lists(TOOLISH, max_size=3),
        "nextCursor": JSON,
        "cacheScope": st.sampled_from(["private", "public", "shared"]),
        "resultType": st.sampled_from(["complete", 1]),
        "ttlMs": st.integers(-1, 5),
    },
)


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(sorted(methods.SERVER_RESULTS)), data=LISTISH | JSON)
def test_on_any_value_it_answers_as_the_sdk_does(key: tuple[str, str], data: Any) -> None:
    method, version = key
    assert _outcome(sdk.validate_server_result, method, version, data) == _outcome(
        methods.serialize_server_result, method, version, data
    )
