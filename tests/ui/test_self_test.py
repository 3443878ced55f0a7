"""`--self-test`, the bundle's smoke test: the real start-up in a throwaway home, a walk, a test call, exit 0."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from catalog_inspector.core.config import DEMO_MODES
from catalog_inspector.ui.self_test import run_self_test
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, wait_for

ROOT = Path(__file__).resolve().parents[2]
APP = Path(sys.executable).with_name("mcp-catalog-inspector")


def run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(APP), *args], env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_the_self_test_walks_a_demo_server_calls_a_tool_and_touches_nothing_of_the_users(tmp_path: Path) -> None:
    home = tmp_path / "home"
    user_dirs = {key: home / key.lower() for key in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME")}
    env = {**os.environ, "HOME": str(home), "TMPDIR": str(tmp_path), **{k: str(v) for k, v in user_dirs.items()}}
    env.pop("QT_QPA_PLATFORM", None)  # it goes offscreen by itself
    env.pop("DISPLAY", None)
    done = run("--self-test", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ok: window shown") and lines[-1] == "self-test passed"
    assert f"ok: walked '{DEMO_MODES[0][0]}': 3 tools" in done.stdout
    assert "ok: called echo" in done.stdout and "matches its output schema" in done.stdout
    assert not home.exists(), "the user's directories are never written"
    assert not list(tmp_path.glob("mcp-catalog-inspector-self-test-*")), "the throwaway home is removed"


def test_the_self_test_does_not_take_a_config(tmp_path: Path) -> None:
    done = run("--self-test", "--config", str(tmp_path / "servers.json"), env=dict(os.environ))
    assert done.returncode == 2 and "--self-test uses the bundled demo servers" in done.stderr


def test_a_step_that_fails_fails_the_self_test_and_says_which(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # A server by the clean demo's name that answers every walk with an error.
    flaky = demo_spec("flaky", "--state", str(tmp_path / "flaky.json"), name=DEMO_MODES[0][0])
    window = harness.window([flaky])
    said: list[str] = []
    task = asyncio.ensure_future(run_self_test(window, 123.0, said.append))
    wait_for(qtbot, task.done, timeout=60_000)
    assert task.result() is False
    assert said[0] == "ok: window shown 123 ms after the process started"
    assert said[-1].startswith("FAILED: the demo server's walk failed:") and "error" in said[-1]
