"""Server configurations (the `mcpServers` JSON shape other MCP clients use) and walk budgets."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from catalog_inspector.core.redact import redacted_args, redacted_url

__all__ = [
    "ConfigError",
    "Limits",
    "ServerSpec",
    "check_header",
    "demo_servers",
    "load_config",
    "parse_config",
]

Transport = Literal["stdio", "http", "sse"]


class ConfigError(ValueError):
    """A configuration file or entry that cannot be used; the message says where and why."""


@dataclass(frozen=True)
class Limits:
    """Budgets for one walk. A walk that would exceed any of them is rejected, never truncated.

    Attributes:
        max_pages: pages per list.
        max_items: items per list.
        max_page_bytes: bytes in one response (stdio: one line on the wire).
        request_timeout: seconds for one request.
        deadline: seconds for the whole snapshot, connecting included.
    """

    max_pages: int = 1000
    max_items: int = 100_000
    max_page_bytes: int = 4 * 1024 * 1024
    request_timeout: float = 30.0
    deadline: float = 120.0


@dataclass(frozen=True)
class ServerSpec:
    """How to reach one server. stdio: command/args/env/cwd; http and sse: url/headers."""

    name: str
    transport: Transport = "stdio"
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        """A one-line plain description (`stdio: python -m x`, `http: https://…`), without secrets:
        URL credentials and query values, header values and secret-looking options read `…`."""
        if self.transport == "stdio":
            return f"stdio: {' '.join([self.command, *redacted_args(self.args)])}"
        return f"{self.transport}: {redacted_url(self.url)}"


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be a list of strings")
    return tuple(value)


def _mapping(value: Any, where: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ConfigError(f"{where} must be an object of strings")
    return dict(value)


_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # RFC 9110 field-name


def check_header(name: str, value: str, where: str) -> None:
    """Refuse a header an HTTP client could not send as given (a CR or LF would split it into two).

    Raises:
        ConfigError: naming the header (never its value: it may be a secret).
    """
    if not _TOKEN.fullmatch(name):
        raise ConfigError(f"{where}: header name {name!r} is not a valid HTTP field name")
    if any(char in value for char in "\r\n\0"):
        raise ConfigError(f"{where}: the value of header {name!r} contains a line break or NUL")


def parse_entry(name: str, entry: Any) -> ServerSpec:
    where = f"mcpServers.{name}"
    if not isinstance(entry, dict):
        raise ConfigError(f"{where} must be an object")
    kind = entry.get("type") or entry.get("transport")
    if kind in ("streamable-http", "streamableHttp", "streamable_http", "http"):
        kind = "http"
    if kind is None:
        kind = "stdio" if "command" in entry else ("http" if "url" in entry else None)
    if kind == "stdio":
        command = entry.get("command")
        if not isinstance(command, str) or not command:
            raise ConfigError(f"{where}.command must be a non-empty string")
        cwd = entry.get("cwd")
        if cwd is not None and not isinstance(cwd, str):
            raise ConfigError(f"{where}.cwd must be a string")
        return ServerSpec(
            name=name,
            transport="stdio",
            command=command,
            args=_strings(entry.get("args"), f"{where}.args"),
            env=_mapping(entry.get("env"), f"{where}.env"),
            cwd=cwd,
        )
    if kind in ("http", "sse"):
        url = entry.get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ConfigError(f"{where}.url must be an http:// or https:// URL")
        transport: Transport = "sse" if kind == "sse" else "http"
        headers = _mapping(entry.get("headers"), f"{where}.headers")
        for key, value in headers.items():
            check_header(key, value, f"{where}.headers")
        return ServerSpec(name=name, transport=transport, url=url, headers=headers)
    raise ConfigError(f"{where} needs a command (stdio) or a url (type http or sse)")


def parse_config(data: Any) -> list[ServerSpec]:
    """Parse the `{"mcpServers": {name: entry}}` shape; raises ConfigError naming the bad entry."""
    if not isinstance(data, dict) or not isinstance(data.get("mcpServers"), dict):
        raise ConfigError('the file must be a JSON object with an "mcpServers" object')
    return [parse_entry(str(name), entry) for name, entry in data["mcpServers"].items()]


def load_config(path: Path) -> list[ServerSpec]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path} is not UTF-8 text (byte {exc.start}: {exc.reason})") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    except RecursionError as exc:
        raise ConfigError(f"{path} nests its JSON too deeply to read") from exc
    try:
        return parse_config(data)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from exc


DEMO_MODES = (
    ("demo: clean catalog", "normal"),
    ("demo: duplicate on refresh", "refresh-duplicate"),
    ("demo: drifting catalog", "drift"),
    ("demo: flaky backend", "flaky"),
    ("demo: cursor cycle", "cycle"),
    ("demo: 10,000 tools", "many"),
)


def demo_servers(state_dir: Path) -> list[ServerSpec]:
    """The bundled demo set: the demo server in a few instructive modes, run by this Python."""
    return [
        ServerSpec(
            name=name,
            command=sys.executable,
            args=("-m", "catalog_inspector.demo", "--mode", mode, "--state", str(state_dir / f"demo-{mode}.json")),
        )
        for name, mode in DEMO_MODES
    ]
