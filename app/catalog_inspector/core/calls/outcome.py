"""What a test call produced, as data: the layer it stopped at, in words, and the judge of its result.

Four failure layers stay distinct: an unknown tool (local, nothing sent), the
transport (closed, timed out), a JSON-RPC error response, and a result with
`isError: true` (the server answered; the tool failed). `core.session` sends the
requests and produces these; this module imports no SDK.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from catalog_inspector.core.calls.validation import ResultVerdict, check_result
from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.errors import ErrorInfo

__all__ = ["LAYER_WORDS", "CallOutcome", "Judge", "Layer", "find_tool", "judge_in_process"]

Layer = Literal[
    "ok", "tool_error", "unknown_tool", "server_error", "timeout", "connection", "protocol", "cut_off", "cancelled"
]
# ok            the server answered with a result (its verdict says how it measures up to the schema)
# tool_error    the server answered; the tool failed (isError: true)
# unknown_tool  not in the accepted catalog: nothing was sent
# server_error  a JSON-RPC error response
# timeout       no answer within the call's timeout (the server was sent a cancellation)
# connection    the transport closed or the process died
# protocol      the answer was malformed
# cut_off       a refresh replaced the session the call was made on, and it closed before the answer
# cancelled     the user stopped the call (the SDK sent notifications/cancelled)

# What each layer means to a person: a heading, and whether the request reached the server.
LAYER_WORDS: dict[str, tuple[str, bool]] = {
    "ok": ("The server answered", True),
    "tool_error": ("Tool error: the server answered with isError: true", True),
    "unknown_tool": ("Unknown tool: not in the accepted catalog, nothing was sent", False),
    "invalid_arguments": ("Invalid arguments: nothing was sent", False),
    "server_error": ("JSON-RPC error: the server refused the request", True),
    "timeout": ("Timeout: no answer in time (the server was told to cancel)", True),
    "connection": ("Connection: the transport closed or the server process is gone", True),
    "protocol": ("Protocol: the answer was malformed", True),
    "cut_off": ("Cut off: a refresh replaced the session before the answer came", True),
    "cancelled": ("Cancelled: you stopped the call (the server was told to cancel)", True),
}


@dataclass(frozen=True)
class CallOutcome:
    """What a test call produced, and at which layer it stopped."""

    layer: Layer
    result: dict[str, Any] | None = None
    verdict: ResultVerdict | None = None
    error: ErrorInfo | None = None
    latency_ms: float = 0.0


def find_tool(snapshot: Snapshot, name: str) -> dict[str, Any] | None:
    if snapshot.tools.status != "complete":
        return None
    return next((t for t in snapshot.tools.items if t.get("name") == name), None)


Judge = Callable[[dict[str, Any], dict[str, Any]], Awaitable[ResultVerdict]]
"""Checks a raw result against a raw tool's output schema (the app's is bounded, in the sandbox process)."""


async def judge_in_process(tool: dict[str, Any], result: dict[str, Any]) -> ResultVerdict:
    """`check_result` in this thread, with no time limit (the CLI's judge)."""
    return check_result(tool, result)
