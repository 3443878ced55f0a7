"""Snapshots: everything one walk of a server found, frozen, with a stable JSON form.

Plain data, no SDK import: drift, history, the UI and the CLI read snapshots
without the network stack (`core.session.walk` is what produces them). Items are kept
exactly as the server sent them (MCP wire JSON, camelCase).
`format: mcp-catalog-snapshot/1` round-trips through `to_json`/`from_json`;
`write_json` streams the same document to a file without building it whole.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from itertools import islice
from typing import IO, Any, Literal

from catalog_inspector.core.catalog.caching import SentValue, sent
from catalog_inspector.core.catalog.lists import LIST_KINDS, LIST_NAMES
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind, code_words
from catalog_inspector.core.json_encode import JsonLines, line_text
from catalog_inspector.core.jsonrpc_codes import Named

__all__ = [
    "Offence",
    "offence_of",
    "FORMAT",
    "ListResult",
    "PageRecord",
    "Snapshot",
    "failed_snapshot",
    "now_iso",
    "source_of",
    "taken_words",
    "summarize",
    "unimplemented_words",
    "write_json",
]

FORMAT = "mcp-catalog-snapshot/1"

ListStatus = Literal["complete", "rejected", "failed", "not_offered", "unimplemented"]
Status = Literal["complete", "rejected", "failed"]
# A list whose contents are known: walked whole, or none to walk (not offered; offered but answered -32601, the
# server's own "no such method", on its first page: `unimplemented`, a finding about the server, not a failure).
JUDGED: frozenset[str] = frozenset({"complete", "not_offered", "unimplemented"})


@dataclass(frozen=True)
class Offence:
    """What the enumerator found on the page that stopped a walk, beyond its kind: worked out once, where the
    rule failed, and carried on the page (the timeline and the duplicates tab read it; nobody scans for it).

    Attributes:
        name: the key seen twice (duplicate_name), else None.
        first_page: the page that held the key's first copy (duplicate_name), or the page the repeated
            cursor was first sent for (cursor_repeated).
        jsonrpc: the JSON-RPC error's code by name (server_error), else None.
    """

    name: str | None = None
    first_page: int | None = None
    jsonrpc: Named | None = None

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {"name": self.name, "first_page": self.first_page}
        if self.jsonrpc is not None:
            document["jsonrpc"] = self.jsonrpc.to_json()
        return document

    @classmethod
    def from_json(cls, data: Any) -> Offence | None:
        if not isinstance(data, dict):
            return None
        name, first = data.get("name"), data.get("first_page")
        return cls(
            name if isinstance(name, str) else None,
            first if isinstance(first, int) else None,
            Named.from_json(data.get("jsonrpc")),
        )


def offence_of(error: ErrorInfo) -> Offence | None:
    """The offence a failure on a page names in its details: a rule's facts, a JSON-RPC code by name (None for
    kinds with nothing more to say)."""
    details = error.details
    if error.kind is ErrorKind.DUPLICATE_NAME:
        pages = details.get("pages")
        first = pages[0] if isinstance(pages, list) and pages and isinstance(pages[0], int) else None
        name = details.get("name")
        return Offence(name if isinstance(name, str) else None, first)
    if error.kind is ErrorKind.CURSOR_REPEATED:
        requested = details.get("requested_page")
        return Offence(first_page=requested if isinstance(requested, int) else None)
    said = code_words(error) if error.kind is ErrorKind.SERVER_ERROR else None
    return Offence(jsonrpc=said) if said is not None else None


@dataclass(frozen=True)
class PageRecord:
    """One page of a walk as it happened.

    `outcome` is "ok" or the `ErrorKind` that stopped the walk on this page, and `offence`
    what more the rule that failed knew (a duplicate's first page, a cursor's). `bytes` is
    the response's size, as the transport counted it (decoded, for a compressed HTTP body).
    `ttl_ms` and `cache_scope` are the page's cache hints (`ttlMs`, `cacheScope`) as the server
    sent them, bounded (`caching.sent`), valid or not; None when it sent none (and in documents
    written before they were kept).
    """

    index: int
    cursor: str | None
    next_cursor: str | None
    items: int
    names: tuple[str, ...]
    bytes: int
    latency_ms: float
    outcome: str = "ok"
    offence: Offence | None = None
    ttl_ms: SentValue = None
    cache_scope: SentValue = None

    @property
    def answered(self) -> bool:
        """Whether the server sent a result for this page (a page that failed on a rule still has one; an error,
        a timeout or a lost connection leaves none)."""
        return self.outcome == "ok" or self.bytes > 0

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "index": self.index,
            "cursor": self.cursor,
            "next_cursor": self.next_cursor,
            "items": self.items,
            "names": list(self.names),
            "bytes": self.bytes,
            "latency_ms": self.latency_ms,
            "outcome": self.outcome,
            "ttl_ms": self.ttl_ms,
            "cache_scope": self.cache_scope,
        }
        if self.offence is not None:
            document["offence"] = self.offence.to_json()
        return document

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PageRecord:
        return cls(
            index=int(data["index"]),
            cursor=data.get("cursor"),
            next_cursor=data.get("next_cursor"),
            items=int(data["items"]),
            names=tuple(data.get("names", ())),
            bytes=int(data["bytes"]),
            latency_ms=float(data["latency_ms"]),
            outcome=str(data.get("outcome", "ok")),
            offence=Offence.from_json(data.get("offence")),
            ttl_ms=sent(data.get("ttl_ms")),
            cache_scope=sent(data.get("cache_scope")),
        )


@dataclass(frozen=True, repr=False)
class ListResult:
    """One list of a snapshot: its status, its items (only when complete) and its timeline.

    `error` says why a list was not walked whole: for `failed` and `rejected`, what stopped it; for
    `unimplemented`, the server's -32601 answer to the list's first page."""

    status: ListStatus
    items: tuple[dict[str, Any], ...] = ()
    pages: tuple[PageRecord, ...] = ()
    error: ErrorInfo | None = None

    def __repr__(self) -> str:
        # The default repr would print every item: asyncio's task repr alone took 0.6 s
        # and 80 MB at 100,000 tools.
        return f"ListResult({self.status}, {len(self.items)} items, {len(self.pages)} pages, error={self.error!r})"

    @property
    def judged(self) -> bool:
        """Whether the list's contents are known (`JUDGED`): only such a list is compared, pinned or counted."""
        return self.status in JUDGED

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "items": list(self.items),
            "pages": [p.to_json() for p in self.pages],
            "error": self.error.to_json() if self.error else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ListResult:
        error = data.get("error")
        return cls(
            status=data["status"],
            items=tuple(data.get("items", ())),
            pages=tuple(PageRecord.from_json(p) for p in data.get("pages", ())),
            error=ErrorInfo.from_json(error) if error else None,
        )


