"""Test calls: send `tools/call` raw and judge the result against the accepted snapshot.

Four failure layers stay distinct: an unknown tool (local, nothing sent), the
transport (closed, timed out), a JSON-RPC error response, and a result with
`isError: true` (the server answered; the tool failed).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

import mcp_types as types

from catalog_inspector.core.connection import Connection
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind
from catalog_inspector.core.snapshot import Snapshot
from catalog_inspector.core.validation import ResultVerdict, check_result

__all__ = ["CallOutcome", "Judge", "call_tool", "find_tool", "judge_in_process"]

Layer = Literal["ok", "tool_error", "unknown_tool", "server_error", "timeout", "connection", "protocol", "cut_off"]
# ok            the server answered with a result (its verdict says how it measures up to the schema)
# tool_error    the server answered; the tool failed (isError: true)
# unknown_tool  not in the accepted catalog: nothing was sent
# server_error  a JSON-RPC error response
# timeout       no answer within the call's timeout (the server was sent a cancellation)
# connection    the transport closed or the process died
# protocol      the answer was malformed
# cut_off       a refresh replaced the session the call was made on, and it closed before the answer


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


async def call_tool(
    connection: Connection,
    snapshot: Snapshot,
    name: str,
    arguments: dict[str, Any] | None,
    timeout: float | None = None,
    judge: Judge = judge_in_process,
) -> CallOutcome:
    """Call `name` on `connection` and check the result against `snapshot`'s schema for it.

    `judge` checks the result; the default runs in this thread without a time limit.
    """
    tool = find_tool(snapshot, name)
    if tool is None:
        message = f"{name!r} is not in the accepted catalog; nothing was sent"
        return CallOutcome("unknown_tool", error=ErrorInfo(ErrorKind.PROTOCOL, message))
    request = types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments))
    start = time.perf_counter()
    try:
        result = (await connection.request(request, timeout=timeout)).result
    except CatalogError as exc:
        layers: dict[ErrorKind, Layer] = {
            ErrorKind.SERVER_ERROR: "server_error",
            ErrorKind.TIMEOUT: "timeout",
            ErrorKind.PROTOCOL: "protocol",
        }
        layer: Layer = layers.get(exc.kind, "connection")
        return CallOutcome(layer, error=exc.info, latency_ms=(time.perf_counter() - start) * 1000)
    latency = (time.perf_counter() - start) * 1000
    verdict = await judge(tool, result)
    layer = "tool_error" if result.get("isError") is True else "ok"
    return CallOutcome(layer, result, verdict, latency_ms=latency)
