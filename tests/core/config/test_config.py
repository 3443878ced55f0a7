"""The mcpServers config shape other MCP clients use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalog_inspector.core.config import ConfigError, load_config, parse_config


def test_stdio_http_and_sse_entries_parse() -> None:
    specs = parse_config(
        {
            "mcpServers": {
                "files": {"command": "npx", "args": ["-y", "srv"], "env": {"K": "v"}, "cwd": "/tmp"},
                "remote": {"type": "http", "url": "https://example.test/mcp", "headers": {"Authorization": "Bearer x"}},
                "old": {"type": "sse", "url": "http://127.0.0.1:9/sse"},
                "bare-url": {"url": "https://example.test/mcp"},
            }
        }
    )
    files, remote, old, bare = specs
    assert (files.transport, files.command, files.args, dict(files.env), files.cwd) == (
        "stdio",
        "npx",
        ("-y", "srv"),
        {"K": "v"},
        "/tmp",
    )
    assert (remote.transport, dict(remote.headers)) == ("http", {"Authorization": "Bearer x"})
    assert old.transport == "sse" and bare.transport == "http"


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"args": ["x"]}, "needs a command"),
        ({"command": ""}, "command must be a non-empty string"),
        ({"command": "x", "args": "not-a-list"}, "args must be a list of strings"),
        ({"type": "http", "url": "file:///etc/passwd"}, "url must be an http"),
        ({"command": "x", "env": {"K": 1}}, "env must be an object of strings"),
        ({"command": "x", "roots": {"uri": "file:///a"}}, "roots must be a list"),
        ({"command": "x", "roots": [{"uri": "https://a.invalid/"}]}, r"roots\[0\]\.uri must be a file:// URI"),
        ({"command": "x", "roots": [{"uri": "file:///a", "name": 3}]}, r"roots\[0\]\.name must be a string"),
        ({"type": "http", "url": "https://a.test/mcp", "protocolEra": "2026"}, "protocolEra must be one of auto"),
        ({"command": "x", "budgets": {"maxRounds": 0}}, "maxRounds must be a positive number"),
        ({"command": "x", "logLevel": "loud"}, "logLevel must be one of debug, info, notice"),
        ({"type": "http", "url": "https://a.test/mcp", "logLevel": 3}, "logLevel must be one of debug"),
    ],
)
def test_bad_entries_name_the_server_and_the_field(entry: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        parse_config({"mcpServers": {"broken": entry}})
    assert "mcpServers.broken" in str(caught.value)


def test_roots_the_protocol_era_and_the_rounds_budget_are_read() -> None:
    (spec,) = parse_config(
        {
            "mcpServers": {
                "asks": {
                    "command": "x",
                    "roots": [{"uri": "file:///home/ada/project", "name": "project"}, {"uri": "file:///srv"}],
                    "protocolEra": "legacy",
                    "budgets": {"maxRounds": 3},
                }
            }
        }
    )
    assert spec.roots == ({"uri": "file:///home/ada/project", "name": "project"}, {"uri": "file:///srv"})
    assert spec.protocol_era == "legacy" and dict(spec.budgets) == {"max_rounds": 3}
    (plain,) = parse_config({"mcpServers": {"plain": {"command": "x"}}})
    assert plain.roots == () and plain.protocol_era == "auto"


@pytest.mark.parametrize("level", ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"])
def test_the_log_level_is_read_from_the_entry_and_defaults_to_info(level: str) -> None:
    stdio, http = parse_config(
        {
            "mcpServers": {
                "a": {"command": "x", "logLevel": level},
                "b": {"type": "http", "url": "https://a.test/mcp", "logLevel": level},
            }
        }
    )
    assert stdio.log_level == http.log_level == level
    (plain,) = parse_config({"mcpServers": {"plain": {"command": "x"}}})
    assert plain.log_level == "info"


def test_unreadable_and_invalid_files_say_where(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "a": \n}')
    with pytest.raises(ConfigError, match=r"not valid JSON \(line 3"):
        load_config(bad)
    bad.write_text(json.dumps({"tools": []}))
    with pytest.raises(ConfigError, match='"mcpServers"'):
        load_config(bad)
