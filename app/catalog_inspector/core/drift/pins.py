"""Pinning: a user approves a server's catalog; any later catalog that differs from it is flagged, item by item.

What is pinned: every item of every list a host trusts (tools, prompts, resources,
resource templates), each as the server sent it, less what changes without the server
changing what it offers:

- `icons` (pictures for people; never in a prompt);
- the `_meta` keys in `VOLATILE_META` (per-request and tracing values); every other
  `_meta` key counts: an `_meta.ui.resourceUri` swap points a tool at another view,
  which is exactly a rug pull;
- of a resource, its `size` and `annotations.lastModified` (they follow its content).

An item's digest is SHA-256 over its pinned view in RFC 8785 canonical JSON (key order
and number formatting cannot change it). Beside it each pin keeps the digest of each
field (to say *what kind* of field changed without keeping the old value) and of the
view without its name (`body`: a tool whose body reappears under another name was
renamed, a change of what the user approved, not two unrelated events).

The pins are a lockfile a person can commit (`core.drift.lockfile`): the app keeps one
per server next to its history, the CLI's `approve` writes one and `check --pins` reads it.
An approval made before `_meta` was pinned (`mcp-catalog-pins/1`, tools only) is still
read and checked its own way (`Pins.legacy`) until the user approves again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import rfc8785

from catalog_inspector.core.catalog import LIST_KINDS, LIST_NAMES
from catalog_inspector.core.steps import Steps, run_whole

if TYPE_CHECKING:
    from catalog_inspector.core.catalog import Snapshot

__all__ = [
    "DIGEST_FIELDS",
    "VOLATILE_META",
    "Pin",
    "PinCheck",
    "PinDiff",
    "Pins",
    "check_pins",
    "check_pins_steps",
    "item_digest",
    "pinned_view",
    "tool_digest",
]

# What a tool's digest covered before `_meta` and the other lists were pinned (`mcp-catalog-pins/1`).
DIGEST_FIELDS = ("name", "title", "description", "annotations", "inputSchema", "outputSchema")
VOLATILE_META = (
    "progressToken",  # names one request's progress notifications
    "io.modelcontextprotocol/related-task",  # names the task a message belongs to
    "traceparent",  # W3C trace context (OpenTelemetry propagators put it in _meta)
    "tracestate",
    "requestId",
    "timestamp",
    "lastModified",
    "etag",
)
LEFT_OUT = frozenset({"icons"})
RESOURCE_LEFT_OUT = frozenset({"icons", "size"})
Change = Literal["changed", "added", "removed", "renamed"]


def _canonical(value: Any) -> bytes:
    try:
        return bytes(rfc8785.dumps(value))
    except (rfc8785.CanonicalizationError, TypeError, ValueError):
        # Beyond what JCS can express (an integer over 2**53, a NaN): still stable, still strict.
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str).encode()


def _digest(value: Any) -> str:
    return "sha256:" + hashlib.sha256(_canonical(value)).hexdigest()


def pinned_view(kind: str, item: Mapping[str, Any]) -> dict[str, Any]:
    """The part of `item` (of list `kind`) that is pinned: see the module docstring."""
    left_out = RESOURCE_LEFT_OUT if kind in ("resources", "resource_templates") else LEFT_OUT
    view = {key: value for key, value in item.items() if key not in left_out}
    meta = view.get("_meta")
    if isinstance(meta, dict):
        view["_meta"] = {key: value for key, value in meta.items() if key not in VOLATILE_META}
    notes = view.get("annotations")
    if kind in ("resources", "resource_templates") and isinstance(notes, dict) and "lastModified" in notes:
        view["annotations"] = {key: value for key, value in notes.items() if key != "lastModified"}
    return view


def item_digest(kind: str, item: Mapping[str, Any]) -> str:
    """`sha256:` and the hex digest of the item's pinned view as RFC 8785 JSON."""
    return _digest(pinned_view(kind, item))


def tool_digest(tool: Mapping[str, Any]) -> str:
    """A tool's digest as `mcp-catalog-pins/1` made it (`DIGEST_FIELDS` only): for approvals made before."""
    return _digest({key: tool[key] for key in DIGEST_FIELDS if key in tool})


