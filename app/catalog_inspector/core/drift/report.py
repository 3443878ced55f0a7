"""What a new catalog means next to what came before: drift, approval, duplicates, reach, collisions.

Plain data built from snapshots with `core.drift.diff`; the runtime builds these off
the GUI thread, the UI and the CLI only read them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from catalog_inspector.core.catalog import (
    ENCODING,
    LIST_KINDS,
    LIST_NAMES,
    Snapshot,
    TokenCount,
    apps_steps,
    delta_words,
    item_key,
    taken_words,
    token_words,
)
from catalog_inspector.core.drift.diff import ABSENT, CatalogDiff, Change, Severity, diff_catalogs_steps, diff_item
from catalog_inspector.core.drift.pins import PinCheck, Pins, check_pins_steps
from catalog_inspector.core.drift.severity import worst_of
from catalog_inspector.core.errors import ErrorKind
from catalog_inspector.core.steps import EVERY, Steps, run_whole

__all__ = [
    "Comparison",
    "DriftReport",
    "DriftRow",
    "Duplicate",
    "FirstPage",
    "build_report",
    "build_report_steps",
    "catalog_items",
    "diff_snapshots",
    "diff_snapshots_steps",
    "not_judged",
    "counts_steps",
    "counts_words",
    "collisions",
    "collisions_steps",
    "duplicates_of",
    "first_page_only",
    "first_page_steps",
    "rows_of",
    "rows_steps",
]


def catalog_items(snapshot: Snapshot) -> dict[str, Sequence[dict[str, Any]]]:
    """Each list's items (empty for a list that did not complete)."""
    return {
        name: snapshot.lists[name].items if snapshot.lists[name].status == "complete" else () for name in LIST_NAMES
    }


def not_judged(*snapshots: Snapshot) -> tuple[str, ...]:
    """The lists that some of `snapshots` did not judge (they failed or were rejected there), in table order."""
    return tuple(name for name in LIST_NAMES if any(not one.lists[name].judged for one in snapshots))


def diff_snapshots(old: Snapshot, new: Snapshot) -> CatalogDiff:
    """The drift between two walks, each list judged on its own: one that either walk did not judge is left out
    (`CatalogDiff.not_compared`), never read as emptied."""
    return run_whole(diff_snapshots_steps(old, new))


def diff_snapshots_steps(old: Snapshot, new: Snapshot) -> Steps[CatalogDiff]:
    """`diff_snapshots` in small steps (`core.steps`)."""
    return (yield from diff_catalogs_steps(catalog_items(old), catalog_items(new), not_judged(old, new)))


@dataclass(frozen=True)
class DriftRow:
    """One change as the table shows it (values are the JSON values, ABSENT where there was none)."""

    severity: Severity
    what: str  # "removed", "changed", "added" or "moved"
    list_name: str
    key: str
    field: str
    pointer: str
    old: Any
    new: Any
    reason: str


def rows_of(diff: CatalogDiff) -> list[DriftRow]:
    """Every change of `diff` as rows: breaking first, then warning, then info; lists in table order."""
    return run_whole(rows_steps(diff))


def rows_steps(diff: CatalogDiff) -> Steps[list[DriftRow]]:
    """`rows_of` in small steps (`core.steps`)."""
    # One list per severity, joined at the end: what a stable sort by severity gives, without the sort.
    by_severity: dict[Severity, list[DriftRow]] = {Severity.BREAKING: [], Severity.WARNING: [], Severity.INFO: []}
    for made, row in enumerate(_rows(diff), 1):
        by_severity[row.severity].append(row)
        if made % EVERY == 0:
            yield
    return [row for rows in by_severity.values() for row in rows]


