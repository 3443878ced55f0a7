"""Client profiles on the command line: the server offers what it offers to the client the flags say we are."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli_runner import run_cli
from tests.helpers import forked

SERVER = forked("tests.fixtures.profile_server")


def snapshot(tmp_path: Path, *flags: str) -> tuple[int, dict[str, Any], list[dict[str, Any]], str]:
    """The snapshot under `flags`, and what the server saw of each tools/list."""
    record = tmp_path / "seen.jsonl"
    record.unlink(missing_ok=True)
    proc = run_cli("snapshot", *flags, "--", *SERVER, "--record", str(record), timeout=60)
    seen = [json.loads(line) for line in record.read_text().splitlines()] if record.exists() else []
    return proc.returncode, json.loads(proc.stdout) if proc.stdout else {}, seen, proc.stderr


def tools(doc: dict[str, Any]) -> list[str]:
    return [tool["name"] for tool in doc["tools"]]


def test_without_a_profile_the_server_sees_this_inspector(tmp_path: Path) -> None:
    code, doc, seen, _ = snapshot(tmp_path)
    assert code == 0 and tools(doc) == ["echo", "inspector_probe"]
    assert seen[0]["client"] == "mcp-catalog-inspector" and seen[0]["extensions"] == {}
    assert "client" not in doc["source"], "a walk as ourselves says nothing more than before"


def test_as_cursor_the_snapshot_lists_what_the_server_gives_cursor(tmp_path: Path) -> None:
    code, doc, seen, _ = snapshot(tmp_path, "--client", "cursor")
    assert code == 0 and tools(doc) == ["echo", "cursor_rules"]
    assert (seen[0]["client"], seen[0]["version"], seen[0]["proposed"]) == ("cursor-vscode", "1.0.0", "2025-11-25")
    assert doc["server"]["protocol_version"] == "2025-11-25", "Cursor speaks the initialize handshake"
    assert doc["source"]["client"] == {
        "name": "cursor-vscode",
        "version": "1.0.0",
        "preset": "cursor",
        "protocol_version": "2025-11-25",
    }


def test_an_advertised_extension_shows_the_tool_offered_only_to_clients_that_declare_it(tmp_path: Path) -> None:
    code, doc, seen, _ = snapshot(tmp_path, "--client-extension", "io.modelcontextprotocol/ui")
    assert code == 0 and tools(doc) == ["echo", "inspector_probe", "show_dashboard"]
    assert seen[0]["extensions"] == {"io.modelcontextprotocol/ui": {}}
    assert doc["source"]["client"]["extensions"] == ["io.modelcontextprotocol/ui"]
    settings = '{"mimeTypes": ["text/html;profile=mcp-app"]}'
    code, doc, seen, _ = snapshot(
        tmp_path, "--client", "cursor", "--client-extension", f"io.modelcontextprotocol/ui={settings}"
    )
    assert code == 0 and tools(doc) == ["echo", "cursor_rules", "show_dashboard"]
    assert seen[0]["extensions"] == {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}
    assert doc["source"]["client"]["name"] == "cursor-vscode" and "preset" not in doc["source"]["client"]


def test_a_pinned_protocol_version_is_the_one_proposed_and_negotiated(tmp_path: Path) -> None:
    code, doc, seen, _ = snapshot(tmp_path, "--client-protocol-version", "2025-06-18")
    assert code == 0 and doc["server"]["protocol_version"] == "2025-06-18"
    assert (seen[0]["proposed"], seen[0]["negotiated"]) == ("2025-06-18", "2025-06-18")
    # Without a pin the same server is spoken to in 2026-07-28 (discovery, no handshake).
    code, doc, seen, _ = snapshot(tmp_path)
    assert doc["server"]["protocol_version"] == "2026-07-28" and seen[0]["proposed"] == "2026-07-28"


def test_a_name_and_version_of_our_own_are_sent_as_given(tmp_path: Path) -> None:
    code, doc, seen, _ = snapshot(tmp_path, "--client-name", "cursor-vscode", "--client-version", "9.9")
    assert code == 0 and tools(doc) == ["echo", "cursor_rules"], "the server matches on the name"
    assert (seen[0]["client"], seen[0]["version"]) == ("cursor-vscode", "9.9")


def test_a_configured_entrys_client_is_used_and_the_flags_override_it(tmp_path: Path) -> None:
    record = tmp_path / "seen.jsonl"
    config = tmp_path / "servers.json"
    entry = {"command": SERVER[0], "args": [*SERVER[1:], "--record", str(record)], "client": "vscode"}
    config.write_text(json.dumps({"mcpServers": {"srv": entry}}))
    proc = run_cli("snapshot", "--server", "srv", "--config", str(config), timeout=60)
    assert proc.returncode == 0 and tools(json.loads(proc.stdout)) == ["echo", "show_dashboard"]
    proc = run_cli("snapshot", "--server", "srv", "--config", str(config), "--client", "default", timeout=60)
    assert proc.returncode == 0 and tools(json.loads(proc.stdout)) == ["echo", "inspector_probe"]
    assert [json.loads(line)["client"] for line in record.read_text().splitlines()] == [
        "Visual Studio Code",
        "mcp-catalog-inspector",
    ]


def test_a_profile_flag_that_cannot_be_used_is_a_usage_error_before_any_server_starts(tmp_path: Path) -> None:
    for flags, words in (
        (("--client", "cursor", "--protocol-era", "modern"), 'cannot go with protocol era "modern"'),
        (("--client-protocol-version", "2026-07-28"), "2026-07-28 is negotiated by server/discover"),
        (("--client-extension", "ui"), "'ui' is not an extension identifier"),
        (("--client-extension", "acme.dev/x={nope"), "--client-extension acme.dev/x is not valid JSON"),
        (("--client-extension", "acme.dev/x=[1]"), "acme.dev/x must be a JSON object"),
        (("--client-name", "two\nlines"), "--client-name contains a control character"),
        (tuple(f for n in range(33) for f in ("--client-extension", f"acme.dev/x{n}")), "more than 32 extensions"),
    ):
        code, doc, seen, stderr = snapshot(tmp_path, *flags)
        assert code == 2 and words in stderr, (flags, stderr)
        assert seen == [] and doc == {}, "nothing was started"
    proc = run_cli("snapshot", "--client", "cursr", "--", *SERVER, timeout=60)
    assert proc.returncode == 2 and "invalid choice: 'cursr'" in proc.stderr


def test_every_walking_command_takes_the_profile_flags(tmp_path: Path) -> None:
    proc = run_cli("call", "cursor_rules", "--client", "cursor", "--args", '{"text": "hi"}', "--", *SERVER, timeout=60)
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and doc["outcome"] == "ok", doc
    assert doc["result"]["content"][0]["text"] == "cursor_rules: hi"
    for command in ("snapshot", "check", "call", "prompt", "read"):
        help_text = run_cli(command, "--help", timeout=60).stdout
        for flag in (
            "--client ",
            "--client-name",
            "--client-version",
            "--client-extension",
            "--client-protocol-version",
        ):
            assert flag in help_text, (command, flag)
