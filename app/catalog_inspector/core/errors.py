"""Every way a catalog walk or a call can fail, as data: kinds, their words, and the exception tree.

The tree::

    Exception
    └── CatalogError            a classified failure: kind, message, page, code, details
        ├── WalkRejected        the server answered, but the catalog breaks a rule or a budget
        │                       (duplicate_name, cursor_repeated, page_limit, item_limit, size_limit)
        └── WalkFailed          no usable answer (server_error, timeout, connection, protocol),
                                the authorization flow failed at one of its steps (auth),
                                the inspector itself broke (internal), it was stopped
                                (cancelled), or a request was refused before it was sent (not_sent)

Plain data, no SDK import: `core.transport.classify` turns what the SDK, anyio or the OS
raises into these, so the UI and the CLI render one error path and never parse
a message (everything they need is in `ErrorInfo.details`).
"""

from __future__ import annotations

import enum
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from catalog_inspector.core.jsonrpc_codes import Named, named_code
from catalog_inspector.core.text import visible

__all__ = [
    "AUTH_STEPS",
    "CatalogError",
    "ErrorInfo",
    "ErrorKind",
    "KindWords",
    "WalkFailed",
    "WalkRejected",
    "auth_step",
    "code_words",
    "internal_error",
    "last_words",
    "leaves",
    "make_error",
    "outcome_text",
    "reason",
    "stderr_lines",
    "transport_hint",
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
    NOT_SENT = "not_sent"  # a request refused here before it was sent (a tool not in the accepted catalog)
    # The OAuth authorization flow failed; `details["step"]` says where (one of `AUTH_STEPS`).
    AUTH = "auth"

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
    """How the UI and the CLI say one kind: a heading, and a few words for a table cell.

    `restated` lists the openings of this kind's messages that only say the heading again
    ("connection failed: …" under "Connection failed"): `reason` leaves them out, so a
    heading and the words under it never say the same thing twice.
    """

    heading: str
    outcome: str
    restated: tuple[str, ...] = ()


KIND_WORDS: dict[ErrorKind, KindWords] = {
    ErrorKind.DUPLICATE_NAME: KindWords("Duplicate name", "duplicate name"),
    ErrorKind.CURSOR_REPEATED: KindWords("Repeated cursor (the walk would loop)", "repeated cursor"),
    ErrorKind.PAGE_LIMIT: KindWords("Page budget exhausted", "page budget exhausted"),
    ErrorKind.ITEM_LIMIT: KindWords("Item budget exhausted", "item budget exhausted"),
    ErrorKind.SIZE_LIMIT: KindWords("Response too large", "response too large"),
    ErrorKind.SERVER_ERROR: KindWords(
        "The server answered with an error", "server error", ("the server answered with an error: ",)
    ),
    ErrorKind.TIMEOUT: KindWords("Timed out", "timed out"),
    ErrorKind.CONNECTION: KindWords("Connection failed", "connection lost", ("connection failed: ",)),
    ErrorKind.PROTOCOL: KindWords(
        "Protocol error (malformed data from the server)", "protocol error", ("malformed response: ", "malformed ")
    ),
    ErrorKind.INTERNAL: KindWords("Internal error in the inspector", "internal error", ("internal error: ",)),
    ErrorKind.CANCELLED: KindWords("Cancelled", "cancelled"),
    ErrorKind.NOT_SENT: KindWords("Not sent", "not sent"),
    ErrorKind.AUTH: KindWords("Authorization failed", "authorization failed"),
}

# The steps of the authorization flow an `auth` error names in `details["step"]`, in flow
# order, with the words the app and the command line say them in.
AUTH_STEPS: dict[str, str] = {
    "metadata": "discovering the authorization server",  # RFC 9728 / RFC 8414 metadata, the resource check
    "registration": "registering the client",  # dynamic registration, or a missing client id
    "authorization": "signing in",  # the browser, the loopback redirect, its state and issuer
    "token": "getting a token",  # the code exchange, a refresh, a token the server refused
    "scope": "getting the scopes the server asks for",  # insufficient_scope after the allowed step-ups
}


def auth_step(info: ErrorInfo) -> str | None:
    """The step an `auth` error failed at (a key of `AUTH_STEPS`), or None for any other error."""
    step = info.details.get("step") if info.kind is ErrorKind.AUTH else None
    return step if isinstance(step, str) and step in AUTH_STEPS else None


CURSOR_WIDTH = 40  # characters of a repeated cursor quoted under its heading

# The transport to try instead (`details["try_transport"]`, set when the server's answer shows
# it speaks the other HTTP transport), said for the command line and for the app.
TRANSPORT_HINTS: dict[str, tuple[str, str]] = {
    "http": (
        'drop --sse (for a configured server: "type": "http")',
        "Edit the server to use Streamable HTTP",
    ),
    "sse": (
        'add --sse (for a configured server: "type": "sse")',
        "Edit the server to use legacy SSE",
    ),
}


def stderr_lines(details: Mapping[str, Any], width: int = 300) -> list[str]:
    """The server's last stderr lines kept in an error's `details` (a stdio server that exited), made visible."""
    lines = details.get("stderr")
    if not isinstance(lines, list):
        return []
    return [visible(str(line), width) for line in lines]


LAST_WORDS = "the server's last stderr lines"


def last_words(details: Mapping[str, Any], width: int = 300, multiline: bool = False) -> str:
    """The server's last stderr lines kept in an error's `details` (a stdio server that exited), as the CLI and the
    window both say them: `the server's last stderr lines: A | B`, or each line on a line of its own after the
    colon (`multiline`, the banner); "" when none were kept."""
    lines = stderr_lines(details, width)
    if not lines:
        return ""
    return f"{LAST_WORDS}:" + ("\n" + "\n".join(lines) if multiline else " " + " | ".join(lines))


def reason(info: ErrorInfo) -> str:
    """What to show under the kind's heading and the page: the message without what those already say.

    A JSON-RPC error gives the server's own message, a rejection the facts in its
    `details`; other messages lose an opening that restates the heading
    (`KindWords.restated`) or names the page again. Not made visible: the caller
    bounds it and writes out hidden characters.
    """
    said = info.details.get("message")
    if info.kind is ErrorKind.SERVER_ERROR and isinstance(said, str) and said.strip():
        return said
    step = auth_step(info)
    if step is not None:
        return f"{AUTH_STEPS[step]}: {info.message}"
    words = _rejection_words(info)
    if words:
        return words
    text = info.message
    for opening in (f"page {info.page}: ", f"page {info.page} is ") if info.page is not None else ():
        if text.startswith(opening):
            text = text[len(opening) :]
    for opening in KIND_WORDS[info.kind].restated:
        if text[: len(opening)].lower() == opening and len(text) > len(opening):
            return text[len(opening) :]
    return text


def _rejection_words(info: ErrorInfo) -> str:
    """A rejection's facts, said without its heading's words or its page (both are in the title)."""
    details = info.details
    budget, value = details.get("budget"), details.get("value")
    counts = isinstance(budget, int) and isinstance(value, int)
    name, pages = details.get("name"), details.get("pages")
    if info.kind is ErrorKind.DUPLICATE_NAME and isinstance(name, str) and isinstance(pages, list) and len(pages) == 2:
        first, again = pages
        where = "earlier on the same page" if first == again else f"on page {first}"
        return f"{name!r} was first seen {where}"
    cursor, requested = details.get("cursor"), details.get("requested_page")
    if info.kind is ErrorKind.CURSOR_REPEATED and isinstance(cursor, str):
        shown = repr(cursor if len(cursor) <= CURSOR_WIDTH else cursor[:CURSOR_WIDTH] + "…")
        where = f" for page {requested}" if isinstance(requested, int) else ""
        return f"its next cursor {shown} was already sent{where}"
    if info.kind is ErrorKind.PAGE_LIMIT and counts:
        return f"{budget:,} pages allowed, and this one still has a next cursor"
    if info.kind is ErrorKind.ITEM_LIMIT and counts:
        return f"{budget:,} items allowed; {value:,} by the end of this page"
    return ""


def code_words(info: ErrorInfo) -> Named | None:
    """The error's JSON-RPC code said by the one table (`core.jsonrpc_codes`), with its data's details; None without
    a code. Everyone who shows a code says it this way, never as the bare number."""
    if info.code is None:
        return None
    return named_code(info.code, info.details.get("message"), info.details.get("data"))


def transport_hint(info: ErrorInfo, app: bool) -> str:
    """The other transport to try, in the words of the app (`app`) or of the command line; "" if none."""
    hint = TRANSPORT_HINTS.get(str(info.details.get("try_transport")))
    return "" if hint is None else hint[1 if app else 0]


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
    server's last lines) when a process exited; an HTTP connection that could not be
    made → host, port, cause (`refused`, `name_not_found`, `timed_out`, `tls`, `os_error`),
    errno; an HTTP status that ended it → method, url (redacted), status, and
    `try_transport` when the answer shows the server speaks the other HTTP transport;
    internal → exception, traceback; auth → step (one of `AUTH_STEPS`), cause (a word for
    the reason: `state_mismatch`, `resource_mismatch`, `timed_out`, `cancelled`, …) and,
    where known, status, url (redacted), error and error_description (the authorization
    server's own words, bounded), scope.
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


TRACEBACK_LIMIT = 8000


def internal_error(exc: BaseException) -> CatalogError:
    """A bug of ours, as a classified failure: its type and message, and the traceback in the details.

    A classified error inside an ExceptionGroup is returned as it is; otherwise
    the group's first leaf names the bug (the groups are the task groups it crossed).
    """
    found = leaves(exc)
    for leaf in found:
        if isinstance(leaf, CatalogError):
            return leaf
    cause = found[0] if found else exc
    text = "".join(traceback.format_exception(exc))[-TRACEBACK_LIMIT:]
    message = f"{type(cause).__name__}: {cause}"
    return make_error(ErrorKind.INTERNAL, message, details={"exception": type(cause).__name__, "traceback": text})
