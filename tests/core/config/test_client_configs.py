"""Other clients' config files: every shape loads, variables expand, one bad entry spares the rest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalog_inspector.core.config.clients import (
    ShapeError,
    VariableError,
    expand,
    inputs_used,
    known_locations,
    look,
    servers_of,
)
from catalog_inspector.core.config.servers import ConfigError, Variables, load_config, parse_servers

ENV = {"HOME_API": "k-123", "EMPTY": "", "TOOLS": "/opt/tools"}


def test_claude_desktop_cursor_windsurf_and_cline_share_the_mcpservers_shape() -> None:
    source = servers_of({"mcpServers": {"fs": {"command": "npx", "args": ["-y", "fs"]}}, "globalShortcut": "x"})
    assert source.shape == "mcpServers" and list(source.servers) == ["fs"]


def test_claude_code_user_file_brings_its_project_servers_too() -> None:
    data = {
        "mcpServers": {"global": {"command": "a"}},
        "projects": {
            "/home/u/proj": {"mcpServers": {"local": {"type": "http", "url": "https://x.test/mcp"}}},
            "/home/u/other": {"mcpServers": {"global": {"command": "b"}}},
            "/home/u/none": {"allowedTools": []},
        },
    }
    source = servers_of(data)
    assert source.shape == "claude.json"
    assert source.servers == {
        "global": {"command": "a"},
        "local": {"type": "http", "url": "https://x.test/mcp"},
        "global (other)": {"command": "b"},
    }


def test_vs_code_servers_with_inputs_and_its_settings_nesting() -> None:
    mcp_json = {
        "inputs": [{"type": "promptString", "id": "api-key", "description": "API key", "password": True}],
        "servers": {"gh": {"type": "http", "url": "https://api.test/mcp", "headers": {"Authorization": "Bearer ${input:api-key}"}}},
    }  # fmt: skip
    source = servers_of(mcp_json)
    assert source.shape == "vscode" and source.inputs[0].id == "api-key" and source.inputs[0].password
    assert inputs_used(source.servers["gh"]) == ["api-key"]
    assert servers_of({"editor.fontSize": 12, "mcp": {"servers": {"s": {"command": "x"}}}}).servers == {
        "s": {"command": "x"}
    }


def test_a_document_in_no_known_shape_says_what_was_looked_for() -> None:
    with pytest.raises(ShapeError, match=r'"mcpServers".*"servers"'):
        servers_of({"tools": []})
    with pytest.raises(ShapeError):
        servers_of([1, 2])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("${HOME_API}", "k-123"),
        ("${env:HOME_API}", "k-123"),
        ("--key=${HOME_API}!", "--key=k-123!"),
        ("${MISSING:-fallback}", "fallback"),
        ("${EMPTY:-fallback}", "fallback"),
        ("${TOOLS}/bin:${TOOLS}/sbin", "/opt/tools/bin:/opt/tools/sbin"),
        ("${input:token}", "typed"),
        ("${workspaceFolder}/x", "/work/space/x"),
        ("plain $HOME_API text", "plain $HOME_API text"),
    ],
)
def test_variables_expand_as_other_clients_expand_them(text: str, expected: str) -> None:
    assert expand(text, ENV, inputs={"token": "typed"}, workspace=Path("/work/space")) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("${MISSING}", "MISSING} is not set"),
        ("${env:MISSING}", "MISSING} is not set"),
        ("${input:nope}", "input:nope} needs a value"),
        ("${workspaceFolder}", "no folder"),
        ("${config:editor}", "not a variable this app knows"),
    ],
)
def test_a_variable_that_cannot_expand_is_named_never_guessed(text: str, message: str) -> None:
    with pytest.raises(VariableError, match=message):
        expand(text, ENV)


def test_one_bad_entry_spares_the_good_ones_and_says_why() -> None:
    loaded = parse_servers(
        {
            "mcpServers": {
                "good": {"command": "srv", "args": ["--key", "${HOME_API}"], "env": {"T": "${TOOLS}"}},
                "ws": {"type": "websocket", "url": "wss://x.test/mcp"},
                "unset": {"command": "srv", "env": {"K": "${NOT_THERE}"}},
                "off": {"command": "srv", "disabled": True},
                "typed-url": {"url": "https://x.test/mcp"},
            }
        },
        Variables(environ=ENV),
    )
    assert [s.name for s in loaded.specs] == ["good", "off", "typed-url"]
    good, off, url = loaded.specs
    assert good.args == ("--key", "k-123") and dict(good.env) == {"T": "/opt/tools"}
    assert off.disabled and not good.disabled
    assert url.transport == "http"
    problems = {p.name: p.message for p in loaded.problems}
    assert "type 'websocket' is not supported" in problems["ws"] and "url" not in problems["ws"].split(";")[0][-5:]
    assert problems["unset"] == "mcpServers.unset.env.K: ${NOT_THERE} is not set in the environment"


def test_a_jsonc_file_with_comments_and_trailing_commas_loads(tmp_path: Path) -> None:
    path = tmp_path / ".vscode" / "mcp.json"
    path.parent.mkdir()
    path.write_text(
        '{\n  // my servers\n  "servers": {"s": {"command": "${workspaceFolder}/run", "args": ["a",],},},\n}'
    )
    loaded = load_config(path, environ={})
    assert loaded.specs[0].command == f"{tmp_path.resolve()}/run" and loaded.specs[0].args == ("a",)


def test_vs_code_settings_with_comments_and_trailing_commas_load_their_mcp_servers(tmp_path: Path) -> None:
    """The README: VS Code's `"mcp"` in `settings.json` (JSONC, as VS Code writes it) is read as it is."""
    path = tmp_path / "settings.json"
    path.write_text(
        '{\n  "editor.tabSize": 2, // mine\n  /* MCP */ "mcp": {"servers": {"s": {"command": "run", "args": ["a",],},},},\n}'
    )
    loaded = load_config(path, environ={})
    assert [(spec.name, spec.command, spec.args) for spec in loaded.specs] == [("s", "run", ("a",))]


