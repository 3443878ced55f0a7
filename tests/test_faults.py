"""The fault-injection suite: hostile servers on every transport, through the CLI as a user runs it.

Each case runs `mcp-catalog-inspector snapshot` against a real misbehaving
server process (the demo's modes, `tests/fixtures/hostile_http.py` at the HTTP
layer, or a few lines of Python on stdio) and checks what the user is promised:

- the classified kind, list and page, and the exit code;
- the wall time against the configured limits (the bound is the limit the case
  is about plus a start-up allowance: a deadline that holds, not a speed target);
- peak memory (the CLI process's own high-water mark, `tests/fixtures/peak.py`)
  within a few byte caps of the same CLI walking a normal server, measured in
  the same run;
- nothing left running (stdio servers write their pids to `--pidfile`).

`FAULT_FIGURES=FILE` appends one JSON line of figures per case.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests import cli_runner
from tests.helpers import DEMO, ROOT, assert_all_gone, hostile_http, http_demo, pids_in

MIB = 1024 * 1024
STARTUP = 15.0  # seconds for two interpreters to start and import on a loaded CI machine
TIMEOUT = 3.0  # --timeout of every case unless it says otherwise
CAP = 4 * MIB  # the default --max-page-bytes
EXIT = {"complete": 0, "rejected": 3, "failed": 4}


@dataclass(frozen=True)
class Case:
    """One fault.

    Attributes:
        server: how the server is reached: `demo MODE ARGS…`, `http FAULT ARGS…`
            (the hostile fixture), `http-demo MODE ARGS…`, `sse-demo MODE ARGS…`,
            or `stdio ARGV…` (a command of our own).
        kind, page: the classified error (None, None: a complete catalog).
        limit: the configured time the case must finish within (before start-up).
        args: extra CLI arguments.
        cap: the byte cap in force, for the memory bound.
        words: what the error's message must say (its words name the stop rightly).
        details: what the error's details must hold (e.g. an `auth` error's step and cause).
    """

    server: str
    kind: str | None
    page: int | None
    limit: float
    args: tuple[str, ...] = ()
    cap: int = CAP
    status: str = field(default="")
    words: str = ""
    details: tuple[tuple[str, Any], ...] = ()

    @property
    def expected_status(self) -> str:
        if self.status:
            return self.status
        if self.kind is None:
            return "complete"
        return (
            "rejected" if self.kind in ("size_limit", "page_limit", "cursor_repeated", "duplicate_name") else "failed"
        )


PY = sys.executable
CASES: dict[str, Case] = {
    # stdio: the ways a process can fail before, during and after the handshake
    "command-not-found": Case("stdio /nonexistent/mcp-server", "connection", None, TIMEOUT),
    "exit-during-initialize": Case(f"stdio {PY} -c raise(SystemExit(3))", "connection", None, TIMEOUT),
    "silent-at-handshake": Case(f"stdio {PY} -c __import__('time').sleep(600)", "timeout", None, 2 * TIMEOUT),
    "crash-on-page-1": Case("demo crash", "connection", 1, TIMEOUT),
    "hang-on-page-1": Case("demo hang", "timeout", 1, 2 * TIMEOUT),
    "garbage-line": Case("demo garbage", "protocol", 1, TIMEOUT),
    "malformed-result": Case("demo malformed", "protocol", 1, TIMEOUT),
    "endless-cursors": Case("demo endless", "page_limit", 4, TIMEOUT, ("--max-pages", "5")),
    "cycling-cursors": Case("demo cycle", "cursor_repeated", 2, TIMEOUT),
    "empty-string-cursor": Case("demo empty-cursor", None, None, TIMEOUT),
    "duplicate-names": Case("demo duplicate", "duplicate_name", 2, TIMEOUT),
    "100-mb-stdio-page": Case("demo huge --huge-mb 100", "size_limit", 1, 4 * TIMEOUT),
    # The server writes its 200,000 lines before it answers the handshake: on a loaded machine that takes
    # longer than the usual handshake time (2 x --timeout), so the case gives it room; its point is the flood.
    "stderr-flood": Case("demo normal --stderr-flood 200000", None, None, 4 * TIMEOUT, ("--timeout", "10")),
    # The server takes seconds to write 5,000 notifications before its last page: a longer timeout. (It was
    # 20,000: 12 s of CPU for the two processes, a tenth of the fault suite's; 5,000 is as much a flood.)
    "5000-list-changed": Case("demo notify --legacy --notify-count 5000", None, None, 30, ("--timeout", "30")),
    "nested-too-deep": Case(f"stdio {PY} -m tests.fixtures.padded_server --nest 99", "protocol", 0, TIMEOUT),
    # NaN is not JSON, though the SDK's parser takes it: refused on the page that holds it, on every transport
    "nan-on-stdio": Case(f"stdio {PY} -m tests.fixtures.padded_server --nan", "protocol", 0, TIMEOUT),
    "nan-in-http-json": Case("http json-nan", "protocol", 0, TIMEOUT),
    "nan-in-http-sse": Case("http sse-nan", "protocol", 0, TIMEOUT),
    "stubborn-grandchild": Case("demo hang --spawn-child --stubborn", "timeout", 1, 2 * TIMEOUT),
    # Streamable HTTP, at the HTTP layer
    "http-json-endless": Case(
        "http json-endless", "size_limit", 0, TIMEOUT, ("--max-page-bytes", "1000000"), cap=1_000_000
    ),
    "http-json-1-gb": Case("http json-huge --mb 1000", "size_limit", 0, TIMEOUT),
    "http-sse-20-mb": Case("http sse-huge --mb 20", "size_limit", 0, TIMEOUT),
    "http-body-cut-off": Case("http json-cut", "connection", 0, TIMEOUT),
    "http-redirect-away": Case("http redirect", "connection", 0, TIMEOUT),
    "http-hang-on-page-1": Case("http-demo hang", "timeout", 1, 2 * TIMEOUT),
    # legacy SSE
    "sse-no-endpoint": Case(
        "http sse-no-endpoint --end-on-disconnect", "timeout", None, 5.0, ("--sse", "--deadline", "5")
    ),
    "sse-2-mib-page": Case("sse-demo huge --huge-mb 2", None, None, 2 * TIMEOUT, ("--sse",)),
    "sse-20-mb-page": Case("sse-demo huge --huge-mb 20", "size_limit", 1, 2 * TIMEOUT, ("--sse",)),
}

# --- Robustness II (issue 20, points 2 and 8): compression bombs and stops named rightly ---------
# A gigabyte once decoded is about a megabyte of gzip on the wire: the cap counts decoded bytes.
CASES.update(
    {
        "http-gzip-json-1-gb": Case("http gzip-json --mb 1000", "size_limit", 0, TIMEOUT, words="4,194,304-byte cap"),
        "http-gzip-sse-1-gb": Case("http gzip-sse --mb 1000", "size_limit", 0, TIMEOUT, words="4,194,304-byte cap"),
        "http-gzip-oauth-metadata-1-gb": Case(
            "http gzip-metadata --mb 1000",
            "auth",
            None,
            TIMEOUT,
            words="1,048,576-byte cap",
            details=(("step", "metadata"), ("cause", "too_large")),
        ),  # fmt: skip
        "sse-gzip-event-1-gb": Case(
            "http gzip-legacy-sse --mb 1000", "size_limit", None, TIMEOUT, ("--sse",), words="4,194,304-byte cap"
        ),
        "http-redirect-loop": Case("http redirect-loop", "connection", 0, TIMEOUT, words="kept redirecting"),
        "http-redirect-then-1-gb": Case("http redirect-huge --mb 1000", "size_limit", 0, TIMEOUT, words="byte cap"),
        "http-non-ascii-session-id": Case("http session-id", "protocol", None, TIMEOUT, words="session id"),
        "stdout-closed-while-running": Case(
            f"stdio {PY} -c [__import__('os').close(1),__import__('time').sleep(60)]",
            "connection",
            None,
            TIMEOUT,
            words="closed its output (stdout) while still running",
        ),  # fmt: skip
    }
)


@dataclass
class Run:
    code: int
    document: dict[str, Any] | None
    stderr: str
    wall: float
    peak: int  # bytes


def run_cli(args: list[str], tmp: Path, env: dict[str, str] | None = None) -> Run:
    peak = tmp / "peak"
    started = time.monotonic()
    proc = cli_runner.run_cli("snapshot", *args, env=env, cwd=ROOT, timeout=180, text=False, peak=peak)
    wall = time.monotonic() - started
    out = proc.stdout
    document = json.loads(out) if out.strip() else None
    return Run(proc.returncode, document, proc.stderr.decode(), wall, int(peak.read_text()))


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> int:
    """The CLI's peak memory walking a normal server: what every case is measured against."""
    run = run_cli(["--timeout", "10", "--", *DEMO, "--mode", "normal"], tmp_path_factory.mktemp("baseline"))
    assert run.code == 0 and run.peak > 0
    return run.peak


