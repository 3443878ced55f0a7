"""Every way a catalog walk or a call can fail, as data: kinds, their words, and the exception tree.

The tree::

    Exception
    └── CatalogError            a classified failure: kind, message, page, code, details
        ├── WalkRejected        the server answered, but the catalog breaks a rule or a budget
        │                       (duplicate_name, cursor_repeated, page_limit, item_limit, size_limit)
        └── WalkFailed          no usable answer (server_error, timeout, connection, protocol),
                                or the inspector itself broke (internal)

Plain data, no SDK import: `core.classify` turns what the SDK, anyio or the OS
raises into these, so the UI and the CLI render one error path and never parse
a message (everything they need is in `ErrorInfo.details`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from catalog_inspector.core.text import visible

__all__ = [
    "CatalogError",
    "ErrorInfo",
    "ErrorKind",
    "KindWords",
    "WalkFailed",
    "WalkRejected",
    "leaves",
    "make_error",
    "outcome_text",
    "stderr_lines",
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
    INTERNAL = "internal"  # a bug in the inspector itself (the exception is in the server log)
    CANCELLED = "cancelled"  # stopped on request (a user's Cancel) before an answer came

    @property
    def rejected(self) -> bool:
        return self in _REJECTIONS

    @property
    def heading(self) -> str:
        """A heading for this kind ("Duplicate name")."""
        return KIND_WORDS[self].heading

    @property
    def outcome(self) -> str:
        """A few words for a timeline cell ("duplicate name")."""
        return KIND_WORDS[self].outcome


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
class KindWords:
    """How the UI and the CLI say one kind: a heading, and a few words for a table cell."""

    heading: str
    outcome: str


KIND_WORDS: dict[ErrorKind, KindWords] = {
    ErrorKind.DUPLICATE_NAME: KindWords("Duplicate name", "duplicate name"),
    ErrorKind.CURSOR_REPEATED: KindWords("Repeated cursor (the walk would loop)", "repeated cursor"),
    ErrorKind.PAGE_LIMIT: KindWords("Page budget exhausted", "page budget exhausted"),
    ErrorKind.ITEM_LIMIT: KindWords("Item budget exhausted", "item budget exhausted"),
    ErrorKind.SIZE_LIMIT: KindWords("Response too large", "response too large"),
    ErrorKind.SERVER_ERROR: KindWords("The server answered with an error", "server error"),
    ErrorKind.TIMEOUT: KindWords("Timed out", "timed out"),
    ErrorKind.CONNECTION: KindWords("Connection failed", "connection lost"),
    ErrorKind.PROTOCOL: KindWords("Protocol error (malformed data from the server)", "protocol error"),
    ErrorKind.INTERNAL: KindWords("Internal error in the inspector", "internal error"),
    ErrorKind.CANCELLED: KindWords("Cancelled", "cancelled"),
}


def stderr_lines(details: Mapping[str, Any], width: int = 300) -> list[str]:
    """The server's last stderr lines kept in an error's `details` (a stdio server that exited), made visible."""
    lines = details.get("stderr")
    if not isinstance(lines, list):
        return []
    return [visible(str(line), width) for line in lines]


def outcome_text(outcome: str) -> str:
    """Words for a page's outcome: "ok", or the few words of the kind that stopped the walk there."""
    try:
        return ErrorKind(outcome).outcome
    except ValueError:
        return outcome


@dataclass(frozen=True)
class ErrorInfo:
    """The JSON-able description of a failure (`{kind, message, page, code, list, details}`).

    `details` holds the facts behind the message, so nobody parses it:
    duplicate_name → name, pages, definitions (both as sent); cursor_repeated →
    cursor, pages (that returned it), requested_page; page_limit / item_limit /
    size_limit → budget, value (the count or size that exceeded it; `cut_off` when reading
    stopped at the cap, so the value is a lower bound);
    server_error → code, message, data; connection → exit_code and stderr (the
    server's last lines) when a process exited; internal → exception, traceback.
    """

    kind: ErrorKind
    message: str
    page: int | None = None
    code: int | None = None
    list_name: str | None = None
    details: dict[str, Any] = field(default_factory=dict, compare=True, hash=False)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": str(self.kind), "message": self.message, "page": self.page, "code": self.code}
        if self.list_name is not None:
            data["list"] = self.list_name
        data["details"] = self.details
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ErrorInfo:
        details = data.get("details")
        return cls(
            ErrorKind(data["kind"]),
            str(data["message"]),
            data.get("page"),
            data.get("code"),
            data.get("list"),
            dict(details) if isinstance(details, dict) else {},
        )


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
    """No usable answer: JSON-RPC error, timeout, lost connection, malformed data, or our own bug."""


def make_error(
    kind: ErrorKind,
    message: str,
    page: int | None = None,
    code: int | None = None,
    details: dict[str, Any] | None = None,
) -> CatalogError:
    info = ErrorInfo(kind, message, page, code, details=details or {})
    return WalkRejected(info) if kind.rejected else WalkFailed(info)


def leaves(exc: BaseException) -> list[BaseException]:
    """The non-group exceptions inside `exc`, depth first."""
    if isinstance(exc, BaseExceptionGroup):
        found: list[BaseException] = []
        for inner in exc.exceptions:
            found.extend(leaves(inner))
        return found
    return [exc]
