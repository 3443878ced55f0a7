"""How a stdio server is ended when its session closes: the steps, for servers that stop and that do not.

The servers are plain SDK 2.3 `MCPServer`s (`tests/fixtures/sdk_server.py`). How long
the steps take is measured in `tests/benchmarks/bench_quit.py`, not here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import pytest

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.session.connection import connect
from catalog_inspector.core.transport import Faults, ServerLog, stdio
from tests.helpers import ROOT, assert_all_gone, pids_in

LIMITS = Limits(request_timeout=20.0, deadline=60.0)
DEADLINE = 60.0  # seconds for a whole test: spawning an SDK server on a loaded machine takes seconds
LONG = 600.0  # a grace period no test could wait out: a close that ends in time did not wait for it


def sdk_server(pidfile: Path, *extra: str) -> ServerSpec:
    return ServerSpec(
        name="sdk",
        command=sys.executable,
        args=("-m", "tests.fixtures.sdk_server", "--pidfile", str(pidfile), *extra),
        cwd=str(ROOT),
    )


async def close_after_listing(spec: ServerSpec, log: ServerLog, faults: Faults | None = None) -> list[int]:
    """Connect, list the tools, close; returns the pids of the server and its reaper."""
    pids: list[int] = []
    with anyio.fail_after(DEADLINE):
        async with connect(spec, LIMITS, log=log, on_spawn=pids.append, faults=faults) as connection:
            listed = await connection.session.list_tools()
            assert {tool.name for tool in listed.tools} == {"echo", "add"}
    return pids


@pytest.mark.anyio
@pytest.mark.parametrize("stubborn", [(), ("--ignore-term",)], ids=["stdin-end", "stdin-end-and-sigterm"])
async def test_a_server_that_ignores_the_end_of_its_stdin_is_stopped_and_leaves_no_process(
    tmp_path: Path, stubborn: tuple[str, ...]
) -> None:
    pidfile = tmp_path / "pids"
    log = ServerLog()
    pids = await close_after_listing(sdk_server(pidfile, "--ignore-eof", *stubborn), log)
    assert "stdin ended" in log.lines, "the server saw its stdin end and carried on: the case is real"
    assert_all_gone(pids + pids_in(pidfile))


@pytest.mark.anyio
async def test_a_server_that_stops_at_the_end_of_its_stdin_finishes_on_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stdio, "EXIT_GRACE", LONG)  # the close waits for the exit, not for the grace period
    pidfile, done = tmp_path / "pids", tmp_path / "done"
    pids = await close_after_listing(sdk_server(pidfile, "--done", str(done)), ServerLog())
    assert done.read_text() == "done\n", "a signal cut the server's own shutdown short"
    assert_all_gone(pids + pids_in(pidfile))


@pytest.mark.anyio
@pytest.mark.parametrize("goodbye", ["quit_soon", "hurry"])
async def test_a_polite_close_under_way_follows_a_hastier_goodbye(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, goodbye: str
) -> None:
    # The app quits while a replaced session's server is being closed politely: that close hurries.
    monkeypatch.setattr(stdio, "EXIT_GRACE", LONG)
    monkeypatch.setattr(stdio, "TERM_GRACE", LONG)
    pidfile = tmp_path / "pids"
    faults = Faults()
    hastier = getattr(faults, goodbye)
    # `hurry` (SIGKILL at once) is proved on a server that ignores SIGTERM too: only the kill ends it in time.
    extra = ("--ignore-eof", "--ignore-term") if goodbye == "hurry" else ("--ignore-eof",)
    log = ServerLog(on_line=lambda line: hastier() if line == "stdin ended" else None)
    pids = await close_after_listing(sdk_server(pidfile, *extra), log, faults)
    assert "stdin ended" in log.lines
    assert_all_gone(pids + pids_in(pidfile))
