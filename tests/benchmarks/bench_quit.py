"""Benchmark: closing and quitting with plain SDK 2.3 `MCPServer` servers, on stdio and Streamable HTTP.

The servers are `tests/fixtures/sdk_server.py` (the SDK's high-level API, nothing tuned):
on stdio as written, ignoring the end of its stdin (only a signal stops it), ignoring
SIGTERM too (only SIGKILL does), and on Streamable HTTP on 127.0.0.1.

- session close: a walked session's close, from the walk reported to the end of
  `SessionWorker.run` (the path of the CLI and of a replaced session in the app), against
  the SDK's own `Client` closing the same server in the same process and run (ratio);
- `snapshot`: from the walk reported to the process exit (closing the session, writing the
  document, the interpreter's own exit);
- the app: from Ctrl+Q to the process exit with one SDK server connected (stdio, HTTP), and
  with none for reference.

Issue 20 sets 0.5 s for quitting with any server: the `snapshot` and app figures are checked
against it (the median of the runs; the bench fails above it). Runs are interleaved so that
drift in machine load hits every side.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_quit.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.helpers import serving  # noqa: E402

CEILING_S = 0.5  # issue 20, point 11: quitting with any server
SERVER = [sys.executable, "-m", "tests.fixtures.sdk_server"]
STDIO_KINDS = {
    "stdio": [],
    "stdio, ignores stdin's end": ["--ignore-eof"],
    "stdio, ignores stdin's end and SIGTERM": ["--ignore-eof", "--ignore-term"],
}

CLI_PROBE = """
import sys, time
from catalog_inspector.core.session import worker
from catalog_inspector.main import main

take = worker.take_snapshot

async def stamped(*args, **kwargs):
    snapshot = await take(*args, **kwargs)
    print("WALKED", time.time(), file=sys.stderr, flush=True)
    return snapshot

worker.take_snapshot = stamped
sys.exit(main(sys.argv[1:]))
"""

APP_PROBE = """
import sys, time
from PySide6.QtCore import QTimer
from catalog_inspector.core.config import LaunchConsent
from catalog_inspector.main import main
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui import main_window

LaunchConsent.approved = lambda self, spec: True  # the fixture's command, in a throw-away home

class Probe(main_window.MainWindow):
    def __init__(self, app, *args, **kwargs):
        super().__init__(app, *args, **kwargs)
        for supervisor in app.runtime.supervisors:
            supervisor.ensure_started()
        QTimer.singleShot(50, self._probe)

    def _probe(self):
        supervisors = self.app.runtime.supervisors
        if all(s.state in (ServerState.READY, ServerState.FAILED) and not s.busy for s in supervisors):
            if any(s.state is not ServerState.READY for s in supervisors):
                sys.exit("a server did not connect")
            print("QUIT", time.time(), flush=True)
            self.close()  # what Ctrl+Q does
        else:
            QTimer.singleShot(20, self._probe)

main_window.MainWindow = Probe
sys.exit(main(sys.argv[1:]))
"""


def _spec(extra: list[str], url: str | None):  # type: ignore[no-untyped-def]
    from catalog_inspector.core.config import ServerSpec

    if url is not None:
        return ServerSpec(name="sdk-http", transport="http", url=url)
    return ServerSpec(name="sdk-stdio", command=SERVER[0], args=(*SERVER[1:], *extra), cwd=str(ROOT))


def session_closes(extra: list[str], url: str | None) -> tuple[float, float]:
    """Seconds to close a walked session: ours (`SessionWorker`), then the SDK's `Client`, same server."""
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from catalog_inspector.core.config import Limits
    from catalog_inspector.core.session import SessionWorker

    async def ours() -> float:
        walked: list[float] = []
        worker = SessionWorker(_spec(extra, url), Limits())
        worker.stop()  # asked before run(), as `walk_once`: the session closes once the walk is reported
        await worker.run(lambda snapshot: walked.append(time.perf_counter()))
        assert worker.snapshot is not None and worker.snapshot.status == "complete", worker.snapshot
        return time.perf_counter() - walked[0]

    async def sdk() -> float:
        with open(os.devnull, "w") as quiet:  # the server's stderr: ours keeps it, the SDK's would print it
            if url is not None:
                server: Any = url
            else:
                params = StdioServerParameters(command=SERVER[0], args=[*SERVER[1:], *extra], cwd=ROOT)
                server = stdio_client(params, errlog=quiet)
            async with Client(server, cache=None, read_timeout_seconds=60) as client:
                await client.session.list_tools()
                start = time.perf_counter()
            return time.perf_counter() - start

    return anyio.run(ours), anyio.run(sdk)


