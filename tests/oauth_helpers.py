"""Helpers for the OAuth tests: the fixture servers, what they recorded, the test keyring, listening sockets."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from tests import cli_runner
from tests.helpers import ROOT, forked, serving

KEYRING_BACKEND = "tests.fixtures.file_keyring.FileKeyring"


@dataclass
class OAuthServer:
    """A running `tests/fixtures/oauth_server.py`: its resource URL and what it has recorded so far."""

    url: str
    record_file: Path

    def events(self) -> list[dict[str, Any]]:
        if not self.record_file.exists():
            return []
        return [json.loads(line) for line in self.record_file.read_text().splitlines() if line.strip()]

    def requests(self, server: str, path: str | None = None) -> list[dict[str, Any]]:
        """The HTTP requests that reached one side ("as" or "rs"), optionally to one path."""
        return [e for e in self.events() if e.get("server") == server and (path is None or e.get("path") == path)]

    def authorizations(self) -> list[dict[str, list[str]]]:
        """The query of each authorization request, in order."""
        return [parse_qs(e["query"]) for e in self.requests("as", "/authorize")]

    def issued(self) -> list[dict[str, Any]]:
        return [e for e in self.events() if e.get("event") == "issued"]

    def presented(self) -> list[str | None]:
        """The bearer token each MCP request carried (None: none)."""
        return [e["token"] for e in self.events() if e.get("event") == "mcp"]

    def admin(self, what: str) -> None:
        """POST /_test/<what> on the resource server (expire, revoke)."""
        import httpx2

        origin = self.url.rsplit("/", 1)[0]
        assert httpx2.post(f"{origin}/_test/{what}", timeout=10).status_code == 204


@contextmanager
def oauth_server(tmp_path: Path, *switches: str) -> Iterator[OAuthServer]:
    """Run the OAuth fixture (an authorization server and a protected demo server) with `switches`."""
    record = tmp_path / f"record-{len(list(tmp_path.glob('record-*')))}.jsonl"
    command = [*forked("tests.fixtures.oauth_server"), "--record", str(record), *switches]
    with serving(command) as url:
        yield OAuthServer(url, record)


def cli_env(tmp_path: Path, keyring_backend: str = KEYRING_BACKEND) -> dict[str, str]:
    """An environment with a throwaway home, XDG directories and the test keyring (`tmp_path/keyring.json`)."""
    home = tmp_path / "home"
    env = dict(os.environ)
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        PYTHON_KEYRING_BACKEND=keyring_backend,
        TEST_KEYRING_FILE=str(tmp_path / "keyring.json"),
    )
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


def run_cli(env: dict[str, str], *args: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    return cli_runner.run_cli(*args, env=env, cwd=ROOT, timeout=timeout)


def kept(tmp_path: Path) -> dict[str, str]:
    """What the test keyring holds: `username → value` for the inspector's service."""
    path = tmp_path / "keyring.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    return {key.split("\n", 1)[1]: value for key, value in data.items() if key.startswith("mcp-catalog-inspector\n")}


def listening_sockets(pid: int | str = "self") -> list[tuple[str, int]]:
    """The TCP sockets process `pid` listens on, as (address, port): its socket inodes in /proc/<pid>/fd,
    looked up among the LISTEN entries of /proc/net/tcp and tcp6."""
    inodes = set()
    fd_dir = Path(f"/proc/{pid}/fd")
    for fd in fd_dir.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for table in ("tcp", "tcp6"):
        path = Path(f"/proc/{pid}/net/{table}")
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] != "0A" or fields[9] not in inodes:  # 0A: TCP_LISTEN
                continue
            address, port = fields[1].split(":")
            found.append((_address(address), int(port, 16)))
    return found


def _address(hex_address: str) -> str:
    if len(hex_address) == 8:  # IPv4, little-endian
        return ".".join(str(int(hex_address[i : i + 2], 16)) for i in (6, 4, 2, 0))
    return hex_address


def files_under(*roots: Path) -> list[Path]:
    return [path for root in roots if root.exists() for path in root.rglob("*") if path.is_file()]
