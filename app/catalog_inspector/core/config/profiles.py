"""Client profiles: the name and version the client gives, the extensions it advertises, the version it pins.

Servers change what they offer by what the client declares (a tool only for one
host, an MCP Apps tool only for a client that advertises `io.modelcontextprotocol/ui`).
A server entry's `"client"` says which client to be:

- a preset's key: `"client": "cursor"` (`PRESETS`: what each host is published to send);
- or an object: `{"preset"?: KEY, "name"?, "version"?, "extensions"?: {ID: {…}}, "protocolVersion"?: V | null}`:
  the preset's fields (ours without one), then the object's over them; `"protocolVersion": null`
  lifts a preset's pin.

Without one the client is this inspector (`OURS`). A pinned `protocolVersion` means
the initialize handshake proposing exactly that version (the SDK proposes only its
newest); 2026-07-28 has no handshake to pin, so `"protocolEra": "modern"` cannot go
with a pin. What the host declares beyond these (sampling, elicitation, roots) is not
copied: those capabilities are the ones this client implements.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from catalog_inspector import __version__
from catalog_inspector.core.config.checks import ConfigError
from catalog_inspector.core.text import visible

__all__ = [
    "DEFAULT_KEY",
    "ENTRY_KEY",
    "HANDSHAKE_VERSIONS",
    "MCP_APPS",
    "OURS",
    "PRESETS",
    "ClientProfile",
    "changed",
    "check_client_text",
    "check_era",
    "check_extension",
    "check_protocol_version",
    "parse_client",
    "profile_choices",
    "profile_for",
]

# The versions the initialize handshake negotiates (the SDK's HANDSHAKE_PROTOCOL_VERSIONS; a test holds them
# equal): kept here because configuration is read without the SDK.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MCP_APPS = "io.modelcontextprotocol/ui"  # the MCP Apps extension (SEP-1865)
DEFAULT_KEY = "default"  # "client": "default", `--client default`: this inspector, as without a profile
ENTRY_KEY = "entry"  # "walk again as …": the entry's own profile

NAME_LIMIT = 200
EXTENSIONS_LIMIT = 32
SETTINGS_LIMIT = 16 * 1024  # bytes of one extension's settings, as JSON
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# `{vendor-prefix}/{extension-name}`, as the extensions identifiers of the spec are written.
_EXTENSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]*/[A-Za-z0-9][A-Za-z0-9._/-]*")
_OBJECT_KEYS = ("preset", "name", "version", "extensions", "protocolVersion")


@dataclass(frozen=True)
class ClientProfile:
    """Who the client says it is in the handshake, and what it advertises.

    Attributes:
        name, version: the `clientInfo` sent.
        extensions: `capabilities.extensions`: identifier → its settings (a JSON object).
        protocol_version: the version proposed in `initialize` (None: the era decides).
        key: the preset it is, unchanged (None: a profile of the entry's own).
        title: how people call that client ("Cursor"); "" for a custom one.
    """

    name: str
    version: str
    extensions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    protocol_version: str | None = None
    key: str | None = None
    title: str = ""

    @property
    def label(self) -> str:
        """The client in a few words: its title, else its name and version (plain, made visible)."""
        return self.title or visible(f"{self.name} {self.version}", 120)

    def describe(self) -> str:
        """One plain line: the name and version sent, the pinned version, the extensions."""
        parts = [f"clientInfo {visible(self.name, NAME_LIMIT)} {visible(self.version, NAME_LIMIT)}"]
        if self.protocol_version is not None:
            parts.append(f"initialize at {self.protocol_version}")
        if self.extensions:
            parts.append("extensions " + ", ".join(visible(key, NAME_LIMIT) for key in self.extensions))
        return "; ".join(parts)

    def source(self) -> dict[str, Any]:
        """What a snapshot's `source.client` says of it: the preset, the name and version, the pin, the extensions."""
        found: dict[str, Any] = {"name": self.name, "version": self.version}
        if self.key is not None:
            found["preset"] = self.key
        if self.protocol_version is not None:
            found["protocol_version"] = self.protocol_version
        if self.extensions:
            found["extensions"] = sorted(self.extensions)
        return found


OURS = ClientProfile("mcp-catalog-inspector", __version__, key=DEFAULT_KEY, title="this inspector")

# What each host sends, as published: its initialize request, recorded off the wire. Versions are kept as
# recorded (a host's own version moves; its name is what servers match on).
PRESETS: dict[str, ClientProfile] = {
    # Claude Desktop's own MCP log ("Message from client: {"method":"initialize" …), quoted in public issues
    # of July and December 2025: {"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-ai","version":"0.1.0"}}
    "claude-desktop": ClientProfile("claude-ai", "0.1.0", {}, "2025-06-18", "claude-desktop", "Claude Desktop"),
    # Claude Code's initialize as shown in a server's published handshake transcript (2026):
    # {"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1.258"}}
    "claude-code": ClientProfile("claude-code", "2.1.258", {}, "2025-11-25", "claude-code", "Claude Code"),
    # Cursor, as a stdio probe recorded it in 2026 ("Both clients sent, protocol 2025-11-25"):
    # "clientInfo":{"name":"cursor-vscode","version":"1.0.0"} (the same name and version since Cursor 0.4x).
    "cursor": ClientProfile("cursor-vscode", "1.0.0", {}, "2025-11-25", "cursor", "Cursor"),
    # VS Code 1.138.0's initialize, recorded byte for byte in a public test fixture (2026-10): protocol
    # 2025-11-25, clientInfo {"name":"Visual Studio Code","version":"1.138.0"}, and the MCP Apps extension
    # {"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}.
    "vscode": ClientProfile(
        "Visual Studio Code",
        "1.138.0",
        {MCP_APPS: {"mimeTypes": ["text/html;profile=mcp-app"]}},
        "2025-11-25",
        "vscode",
        "VS Code",
    ),
    # The official MCP Inspector's web client, as captured from its proxy in a public issue (0.16.6):
    # {"protocolVersion":"2025-06-18",…,"clientInfo":{"name":"mcp-inspector","version":"0.16.6"}}
    "mcp-inspector": ClientProfile("mcp-inspector", "0.16.6", {}, "2025-06-18", "mcp-inspector", "MCP Inspector"),
}


def check_client_text(value: Any, where: str) -> str:
    """A clientInfo name or version: a non-empty line of at most `NAME_LIMIT` characters.

    Raises:
        ConfigError: naming `where`.
    """
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where} must be a non-empty string")
    if len(value) > NAME_LIMIT:
        raise ConfigError(f"{where} is longer than {NAME_LIMIT} characters")
    if _CONTROL.search(value):
        raise ConfigError(f"{where} contains a control character")
    return value