@contextmanager
def target(server: str, tmp: Path) -> Iterator[tuple[list[str], Path | None]]:
    """The CLI arguments that reach `server`, and the pidfile its processes write (stdio demo only)."""
    how, *rest = server.split(" ", 1)
    words = rest[0].split(" ") if rest else []
    with ExitStack() as stack:
        if how == "demo":
            pidfile = tmp / "pids"
            yield ["--", *DEMO, "--mode", *words, "--pidfile", str(pidfile)], pidfile
        elif how == "stdio":
            yield ["--", *words], None
        elif how == "http":
            yield ["--url", stack.enter_context(hostile_http(*words, "--seen", str(tmp / "seen")))], None
        else:
            url = stack.enter_context(http_demo(words[0], *words[1:], sse=how == "sse-demo"))
            yield ["--url", url], None


@pytest.mark.parametrize("name", list(CASES))
def test_a_fault_is_classified_in_time_within_bounded_memory_leaving_nothing(
    name: str, baseline: int, tmp_path: Path
) -> None:
    case = CASES[name]
    secret = "Bearer fault-suite-canary-7f3a"
    with target(case.server, tmp_path) as (reach, pidfile):
        # An Authorization header of one's own means no sign-in: a case about signing in sends another.
        header = "X-Api-Key" if case.kind == "auth" else "Authorization"
        headers = ["--header", f"{header}: {secret}"] if "--url" in reach else []
        run = run_cli(["--timeout", str(TIMEOUT), *case.args, *headers, *reach], tmp_path)
    doc = run.document
    assert doc is not None, run.stderr
    error = doc["error"]
    got = (error["kind"], error["page"]) if error else (None, None)
    assert got == (case.kind, case.page), run.stderr
    if case.page is not None:  # the timeline keeps the page that failed
        assert doc["pages"][-1]["index"] == case.page and doc["pages"][-1]["outcome"] == case.kind
    assert doc["status"] == case.expected_status and run.code == (5 if case.kind == "auth" else EXIT[doc["status"]])
    if error:  # the words name the stop rightly
        assert case.words in error["message"] and all(error["details"].get(k) == v for k, v in case.details), error
    assert "Traceback" not in run.stderr, run.stderr
    assert run.wall <= case.limit + STARTUP
    assert run.peak <= baseline + 4 * case.cap + 32 * MIB, f"peak {run.peak / MIB:.0f} MiB"
    if pidfile is not None:
        assert_all_gone(pids_in(pidfile))
    everything = json.dumps(doc) + run.stderr
    assert "canary" not in everything  # header values never reach any output
    if case.server.startswith("http redirect"):
        assert not (tmp_path / "seen").exists(), "a request followed the redirect to the other origin"
    if figures := os.environ.get("FAULT_FIGURES"):
        with open(figures, "a") as out:
            row = {
                "case": name,
                "kind": got[0],
                "page": got[1],
                "exit": run.code,
                "wall_s": round(run.wall, 2),
                "limit_s": case.limit,
                "peak_mib": round(run.peak / MIB, 1),
                "baseline_mib": round(baseline / MIB, 1),
            }
            out.write(json.dumps(row) + "\n")  # fmt: skip


def test_the_servers_environment_is_the_sdks_allowlist_without_our_secrets(tmp_path: Path) -> None:
    dump = "import os,sys; sys.stderr.write(' '.join(sorted(os.environ))); sys.exit(1)"
    env = {**os.environ, "FAULT_SUITE_CANARY_TOKEN": "canary-value-91c2"}
    run = run_cli(["--timeout", str(TIMEOUT), "--", sys.executable, "-c", dump], tmp_path, env=env)
    assert run.document is not None and run.document["error"]["kind"] == "connection"
    seen = " ".join(run.document["error"]["details"]["stderr"])
    assert "PATH" in seen.split(), "the server's environment was not dumped"
    assert "FAULT_SUITE_CANARY_TOKEN" not in seen and "canary-value" not in json.dumps(run.document) + run.stderr
