"""Process groups left by a crashed earlier run are swept at the next start; live ones never are."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from catalog_inspector.core.processes import ProcessRegistry, start_time
from tests.helpers import alive

SLEEPER = [sys.executable, "-c", "import signal; signal.pause()"]  # runs until killed


def _orphan_group() -> subprocess.Popen[bytes]:
    return subprocess.Popen(SLEEPER, start_new_session=True)


def test_groups_of_a_dead_instance_are_killed(tmp_path: Path) -> None:
    orphan = _orphan_group()
    dead_owner = subprocess.Popen([sys.executable, "-c", "pass"])
    dead_owner.wait()
    record = {"owner": dead_owner.pid, "owner_start": "1", "groups": {str(orphan.pid): start_time(orphan.pid)}}
    (tmp_path / f"{dead_owner.pid}.json").write_text(json.dumps(record))
    try:
        assert ProcessRegistry(tmp_path).sweep() == [orphan.pid]
        assert orphan.wait(timeout=10) != 0
        assert not (tmp_path / f"{dead_owner.pid}.json").exists()
    finally:
        if orphan.poll() is None:
            orphan.kill()


def test_a_running_instance_and_a_reused_pid_are_left_alone(tmp_path: Path) -> None:
    mine = _orphan_group()
    other = ProcessRegistry(tmp_path / "x")  # stands for another live app instance: this very process
    try:
        other.add(mine.pid)
        (tmp_path / "x" / "99999999.json").write_text(
            json.dumps({"owner": 99999999, "owner_start": "1", "groups": {str(mine.pid): "not-its-start-time"}})
        )
        fresh = ProcessRegistry(tmp_path / "x")
        fresh._file = tmp_path / "x" / "fresh.json"  # a second instance in the same process
        assert fresh.sweep() == []
        assert alive(mine.pid)
    finally:
        mine.kill()
        mine.wait()


def test_kill_all_ends_what_this_instance_started(tmp_path: Path) -> None:
    registry = ProcessRegistry(tmp_path)
    child = _orphan_group()
    registry.add(child.pid)
    assert registry.kill_all() == [child.pid]
    child.wait(timeout=10)
    assert not alive(child.pid)
    assert not list(tmp_path.glob("*.json"))