def _home() -> tuple[str, dict[str, str]]:
    home = tempfile.mkdtemp(prefix="bench-quit-")
    env = dict(
        os.environ,
        XDG_CONFIG_HOME=os.path.join(home, "config"),
        XDG_CACHE_HOME=os.path.join(home, "cache"),
        XDG_DATA_HOME=os.path.join(home, "data"),
        QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
    )
    return home, env


def cli_exit(extra: list[str], url: str | None) -> float:
    """Seconds from the walk reported to the exit of the `snapshot` process."""
    _home_dir, env = _home()
    where = ["--url", url] if url is not None else ["--", *SERVER, *extra]
    command = [sys.executable, "-c", CLI_PROBE, "snapshot", "--no-store", "--out", os.devnull, *where]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    walked = [float(line.split()[1]) for line in proc.stderr if line.startswith("WALKED ")]
    proc.wait(timeout=120)
    exited = time.time()
    assert proc.returncode == 0 and walked, (proc.returncode, walked)
    return exited - walked[0]


def app_exit(url: str | None, stdio: bool) -> float:
    """Seconds from Ctrl+Q to the app's process exit, with one SDK server (stdio or HTTP) or none."""
    home, env = _home()
    servers: dict[str, object] = {}
    if stdio:
        servers["sdk-stdio"] = {"command": SERVER[0], "args": SERVER[1:], "cwd": str(ROOT)}
    if url is not None:
        servers["sdk-http"] = {"type": "http", "url": url}
    config = os.path.join(home, "servers.json")
    with open(config, "w") as handle:
        json.dump({"mcpServers": servers}, handle)
    command = [sys.executable, "-c", APP_PROBE, "--config", config]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    asked = [float(line.split()[1]) for line in proc.stdout if line.startswith("QUIT ")]
    proc.wait(timeout=120)
    exited = time.time()
    assert proc.returncode == 0 and asked, (proc.returncode, asked)
    return exited - asked[0]


def _median(runs: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    over: list[str] = []

    def check(label: str, seconds: float) -> str:
        if seconds > CEILING_S:
            over.append(label)
            return f"  OVER the {CEILING_S} s ceiling"
        return ""

    with serving([*SERVER, "--http"]) as url:
        kinds: dict[str, tuple[list[str], str | None]] = {kind: (extra, None) for kind, extra in STDIO_KINDS.items()}
        kinds["Streamable HTTP"] = ([], url)
        print(f"== closing a walked session, SDK MCPServer; median of {args.runs} runs ==")
        for kind, (extra, where) in kinds.items():
            pairs = [session_closes(extra, where) for _ in range(args.runs)]
            ours = statistics.median(pair[0] for pair in pairs)
            sdk = statistics.median(pair[1] for pair in pairs)
            print(
                f"{kind:<40}: ours {ours * 1000:5.0f} ms, the SDK's Client {sdk * 1000:5.0f} ms, ratio {ours / sdk:.2f}"
            )
        print(f"\n== `snapshot`, from the walk reported to the process exit; median of {args.runs} runs ==")
        for kind, (extra, where) in kinds.items():
            seconds = _median(args.runs, lambda: cli_exit(extra, where))  # noqa: B023 (used at once)
            print(f"{kind:<40}: {seconds * 1000:5.0f} ms{check('snapshot ' + kind, seconds)}")
        print(f"\n== the app, from Ctrl+Q to the process exit; median of {args.runs} runs ==")
        for kind, stdio, where in (("stdio", True, None), ("Streamable HTTP", False, url), ("no server", False, None)):
            seconds = _median(args.runs, lambda: app_exit(where, stdio))  # noqa: B023 (used at once)
            mark = check("app " + kind, seconds) if kind != "no server" else ""
            print(f"{kind:<40}: {seconds * 1000:5.0f} ms{mark}")
    if over:
        sys.exit(f"quitting took more than {CEILING_S} s: {', '.join(over)}")


if __name__ == "__main__":
    main()
