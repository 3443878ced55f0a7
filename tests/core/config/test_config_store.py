"""The app's own server file: unknown keys survive, edits keep order, a killed save loses nothing."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from catalog_inspector.core.config import ConfigError, ConfigStore
from tests.helpers import ROOT, wait_until

DOCUMENT = {
    "mcpServers": {
        "fs": {"command": "npx", "args": ["-y", "fs"], "autoApprove": ["read"], "x-team": {"owner": "ana"}},
        "remote": {"url": "https://x.test/mcp", "timeout": 60},
    },
    "globalShortcut": "Ctrl+Space",
}


def test_keys_the_app_does_not_know_survive_every_edit(tmp_path: Path) -> None:
    store = ConfigStore(tmp_path / "servers.json")
    store.write(json.loads(json.dumps(DOCUMENT)))
    store.put("fs", {**store.read()["mcpServers"]["fs"], "args": ["-y", "fs", "/data"]})
    store.set_disabled("remote", True)
    document = json.loads(store.path.read_text())
    assert document["globalShortcut"] == "Ctrl+Space"
    assert document["mcpServers"]["fs"]["autoApprove"] == ["read"] and document["mcpServers"]["fs"]["x-team"]
    assert document["mcpServers"]["remote"] == {"url": "https://x.test/mcp", "timeout": 60, "disabled": True}
    assert [s.name for s in store.load().specs if s.disabled] == ["remote"]
    store.set_disabled("remote", False)
    assert "disabled" not in store.read()["mcpServers"]["remote"]


def test_rename_duplicate_remove_and_import_keep_order_and_never_overwrite(tmp_path: Path) -> None:
    store = ConfigStore(tmp_path / "servers.json")
    store.write(json.loads(json.dumps(DOCUMENT)))
    store.put("files", store.read()["mcpServers"]["fs"], replacing="fs")
    assert list(store.read()["mcpServers"]) == ["files", "remote"]
    with pytest.raises(ConfigError, match="exists already"):
        store.put("remote", {"command": "x"}, replacing="files")
    assert store.duplicate("files") == "files (copy)"
    assert store.duplicate("files") == "files (copy) 2"
    store.remove("files (copy) 2")
    names = store.import_entries({"remote": {"command": "other"}, "new": {"command": "n"}})
    assert names == ["remote 2", "new"]
    assert list(store.read()["mcpServers"]) == ["files", "remote", "files (copy)", "remote 2", "new"]
    assert store.read()["mcpServers"]["remote"] == {"url": "https://x.test/mcp", "timeout": 60}


def test_each_write_keeps_the_previous_file_as_a_backup(tmp_path: Path) -> None:
    store = ConfigStore(tmp_path / "servers.json")
    store.write({"mcpServers": {"a": {"command": "a"}}})
    store.write({"mcpServers": {"b": {"command": "b"}}})
    assert json.loads(store.backup.read_text()) == {"mcpServers": {"a": {"command": "a"}}}
    assert list(store.read()["mcpServers"]) == ["b"]


def test_a_file_that_is_not_usable_is_never_written_over(tmp_path: Path) -> None:
    path = tmp_path / "servers.json"
    path.write_text('{"mcpServers": [1, 2]}')
    store = ConfigStore(path)
    with pytest.raises(ConfigError, match='"mcpServers" object'):
        store.put("a", {"command": "a"})
    assert path.read_text() == '{"mcpServers": [1, 2]}'
    with pytest.raises(ConfigError):
        store.write({"mcpServers": {"bad": "not an object"}})


WRITER = """
import json, sys
from pathlib import Path
from catalog_inspector.core.config.store import ConfigStore
store = ConfigStore(Path(sys.argv[1]))
count = Path(sys.argv[2])
big = {"mcpServers": {f"s{i}": {"command": "x" * 2000, "args": [str(i)] * 50} for i in range(200)}}
small = {"mcpServers": {"only": {"command": "only"}}}
n = 0
while True:
    store.write(big if n % 2 else small)
    n += 1
    count.write_text(str(n))
"""


def test_a_writer_killed_mid_save_leaves_a_whole_file_every_time(tmp_path: Path) -> None:
    """Issue 10: kill -9 during saves of a 2 MB file; the file and its backup always parse as a version."""
    path, count = tmp_path / "servers.json", tmp_path / "count"
    for round_ in range(8):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(count)], cwd=ROOT)
        try:
            target = 3 + round_ * 2  # kill at a different point of the cycle each time
            wait_until(lambda t=target: count.exists() and int(count.read_text() or 0) >= t, timeout=60, what="saves")
            writer.send_signal(signal.SIGKILL)
        finally:
            writer.kill()
            writer.wait()
        count.unlink()
        for file in (path, path.with_name(path.name + ".bak")):
            servers = json.loads(file.read_text())["mcpServers"]
            assert len(servers) in (1, 200)
    ConfigStore(path).read()  # still usable by the app
