"""Client profiles in a server entry: presets and objects parsed and checked, kept through the config writer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from catalog_inspector.core.config import (
    HANDSHAKE_VERSIONS,
    MCP_APPS,
    OURS,
    PRESETS,
    ConfigError,
    ConfigStore,
    parse_entry,
    profile_choices,
    profile_for,
)
from catalog_inspector.core.config.servers import parse_servers


def entry(**extra: object) -> dict[str, object]:
    return {"command": "srv", **extra}


def test_the_pinnable_versions_are_the_sdks_handshake_versions() -> None:
    assert HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS


def test_a_preset_key_gives_that_hosts_published_profile() -> None:
    spec = parse_entry("srv", entry(client="cursor"))
    assert spec.client is PRESETS["cursor"]
    assert (spec.client.name, spec.client.version, spec.client.protocol_version) == (
        "cursor-vscode",
        "1.0.0",
        "2025-11-25",
    )
    assert PRESETS["vscode"].extensions == {MCP_APPS: {"mimeTypes": ["text/html;profile=mcp-app"]}}
    assert PRESETS["claude-desktop"].name == "claude-ai" and PRESETS["mcp-inspector"].name == "mcp-inspector"
    assert parse_entry("srv", entry()).client is None, "without one the client is this inspector"
    assert parse_entry("srv", entry(client="default")).client is None


def test_an_object_lays_its_fields_over_a_preset_or_over_ours() -> None:
    ui = {MCP_APPS: {"mimeTypes": ["text/html;profile=mcp-app"]}}
    spec = parse_entry("srv", entry(client={"name": "acme-host", "version": "3", "extensions": ui}))
    assert spec.client is not None and spec.client.key is None
    assert (spec.client.name, spec.client.version, dict(spec.client.extensions)) == ("acme-host", "3", ui)
    assert spec.client.protocol_version is None
    pinned = parse_entry("srv", entry(client={"protocolVersion": "2025-06-18"})).client
    assert pinned is not None and (pinned.name, pinned.protocol_version) == (OURS.name, "2025-06-18")
    lifted = parse_entry("srv", entry(client={"preset": "cursor", "protocolVersion": None})).client
    assert lifted is not None and lifted.name == "cursor-vscode" and lifted.protocol_version is None
    assert lifted.key is None, "a changed preset is no longer that preset"
    same = parse_entry("srv", entry(client={"preset": "cursor", "name": "cursor-vscode"})).client
    assert same is PRESETS["cursor"] or same == PRESETS["cursor"]


@pytest.mark.parametrize(
    ("client", "era", "words"),
    [
        ("cursorr", None, "client must be one of default, claude-desktop"),
        (42, None, "client must be a preset"),
        ({"name": ""}, None, "client.name must be a non-empty string"),
        ({"name": "a\nb"}, None, "client.name contains a control character"),
        ({"version": "x" * 201}, None, "client.version is longer than 200 characters"),
        ({"protocolversion": "2025-06-18"}, None, "client.protocolversion is not a client profile key"),
        ({"protocolVersion": "2026-07-28"}, None, "2026-07-28 is negotiated by server/discover and is not pinned"),
        ({"protocolVersion": "2025-13-01"}, None, "client.protocolVersion must be one of 2024-11-05"),
        ({"extensions": ["io.modelcontextprotocol/ui"]}, None, "client.extensions must be an object"),
        ({"extensions": {"ui": {}}}, None, "'ui' is not an extension identifier"),
        ({"extensions": {MCP_APPS: True}}, None, f"client.extensions.{MCP_APPS} must be a JSON object"),
        ({"extensions": {MCP_APPS: {"x": "y" * 20_000}}}, None, "is larger than 16 KiB"),
        ({"preset": "nope"}, None, "client.preset must be one of"),
        ("cursor", "modern", 'protocolEra "modern" (server/discover only) cannot use it'),
        ({"protocolVersion": "2025-06-18"}, "modern", "pins protocolVersion 2025-06-18"),
    ],
)
def test_a_bad_client_profile_is_an_entry_problem_that_names_the_field(
    client: object, era: str | None, words: str
) -> None:
    document = {"mcpServers": {"bad": entry(client=client, **({"protocolEra": era} if era else {})), "good": entry()}}
    loaded = parse_servers(document)
    assert [spec.name for spec in loaded.specs] == ["good"], "the other entries still load"
    (problem,) = loaded.problems
    assert problem.message.startswith("mcpServers.bad.client") and words in problem.message, problem.message


def test_a_modern_entry_may_lift_a_presets_pin() -> None:
    spec = parse_entry("srv", entry(protocolEra="modern", client={"preset": "vscode", "protocolVersion": None}))
    assert spec.client is not None and spec.client.extensions and spec.client.protocol_version is None


def test_the_client_key_round_trips_through_the_config_writer_untouched(tmp_path: Path) -> None:
    custom = {"preset": "vscode", "version": "1.139.0", "extensions": {"acme.dev/beta": {"level": 2}}}
    document = {"mcpServers": {"a": entry(client="cursor"), "b": entry(client=custom, autoApprove=["x"])}}
    store = ConfigStore(tmp_path / "servers.json")
    store.write(json.loads(json.dumps(document)))
    store.set_disabled("a", True)
    store.put("b", {**store.read()["mcpServers"]["b"], "args": ["--verbose"]})
    written = json.loads(store.path.read_text())["mcpServers"]
    assert written["a"] == {"command": "srv", "client": "cursor", "disabled": True}
    assert written["b"]["client"] == custom and written["b"]["autoApprove"] == ["x"]
    loaded = store.load()
    b = loaded.spec("b")
    assert b is not None and b.client is not None
    assert (b.client.name, b.client.version) == ("Visual Studio Code", "1.139.0")
    assert set(b.client.extensions) == {"acme.dev/beta"}, "an object's extensions replace the preset's"


def test_walk_again_as_offers_the_entrys_own_profile_ours_and_the_other_presets() -> None:
    assert [key for key, _ in profile_choices(None)] == ["entry", *PRESETS]
    keys = [key for key, _ in profile_choices(PRESETS["cursor"])]
    assert keys == ["entry", "default", *(k for k in PRESETS if k != "cursor")]
    assert profile_for("entry", PRESETS["cursor"]) is PRESETS["cursor"] and profile_for("default", None) is None
    with pytest.raises(KeyError):
        profile_for("nope", None)


def test_a_profile_describes_itself_plainly_and_says_what_the_snapshot_records() -> None:
    vscode = PRESETS["vscode"]
    assert vscode.describe() == (
        "clientInfo Visual Studio Code 1.138.0; initialize at 2025-11-25; extensions io.modelcontextprotocol/ui"
    )
    assert vscode.source() == {
        "name": "Visual Studio Code",
        "version": "1.138.0",
        "preset": "vscode",
        "protocol_version": "2025-11-25",
        "extensions": [MCP_APPS],
    }
    with pytest.raises(ConfigError):
        parse_entry("srv", entry(client={"name": "\u0000"}))