def _rows(diff: CatalogDiff) -> Iterator[DriftRow]:
    """The rows of `diff` list by list: removed, changed, added, moved."""
    for list_name, changes in diff.lists.items():
        noun = LIST_KINDS[list_name].key_noun
        for item in changes.removed:
            key = item_key(list_name, item)
            yield DriftRow(Severity.BREAKING, "removed", list_name, key, "", "", item, ABSENT, f"{noun} removed")
        for changed in changes.changed:
            for one in changed.changes:
                yield DriftRow(
                    one.severity,
                    "changed",
                    list_name,
                    changed.key,
                    one.field,
                    one.pointer,
                    one.old,
                    one.new,
                    one.reason,
                )
        for item in changes.added:
            key = item_key(list_name, item)
            yield DriftRow(Severity.INFO, "added", list_name, key, "", "", ABSENT, item, f"{noun} added")
        for move in changes.moved:
            reason = f"moved from place {move.old_index} to {move.new_index} among the items both catalogs have"
            yield DriftRow(Severity.INFO, "moved", list_name, move.key, "", "", move.old_index, move.new_index, reason)


@dataclass(frozen=True)
class DriftReport:
    """What one accepted refresh found.

    Attributes:
        taken_at: when the new catalog was taken.
        base_taken_at: when the catalog it is compared with was taken; None for the first one kept.
        diff: the drift from that catalog (None: nothing to compare with).
        pins: how the new catalog measures up to the user's approval (None: never approved).
        after_stale: the refresh followed the server saying its list changed.
        rows: the diff's changes as a table shows them, worst first (made with the diff, off the GUI thread).
        reach: what a host that reads only the first page gets of the tools.
        apps: what the new catalog says of MCP Apps (`core.catalog.apps_json`: interfaces, views, findings).
        tokens/base_tokens: what the new catalog and the one it is compared with cost in tokens (counted after
            the report is out: None until then, and `base_tokens` None without a base).
    """

    taken_at: str
    base_taken_at: str | None = None
    diff: CatalogDiff | None = None
    pins: PinCheck | None = None
    after_stale: bool = False
    rows: tuple[DriftRow, ...] = ()
    reach: FirstPage | None = None
    apps: Mapping[str, Any] | None = None
    tokens: TokenCount | None = None
    base_tokens: TokenCount | None = None
    tool_token_deltas: Mapping[str, int] = field(default_factory=dict)

    @cached_property
    def worst(self) -> Severity | None:
        return self.diff.worst() if self.diff is not None else None

    @cached_property
    def counts(self) -> dict[Severity, int]:
        """Changes per severity (linear in the changes: made once, by `build_report` off the GUI thread)."""
        return self.diff.counts() if self.diff is not None else {}

    @property
    def pins_broken(self) -> bool:
        return self.pins is not None and not self.pins.clean

    @property
    def alarm(self) -> bool:
        """Breaking or warning drift, or an approved catalog that no longer matches: the sidebar badge."""
        return self.worst in (Severity.BREAKING, Severity.WARNING) or self.pins_broken

    @property
    def removed_tools(self) -> tuple[dict[str, Any], ...]:
        return tuple(self.diff.lists["tools"].removed) if self.diff is not None else ()

    def tool_marks(self) -> dict[str, str]:
        """Tool name → `added`, `changed` or `removed` (removed tools are the ghost rows)."""
        if self.diff is None:
            return {}
        tools = self.diff.lists["tools"]
        marks = {str(tool.get("name", "")): "added" for tool in tools.added}
        marks.update((change.key, "changed") for change in tools.changed)
        marks.update((str(tool.get("name", "")), "removed") for tool in tools.removed)
        return marks

    def headline(self, with_pins: bool = True) -> str:
        """One line for a person: what changed, how badly, and (`with_pins`) whether the approval still holds."""
        if self.diff is None:
            text = "First catalog kept for this server: nothing to compare with yet."
        elif self.diff.empty:
            text = "Nothing changed since the catalog taken at " + _when(self.base_taken_at) + "."
        else:
            text = f"Changed since the catalog taken at {_when(self.base_taken_at)}: {counts_words(self.counts)}."
        tokens = self.token_words()
        if tokens:
            text += " " + tokens
        if self.diff is not None and self.diff.not_compared:
            names = " and ".join(LIST_KINDS[name].plural for name in self.diff.not_compared)
            text += f" Not compared: {names} (a walk did not list them whole)."
        if self.after_stale and self.diff is not None and self.diff.empty:
            # A refresh is a new session: a change to the old session's own items cannot show in it.
            text = (
                f"Refreshed after the server said its list changed, in a new session: {text[0].lower()}{text[1:]} "
                "The change may have been to the old session's own items (a session-scoped change), which a new "
                "session cannot show."
            )
        elif self.after_stale:
            text = "Refreshed after the server said its list changed. " + text
        if with_pins and self.pins is not None:
            text += " " + self.pins.summary()
        return text

    def token_words(self) -> str:
        """`The tools cost 236 → 269 tokens (+33 tokens).`, or the cost alone without a base; empty until counted
        and when the cost did not change."""
        new, old = self.tokens, self.base_tokens
        if new is None or (old is not None and self.diff is not None and old.total == new.total):
            return ""
        if old is None or self.diff is None:
            return f"The tools cost {token_words(new.total)} ({ENCODING})."
        return f"The tools cost {old.total:,} → {token_words(new.total)} ({delta_words(new.total - old.total)})."

    def token_deltas(self) -> Mapping[str, int]:
        """Each tool whose cost changed since the base, by name (gone: minus what it cost); empty until counted.
        Worked out with the counts, off the GUI thread (`token_deltas_of`)."""
        return self.tool_token_deltas


