"""Other MCP clients' config files: their shapes, their variables, and where they usually live.

Shapes read (all end up as `{name: entry}` in our `mcpServers` shape):

- `{"mcpServers": {...}}`: Claude Desktop, Cursor, Claude Code's `.mcp.json`,
  Windsurf, Cline, and our own file;
- `~/.claude.json`: its top-level `mcpServers` plus each `projects[path].mcpServers`;
- `{"servers": {...}, "inputs": [...]}`: VS Code's `mcp.json`, and the same
  under `"mcp"` in its `settings.json`.

Variables, expanded when a server is started, never written back:
`${VAR}`, `${VAR:-default}`, `${env:VAR}`, `${userHome}`, `${workspaceFolder}`
(the folder holding the file's `.vscode`, else the file's folder) and
`${input:ID}`, whose value the caller supplies (VS Code asks the user; so do we),
and `${keyring:PATH}`, a value this app keeps in the system keyring (`core.config.secrets`).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "Found",
    "Input",
    "Location",
    "ShapeError",
    "Source",
    "VariableError",
    "expand",
    "inputs_used",
    "known_locations",
    "look",
    "servers_of",
    "workspace_of",
]


class ShapeError(ValueError):
    """A document in none of the known shapes."""


@dataclass(frozen=True)
class Input:
    """A VS Code `inputs` entry: a value to ask the user for (`password`: mask it while typing)."""

    id: str
    description: str = ""
    password: bool = False
    default: str = ""


@dataclass(frozen=True)
class Source:
    """The servers found in one document, in our shape, and what their variables need."""

    shape: str  # "mcpServers", "claude.json", "vscode"
    servers: dict[str, Any]
    inputs: tuple[Input, ...] = ()


def servers_of(data: Any) -> Source:
    """The servers a parsed config document holds, whatever client wrote it.

    Raises:
        ShapeError: no known shape (the message lists what was looked for).
    """
    if isinstance(data, dict):
        if isinstance(data.get("projects"), dict) and ("mcpServers" in data or _has_project_servers(data)):
            return Source("claude.json", _claude_json(data))
        if isinstance(data.get("mcpServers"), dict):
            return Source("mcpServers", dict(data["mcpServers"]))
        nested = data.get("mcp")
        vscode: dict[str, Any] = nested if isinstance(nested, dict) else data
        if isinstance(vscode.get("servers"), dict):
            return Source("vscode", dict(vscode["servers"]), _inputs(vscode.get("inputs")))
    raise ShapeError(
        'no servers found: expected an "mcpServers" object (Claude Desktop, Cursor, Claude Code, Windsurf, Cline), '
        'a "servers" object (VS Code), or Claude Code\'s ~/.claude.json'
    )


def _has_project_servers(data: dict[str, Any]) -> bool:
    return any(isinstance(p, dict) and isinstance(p.get("mcpServers"), dict) for p in data["projects"].values())


def _claude_json(data: dict[str, Any]) -> dict[str, Any]:
    servers: dict[str, Any] = dict(data.get("mcpServers") or {})
    for project, settings in data["projects"].items():
        if not isinstance(settings, dict) or not isinstance(settings.get("mcpServers"), dict):
            continue
        for name, entry in settings["mcpServers"].items():
            key = name if name not in servers else f"{name} ({Path(str(project)).name or project})"
            servers[key] = entry
    return servers


def _inputs(value: Any) -> tuple[Input, ...]:
    if not isinstance(value, list):
        return ()
    found = []
    for item in value:
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            found.append(
                Input(
                    id=item["id"],
                    description=str(item.get("description") or ""),
                    password=bool(item.get("password")),
                    default=str(item.get("default") or ""),
                )
            )
    return tuple(found)


_VARIABLE = re.compile(r"\$\{([^}]*)\}")


class VariableError(ValueError):
    """A `${…}` that cannot be expanded (unknown name, unset variable without a default, unanswered input)."""


def expand(
    text: str,
    environ: Mapping[str, str],
    *,
    inputs: Mapping[str, str] | None = None,
    workspace: Path | None = None,
    secrets: Callable[[str], str | None] | None = None,
) -> str:
    """`text` with its `${…}` variables replaced (`${keyring:PATH}` through `secrets`).

    Raises:
        VariableError: naming the variable (never a value).
    """

    def value(match: re.Match[str]) -> str:
        body = match.group(1)
        if body.startswith("env:"):
            return _env(body[4:], environ, None)
        if body.startswith("keyring:"):
            stored = secrets(body[8:]) if secrets is not None else None
            if stored is None:
                raise VariableError(f"${{{body}}} is not in the system keyring")
            return stored
        if body.startswith("input:"):
            key = body[6:]
            if inputs is None or key not in inputs:
                raise VariableError(f"${{input:{key}}} needs a value")
            return inputs[key]
        if body == "userHome":
            return str(Path.home())
        if body == "workspaceFolder":
            if workspace is None:
                raise VariableError("${workspaceFolder} has no folder here")
            return str(workspace)
        name, sep, default = body.partition(":-")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise VariableError(f"${{{body}}} is not a variable this app knows")
        return _env(name, environ, default if sep else None)

    return _VARIABLE.sub(value, text)


def _env(name: str, environ: Mapping[str, str], default: str | None) -> str:
    if name in environ and environ[name] != "":
        return environ[name]
    if default is not None:
        return default
    raise VariableError(f"${{{name}}} is not set in the environment")


def inputs_used(entry: Any) -> list[str]:
    """The `${input:ID}` ids an entry refers to, in order of first use."""
    seen: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            for match in _VARIABLE.finditer(value):
                body = match.group(1)
                if body.startswith("input:") and body[6:] not in seen:
                    seen.append(body[6:])
        elif isinstance(value, dict):
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(entry)
    return seen


@dataclass(frozen=True)
class Location:
    """A file where a client keeps its servers."""

    client: str
    path: Path


@dataclass(frozen=True)
class Found:
    location: Location
    exists: bool


def known_locations(
    home: Path | None = None,
    platform: str | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> list[Location]:
    """The usual config files of other MCP clients on `platform` (default: this one), most common first."""
    home = home or Path.home()
    platform = platform or sys.platform
    environ = environ if environ is not None else os.environ
    cwd = cwd or Path.cwd()
    if platform == "darwin":
        support = home / "Library" / "Application Support"
        claude, code = support / "Claude", support / "Code" / "User"
    elif platform.startswith("win"):
        appdata = Path(environ.get("APPDATA") or home / "AppData" / "Roaming")
        claude, code = appdata / "Claude", appdata / "Code" / "User"
    else:
        config = Path(environ.get("XDG_CONFIG_HOME") or home / ".config")
        claude, code = config / "Claude", config / "Code" / "User"
    cline = code / "globalStorage" / "saoudrizwan.claude-dev" / "settings" / "cline_mcp_settings.json"
    return [
        Location("Claude Desktop", claude / "claude_desktop_config.json"),
        Location("Claude Code", home / ".claude.json"),
        Location("Claude Code (this folder)", cwd / ".mcp.json"),
        Location("Cursor", home / ".cursor" / "mcp.json"),
        Location("Cursor (this folder)", cwd / ".cursor" / "mcp.json"),
        Location("VS Code", code / "mcp.json"),
        Location("VS Code settings", code / "settings.json"),
        Location("VS Code (this folder)", cwd / ".vscode" / "mcp.json"),
        Location("Windsurf", home / ".codeium" / "windsurf" / "mcp_config.json"),
        Location("Cline", cline),
    ]


def look(locations: list[Location], exists: Callable[[Path], bool] = Path.is_file) -> list[Found]:
    """Which of `locations` exist: the app lists all of them, found or not."""
    return [Found(location, exists(location.path)) for location in locations]


def workspace_of(path: Path) -> Path:
    """The folder `${workspaceFolder}` means for a config at `path`."""
    folder = path.resolve().parent
    return folder.parent if folder.name in (".vscode", ".cursor") else folder
