"""The app's own server list on disk: read keeping every key, changed entry by entry, written whole.

Entries are kept as the JSON they are, so keys this app does not know (another
client's settings, a newer version's) survive a round-trip. A write replaces the
file atomically after copying the current one to `<file>.bak`: a kill at any
moment leaves the old file or the new one, never half of either. Importing
copies entries into this file; another client's file is only ever read.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from catalog_inspector.core.config.servers import ConfigError, Loaded, load_config, parse_servers, read_document
from catalog_inspector.core.files import MAX_CONFIG_BYTES, InputError, read_bounded, write_text_safely

__all__ = ["ConfigStore"]


class ConfigStore:
    """One `mcpServers` file (the app's own)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def backup(self) -> Path:
        return self.path.with_name(self.path.name + ".bak")

    def read(self) -> dict[str, Any]:
        """The whole document; a missing file is an empty list of servers.

        Raises:
            ConfigError: the file exists but is not a usable document (it is left untouched).
        """
        if not self.path.exists():
            return {"mcpServers": {}}
        document = read_document(self.path)
        if not isinstance(document, dict) or not isinstance(document.get("mcpServers"), dict):
            raise ConfigError(f'{self.path}: the file must be a JSON object with an "mcpServers" object')
        return document

    def load(self) -> Loaded:
        return load_config(self.path) if self.path.exists() else Loaded([])

    def write(self, document: dict[str, Any]) -> None:
        """Replace the file with `document`, keeping the current one as `<file>.bak`.

        Raises:
            ConfigError: `document` has an entry that is not an object (nothing is written).
            OSError: the file could not be written (the old one stays).
        """
        parse_servers(document)  # the shape must hold; entries' own problems are the user's to fix
        if any(not isinstance(entry, dict) for entry in document["mcpServers"].values()):
            raise ConfigError("every server entry must be a JSON object")
        if self.path.exists():
            try:
                old = read_bounded(self.path, MAX_CONFIG_BYTES, "config files")
            except InputError as exc:  # it grew past the cap since it was read: keep it, write nothing
                raise ConfigError(str(exc)) from exc
            write_text_safely(self.backup, lambda handle: handle.write(old.decode("utf-8", errors="replace")))
        text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        write_text_safely(self.path, lambda handle: handle.write(text))

    def put(self, name: str, entry: dict[str, Any], *, replacing: str | None = None) -> None:
        """Add or replace one entry (`replacing`: its old name, for a rename), keeping its place and the rest."""
        document = self.read()
        servers: dict[str, Any] = document["mcpServers"]
        old = replacing if replacing is not None else name
        if name != old and name in servers:
            raise ConfigError(f"a server named {name!r} exists already")
        document["mcpServers"] = {
            (name if key == old else key): (entry if key == old else value) for key, value in servers.items()
        }
        if old not in servers:
            document["mcpServers"][name] = entry
        self.write(document)

    def remove(self, name: str) -> None:
        document = self.read()
        document["mcpServers"].pop(name, None)
        self.write(document)

    def duplicate(self, name: str) -> str:
        """Copy an entry under a free name (`name (copy)`, `name (copy 2)` …); returns the new name."""
        document = self.read()
        new = free_name(f"{name} (copy)", document["mcpServers"])
        self.put(new, copy.deepcopy(document["mcpServers"][name]))
        return new

    def set_disabled(self, name: str, disabled: bool) -> None:
        document = self.read()
        entry = dict(document["mcpServers"][name])
        if disabled:
            entry["disabled"] = True
        else:
            entry.pop("disabled", None)
        self.put(name, entry)

    def import_entries(self, servers: dict[str, Any]) -> list[str]:
        """Copy other clients' entries in, under free names; returns the names given, in order."""
        document = self.read()
        given = []
        for name, entry in servers.items():
            new = free_name(str(name), document["mcpServers"])
            document["mcpServers"][new] = copy.deepcopy(entry)
            given.append(new)
        self.write(document)
        return given


def free_name(name: str, taken: dict[str, Any]) -> str:
    if name not in taken:
        return name
    number = 2
    while f"{name} {number}" in taken:
        number += 1
    return f"{name} {number}"
