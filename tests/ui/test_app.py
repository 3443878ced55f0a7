"""Start-up: no display, configuration choice, demo servers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from catalog_inspector.ui.app import load_servers


def test_without_a_display_the_app_says_so_in_one_line() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    proc = subprocess.run(
        [sys.executable, "-m", "catalog_inspector"], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert (
        len(lines) == 1
        and "no display" in lines[0]
        and "xvfb-run" in lines[0]
        and "QT_QPA_PLATFORM=offscreen" in lines[0]
    )


def test_no_user_config_means_the_bundled_demo_servers(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "empty"))
    specs, notice = load_servers(None, tmp_path)
    assert len(specs) >= 4 and all(s.args[:2] == ("-m", "catalog_inspector.demo") for s in specs)
    modes = {s.args[s.args.index("--mode") + 1] for s in specs}
    assert {"normal", "refresh-duplicate", "drift", "flaky"} <= modes
    assert "demo" in notice


def test_a_broken_config_is_reported_and_left_untouched(tmp_path: Path) -> None:
    config = tmp_path / "servers.json"
    text = '{"mcpServers": {"x": {"args": []}}}'
    config.write_text(text)
    specs, notice = load_servers(config, tmp_path)
    assert specs == [] and "mcpServers.x needs a command" in notice
    assert config.read_text() == text


def test_a_given_config_is_used(tmp_path: Path) -> None:
    config = tmp_path / "servers.json"
    config.write_text(json.dumps({"mcpServers": {"mine": {"command": "srv"}}}))
    specs, notice = load_servers(config, tmp_path)
    assert [s.name for s in specs] == ["mine"] and notice == ""


def test_the_app_opens_and_quits_on_sigterm_leaving_no_server(tmp_path: Path) -> None:
    import signal

    from tests.helpers import app_env, assert_all_gone, wait_until

    env = app_env(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "catalog_inspector"], env=env, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL
    )
    sessions = tmp_path / "cache" / "mcp-catalog-inspector" / "sessions"

    def recorded() -> list[int]:
        groups: list[int] = []
        for path in sessions.glob("*.json"):
            try:
                groups += [int(pid) for pid in json.loads(path.read_text())["groups"]]
            except (OSError, ValueError, KeyError):
                pass
        return groups

    try:
        wait_until(lambda: bool(recorded()), timeout=30, what="the first demo server to start")
        pids = recorded()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert_all_gone(pids)
    assert not list(sessions.glob("*.json")), "a clean exit leaves no record to sweep"


QUIT_FROM_QT = """
import json, sys
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from catalog_inspector.ui.app import run_app

app = QApplication([sys.argv[0]])
sessions = Path(sys.argv[1])

def quit_once_a_server_runs():
    groups = [pid for p in sessions.glob("*.json") for pid in json.loads(p.read_text() or "{}").get("groups", {})]
    if groups:
        print("PIDS", *groups, flush=True)
        QApplication.quit()  # what a desktop session ending or the Dock's Quit does
    else:
        QTimer.singleShot(50, quit_once_a_server_runs)

QTimer.singleShot(50, quit_once_a_server_runs)
sys.exit(run_app([]))
"""


def test_qapplication_quit_runs_the_same_shutdown_as_closing_the_window(tmp_path: Path) -> None:
    from tests.helpers import app_env, assert_all_gone

    env = app_env(tmp_path)
    sessions = tmp_path / "cache" / "mcp-catalog-inspector" / "sessions"
    proc = subprocess.Popen(
        [sys.executable, "-c", QUIT_FROM_QT, str(sessions)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "Event loop stopped" not in err
    assert not list(sessions.glob("*.json")), "a clean exit leaves no record to sweep"
    pids = [int(pid) for line in out.splitlines() if line.startswith("PIDS") for pid in line.split()[1:]]
    assert_all_gone(pids)
