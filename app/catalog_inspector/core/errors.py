"""Every way a catalog walk or a call can fail, classified once.

The tree::

    Exception
    └── CatalogError            a classified failure: kind, message, page, code
        ├── WalkRejected        the server answered, but the catalog breaks a rule or a budget
        │                       (duplicate_name, cursor_repeated, page_limit, item_limit, size_limit)
        └── WalkFailed          no usable answer (server_error, timeout, connection, protocol)

`classify()` turns anything the SDK, anyio or the OS raises into one of these,
unwrapping ExceptionGroups to their leaves first, so the UI and the CLI render
one error path.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

__all__ = [
    "CatalogError",
    "ErrorInfo",
    "ErrorKind",
    "WalkFailed",
    "WalkRejected",
    "classify",
    "leaves",
]


class ErrorKind(enum.StrEnum):
    # Rejections: the server answered, the catalog is not acceptable.
    DUPLICATE_NAME = "duplicate_name"  # a key appeared twice in one walk
    CURSOR_REPEATED = "cursor_repeated"  # a next cursor was one already sent (A->A, A->B->A)
    PAGE_LIMIT = "page_limit"  # the page budget ran out before the last page
    ITEM_LIMIT = "item_limit"  # the item budget ran out before the last page
    SIZE_LIMIT = "size_limit"  # one response was larger than the byte cap
    # Failures: no usable answer.
    SERVER_ERROR = "server_error"  # a JSON-RPC error response
    TIMEOUT = "timeout"  # a request or the whole walk ran out of time
    CONNECTION = "connection"  # spawn failure, process exit, transport closed
    PROTOCOL = "protocol"  # a malformed response, or a non-JSON-RPC line on the wire

    @property
    def rejected(self) -> bool:
        return self in _REJECTIONS


_REJECTIONS = frozenset(
    {
        ErrorKind.DUPLICATE_NAME,
        ErrorKind.CURSOR_REPEATED,
        ErrorKind.PAGE_LIMIT,
        ErrorKind.ITEM_LIMIT,
        ErrorKind.SIZE_LIMIT,
    }
)


@dataclass(frozen=True)
class ErrorInfo:
    """The JSON-able description of a failure (`{kind, message, page, code}`)."""

    kind: ErrorKind
    message: str
    page: int | None = None
    code: int | None = None
    list_name: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": str(self.kind), "message": self.message, "page": self.page, "code": self.code}
        if self.list_name is not None:
            data["list"] = self.list_name
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ErrorInfo:
        return cls(ErrorKind(data["kind"]), str(data["message"]), data.get("page"), data.get("code"), data.get("list"))


class CatalogError(Exception):
    """A classified failure. `info` carries everything a user needs to see."""

    def __init__(self, info: ErrorInfo) -> None:
        super().__init__(info.message)
        self.info = info

    @property
    def kind(self) -> ErrorKind:
        return self.info.kind


class WalkRejected(CatalogError):
    """The server answered, but the catalog breaks a rule or a budget."""


class WalkFailed(CatalogError):
    """No usable answer: JSON-RPC error, timeout, lost connection, malformed data."""


def make_error(kind: ErrorKind, message: str, page: int | None = None, code: int | None = None) -> CatalogError:
    info = ErrorInfo(kind, message, page, code)
    return WalkRejected(info) if kind.rejected else WalkFailed(info)


def leaves(exc: BaseException) -> list[BaseException]:
    """The non-group exceptions inside `exc`, depth first."""
    if isinstance(exc, BaseExceptionGroup):
        found: list[BaseException] = []
        for inner in exc.exceptions:
            found.extend(leaves(inner))
        return found
    return [exc]


# Errors the SDK makes up locally, recognised by code and exact wording: its own
# request timeout and closed connection, and the JSON-RPC errors its HTTP
# transport synthesizes for HTTP-level failures. A server's own error with a
# different message keeps its code and is a server_error.
_LOCAL_TIMEOUT = re.compile(r"Request '[^']*' timed out")
_SYNTHESIZED: tuple[tuple[int, re.Pattern[str], ErrorKind, str], ...] = (
    (types.CONNECTION_CLOSED, re.compile(r"Connection closed"), ErrorKind.CONNECTION, "the connection to the server closed"),
    (types.CONNECTION_CLOSED, re.compile(r"SSE stream ended without a response"), ErrorKind.CONNECTION,
     "the server's event stream ended without a response"),
    (types.METHOD_NOT_FOUND, re.compile(r"Not Found"), ErrorKind.CONNECTION, "HTTP 404 Not Found: is the URL the MCP endpoint?"),
    (types.INVALID_REQUEST, re.compile(r"Session terminated"), ErrorKind.CONNECTION, "the server ended the HTTP session (404)"),
    (types.INTERNAL_ERROR, re.compile(r"Server returned an error response"), ErrorKind.CONNECTION,
     "the server answered with an HTTP error status"),
    (types.PARSE_ERROR, re.compile(r"Failed to parse (JSON response|SSE message): .*", re.S), ErrorKind.PROTOCOL,
     "malformed HTTP response: {}"),
    (types.INVALID_REQUEST, re.compile(r"Unexpected content type: .*", re.S), ErrorKind.PROTOCOL,
     "malformed HTTP response: {}"),
)


def _classify_leaf(exc: BaseException, page: int | None) -> CatalogError | None:
    if isinstance(exc, CatalogError):
        return exc
    if isinstance(exc, MCPError):
        if exc.code == types.REQUEST_TIMEOUT and _LOCAL_TIMEOUT.fullmatch(exc.message):
            return make_error(ErrorKind.TIMEOUT, f"no answer within the request timeout ({exc.message})", page)
        for code, pattern, kind, text in _SYNTHESIZED:
            if exc.code == code and pattern.fullmatch(exc.message):
                return make_error(kind, text.format(exc.message), page)
        return make_error(ErrorKind.SERVER_ERROR, f"the server answered with an error: {exc.message}", page, exc.code)
    if isinstance(exc, ValidationError):
        details = exc.errors()
        where = ".".join(str(p) for p in details[0]["loc"]) if details else ""
        what = details[0]["msg"] if details else str(exc)
        return make_error(ErrorKind.PROTOCOL, f"malformed response: {where}: {what}", page)
    if isinstance(exc, TimeoutError):
        return make_error(ErrorKind.TIMEOUT, "the overall deadline ran out", page)
    if isinstance(exc, FileNotFoundError | PermissionError):
        return make_error(ErrorKind.CONNECTION, f"could not start the server: {exc}", page)
    if isinstance(exc, OSError | EOFError | ConnectionError):
        return make_error(ErrorKind.CONNECTION, f"connection failed: {exc}", page)
    name = type(exc).__name__
    if name in ("ClosedResourceError", "BrokenResourceError", "EndOfStream"):
        return make_error(ErrorKind.CONNECTION, "the connection to the server closed", page)
    if name.endswith(("TransportError", "HTTPError", "ConnectError", "RemoteProtocolError")) or name.startswith(
        "HTTP"
    ):
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
