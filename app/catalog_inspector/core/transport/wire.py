"""A JSON-RPC message read off the wire as strict JSON: what is not JSON is refused, though the SDK would take it.

The SDK's parser accepts `NaN`, `Infinity` and numbers too large for a double
(`1e999` becomes `inf`): none is JSON (RFC 8259), and a catalog holding one cannot
be written back as JSON, so an inspector that took it would show and save what no
other client reads. Lines are parsed once, strictly, by pydantic-core's own JSON
parser (`from_json`, which refuses `NaN` and `Infinity`), and the message is then
validated from those objects; that is also several times faster than the SDK's
`validate_json` on a large page (10,000 tools: ~30 ms against ~300 ms, measured here).
"""

from __future__ import annotations

import math
import re
from typing import Any

import mcp_types as types
import pydantic_core

__all__ = ["NotJson", "not_json", "parse_message"]

# Only a number with a three-digit exponent can overflow a double: the rare line that has one is walked.
# A JSON number's exponent follows a digit: anchored there, the scan of a 2,000-tool page took 3.1 ms, not 4.6.
_BIG_EXPONENT = re.compile(rb"\d[eE][+]?\d{3,}")


class NotJson(ValueError):
    """The line is not strict JSON; `too_deep` when only its nesting is beyond the parser's limit."""

    def __init__(self, detail: str, too_deep: bool = False) -> None:
        super().__init__(detail)
        self.too_deep = too_deep


def _finite(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float):
            if not math.isfinite(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _strict(data: bytes) -> Any:
    try:
        parsed = pydantic_core.from_json(data, allow_inf_nan=False)
    except ValueError as exc:
        text = str(exc)
        raise NotJson(text, too_deep="recursion limit exceeded" in text) from exc
    if _BIG_EXPONENT.search(data) and not _finite(parsed):
        raise NotJson("a number too large for a double (JSON numbers must be finite)")
    return parsed


def not_json(data: bytes) -> str:
    """Why `data` (a whole HTTP body, one event's data) is not strict JSON, or "" when it is.

    The SDK parses HTTP bodies and events itself, leniently; this is the check it lacks (one more parse,
    in Rust: a 3 MB page takes a few tens of milliseconds).
    """
    try:
        _strict(data)
    except NotJson as exc:
        return "" if exc.too_deep else str(exc)  # too deep: the SDK's own parser refuses it, and says so
    return ""


def parse_message(line: bytes | str) -> types.JSONRPCMessage:
    """One JSON-RPC message from one line (or one event's data).

    Raises:
        NotJson: not strict JSON (`NaN`, `Infinity`, a number beyond a double, a syntax error, too deep).
        pydantic.ValidationError: JSON, but not a JSON-RPC message.
    """
    data = line.encode() if isinstance(line, str) else line
    return types.jsonrpc_message_adapter.validate_python(_strict(data), by_name=False)
