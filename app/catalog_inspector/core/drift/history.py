"""Accepted snapshots kept on disk, per configured server, bounded in number.

A server's identity is its config entry (its name and how it is reached), never
what the server calls itself: two servers may well both say they are "demo".
Each server gets a directory named after its entry (a readable slug and a digest
of the name and target). Each accepted snapshot is one `mcp-catalog-snapshot/1`
file there, written whole or not at all; its name carries when it was taken and
how many items each list had, so the history can be listed without reading the
catalogs. The oldest files beyond `keep` are deleted after each save.

Secrets never enter a history file: snapshots hold no environment or header
values, and the `source.target` kept here has any user, password and query
string cut from its URL.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from catalog_inspector.core.catalog import LIST_NAMES, Snapshot, taken_words, write_json
from catalog_inspector.core.config import ServerSpec, server_key
from catalog_inspector.core.files import MAX_SNAPSHOT_BYTES, read_json, write_text_safely

__all__ = ["DEFAULT_KEEP", "Entry", "History", "redacted_target"]

DEFAULT_KEEP = 50
SUFFIX = ".snapshot.json"
# 00000003-20261130T221332123Z-t10000-r3-rt1-p2.snapshot.json: the sequence number orders the files
# (a clock stepped back cannot make a new snapshot the oldest), the time and counts label them.
_NAME = re.compile(r"^(\d{8})-(\d{8}T\d{9}Z)-t(\d+)-r(\d+)-rt(\d+)-p(\d+)" + re.escape(SUFFIX) + "$")

_COUNT_KEYS = ("t", "r", "rt", "p")  # tools, resources, resource templates, prompts: LIST_NAMES order


def redacted_target(spec: ServerSpec) -> str:
    """`spec.describe()`, which leaves out whatever may carry a secret (see `core.redact`)."""
    return spec.describe()


@dataclass(frozen=True)
class Entry:
    """One kept snapshot: where it is, when it was taken, and how many items each list had."""

    path: Path
    taken_at: str  # ISO 8601, UTC, to the millisecond
    counts: dict[str, int]

    @property
    def tools(self) -> int:
        return self.counts.get("tools", 0)

    def label(self, every_list: bool = False) -> str:
        """`2026-11-30 22:13:32 UTC · 3 tools`, in this machine's time (`every_list`: and the other lists' counts
        when they have items)."""
        stamp = taken_words(self.taken_at)
        parts = [f"{self.tools:,} tool{'s' if self.tools != 1 else ''}"]
        for name, noun in (("resources", "resources"), ("resource_templates", "templates"), ("prompts", "prompts")):
            if every_list and self.counts.get(name):
                parts.append(f"{self.counts[name]:,} {noun}")
        return f"{stamp} · {', '.join(parts)}"


def _stamp(taken_at: str) -> str:
    """`2026-11-30T22:13:32.123+00:00` → `20261130T221332123Z`."""
    digits = re.sub(r"[^0-9]", "", taken_at)[:17].ljust(17, "0")
    return f"{digits[:8]}T{digits[8:17]}Z"


def _iso(stamp: str) -> str:
    d = stamp
    return f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[9:11]}:{d[11:13]}:{d[13:15]}.{d[15:18]}+00:00"


class History:
    """Every server's kept snapshots under `root`. Plain file I/O: call it off the GUI thread.

    Attributes:
        root: the directory holding one directory per server.
        keep: how many snapshots each server keeps (at least 1).
    """

    def __init__(self, root: Path, keep: int = DEFAULT_KEEP) -> None:
        self.root = root
        self.keep = max(1, keep)

    def directory(self, spec: ServerSpec) -> Path:
        return self.root / server_key(spec)

    def entries(self, spec: ServerSpec) -> list[Entry]:
        """The server's kept snapshots, oldest first (files that are not ours are ignored)."""
        try:
            names = os.listdir(self.directory(spec))
        except OSError:
            return []
        found: list[tuple[str, Entry]] = []
        for name in names:
            match = _NAME.match(name)
            if match is None:
                continue
            counts = {list_name: int(match.group(3 + i)) for i, list_name in enumerate(LIST_NAMES)}
            entry = Entry(self.directory(spec) / name, _iso(match.group(2)), counts)
            found.append((name, entry))
        found.sort()
        return [entry for _, entry in found]

    def save(self, spec: ServerSpec, snapshot: Snapshot) -> Entry:
        """Keep an accepted snapshot (atomically), then delete the oldest beyond `keep`.

        Raises:
            ValueError: the snapshot was not accepted.
            OSError: it could not be written (nothing was replaced or deleted).
        """
        if snapshot.status != "complete":
            raise ValueError("only accepted snapshots are kept")
        existing = self.entries(spec)
        last = _NAME.match(existing[-1].path.name) if existing else None
        sequence = int(last.group(1)) + 1 if last else 0
        counts = [len(snapshot.lists[name].items) for name in LIST_NAMES]
        tags = "-".join(f"{key}{count}" for key, count in zip(_COUNT_KEYS, counts, strict=True))
        stamp = _stamp(snapshot.taken_at)
        path = self.directory(spec) / f"{sequence:08d}-{stamp}-{tags}{SUFFIX}"
        kept = replace(snapshot, source={**snapshot.source, "target": redacted_target(spec)})
        write_text_safely(path, lambda handle: write_json(kept, handle))
        self.prune(spec)
        return Entry(path, _iso(stamp), dict(zip(LIST_NAMES, counts, strict=True)))

    def prune(self, spec: ServerSpec, keep: int | None = None) -> list[Entry]:
        """Delete the oldest snapshots beyond `keep` (default: `self.keep`); returns what was deleted."""
        keep = max(1, keep if keep is not None else self.keep)
        entries = self.entries(spec)
        doomed = entries[: max(0, len(entries) - keep)]
        for entry in doomed:
            entry.path.unlink(missing_ok=True)
        return doomed

    def delete(self, entry: Entry) -> None:
        entry.path.unlink(missing_ok=True)

    def load(self, entry: Entry) -> Snapshot:
        """Read a kept snapshot back.

        Raises:
            OSError, ValueError: the file is gone or is not a snapshot any more (`InputError`: over the
                cap, not UTF-8, not strict JSON, nested too deeply).
        """
        data: Any = read_json(entry.path, MAX_SNAPSHOT_BYTES, "snapshot files")
        if not isinstance(data, dict):
            raise ValueError(f"{entry.path} is not a snapshot")
        return Snapshot.from_json(data)

    def latest(self, spec: ServerSpec) -> tuple[Entry, Snapshot] | None:
        """The newest kept snapshot that can still be read, or None."""
        for entry in reversed(self.entries(spec)):
            try:
                return entry, self.load(entry)
            except (OSError, ValueError, KeyError, TypeError):
                continue  # damaged by hand or by a full disk: the one before it still counts
        return None
