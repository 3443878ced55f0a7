"""Classifying what the SDK, anyio or the OS raises into the kinds of `core.errors`, once.

ExceptionGroups are unwrapped to their leaves first; a transport's own fault
wins over the "connection closed" it causes. This is the one module that knows
the shapes of the SDK's exceptions; those of HTTP and OAuth are `core.transport.http_faults`' (loaded with httpx).
"""

from __future__ import annotations

import re
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from catalog_inspector.core.errors import CatalogError, ErrorKind, leaves, make_error
from catalog_inspector.core.text import visible

__all__ = ["NESTING_LIMIT", "TOO_DEEP", "classify", "too_deep"]

# Errors the SDK makes up locally, recognised by code and exact wording: its own
# request timeout and closed connection, and the JSON-RPC errors its HTTP
# transport synthesizes for HTTP-level failures. A server's own error with a
# different message keeps its code and is a server_error. The SDK gives these no
# type of their own, so each wording has a canary in tests/core/test_sdk_boundary.py
# that makes the installed SDK say it: an SDK that words one differently fails there.
NESTING_LIMIT = 200  # pydantic-core's JSON parser refuses documents nested deeper than this
TOO_DEEP = f"nested more than {NESTING_LIMIT} levels deep, where the JSON parser stops"
_LOCAL_TIMEOUT = re.compile(r"Request '[^']*' timed out")
_SYNTHESIZED: tuple[tuple[int, re.Pattern[str], ErrorKind, str], ...] = (
    (
        types.CONNECTION_CLOSED,
        re.compile(r"Connection closed"),
        ErrorKind.CONNECTION,
        "the connection to the server closed",
    ),
    (
        types.CONNECTION_CLOSED,
        re.compile(r"SSE stream ended without a response"),
        ErrorKind.CONNECTION,
        "the server's event stream ended without a response",
    ),
    (
        types.CONNECTION_CLOSED,
        re.compile(r"SSE stream failed: Server-sent event exceeded the (?P<cap>\d+) byte limit\."),
        ErrorKind.SIZE_LIMIT,
        "an event on the server's stream exceeded the {cap}-byte cap",
    ),
    (
        types.CONNECTION_CLOSED,
        re.compile(r"SSE stream failed: (?P<why>.*)", re.S),
        ErrorKind.CONNECTION,
        "the server's event stream failed: {why}",
    ),
    (
        types.INVALID_REQUEST,
        re.compile(r"Redirect to (?P<location>\S+) not followed\b.*", re.S),
        ErrorKind.CONNECTION,
        "the server redirected to {location} instead of answering: not followed",
    ),
    (
        types.INVALID_REQUEST,
        re.compile(r"server answered a request with 202 Accepted"),
        ErrorKind.PROTOCOL,
        "the server answered a request with 202 Accepted, which says no answer will follow",
    ),
    (
        types.METHOD_NOT_FOUND,
        re.compile(r"Not Found"),
        ErrorKind.CONNECTION,
        "HTTP 404 Not Found: is the URL the MCP endpoint?",
    ),
    (
        types.INVALID_REQUEST,
        re.compile(r"Session terminated"),
        ErrorKind.CONNECTION,
        "the server ended the HTTP session (404)",
    ),
    (
        types.INTERNAL_ERROR,
        re.compile(r"Server returned an error response"),
        ErrorKind.CONNECTION,
        "the server answered with an HTTP error status",
    ),
    (
        types.PARSE_ERROR,
        re.compile(r"Failed to parse (JSON response|SSE message): .*recursion limit exceeded.*", re.S),
        ErrorKind.PROTOCOL,
        f"the server sent a response {TOO_DEEP}",
    ),
    (
        types.PARSE_ERROR,
        re.compile(r"Failed to parse (JSON response|SSE message): .*", re.S),
        ErrorKind.PROTOCOL,
        "malformed HTTP response: {}",
    ),
    (
        types.INVALID_REQUEST,
        re.compile(r"Unexpected content type: .*", re.S),
        ErrorKind.PROTOCOL,
        "malformed HTTP response: {}",
    ),
)


def too_deep(exc: BaseException) -> bool:
    """Whether parsing failed only because the JSON is nested beyond the parser's limit."""
    return isinstance(exc, ValidationError) and any(
        "recursion limit exceeded" in str(problem.get("msg", "")) for problem in exc.errors()
    )


# What a 2026-07-28 input_required result may ask of a client (an InputRequest); completing.py reads it too.
INPUT_METHODS = ("elicitation/create", "sampling/createMessage", "roots/list")


