"""The CLI's client profile options: who the client says it is, laid over the entry's own `"client"`.

`--client PRESET` starts from a host's published profile (or `default`, this inspector),
then `--client-name`, `--client-version`, `--client-extension ID[=JSON]` (added to the
profile's extensions) and `--client-protocol-version` change it; an option not given
keeps what the entry (or the preset) says.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from catalog_inspector.core.config import (
    DEFAULT_KEY,
    EXTENSIONS_LIMIT,
    HANDSHAKE_VERSIONS,
    MCP_APPS,
    OURS,
    PRESETS,
    ConfigError,
    ServerSpec,
    changed,
    check_client_text,
    check_extension,
    check_protocol_version,
    parse_client,
)
from catalog_inspector.core.files import InputError, parse_json
from catalog_inspector.core.text import visible

__all__ = ["add_client_options", "with_client_flags"]

EXTENSION_JSON_LIMIT = 16 * 1024  # characters of one --client-extension's JSON


def add_client_options(command: argparse.ArgumentParser) -> None:
    """The client profile flags (they override the entry's "client")."""
    group = command.add_argument_group("client profile (servers change what they offer by who the client says it is)")
    presets = ", ".join(f"{key} ({preset.title}: {preset.describe()})" for key, preset in PRESETS.items())
    group.add_argument(
        "--client",
        choices=[DEFAULT_KEY, *PRESETS],
        metavar="PRESET",
        help=f"speak as this host: {presets}; {DEFAULT_KEY}: this inspector ({OURS.name}). "
        'Unset: the entry\'s "client", else default',
    )
    group.add_argument("--client-name", metavar="NAME", help="the clientInfo name sent")
    group.add_argument("--client-version", metavar="VERSION", help="the clientInfo version sent")
    group.add_argument(
        "--client-extension",
        action="append",
        default=[],
        metavar="ID[=JSON]",
        help=f"advertise this extension (capabilities.extensions), with its settings as a JSON object "
        f"(default {{}}); repeatable, e.g. {MCP_APPS} for MCP Apps",
    )
    group.add_argument(
        "--client-protocol-version",
        metavar="VERSION",
        help=f"propose this version in an initialize handshake (one of {', '.join(HANDSHAKE_VERSIONS)}); "
        "not with --protocol-era modern",
    )


def _extension(text: str) -> tuple[str, dict[str, Any]]:
    identifier, sep, settings = text.partition("=")
    shown = visible(identifier, 100)
    value: Any = {}
    if sep:
        if len(settings) > EXTENSION_JSON_LIMIT:
            raise ConfigError(f"--client-extension {shown}: its JSON is over {EXTENSION_JSON_LIMIT:,} characters")
        try:
            value = parse_json(settings, f"--client-extension {shown}")
        except InputError as exc:
            raise ConfigError(str(exc)) from exc
    return check_extension(identifier, value, "--client-extension")


def with_client_flags(spec: ServerSpec, args: argparse.Namespace) -> ServerSpec:
    """`spec` with the client flags given laid over its entry's profile (ValueError: a usage error)."""
    preset = getattr(args, "client", None)
    name, version = getattr(args, "client_name", None), getattr(args, "client_version", None)
    extensions = getattr(args, "client_extension", None) or []
    pinned = getattr(args, "client_protocol_version", None)
    try:
        profile = parse_client(preset, "--client") if preset is not None else spec.client
        fields: dict[str, Any] = {}
        if name is not None:
            fields["name"] = check_client_text(name, "--client-name")
        if version is not None:
            fields["version"] = check_client_text(version, "--client-version")
        if pinned is not None:
            fields["protocol_version"] = check_protocol_version(pinned, "--client-protocol-version")
        if extensions:
            own = profile.extensions if profile is not None else {}
            fields["extensions"] = {**own, **dict(_extension(text) for text in extensions)}
            if len(fields["extensions"]) > EXTENSIONS_LIMIT:  # the same bound as an entry's
                raise ConfigError(f"--client-extension: more than {EXTENSIONS_LIMIT} extensions")
        profile = changed(profile, **fields)
    except ConfigError as exc:
        raise ValueError(str(exc)) from exc
    if profile is not None and profile.protocol_version is not None and spec.protocol_era == "modern":
        raise ValueError(
            f"the client profile ({profile.label}) pins protocol version {profile.protocol_version}, which an "
            'initialize handshake proposes: it cannot go with protocol era "modern" (server/discover only); '
            "use --protocol-era auto or legacy"
        )
    return replace(spec, client=profile)