def check_protocol_version(value: Any, where: str) -> str:
    """A version the initialize handshake can propose.

    Raises:
        ConfigError: naming `where` and the versions that can be pinned.
    """
    if value not in HANDSHAKE_VERSIONS:
        shown = visible(str(value), 40)
        raise ConfigError(
            f"{where} must be one of {', '.join(HANDSHAKE_VERSIONS)} (the initialize handshake's versions), "
            f"not {shown!r}; 2026-07-28 is negotiated by server/discover and is not pinned"
        )
    version: str = value
    return version


def check_extension(identifier: Any, settings: Any, where: str) -> tuple[str, dict[str, Any]]:
    """An extension identifier (`vendor/name`) and its settings (a JSON object, within `SETTINGS_LIMIT`).

    Raises:
        ConfigError: naming `where`.
    """
    if not isinstance(identifier, str) or len(identifier) > NAME_LIMIT or not _EXTENSION_ID.fullmatch(identifier):
        shown = visible(str(identifier), 100)
        raise ConfigError(f"{where}: {shown!r} is not an extension identifier (vendor/name, e.g. {MCP_APPS})")
    if not isinstance(settings, dict):
        raise ConfigError(f"{where}.{identifier} must be a JSON object (its settings; {{}} for none)")
    try:
        size = len(json.dumps(settings, ensure_ascii=False, allow_nan=False).encode())
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}.{identifier} must be plain JSON") from exc
    if size > SETTINGS_LIMIT:
        raise ConfigError(f"{where}.{identifier} is larger than {SETTINGS_LIMIT // 1024} KiB")
    return identifier, settings


