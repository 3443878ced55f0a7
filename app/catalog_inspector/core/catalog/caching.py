"""Cache hints of list pages (SEP-2549, 2026-07-28): what each page said, bounded, and what is wrong with it.

Every list result of 2026-07-28 carries `ttlMs` (an integer >= 0: how long the page
stays fresh) and `cacheScope` (`public` or `private`), and a server must use the same
scope on every page of one list request (server/utilities/caching). A page keeps the
two values as the server sent them (`sent` bounds them); `CacheCheck` applies the rules
page by page, in constant time per page so a live timeline can follow a walk, and
`cacheable_words` says what a walk allows, for the catalog header. Plain data, no SDK.
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from catalog_inspector.core.text import visible

__all__ = [
    "HINTS_SINCE",
    "SCOPES",
    "CacheCheck",
    "CacheCode",
    "CacheIssue",
    "Hinted",
    "SentValue",
    "cache_issues",
    "cacheable_words",
    "duration_words",
    "hints_required",
    "sent",
    "hint_text",
    "ttl_of",
]

HINTS_SINCE = "2026-07-28"  # the first revision whose list results must carry ttlMs and cacheScope
SCOPES = ("public", "private")
MAX_EXACT = 2**53 - 1  # above this, a JSON number is not an exact integer to JavaScript clients (and many others)
TEXT_LIMIT = 200  # characters kept of a value that is text (or was an object, kept as its JSON text)
SHOWN_LIMIT = 60  # characters of a value quoted in a message or a cell

SentValue = int | float | str | bool | None
"""A cache hint as a page keeps it: the JSON scalar the server sent (bounded), None when it sent none."""


class Hinted(Protocol):
    """What the rules read of a page (a `PageRecord`)."""

    @property
    def index(self) -> int: ...
    @property
    def answered(self) -> bool: ...
    @property
    def ttl_ms(self) -> SentValue: ...
    @property
    def cache_scope(self) -> SentValue: ...


def sent(value: Any) -> SentValue:
    """A hint as kept on a page: JSON scalars as sent, text cut to TEXT_LIMIT, anything else as its JSON text.

    NaN and the infinities (the SDK's parser takes them; JSON cannot carry them) are kept as their names.
    """
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else ("NaN" if math.isnan(value) else ("Infinity", "-Infinity")[value < 0])
    text: str = value if isinstance(value, str) else _json_text(value)
    return text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT] + "…"


def _json_text(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=True)
    except (TypeError, ValueError):  # not JSON at all (it cannot come from a wire): its type's name
        return type(value).__name__


def hint_text(value: SentValue) -> str:
    """A hint for a message or a cell: numbers as written, text quoted, control characters made visible."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        text = str(value)
        return text if len(text) <= SHOWN_LIMIT else f"{text[:20]}…({len(text):,} digits)"
    if isinstance(value, float):
        return repr(value)
    return f"'{visible(value, SHOWN_LIMIT)}'"  # not repr(): it would double the backslash of a `\\u202e`


def ttl_of(value: SentValue) -> int | None:
    """The page's ttlMs as an integer >= 0, or None when what was sent is not one (nor sent at all).

    An integral float (`300000.0`) counts: JSON Schema's `integer` is about the value, not its spelling.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None


def hints_required(protocol_version: object) -> bool:
    """True when the negotiated revision asks for cache hints on every list result (2026-07-28 and later).

    Revisions are dates (YYYY-MM-DD): as text they sort in time order.
    """
    return isinstance(protocol_version, str) and protocol_version >= HINTS_SINCE


class CacheCode(enum.StrEnum):
    """What is wrong with a page's cache hints (each a lint warning: the page is kept and shown)."""

    TTL_MISSING = "ttl_missing"  # a 2026-07-28 page without ttlMs (servers must send it; clients read it as 0)
    TTL_NOT_INTEGER = "ttl_not_integer"  # a fraction, text, true/false, null, an object…
    TTL_NEGATIVE = "ttl_negative"  # below 0: clients ignore it and treat it as 0
    TTL_HUGE = "ttl_huge"  # over 2^53 - 1: not an exact integer to JavaScript clients
    SCOPE_MISSING = "scope_missing"  # a 2026-07-28 page without cacheScope (servers must send it)
    SCOPE_INVALID = "scope_invalid"  # neither "public" nor "private"
    SCOPE_CHANGED = "scope_changed"  # not the scope of the walk's page before: one list request has one scope

    @property
    def column(self) -> str:
        """The hint it is about: "ttl" or "scope"."""
        return "ttl" if self.value.startswith("ttl") else "scope"


@dataclass(frozen=True)
class CacheIssue:
    """One warning about one page's cache hints.

    Attributes:
        page: the page it is about.
        other_page: for a changed scope, the earlier page whose scope differs; else None.
        message: words for people, naming the page (and the other one), with the value as sent.
    """

    code: CacheCode
    page: int
    message: str
    other_page: int | None = None


class CacheCheck:
    """The cache-hint rules applied to one walk's pages as they come: constant time per page.

    Attributes:
        required: the revision asks for hints on every page (a page without them is warned about).
        issues: every warning so far, in page order.
    """

    def __init__(self, required: bool = False) -> None:
        self.required = required
        self.issues: list[CacheIssue] = []
        self._scope: tuple[int, str] | None = None  # the last page with a valid scope, and that scope

    def add(self, page: Hinted) -> list[CacheIssue]:
        """Check the next page of the walk; returns its warnings (also appended to `issues`). A page the server
        answered with an error (no result) has no hints to check."""
        if not page.answered:
            return []
        found = [issue for issue in (self._ttl(page), self._scope_issue(page)) if issue is not None]
        self.issues.extend(found)
        return found

    def _ttl(self, page: Hinted) -> CacheIssue | None:
        value, index = page.ttl_ms, page.index
        if value is None:
            if not self.required:
                return None
            message = f"page {index} has no ttlMs: servers must send one on 2026-07-28 (clients read it as 0)"
            return CacheIssue(CacheCode.TTL_MISSING, index, message)
        ttl = ttl_of(value)
        if ttl is None and isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
            message = f"page {index} has ttlMs {hint_text(value)}: below 0 (clients treat it as 0)"
            return CacheIssue(CacheCode.TTL_NEGATIVE, index, message)
        if ttl is None:
            message = f"page {index} has ttlMs {hint_text(value)}: not an integer (milliseconds, 0 or more)"
            return CacheIssue(CacheCode.TTL_NOT_INTEGER, index, message)
        if ttl > MAX_EXACT:
            message = (
                f"page {index} has ttlMs {hint_text(value)}: over 2^53 - 1, not an exact integer to JavaScript "
                "clients (the Python SDK caps any ttlMs at 24 h)"
            )
            return CacheIssue(CacheCode.TTL_HUGE, index, message)
        return None

    def _scope_issue(self, page: Hinted) -> CacheIssue | None:
        value, index = page.cache_scope, page.index
        if value is None:
            if not self.required:
                return None
            message = f"page {index} has no cacheScope: servers must send one on 2026-07-28"
            return CacheIssue(CacheCode.SCOPE_MISSING, index, message)
        if not isinstance(value, str) or value not in SCOPES:
            message = f'page {index} has cacheScope {hint_text(value)}: neither "public" nor "private"'
            return CacheIssue(CacheCode.SCOPE_INVALID, index, message)
        before, self._scope = self._scope, (index, value)
        if before is None or before[1] == value:
            return None
        message = (
            f"page {index} has cacheScope {hint_text(value)} but page {before[0]} had {hint_text(before[1])}: "
            "a server must use the same scope on every page of one list"
        )
        return CacheIssue(CacheCode.SCOPE_CHANGED, index, message, other_page=before[0])


def cache_issues(pages: Iterable[Hinted], required: bool = False) -> list[CacheIssue]:
    """Every warning about the cache hints of one walk's pages, in page order."""
    check = CacheCheck(required)
    for page in pages:
        check.add(page)
    return check.issues


_UNITS = ((86_400_000, "day"), (3_600_000, "h"), (60_000, "min"), (1000, "s"))


def duration_words(ms: int) -> str:
    """A ttlMs for people: "450 ms", "30 s", "5 min", "1.5 h", "2 days"."""
    for size, unit in _UNITS:
        if ms >= size:
            amount = round(ms / size, 1)
            if unit == "day":
                unit = "day" if amount == 1 else "days"
            return f"{amount:g} {unit}"
    return f"{ms} ms"


def cacheable_words(pages: Sequence[Hinted]) -> str:
    """What a walk's hints allow, for the catalog header: "cacheable for 5 min (private)".

    "" when a page may not be cached (ttlMs 0, or none that is usable: clients read those as 0) or there
    are no pages. Pages with different ttlMs give the range; a scope that is not one valid value for
    every page says so.
    """
    ttls: list[int] = []
    for page in pages:
        ttl = ttl_of(page.ttl_ms)
        if not ttl:
            return ""
        ttls.append(ttl)
    if not ttls:
        return ""
    low, high = min(ttls), max(ttls)
    words = duration_words(low) if low == high else f"{duration_words(low)} to {duration_words(high)}, by page"
    scopes = {page.cache_scope for page in pages}
    scope = scopes.pop() if len(scopes) == 1 else None
    if not (isinstance(scope, str) and scope in SCOPES):
        scope = "scope unclear: see the page timeline"
    return f"cacheable for {words} ({scope})"
