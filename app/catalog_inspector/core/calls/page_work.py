"""The snapshot document's derived keys made page by page, while the walk waits on its server.

A walk spends much of its time waiting for the server's next page, and the document's
`tokens` and `lint` (`derived_keys`) cost about as much again as the walk when they are
worked out after it (36 µs a tool of the demo's: 3.6 s at 100,000 tools). `PageWork`
takes each accepted page of tools as the enumerator hands it on and counts and lints it
in small steps on the walk's own event loop, in the time the walk would otherwise wait:
the server makes the next page on another core meanwhile.

What it made is used only for a catalog that is exactly the pages it saw (the same
objects, in the same order); any other is worked out whole, as before, so the document
is the same either way (tests compare them).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

import anyio

from catalog_inspector.core.calls.catalog_checks import Linted, derived_keys, schema_key, tool_lint_steps
from catalog_inspector.core.calls.lint import LintIssue, prepare_lint
from catalog_inspector.core.catalog import (
    SCHEMA_FIELDS,
    Snapshot,
    ToolCounter,
    encoding_ready,
    preload_encoding,
    tool_parts,
)
from catalog_inspector.core.steps import run_whole

__all__ = ["PageWork"]

STEP = 32  # tools a step counts and lints before the walk gets its turn (about half a millisecond)
# Turns of the event loop between two steps: the next page goes from the pipe to the walk in several turns (the
# reader, the dispatcher, the session, the walk), each of which waited for a step; with three it waits a third
# as often (10,000 tools, whole document, 15 pairs A B: median 2.03 -> 1.93 s; 100,000 tools: the same).
TURNS = 3


def _prepare() -> None:
    """The token table and the lint's metaschema validator, made while the walk waits for the server's first page
    (on a thread: the walk's own loop goes on), not by the first page's counts and lint on the walk's loop."""
    preload_encoding()
    try:
        prepare_lint()
    except Exception:  # noqa: BLE001  # then the first lint meets it, on the walk's loop, as it did before
        return


class PageWork:
    """Counts and lints the tools of each accepted page as it comes (`page`), beside the walk (`follow`).

    Attributes:
        server: the server's name as hosts show it (the lint's name rules count it).
        counted: the tools counted so far (a count needs the token table; pages that came before it was
            loaded wait for it).
    """

    def __init__(self, server: str | None) -> None:
        self.server = server
        self._pages: deque[Sequence[Mapping[str, Any]]] = deque()
        self._seen: list[Mapping[str, Any]] = []
        self._counts: list[int] = []
        self._linted: Linted = {}
        self._schemas: dict[str, tuple[LintIssue, ...]] = {}
        self._parameters: dict[str | None, tuple[LintIssue, ...]] = {}
        self._counter: ToolCounter | None = None
        self._wake = anyio.Event()
        self._done = False

    @property
    def counted(self) -> int:
        return len(self._counts)

    def page(self, list_name: str, items: Sequence[Mapping[str, Any]]) -> None:
        """An accepted page of `list_name` (the enumerator's `on_items`): tools are taken, the rest are small."""
        if list_name == "tools" and not self._done:
            self._pages.append(items)
            self._wake.set()

    def walked(self, wanted: bool = True) -> None:
        """The walk is over: `follow` ends once the pages taken are done, or at once when they are not `wanted`
        (the catalog was not accepted: nothing derived from it is written)."""
        self._done = True
        if not wanted:
            self._pages.clear()
        self._wake.set()

    async def follow(self) -> None:
        """Work the pages as they come, a STEP of tools every TURNS turns of the event loop, until `walked`."""
        await anyio.to_thread.run_sync(_prepare, abandon_on_cancel=True)
        self._counter = ToolCounter() if encoding_ready() else None
        while True:
            while self._pages:
                items = self._pages.popleft()
                for start in range(0, len(items), STEP):
                    self._take(items[start : start + STEP])
                    for _ in range(TURNS):
                        await anyio.sleep(0)
            if self._done:
                return
            self._wake = anyio.Event()
            await self._wake.wait()

    def _take(self, tools: Sequence[Mapping[str, Any]]) -> None:
        self._seen.extend(tools)
        key_of = schema_key
        if self._counter is not None:
            # A schema's JSON is made once: its part of the tool's text is also its key for the lint.
            keys: dict[int, str] = {}
            for tool in tools:
                parts = tool_parts(tool)
                self._counts.append(self._counter.count_parts(parts))
                part = 1  # the schemas' parts follow the first, in SCHEMA_FIELDS order (`tool_parts`)
                for key in SCHEMA_FIELDS:
                    if key in tool:
                        keys[id(tool[key])] = parts[part]
                        part += 1

            def key_of(schema: Any) -> str | None:
                return keys.get(id(schema)) or schema_key(schema)

        found, _ = run_whole(
            tool_lint_steps(tools, self.server, self._schemas, parameters=self._parameters, key_of=key_of)
        )
        self._linted.update(found)

    def covers(self, snapshot: Snapshot) -> bool:
        """Whether the snapshot's tools are exactly the pages this worked (the same objects, in the same order)."""
        items = snapshot.tools.items
        return len(items) == len(self._seen) and all(a is b for a, b in zip(items, self._seen, strict=True))

    def keys(self, snapshot: Snapshot, lines: bool = False) -> dict[str, Any]:
        """`derived_keys(snapshot, lines=lines)`, from what was made as the pages came when they are the snapshot's
        tools."""
        if not self.covers(snapshot):
            return derived_keys(snapshot, lines=lines)
        counts = self._counts if len(self._counts) == len(self._seen) else None
        return derived_keys(snapshot, counts, self._linted, lines)
