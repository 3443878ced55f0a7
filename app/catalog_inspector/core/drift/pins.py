"""Pinning: a user approves a server's tools; any later catalog whose tools differ from that is flagged.

The digest of a tool covers everything a model reads or a host relies on:
name, title, description, annotations, inputSchema and outputSchema, in RFC 8785
canonical JSON (key order and number formatting cannot change it). A
description-only hash misses the rug pull that changes a schema or flips a
hint; this one does not. Other fields (`_meta`, `icons`) do not count.

The approval is kept next to the server's history (`pins.json`), written whole
or not at all.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rfc8785

from catalog_inspector.core.files import MAX_CONFIG_BYTES, read_json, write_text_safely
from catalog_inspector.core.steps import Steps, run_whole

__all__ = [
    "DIGEST_FIELDS",
    "PinCheck",
    "Pins",
    "check_pins",
    "check_pins_steps",
    "forget_pins",
    "load_pins",
    "save_pins",
    "tool_digest",
]

DIGEST_FIELDS = ("name", "title", "description", "annotations", "inputSchema", "outputSchema")
PINS_FILE = "pins.json"
FORMAT = "mcp-catalog-pins/1"


def tool_digest(tool: Mapping[str, Any]) -> str:
    """`sha256:` and the hex digest of the tool's pinned fields (absent fields stay absent) as RFC 8785 JSON."""
    pinned = {key: tool[key] for key in DIGEST_FIELDS if key in tool}
    try:
        canonical = rfc8785.dumps(pinned)
    except (rfc8785.CanonicalizationError, TypeError, ValueError):
        # Beyond what JCS can express (an integer over 2**53, a NaN): still stable, still strict.
        canonical = json.dumps(pinned, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return "sha256:" + hashlib.sha256(canonical).hexdigest()


@dataclass(frozen=True)
class Pins:
    """An approved catalog: when, and each tool's digest by name."""

    approved_at: str
    digests: Mapping[str, str]

    @classmethod
    def of(cls, tools: Sequence[Mapping[str, Any]], approved_at: str) -> Pins:
        return run_whole(cls.of_steps(tools, approved_at))

    @classmethod
    def of_steps(cls, tools: Sequence[Mapping[str, Any]], approved_at: str) -> Steps[Pins]:
        """`of` in small steps (`core.steps`): a digest a step."""
        digests: dict[str, str] = {}
        for tool in tools:
            digests[str(tool.get("name", ""))] = tool_digest(tool)
            yield
        return cls(approved_at, digests)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "approved_at": self.approved_at, "digests": dict(self.digests)}


@dataclass(frozen=True)
class PinCheck:
    """How a catalog measures up to its approval: tools whose digest changed, new tools, tools gone."""

    approved_at: str
    changed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()

    @property
    def clean(self) -> bool:
        return not (self.changed or self.added or self.removed)

    def flagged(self) -> frozenset[str]:
        """The names of the catalog's tools that differ from what was approved."""
        return frozenset(self.changed) | frozenset(self.added)

    def summary(self) -> str:
        if self.clean:
            return f"Matches the catalog approved at {self.approved_at[:19].replace('T', ' ')} UTC."
        parts = []
        for count, words in ((len(self.changed), "changed"), (len(self.added), "new"), (len(self.removed), "gone")):
            if count:
                parts.append(f"{count:,} {words}")
        return (
            f"Differs from the catalog approved at {self.approved_at[:19].replace('T', ' ')} UTC: {', '.join(parts)}."
        )


def check_pins(pins: Pins, tools: Sequence[Mapping[str, Any]]) -> PinCheck:
    """Compare a catalog's tools with an approval (linear in the catalog)."""
    return run_whole(check_pins_steps(pins, tools))


def check_pins_steps(pins: Pins, tools: Sequence[Mapping[str, Any]]) -> Steps[PinCheck]:
    """`check_pins` in small steps (`core.steps`): a digest a step, each a canonical JSON encoding."""
    changed: list[str] = []
    added: list[str] = []
    seen: set[str] = set()
    for tool in tools:
        name = str(tool.get("name", ""))
        seen.add(name)
        pinned = pins.digests.get(name)
        if pinned is None:
            added.append(name)
        else:
            if pinned != tool_digest(tool):
                changed.append(name)
            yield
    removed = tuple(name for name in pins.digests if name not in seen)
    return PinCheck(pins.approved_at, tuple(changed), tuple(added), removed)


def load_pins(directory: Path) -> Pins | None:
    """The approval kept in `directory`, or None (never approved, or the file is damaged)."""
    try:
        data = read_json(directory / PINS_FILE, MAX_CONFIG_BYTES, "pin files")
    except (OSError, ValueError):  # InputError too: over the cap, not UTF-8, not strict JSON
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("digests"), dict):
        return None
    digests = {str(k): str(v) for k, v in data["digests"].items()}
    return Pins(str(data.get("approved_at", "")), digests)


def save_pins(directory: Path, pins: Pins) -> None:
    write_text_safely(
        directory / PINS_FILE, lambda handle: json.dump(pins.to_json(), handle, indent=1, allow_nan=False)
    )


def forget_pins(directory: Path) -> None:
    (directory / PINS_FILE).unlink(missing_ok=True)