def token_deltas_of(old: TokenCount | None, new: TokenCount | None) -> dict[str, int]:
    """Each tool whose cost changed from `old` to `new`, by name (gone: minus what it cost); empty without both."""
    return run_whole(token_deltas_steps(old, new))


def token_deltas_steps(old: TokenCount | None, new: TokenCount | None) -> Steps[dict[str, int]]:
    """`token_deltas_of` in small steps (`core.steps`): at 100,000 tools it is 200,000 lookups."""
    deltas: dict[str, int] = {}
    if new is None or old is None:
        return deltas
    before, after = old.tools, new.tools
    for position, (name, tokens) in enumerate(after.items(), 1):
        if tokens != before.get(name):
            deltas[name] = tokens - before.get(name, 0)
        if position % EVERY == 0:
            yield
    for position, (name, tokens) in enumerate(before.items(), 1):
        if name not in after:
            deltas[name] = -tokens
        if position % EVERY == 0:
            yield
    return deltas


def counts_words(counts: Mapping[Severity, int]) -> str:
    """`2 breaking, 1 info`, worst first ("no changes" when there are none)."""
    parts = [f"{counts[s]:,} {s.value}" for s in (Severity.BREAKING, Severity.WARNING, Severity.INFO) if counts.get(s)]
    return ", ".join(parts) or "no changes"


def _when(taken_at: str | None) -> str:
    return taken_words(taken_at)


def build_report(
    base: Snapshot | None, new: Snapshot, pins: Pins | None = None, after_stale: bool = False
) -> DriftReport:
    """Diff `new` against `base` and check it against `pins` (linear in the catalogs)."""
    return run_whole(build_report_steps(base, new, pins, after_stale))


def build_report_steps(
    base: Snapshot | None, new: Snapshot, pins: Pins | None = None, after_stale: bool = False
) -> Steps[DriftReport]:
    """`build_report` in small steps (`core.steps`): the window runs it between its events."""
    diff = (yield from diff_snapshots_steps(base, new)) if base is not None else None
    check = (yield from check_pins_steps(pins, new)) if pins is not None else None
    rows = (yield from rows_steps(diff)) if diff is not None else []
    reach = yield from first_page_steps(new)
    apps = yield from apps_steps(new)
    report = DriftReport(
        taken_at=new.taken_at,
        base_taken_at=base.taken_at if base is not None else None,
        diff=diff,
        pins=check,
        after_stale=after_stale,
        rows=tuple(rows),
        reach=reach,
        apps=apps,
    )
    if diff is not None:  # worked out here, not where it is shown: a sidebar repaint asks on every paint
        counts = yield from counts_steps(diff)
        report.__dict__["counts"] = counts
        report.__dict__["worst"] = worst_of(severity for severity, n in counts.items() if n)
    return report


def counts_steps(diff: CatalogDiff) -> Steps[dict[Severity, int]]:
    """`CatalogDiff.counts` in small steps (`core.steps`)."""
    counts = dict.fromkeys(Severity, 0)
    for one in diff.lists.values():
        for done, severity in enumerate(one.severities(), 1):
            counts[severity] += 1
            if done % EVERY == 0:
                yield
    return counts