def _malformed_question(problems: list[Any]) -> str | None:
    """Why an `input_required` result was refused, in its own terms (not the complete result's missing fields)."""
    asked = [p for p in problems if p["loc"][:1] == ("InputRequiredResult",)]
    if not asked or len(asked) == len(problems):
        return None
    first = asked[0]
    loc = first["loc"]
    if len(loc) >= 3 and loc[1] == "inputRequests":
        key = visible(str(loc[2]), 100)
        method = next((p["input"] for p in asked if p["loc"][3:] and p["loc"][-1] == "method"), None)
        if isinstance(method, str) and method not in INPUT_METHODS:
            return (
                f"malformed input_required result: inputRequests[{key!r}] asks {visible(method, 100)!r}, "
                f"which is none of {', '.join(INPUT_METHODS)}"
            )
        return f"malformed input_required result: inputRequests[{key!r}]: {visible(str(first['msg']), 200)}"
    where = ".".join(str(part) for part in loc[1:])
    return f"malformed input_required result: {visible(where, 200)}: {visible(str(first['msg']), 200)}"


def _classify_leaf(exc: BaseException, page: int | None) -> CatalogError | None:
    if isinstance(exc, CatalogError):
        return exc
    # An exception of httpx (or of the SDK's OAuth client, which stands on it) exists only once httpx is
    # imported: a stdio walk never loads HTTP's classifier, nor httpx.
    if "httpx2" in sys.modules:
        from catalog_inspector.core.transport.http_faults import http_leaf

        if (found := http_leaf(exc, page)) is not None:
            return found
    if isinstance(exc, MCPError):
        if exc.code == types.REQUEST_TIMEOUT and _LOCAL_TIMEOUT.fullmatch(exc.message):
            return make_error(ErrorKind.TIMEOUT, f"no answer within the request timeout ({exc.message})", page)
        for code, pattern, kind, text in _SYNTHESIZED:
            if exc.code == code and (match := pattern.fullmatch(exc.message)):
                parts = {key: visible(value, 200) for key, value in match.groupdict().items()}
                return make_error(kind, text.format(exc.message, **parts), page)
        details = {"code": exc.code, "message": exc.message, "data": exc.data}
        return make_error(
            ErrorKind.SERVER_ERROR, f"the server answered with an error: {exc.message}", page, exc.code, details
        )
    if isinstance(exc, ValidationError):
        problems = exc.errors()
        asked = _malformed_question(problems)
        if asked is not None:
            return make_error(ErrorKind.PROTOCOL, asked, page)
        where = ".".join(str(p) for p in problems[0]["loc"]) if problems else ""
        what = problems[0]["msg"] if problems else str(exc)
        return make_error(ErrorKind.PROTOCOL, f"malformed response: {where}: {what}", page)
    if isinstance(exc, TimeoutError):
        return make_error(ErrorKind.TIMEOUT, "the overall deadline ran out", page)
    if isinstance(exc, FileNotFoundError | PermissionError):
        return make_error(ErrorKind.CONNECTION, f"could not start the server: {exc}", page)
    if isinstance(exc, OSError | EOFError | ConnectionError):
        return make_error(ErrorKind.CONNECTION, f"connection failed: {exc}", page)
    if isinstance(exc, anyio.ClosedResourceError | anyio.BrokenResourceError | anyio.EndOfStream):
        return make_error(ErrorKind.CONNECTION, "the connection to the server closed", page)
    name = type(exc).__name__
    if name.endswith(("TransportError", "HTTPError", "ConnectError", "RemoteProtocolError")) or name.startswith("HTTP"):
        return make_error(ErrorKind.CONNECTION, f"HTTP transport failed: {exc}", page)
    if isinstance(exc, RuntimeError | ValueError):
        return make_error(ErrorKind.PROTOCOL, f"{exc}", page)
    return None


def classify(exc: BaseException, page: int | None = None) -> CatalogError:
    """Classify anything raised while talking to a server.

    Leaves are examined in order; a classified `CatalogError` wins, then the
    first leaf that says more than "the connection closed" (a closed pipe is
    usually the consequence, not the cause).
    """
    all_leaves = leaves(exc)
    for leaf in all_leaves:
        if isinstance(leaf, CatalogError):
            return leaf
    found = [c for c in (_classify_leaf(leaf, page) for leaf in all_leaves) if c is not None]
    for candidate in found:
        if candidate.kind is not ErrorKind.CONNECTION:
            return candidate
    if found:
        return found[0]
    return make_error(ErrorKind.CONNECTION, f"{type(exc).__name__}: {exc}", page)