def _extensions(value: Any, where: str) -> dict[str, dict[str, Any]]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be an object: extension identifier → its settings")
    if len(value) > EXTENSIONS_LIMIT:
        raise ConfigError(f"{where} has more than {EXTENSIONS_LIMIT} extensions")
    return dict(check_extension(key, settings, where) for key, settings in value.items())


def _preset(value: Any, where: str) -> ClientProfile:
    if value == DEFAULT_KEY:
        return OURS
    if not isinstance(value, str) or value not in PRESETS:
        shown = visible(str(value), 60)
        raise ConfigError(f"{where} must be one of {', '.join([DEFAULT_KEY, *PRESETS])}, not {shown!r}")
    return PRESETS[value]


def parse_client(value: Any, where: str) -> ClientProfile | None:
    """The entry's `"client"`: a preset's key or an object (see the module); None for this inspector.

    Raises:
        ConfigError: naming the field and what it must hold.
    """
    if value is None:
        return None
    if isinstance(value, str):
        profile = _preset(value, where)
        return None if profile is OURS else profile
    if not isinstance(value, dict):
        raise ConfigError(f'{where} must be a preset ({", ".join(PRESETS)}) or an object {{"name", "version", …}}')
    for key in value:
        if key not in _OBJECT_KEYS:
            shown = visible(str(key), 60)
            raise ConfigError(f"{where}.{shown} is not a client profile key (use {', '.join(_OBJECT_KEYS)})")
    base = _preset(value["preset"], f"{where}.preset") if "preset" in value else OURS
    changes: dict[str, Any] = {}
    if "name" in value:
        changes["name"] = check_client_text(value["name"], f"{where}.name")
    if "version" in value:
        changes["version"] = check_client_text(value["version"], f"{where}.version")
    if "extensions" in value:
        changes["extensions"] = _extensions(value["extensions"], f"{where}.extensions")
    if "protocolVersion" in value:
        pinned = value["protocolVersion"]
        changes["protocol_version"] = (
            None if pinned is None else check_protocol_version(pinned, f"{where}.protocolVersion")
        )
    return changed(base, **changes)


def changed(profile: ClientProfile | None, **changes: Any) -> ClientProfile | None:
    """`profile` (None: ours) with `changes`; None if that is ours. A profile that differs from its preset is
    no longer that preset (no key, no title)."""
    base = profile or OURS
    result = replace(base, **changes)
    if result != base:
        result = replace(result, key=None, title="")
    return None if result == OURS else result


def check_era(profile: ClientProfile | None, era: str, where: str) -> None:
    """A pinned version needs the initialize handshake: `modern` (server/discover only) cannot pin one.

    Raises:
        ConfigError: naming `where`.
    """
    if profile is not None and profile.protocol_version is not None and era == "modern":
        raise ConfigError(
            f"{where} pins protocolVersion {profile.protocol_version}, which the initialize handshake proposes: "
            'protocolEra "modern" (server/discover only) cannot use it; use "auto" or "legacy", or '
            '"protocolVersion": null'
        )


def profile_choices(own: ClientProfile | None) -> list[tuple[str, str]]:
    """What "walk again as …" offers, as (key, label): the entry's own profile, ours unless it is the entry's,
    then every preset but the entry's own."""
    mine = own or OURS
    choices = [(ENTRY_KEY, f"The entry's own profile ({mine.label})")]
    if own is not None:
        choices.append((DEFAULT_KEY, f"This inspector ({OURS.name})"))
    choices.extend((key, preset.title) for key, preset in PRESETS.items() if preset != own)
    return choices


def profile_for(key: str, own: ClientProfile | None) -> ClientProfile | None:
    """The profile a choice of `profile_choices` names (None: this inspector).

    Raises:
        KeyError: not a choice.
    """
    if key == ENTRY_KEY:
        return own
    if key == DEFAULT_KEY:
        return None
    return PRESETS[key]
