"""Faults in the files the CLI reads: endless, huge, deep, or not quite JSON. Each is one line and exit 2.

Issue 20, points 5, 6 and 7. Every file is read within a cap for its kind
(`core.files`: config 16 MiB, snapshots 128 MiB, arguments 8 MiB), as strict JSON
(no NaN, Infinity or number beyond a double), and nesting too deep to follow is a
one-line error instead of a RecursionError. Each case runs the CLI as a user does
(`tests/fixtures/peak.py` for its peak memory) against a file made here, or a device:
`/dev/zero` and `/dev/urandom` never end. Before the fix these grew past 2 GiB in
seconds; the CLI runs under a 3 GiB address-space limit so that an unfixed reader
fails the case instead of the machine.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from catalog_inspector.core.files import MAX_ARGUMENTS_BYTES, MAX_CONFIG_BYTES, MAX_JSONC_BYTES, MAX_SNAPSHOT_BYTES
from tests import cli_runner
from tests.helpers import DEMO, ROOT, forked

MIB = 1024 * 1024
STARTUP = 30.0  # seconds for the interpreter to start and import on a loaded 2-core machine
GUARD = 3 * 1024 * MIB  # RLIMIT_AS of the CLI under test: far above a fixed reader, far below the machine


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    wall: float
    peak: int


def run_cli(args: list[str], tmp: Path, stdin: Path | None = None) -> Run:
    peak = tmp / "peak"
    peak.unlink(missing_ok=True)
    started = time.monotonic()
    proc = cli_runner.run_cli(*args, stdin=stdin, cwd=ROOT, timeout=120, text=False, peak=peak, rlimit_as=GUARD)
    wall = time.monotonic() - started
    return Run(proc.returncode, proc.stdout.decode(), proc.stderr.decode(), wall, int(peak.read_text() or 0))


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real snapshot of the demo server, to put next to a bad one."""
    path = tmp_path_factory.mktemp("snapshot") / "good.json"
    proc = cli_runner.run_cli("snapshot", "--out", str(path), "--", *DEMO, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return path


@pytest.fixture(scope="module")
def baseline(snapshot: Path, tmp_path_factory: pytest.TempPathFactory) -> int:
    """The CLI's peak memory diffing two small snapshots: what every case is measured against."""
    run = run_cli(["diff", str(snapshot), str(snapshot)], tmp_path_factory.mktemp("baseline"))
    assert run.code == 0 and run.peak > 0, run.stderr
    return run.peak


def edited(snapshot: Path, target: Path, literal: str) -> Path:
    """The snapshot with `literal` (raw JSON text) as the first tool's input schema default."""
    data = json.loads(snapshot.read_text())
    data["tools"][0]["inputSchema"]["default"] = "@@"
    target.write_text(json.dumps(data).replace('"@@"', literal))
    return target


def sparse(target: Path, size: int) -> Path:
    with open(target, "wb") as handle:
        handle.truncate(size)
    return target


def deep(target: Path, depth: int, inner: str = "1") -> Path:
    target.write_text('{"a": ' * depth + inner + "}" * depth)
    return target


Make = Callable[[Path, Path], tuple[list[str], Path | None]]  # (tmp, snapshot) → the arguments, and stdin


@dataclass(frozen=True)
class Case:
    make: Make
    words: str  # in the one stderr line
    cap: int = 0  # the cap the file meets, for the memory bound


def _config(path: str) -> Make:
    return lambda tmp, snap: (["snapshot", "--server", "x", "--config", path], None)


CASES: dict[str, Case] = {
    # point 5: endless and huge files
    "config-dev-zero": Case(_config("/dev/zero"), "/dev/zero holds more than the 16 MiB cap on config files", MAX_CONFIG_BYTES),
    "config-dev-urandom": Case(_config("/dev/urandom"), "holds more than the 16 MiB cap on config files", MAX_CONFIG_BYTES),
    "config-sparse-1-gib": Case(
        lambda tmp, snap: (["snapshot", "--server", "x", "--config", str(sparse(tmp / "c.json", 1024 * MIB))], None),
        "is 1024 MiB, over the 16 MiB cap on config files; it was not read",
    ),
    "diff-dev-zero": Case(
        lambda tmp, snap: (["diff", "/dev/zero", str(snap)], None),
        "/dev/zero holds more than the 128 MiB cap on snapshot files", MAX_SNAPSHOT_BYTES,
    ),
    "diff-sparse-2-gib": Case(
        lambda tmp, snap: (["diff", str(snap), str(sparse(tmp / "s.json", 2048 * MIB))], None),
        "s.json is 2048 MiB, over the 128 MiB cap on snapshot files; it was not read",
    ),
    "check-baseline-dev-zero": Case(
        lambda tmp, snap: (["check", "--baseline", "/dev/zero", "--", *DEMO], None),
        "/dev/zero holds more than the 128 MiB cap on snapshot files", MAX_SNAPSHOT_BYTES,
    ),
    "args-file-dev-zero": Case(
        lambda tmp, snap: (["call", "echo", "--args-file", "/dev/zero", "--", *DEMO], None),
        "--args-file /dev/zero holds more than the 8 MiB cap on arguments", MAX_ARGUMENTS_BYTES,
    ),
    "args-stdin-dev-zero": Case(
        lambda tmp, snap: (["call", "echo", "--args-file", "-", "--", *DEMO], Path("/dev/zero")),
        "--args-file - holds more than the 8 MiB cap on arguments", MAX_ARGUMENTS_BYTES,
    ),
    # point 6: deep JSON
    "diff-100000-deep": Case(
        lambda tmp, snap: (["diff", str(deep(tmp / "deep.json", 100_000)), str(snap)], None),
        "deep.json nests its JSON too deeply to read",
    ),
    "args-file-5000-deep": Case(
        lambda tmp, snap: (["call", "echo", "--args-file", str(deep(tmp / "a.json", 5_000)), "--", *DEMO], None),
        "a.json nests its JSON too deeply to read",
    ),
    "config-5000-deep": Case(
        lambda tmp, snap: (["snapshot", "--server", "x", "--config", str(deep(tmp / "c.json", 5_000))], None),
        "c.json nests its JSON too deeply to read",
    ),
    "config-5000-deep-jsonc": Case(  # a comment: read again by json5, which runs out of stack too
        lambda tmp, snap: (["snapshot", "--server", "x", "--config", str(_write(tmp / "c.json", "// x\n" + '{"a": ' * 5000 + "1" + "}" * 5000))], None),
        "c.json is not valid JSON (line 1, column 1",
    ),
    # point 7: JSON that Python's json takes and nothing else does
    **{
        f"diff-{label}": Case(
            lambda tmp, snap, literal=literal: (["diff", str(snap), str(edited(snap, tmp / "n.json", literal))], None),
            f"n.json is not valid JSON: {words}",
        )
        for label, literal, words in (
            ("nan", "NaN", "NaN is not a number in JSON"),
            ("infinity", "Infinity", "Infinity is not a number in JSON"),
            ("minus-infinity", "-Infinity", "-Infinity is not a number in JSON"),
            ("1e999", "1e999", "1e999 is beyond the range of a double"),
            ("5000-digits", "9" * 5000, "Exceeds the limit (4300 digits)"),
        )
    },
    "args-nan": Case(
        lambda tmp, snap: (["call", "echo", "--args", '{"text": Infinity}', "--", *DEMO], None),
        "--args is not valid JSON: Infinity is not a number in JSON",
    ),
    "config-nan": Case(
        lambda tmp, snap: (["snapshot", "--server", "x", "--config", str(_write(tmp / "c.json", '{"a": NaN}'))], None),
        "c.json is not valid JSON: NaN is not a number in JSON",
    ),
    "config-jsonc-nan": Case(
        lambda tmp, snap: (["snapshot", "--server", "x", "--config", str(_write(tmp / "c.json", '// x\n{"a": NaN}'))], None),
        "c.json is not valid JSON: NaN is not a number in JSON",
    ),
    "config-jsonc-over-its-cap": Case(
        lambda tmp, snap: (["snapshot", "--server", "x", "--config", str(_write(tmp / "c.json", "// x\n" + '{"mcpServers": {}, "pad": "' + "x" * MAX_JSONC_BYTES + '"}'))], None),
        "(a file over 256 KiB is read as strict JSON only, without comments)",
    ),
}  # fmt: skip


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize("name", list(CASES))
def test_a_bad_input_file_is_one_line_and_exit_2_within_bounded_memory(
    name: str, snapshot: Path, baseline: int, tmp_path: Path
) -> None:
    case = CASES[name]
    args, stdin = case.make(tmp_path, snapshot)
    run = run_cli(args, tmp_path, stdin)
    assert run.code == 2, run.stderr[-2000:]
    assert "Traceback" not in run.stderr and run.stdout == ""
    assert case.words in run.stderr.splitlines()[-1], run.stderr[-2000:]
    assert run.wall < STARTUP
    assert run.peak <= baseline + 2 * case.cap + 32 * MIB, f"peak {run.peak / MIB:.0f} MiB"
    if figures := os.environ.get("FAULT_FIGURES"):
        with open(figures, "a") as out:
            row = {"case": name, "exit": run.code, "wall_s": round(run.wall, 2), "peak_mib": round(run.peak / MIB, 1),
                   "baseline_mib": round(baseline / MIB, 1)}  # fmt: skip
            out.write(json.dumps(row) + "\n")


def test_nan_from_a_server_is_a_protocol_error_on_its_page_and_the_snapshot_is_json(tmp_path: Path) -> None:
    """The SDK's parser takes NaN on the wire; ours does not: the page that holds it is a protocol error."""
    server = ["--", *forked("tests.fixtures.padded_server"), "--nan"]
    run = run_cli(["snapshot", "--out", str(tmp_path / "out.json"), *server], tmp_path)
    assert run.code == 4 and "Traceback" not in run.stderr
    document = json.loads((tmp_path / "out.json").read_text(), parse_constant=lambda word: pytest.fail(word))
    assert document["status"] == "failed" and document["error"]["kind"] == "protocol" and document["error"]["page"] == 0
    assert "not JSON" in document["error"]["message"] and "NaN" in document["error"]["message"]
    assert document["pages"][-1]["outcome"] == "protocol"