@dataclass(frozen=True)
class Pin:
    """One approved item: its digest, each field's, and its body's (the view without its name)."""

    kind: str
    name: str
    digest: str
    approved_at: str
    body: str = ""
    fields: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, kind: str, item: Mapping[str, Any], approved_at: str) -> Pin:
        view = pinned_view(kind, item)
        key = LIST_KINDS[kind].key_field
        body = {k: v for k, v in view.items() if k != key}
        return cls(
            kind,
            str(item.get(key, "")),
            _digest(view),
            approved_at,
            _digest(body),
            {name: _digest(value) for name, value in view.items()},
        )


@dataclass(frozen=True)
class Pins:
    """An approved catalog: when, and a pin per item (in list order, then catalog order).

    `legacy`: read from a `mcp-catalog-pins/1` approval (tools only, digests by `tool_digest`).
    """

    approved_at: str
    items: tuple[Pin, ...] = ()
    legacy: bool = False
    server: Mapping[str, Any] = field(default_factory=dict)

    @property
    def digests(self) -> dict[str, str]:
        """The tools' digests by name."""
        return {pin.name: pin.digest for pin in self.items if pin.kind == "tools"}

    @classmethod
    def of(cls, tools: Sequence[Mapping[str, Any]], approved_at: str) -> Pins:
        """An approval of these tools alone."""
        return cls(approved_at, tuple(Pin.of("tools", tool, approved_at) for tool in tools))

    @classmethod
    def of_snapshot(cls, snapshot: Snapshot, approved_at: str, before: Pins | None = None) -> Pins:
        return run_whole(cls.of_snapshot_steps(snapshot, approved_at, before))

    @classmethod
    def of_snapshot_steps(cls, snapshot: Snapshot, approved_at: str, before: Pins | None = None) -> Steps[Pins]:
        """Every item of every list the walk judged, pinned (`core.steps`: a pin a step).

        `before`: an earlier approval; an item it approved unchanged keeps its own `approved_at`.
        """
        kept = {(pin.kind, pin.name): pin for pin in before.items} if before is not None and not before.legacy else {}
        pins: list[Pin] = []
        for kind in LIST_NAMES:
            for item in snapshot.lists[kind].items:
                pin = Pin.of(kind, item, approved_at)
                earlier = kept.get((kind, pin.name))
                pins.append(earlier if earlier is not None and earlier.digest == pin.digest else pin)
                yield
        server = {"name": snapshot.server.get("name"), "version": snapshot.server.get("version")}
        return cls(approved_at, tuple(pins), server=server)


@dataclass(frozen=True)
class PinDiff:
    """One item that differs from what was approved.

    `fields`: for `changed`, the fields whose value changed, appeared or went (`_meta`, `inputSchema` …).
    `renamed_from`: for `renamed`, the approved name whose body reappears under `name`.
    """

    kind: str
    name: str
    change: Change
    fields: tuple[str, ...] = ()
    renamed_from: str | None = None

    def words(self) -> str:
        """`changed: description, _meta`, `renamed from fetch`, `new (not approved)`, `gone`."""
        if self.change == "changed":
            return "changed: " + ", ".join(self.fields) if self.fields else "changed"
        if self.change == "renamed":
            return f"renamed from {self.renamed_from} (approved under that name)"
        return "new (not approved)" if self.change == "added" else "gone"

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {"kind": self.kind, "name": self.name, "change": self.change}
        if self.fields:
            document["fields"] = list(self.fields)
        if self.renamed_from is not None:
            document["renamed_from"] = self.renamed_from
        return document