NOT_OFFERED = ListResult("not_offered")


@dataclass(frozen=True, repr=False)
class Snapshot:
    """What one walk of one server found.

    Attributes:
        status/error: whether there is a tool catalog, and why not: the tools list's own status and error
            (for a server that offers no tools, the first other list that failed decides, as it always did).
            Each other list has its own status: a catalog can be accepted while one of them failed
            (`partial`), and that list's own error says why.
        server: name, version (and title) from the server's own info, plus protocol_version.
        lists: tools, resources, resource_templates, prompts.
        excluded_tools: `{name, reason}` of each tool a conforming 2026-07-28 client drops.
        source: the configured server's name and how it was reached.
    """

    status: Status
    error: ErrorInfo | None
    server: dict[str, Any]
    capabilities: dict[str, Any]
    instructions: str | None
    lists: dict[str, ListResult]
    source: dict[str, Any] = field(default_factory=dict)
    taken_at: str = ""
    duration_ms: float = 0.0
    # Tools a conforming 2026-07-28 client must drop (an invalid x-mcp-header): kept in `tools`, named here.
    excluded_tools: tuple[dict[str, str], ...] = ()

    def __repr__(self) -> str:
        return f"Snapshot({self.status}, {self.source.get('name')!r}, tools={self.lists['tools']!r})"

    @property
    def tools(self) -> ListResult:
        return self.lists["tools"]

    @property
    def partial(self) -> tuple[str, ...]:
        """The lists that failed or were rejected in a snapshot whose tools were accepted, in table order."""
        if self.status != "complete":
            return ()
        return tuple(name for name in LIST_NAMES if not self.lists[name].judged)

    @property
    def unimplemented(self) -> tuple[str, ...]:
        """The lists the server offers but answered with -32601 (method not found), in table order."""
        return tuple(name for name in LIST_NAMES if self.lists[name].status == "unimplemented")

    def to_json(self) -> dict[str, Any]:
        """The whole document; it shares the items with the snapshot (no copies of the catalog)."""
        from catalog_inspector.core.catalog.apps import apps_json  # it reads snapshots: imported once they exist

        tools = self.tools
        return {
            "format": FORMAT,
            "status": self.status,
            "error": self.error.to_json() if self.error else None,
            "server": self.server,
            "source": self.source,
            "taken_at": self.taken_at,
            "duration_ms": self.duration_ms,
            "capabilities": self.capabilities,
            "instructions": self.instructions,
            "tools": list(tools.items) if tools.status == "complete" else [],
            "pages": [p.to_json() for p in tools.pages],
            "tools_status": tools.status,
            "tools_error": tools.error.to_json() if tools.error else None,
            "lists_status": {name: self.lists[name].status for name in LIST_NAMES},
            "excluded_tools": list(self.excluded_tools),
            "mcp_apps": apps_json(self),
            **{name: self.lists[name].to_json() for name in LIST_NAMES if name != "tools"},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Snapshot:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document (format is {data.get('format')!r})")
        tools_error = data.get("tools_error")
        lists = {
            "tools": ListResult(
                status=data.get("tools_status", data["status"]),
                items=tuple(data.get("tools", ())),
                pages=tuple(PageRecord.from_json(p) for p in data.get("pages", ())),
                error=ErrorInfo.from_json(tools_error) if tools_error else None,
            ),
            **{name: ListResult.from_json(data[name]) for name in LIST_NAMES if name != "tools"},
        }
        error = data.get("error")
        return cls(
            status=data["status"],
            error=ErrorInfo.from_json(error) if error else None,
            server=dict(data.get("server", {})),
            capabilities=dict(data.get("capabilities", {})),
            instructions=data.get("instructions"),
            lists=lists,
            source=dict(data.get("source", {})),
            taken_at=str(data.get("taken_at", "")),
            duration_ms=float(data.get("duration_ms", 0.0)),
            excluded_tools=tuple(_excluded(data.get("excluded_tools"))),
        )


def _excluded(value: Any) -> list[dict[str, str]]:
    """The `excluded_tools` of a stored document (absent in those written before it existed)."""
    if not isinstance(value, list):
        return []
    return [
        {"name": e["name"], "reason": str(e.get("reason", ""))}
        for e in value
        if isinstance(e, dict) and isinstance(e.get("name"), str)
    ]


# The arrays that grow with the catalog, one element per line: at the top, and in each other list's object;
# and the objects that hold such an array or map (`tokens`, with a count per tool).
_TOP_LINES = frozenset({"tools", "pages", "lint"})
_LIST_LINES = frozenset({"items", "pages"})
_LIST_OBJECTS = frozenset(name for name in LIST_NAMES if name != "tools") | {"tokens"}
LINES = 512  # lines a write: a write a line took 0.12 s more for the 300,000 lines of 100,000 tools


def write_json(snapshot: Snapshot, out: IO[str], extra: dict[str, Any] | None = None) -> None:
    """Write the snapshot document to `out`, streamed: one catalog item (or page) per line.

    The document is the same JSON as `to_json()`. Its small parts are indented;
    each element of the arrays that grow with the catalog (tools, items, pages)
    is one line, written by the C encoder as soon as it is made. Indenting those
    too went through Python's pure-Python encoder: 1.5 s and 300 MB of chunks for
    100,000 tools, more than the whole walk's overhead over the bare SDK.

    Raises:
        ValueError: the snapshot holds NaN or Infinity (a server sent them; the SDK's parser takes
            them), which JSON cannot carry. What was written before it stays written.
    """
    document = snapshot.to_json()
    document.update(extra or {})  # after the snapshot's own keys, which it never replaces
    _write_object(document, out, "", _TOP_LINES, _LIST_OBJECTS)
    out.write("\n")


def _write_object(
    value: dict[str, Any], out: IO[str], indent: str, lines: frozenset[str], lists: frozenset[str] = frozenset()
) -> None:
    inner = indent + "  "
    out.write("{")
    for position, (key, item) in enumerate(value.items()):
        out.write(("," if position else "") + "\n" + inner + json.dumps(key, ensure_ascii=False) + ": ")
        if key in lines:
            _write_lines(item, out, inner)
        elif key in lists and isinstance(item, dict):
            _write_object(item, out, inner, _LIST_LINES | {"tools"})
        else:
            out.write(json.dumps(item, indent=2, ensure_ascii=False, allow_nan=False).replace("\n", "\n" + inner))
    out.write("\n" + indent + "}" if value else "}")


def _write_lines(items: list[Any] | dict[str, Any] | None, out: IO[str], indent: str) -> None:
    """An array one element a line, or an object one member a line (`tokens.tools`), by one C encoder
    (`line_text`; `JsonLines` are written as they are), the lines handed to `out` LINES at a time."""
    if not items:
        out.write("[]" if isinstance(items, list) else json.dumps(items))
        return
    encode = line_text
    texts: Iterator[str]
    if isinstance(items, dict):  # a token count is an int: written as the encoder writes it
        texts = (encode(key) + ": " + (repr(v) if type(v) is int else encode(v)) for key, v in items.items())
        opening, closing = "{", "}"
    else:
        texts = iter(items) if isinstance(items, JsonLines) else map(encode, items)
        opening, closing = "[", "]"
    inner = "\n" + indent + "  "
    between = "," + inner
    out.write(opening)
    before = inner
    while lines := list(islice(texts, LINES)):
        out.write(before + between.join(lines))
        before = between
    out.write("\n" + indent + closing)


def summarize(lists: dict[str, ListResult]) -> tuple[Status, ErrorInfo | None]:
    """The snapshot's status and error: the tools list's, when the server offers tools; else the first other list
    (in table order) that failed or was rejected."""
    names = ("tools",) if lists["tools"].status != "not_offered" else LIST_NAMES
    for name in names:
        result = lists[name]
        if result.status in ("rejected", "failed"):
            assert result.error is not None
            return result.status, replace(result.error, list_name=name)
    return "complete", None


def unimplemented_words(list_name: str) -> str:
    """The finding for a list the server offers but does not implement (its -32601 to the first page)."""
    kind = LIST_KINDS[list_name]
    return f"the server declares {kind.capability} but does not implement {kind.method}"


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def taken_words(taken_at: str | None, date: bool = True) -> str:
    """When a catalog was taken, as the app says it everywhere (the one clock): this machine's local time and
    zone, from the snapshot's own `taken_at` (ISO 8601, UTC). `?` when there is none or it is not a time."""
    try:
        moment = datetime.fromisoformat(str(taken_at).replace("Z", "+00:00")).astimezone()
    except ValueError:
        return "?"
    return moment.strftime("%Y-%m-%d %H:%M:%S %Z" if date else "%H:%M:%S")


def failed_snapshot(
    error: CatalogError,
    source: dict[str, Any],
    started: float | None = None,
    pages: Mapping[str, Sequence[PageRecord]] | None = None,
) -> Snapshot:
    """A snapshot of a walk that ended before any list was done: at connecting, or by a bug of ours.

    `pages`: what each list's walk had reached, kept on its timeline.
    """
    info = error.info
    status: Status = "rejected" if info.kind.rejected else "failed"
    pages = pages or {}
    lists = {name: ListResult(status, pages=tuple(pages.get(name, ())), error=info) for name in LIST_NAMES}
    return Snapshot(
        status=status,
        error=replace(info, list_name="tools"),
        server={"name": None, "version": None, "protocol_version": None},
        capabilities={},
        instructions=None,
        lists=lists,
        source=source,
        taken_at=now_iso(),
        duration_ms=(time.perf_counter() - started) * 1000 if started is not None else 0.0,
    )


def source_of(spec: Any) -> dict[str, Any]:
    """What a snapshot says of the server it walked; `client` when it was walked under a client profile."""
    source = {"name": spec.name, "transport": spec.transport, "target": spec.describe()}
    if getattr(spec, "client", None) is not None:
        source["client"] = spec.client.source()
    return source
