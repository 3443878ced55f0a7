"""A record of live server process groups, so a crashed run's servers can be swept at the next start.

Each app instance keeps one file, `<dir>/<app pid>.json`, listing the process
groups it started, each with the kernel's start time of its leader (so a reused
pid is never mistaken for ours). At start-up, files of app instances that are
no longer running are swept: their groups are killed and the files removed.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

from catalog_inspector.core.stdio import kill_group

__all__ = ["ProcessRegistry", "start_time"]


def start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), or None if unknown or gone."""
    if sys.platform != "linux":
        return None
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None


class ProcessRegistry:
    """Process groups started by this app instance, persisted for crash recovery.

    Attributes:
        directory: where every instance keeps its file.
        groups: pid -> leader start time, for this instance.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.owner = os.getpid()
        self.groups: dict[int, str | None] = {}
        self._file = directory / f"{self.owner}.json"

    def _save(self) -> None:
        data = {"owner": self.owner, "owner_start": start_time(self.owner), "groups": self.groups}
        tmp = self._file.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, self._file)

    def add(self, pid: int) -> None:
        self.groups[pid] = start_time(pid)
        self._save()

    def remove(self, pid: int) -> None:
        self.groups.pop(pid, None)
        self._save()

    def kill_all(self) -> list[int]:
        """Kill every group this instance still records (the last resort at exit)."""
        killed = [pid for pid in list(self.groups) if kill_group(pid, signal.SIGKILL)]
        self.groups.clear()
        self._file.unlink(missing_ok=True)
        return killed

    def sweep(self) -> list[int]:
        """Kill the groups left by app instances that are gone; returns the pids signalled."""
        killed: list[int] = []
        for path in self.directory.glob("*.json"):
            if path == self._file:
                continue
            try:
                data = json.loads(path.read_text())
                owner, owner_start = int(data["owner"]), data.get("owner_start")
                groups = {int(pid): start for pid, start in data.get("groups", {}).items()}
            except (OSError, ValueError, KeyError, TypeError):
                path.unlink(missing_ok=True)
                continue
            if owner_start is not None and start_time(owner) == owner_start:
                continue  # that instance still runs
            for pid, start in groups.items():
                if start is not None and start_time(pid) == start and kill_group(pid, signal.SIGKILL):
                    killed.append(pid)
            path.unlink(missing_ok=True)
        return killed