@dataclass(frozen=True)
class PinCheck:
    """How a catalog measures up to its approval: each item that differs, in list and catalog order."""

    approved_at: str
    diffs: tuple[PinDiff, ...] = ()
    legacy: bool = False

    def _tools(self, change: Change) -> tuple[str, ...]:
        return tuple(d.name for d in self.diffs if d.kind == "tools" and d.change == change)

    @property
    def changed(self) -> tuple[str, ...]:
        """The tools whose pinned fields changed."""
        return self._tools("changed")

    @property
    def added(self) -> tuple[str, ...]:
        """The tools that were not approved (a renamed one is not here: see `renamed`)."""
        return self._tools("added")

    @property
    def removed(self) -> tuple[str, ...]:
        return self._tools("removed")

    @property
    def renamed(self) -> tuple[tuple[str, str], ...]:
        """(approved name, new name) of each renamed tool."""
        return tuple((d.renamed_from or "", d.name) for d in self.diffs if d.kind == "tools" and d.change == "renamed")

    @property
    def clean(self) -> bool:
        return not self.diffs

    def flagged(self) -> frozenset[str]:
        """The names of the catalog's tools that differ from what was approved (renamed ones by their new name)."""
        return frozenset(d.name for d in self.diffs if d.kind == "tools" and d.change != "removed")

    def summary(self) -> str:
        when = self.approved_at[:19].replace("T", " ")
        if self.clean:
            return f"Matches the catalog approved at {when} UTC."
        parts = []
        for change, words in (("changed", "changed"), ("renamed", "renamed"), ("added", "new"), ("removed", "gone")):
            count = sum(1 for d in self.diffs if d.change == change)
            if count:
                parts.append(f"{count:,} {words}")
        return f"Differs from the catalog approved at {when} UTC: {', '.join(parts)}."

    def to_json(self) -> dict[str, Any]:
        return {"approved_at": self.approved_at, "clean": self.clean, "differs": [d.to_json() for d in self.diffs]}


def check_pins(pins: Pins, tools_or_snapshot: Sequence[Mapping[str, Any]] | Snapshot) -> PinCheck:
    """Compare a catalog (a snapshot, or a list of tools) with an approval (linear in the catalog)."""
    return run_whole(check_pins_steps(pins, tools_or_snapshot))


def _catalog(catalog: Sequence[Mapping[str, Any]] | Snapshot) -> Iterable[tuple[str, Sequence[Mapping[str, Any]]]]:
    if isinstance(catalog, Sequence):
        return (("tools", catalog),)
    # A list the walk did not judge (it failed) is not compared: its items are unknown, not gone.
    return ((kind, catalog.lists[kind].items) for kind in LIST_NAMES if catalog.lists[kind].judged)


def check_pins_steps(pins: Pins, catalog: Sequence[Mapping[str, Any]] | Snapshot) -> Steps[PinCheck]:
    """`check_pins` in small steps (`core.steps`): a digest a step, each a canonical JSON encoding."""
    by_key = {(pin.kind, pin.name): pin for pin in pins.items}
    diffs: list[PinDiff] = []
    compared: set[str] = set()
    for kind, items in _catalog(catalog):
        compared.add(kind)
        key = LIST_KINDS[kind].key_field
        seen: set[str] = set()
        added: list[tuple[int, Pin]] = []
        for item in items:
            name = str(item.get(key, ""))
            seen.add(name)
            pinned = by_key.get((kind, name))
            if pins.legacy:
                if pinned is None:
                    diffs.append(PinDiff(kind, name, "added"))
                elif pinned.digest != tool_digest(item):
                    diffs.append(PinDiff(kind, name, "changed"))
            else:
                now = Pin.of(kind, item, "")
                if pinned is None:
                    added.append((len(diffs), now))
                    diffs.append(PinDiff(kind, name, "added"))
                elif pinned.digest != now.digest:
                    diffs.append(PinDiff(kind, name, "changed", _fields(pinned.fields, now.fields)))
            yield
        gone = [pin for pin in pins.items if pin.kind == kind and pin.name not in seen]
        bodies: dict[str, Pin] = {}
        for pin in gone:
            bodies.setdefault(pin.body, pin)
        renamed: set[str] = set()
        for position, now in added:
            was = bodies.get(now.body) if now.body else None
            if was is not None and was.name not in renamed:
                renamed.add(was.name)
                diffs[position] = PinDiff(kind, now.name, "renamed", ("name",), was.name)
        diffs.extend(PinDiff(kind, pin.name, "removed") for pin in gone if pin.name not in renamed)
    return PinCheck(pins.approved_at, tuple(diffs), pins.legacy)


def _fields(before: Mapping[str, str], after: Mapping[str, str]) -> tuple[str, ...]:
    """The fields whose digest differs, appeared or went: in the new item's order, then those gone."""
    changed = [name for name, digest in after.items() if before.get(name) != digest]
    changed.extend(name for name in before if name not in after)
    return tuple(changed)