@dataclass(frozen=True)
class Duplicate:
    """A key that appeared twice in one walk: where, both definitions, and how they differ."""

    list_name: str
    key: str
    pages: tuple[int, ...]
    first: Mapping[str, Any] | None
    second: Mapping[str, Any] | None
    changes: tuple[Change, ...] = field(default=())

    @property
    def identical(self) -> bool:
        return self.first is not None and self.first == self.second


def duplicates_of(snapshot: Snapshot) -> list[Duplicate]:
    """Each duplicated key of a walk rejected for one, with both definitions diffed against each other."""
    found: list[Duplicate] = []
    for name in LIST_NAMES:
        error = snapshot.lists[name].error
        if error is None or error.kind is not ErrorKind.DUPLICATE_NAME:
            continue
        details = error.details
        definitions = details.get("definitions")
        first = second = None
        if isinstance(definitions, list) and len(definitions) == 2:
            first, second = (d if isinstance(d, dict) else None for d in definitions)
        pages = tuple(p for p in details.get("pages", ()) if isinstance(p, int))
        changes = diff_item(name, first, second) if first is not None and second is not None else ()
        key = details.get("name")
        found.append(Duplicate(name, str(key) if key is not None else "?", pages, first, second, changes))
    return found


@dataclass(frozen=True)
class FirstPage:
    """What a host that reads only the first page (ignores `nextCursor`) gets of a list."""

    list_name: str
    seen: int
    total: int
    hidden: tuple[str, ...]  # the keys it never sees, in server order

    def summary(self) -> str:
        noun = LIST_KINDS[self.list_name].plural
        if not self.hidden:
            return f"A host that reads only the first page sees all {self.total:,} {noun}."
        return (
            f"A host that reads only the first page sees {self.seen:,} of {self.total:,} {noun}: "
            f"{len(self.hidden):,} are on later pages."
        )


def first_page_only(snapshot: Snapshot, list_name: str = "tools") -> FirstPage:
    return run_whole(first_page_steps(snapshot, list_name))


def first_page_steps(snapshot: Snapshot, list_name: str = "tools") -> Steps[FirstPage]:
    """`first_page_only` in small steps (`core.steps`)."""
    result = snapshot.lists[list_name]
    pages = result.pages
    first = set(pages[0].names) if pages else set()
    hidden: list[str] = []
    for count, item in enumerate(result.items, 1):
        key = item_key(list_name, item)
        if key not in first:
            hidden.append(key)
        if count % EVERY == 0:
            yield
    total = len(result.items)
    return FirstPage(list_name, total - len(hidden), total, tuple(hidden))


def collisions(catalogs: Mapping[str, Iterable[str]]) -> dict[str, tuple[str, ...]]:
    """Tool names offered by more than one server (server name → its tool names), with the servers in order.

    A host that aggregates servers under one name space (the SDK's
    `ClientSessionGroup`) would let the later server's tool silently win.
    """
    return run_whole(collisions_steps(catalogs))


def collisions_steps(catalogs: Mapping[str, Iterable[str]]) -> Steps[dict[str, tuple[str, ...]]]:
    """`collisions` in small steps (`core.steps`); each server's names may be read lazily."""
    where: dict[str, list[str]] = {}
    for server, names in catalogs.items():
        seen: set[str] = set()
        for count, name in enumerate(names, 1):
            if name not in seen:
                seen.add(name)
                where.setdefault(name, []).append(server)
            if count % EVERY == 0:
                yield
    found: dict[str, tuple[str, ...]] = {}
    for count, (name, servers) in enumerate(where.items(), 1):
        if len(servers) > 1:
            found[name] = tuple(servers)
        if count % EVERY == 0:
            yield
    return found


@dataclass(frozen=True)
class Comparison:
    """The drift between two catalogs the user chose: their labels, and the diff or why there is none."""

    old_label: str
    new_label: str
    diff: CatalogDiff | None = None
    error: str | None = None
    rows: tuple[DriftRow, ...] = ()
    counts: Mapping[Severity, int] = field(default_factory=dict)
    title: str | None = None  # what was compared and found, said whole ("What Cursor sees versus what we see: …")
