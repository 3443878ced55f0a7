"""The approval as a file a person can commit: `mcp-catalog.lock.json`, the same file for the app and the CLI.

    {"format": "mcp-catalog-lock/1", "approved_at": "…", "server": {"name": …, "version": …},
     "volatile_meta": […], "items": [{"kind": "tools", "name": "echo", "digest": "sha256:…",
     "approved_at": "…", "body": "sha256:…", "fields": {"description": "sha256:…", …}}, …]}

Items are sorted by list, then name, so that a re-approval changes only the lines of
what changed. `volatile_meta` names the `_meta` keys left out of the digests (a file
made under another list says so, and is checked under its own). The app keeps the
same document as `pins.json` next to a server's history; an approval written before
(`mcp-catalog-pins/1`: tools only) is read as a legacy approval (`Pins.legacy`).
Files are written whole or not at all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from catalog_inspector.core.catalog import LIST_NAMES
from catalog_inspector.core.drift.pins import VOLATILE_META, Pin, Pins
from catalog_inspector.core.files import MAX_SNAPSHOT_BYTES, InputError, read_json, write_text_safely

__all__ = [
    "LOCK_FORMAT",
    "LOCKFILE_NAME",
    "forget_pins",
    "load_pins",
    "lock_document",
    "pins_from_document",
    "read_lockfile",
    "save_pins",
    "write_lockfile",
]

LOCK_FORMAT = "mcp-catalog-lock/1"
LEGACY_FORMAT = "mcp-catalog-pins/1"
LOCKFILE_NAME = "mcp-catalog.lock.json"
PINS_FILE = "pins.json"  # the app's copy, next to a server's history
_ORDER = {name: position for position, name in enumerate(LIST_NAMES)}


def lock_document(pins: Pins) -> dict[str, Any]:
    items = sorted(pins.items, key=lambda pin: (_ORDER.get(pin.kind, len(_ORDER)), pin.name))
    return {
        "format": LOCK_FORMAT,
        "approved_at": pins.approved_at,
        "server": dict(pins.server),
        "volatile_meta": list(VOLATILE_META),
        "items": [
            {
                "kind": pin.kind,
                "name": pin.name,
                "digest": pin.digest,
                "approved_at": pin.approved_at,
                "body": pin.body,
                "fields": dict(pin.fields),
            }
            for pin in items
        ],
    }


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} is not a string")
    return value


def pins_from_document(data: Any) -> Pins:
    """The approval a lockfile (or a legacy pins file) holds.

    Raises:
        ValueError: not such a document, or an item without a kind, name or digest (says which).
    """
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    found = data.get("format")
    approved_at = str(data.get("approved_at", ""))
    if found == LEGACY_FORMAT and isinstance(data.get("digests"), dict):
        legacy = tuple(Pin("tools", str(name), str(digest), approved_at) for name, digest in data["digests"].items())
        return Pins(approved_at, legacy, legacy=True)
    if found != LOCK_FORMAT:
        raise ValueError(f"its format is {found!r}, not {LOCK_FORMAT!r}")
    if data.get("volatile_meta", list(VOLATILE_META)) != list(VOLATILE_META):
        raise ValueError("it was made with another list of volatile _meta keys: approve again with this version")
    items = data.get("items")
    if not isinstance(items, list):
        raise ValueError('"items" is not a list')
    pins: list[Pin] = []
    for position, item in enumerate(items):
        where = f"item {position}"
        if not isinstance(item, dict):
            raise ValueError(f"{where} is not an object")
        kind = _text(item.get("kind"), f"{where}'s kind")
        if kind not in _ORDER:
            raise ValueError(f"{where}'s kind {kind!r} is not one of {', '.join(LIST_NAMES)}")
        fields = item.get("fields", {})
        if not isinstance(fields, dict):
            raise ValueError(f"{where}'s fields is not an object")
        pins.append(
            Pin(
                kind,
                _text(item.get("name"), f"{where}'s name"),
                _text(item.get("digest"), f"{where}'s digest"),
                str(item.get("approved_at", approved_at)),
                str(item.get("body", "")),
                {str(k): str(v) for k, v in fields.items()},
            )
        )
    server = data.get("server")
    return Pins(approved_at, tuple(pins), server=server if isinstance(server, dict) else {})


def read_lockfile(path: Path) -> Pins:
    """The approval in `path`.

    Raises:
        OSError: it cannot be read.
        InputError: over the size cap, not UTF-8, not strict JSON (names the file).
        ValueError: not a lockfile (names the file and what is wrong).
    """
    data = read_json(path, MAX_SNAPSHOT_BYTES, "lockfiles")
    try:
        return pins_from_document(data)
    except ValueError as exc:
        raise ValueError(f"{path} is not a catalog lockfile: {exc}") from exc


def write_lockfile(path: Path, pins: Pins) -> None:
    document = lock_document(pins)
    write_text_safely(path, lambda handle: handle.write(json.dumps(document, indent=1, ensure_ascii=False) + "\n"))


def load_pins(directory: Path) -> Pins | None:
    """The app's approval kept in `directory`, or None (never approved, or the file is damaged)."""
    try:
        return read_lockfile(directory / PINS_FILE)
    except (OSError, ValueError, InputError):
        return None


def save_pins(directory: Path, pins: Pins) -> None:
    write_lockfile(directory / PINS_FILE, pins)


def forget_pins(directory: Path) -> None:
    (directory / PINS_FILE).unlink(missing_ok=True)