def test_a_broken_file_still_names_the_line_of_its_strict_json_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "mcpServers": {\n    "a": \n  }\n}')
    with pytest.raises(ConfigError, match=r"bad.json is not valid JSON \(line 4"):
        load_config(path)


def test_known_locations_per_platform_and_which_exist(tmp_path: Path) -> None:
    home = tmp_path / "home"
    linux = {loc.client: loc.path for loc in known_locations(home, "linux", {}, tmp_path)}
    assert linux["Claude Desktop"] == home / ".config" / "Claude" / "claude_desktop_config.json"
    assert linux["Claude Code"] == home / ".claude.json"
    assert linux["VS Code (this folder)"] == tmp_path / ".vscode" / "mcp.json"
    mac = {loc.client: loc.path for loc in known_locations(home, "darwin", {}, tmp_path)}
    assert mac["Claude Desktop"] == home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    windows = {loc.client: loc.path for loc in known_locations(home, "win32", {"APPDATA": "C:/AppData"}, tmp_path)}
    assert windows["Claude Desktop"] == Path("C:/AppData") / "Claude" / "claude_desktop_config.json"
    cursor = home / ".cursor" / "mcp.json"
    cursor.parent.mkdir(parents=True)
    cursor.write_text(json.dumps({"mcpServers": {}}))
    found = {f.location.client: f.exists for f in look(known_locations(home, "linux", {}, tmp_path))}
    assert found["Cursor"] and not found["Claude Desktop"] and len(found) == 10


def test_per_server_budgets_override_the_defaults_and_bad_ones_name_the_key() -> None:
    from catalog_inspector.core.config import Limits, limits_for

    loaded = parse_servers(
        {
            "mcpServers": {
                "tight": {"command": "s", "budgets": {"maxPages": 5, "requestTimeout": 2.5, "deadline": 10}},
                "bad-key": {"command": "s", "budgets": {"pages": 5}},
                "bad-value": {"command": "s", "budgets": {"maxItems": 2.5}},
                "negative": {"url": "https://x.test/mcp", "budgets": {"deadline": -1}},
            }
        },
        Variables(environ=ENV),
    )
    (tight,) = loaded.specs
    limits = limits_for(tight, Limits())
    assert (limits.max_pages, limits.request_timeout, limits.deadline, limits.max_items) == (5, 2.5, 10.0, 100_000)
    problems = {p.name: p.message for p in loaded.problems}
    assert "budgets.pages is not a budget" in problems["bad-key"]
    assert "budgets.maxItems must be a whole number" in problems["bad-value"]
    assert "budgets.deadline must be a positive number" in problems["negative"]
