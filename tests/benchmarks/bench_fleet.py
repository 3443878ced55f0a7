"""Benchmark: what CI and fleets pay — counting a catalog's tokens, linting it whole, and a sweep of many servers.

- tokens: `count_snapshot` over 10,000 realistic tools (those of bench_diff), cold (the
  o200k_base table loaded from the package, in a fresh process) and warm, against the
  1 s target, and as a ratio to `json.dumps` of the same tools (the baseline, same run:
  what serializing the catalog once costs);
- lint: `catalog_lint` (with the metaschema pass, once per distinct schema) over the same
  catalog, as a ratio to the same baseline;
- sweep: `sweep --parallel 4` of 50 demo servers from one config, against the slowest of
  the single walks (`snapshot` of one of them, measured in the same run): the ideal is
  50 / 4 walks' time at most, the floor for one machine's two cores is set by the servers.

    .venv/bin/python tests/benchmarks/bench_fleet.py [--servers 50] [--runs 3]
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
from pathlib import Path

from tests.benchmarks.bench_diff import make_tool

from catalog_inspector.core.calls import catalog_lint
from catalog_inspector.core.catalog import ListResult, PageRecord, Snapshot, count_snapshot

ROOT = Path(__file__).resolve().parents[2]
TOOLS = 10_000
TARGET_S = 1.0  # counting 10,000 tools


def _catalog(count: int) -> Snapshot:
    tools = tuple(make_tool(n) for n in range(count))
    names = tuple(tool["name"] for tool in tools[:200])
    lists = {
        "tools": ListResult("complete", tools, (PageRecord(0, None, "1", 200, names, 1, 1.0),)),
        **{name: ListResult("not_offered") for name in ("resources", "resource_templates", "prompts")},
    }
    return Snapshot("complete", None, {"name": "bench"}, {}, None, lists)


def _cold_count() -> float:
    """Seconds to load the table and count 10,000 tools, in a fresh interpreter (the first count of a run)."""
    script = (
        "import time; from tests.benchmarks.bench_fleet import _catalog; from catalog_inspector.core.catalog "
        f"import count_snapshot; s = _catalog({TOOLS}); t = time.perf_counter(); count_snapshot(s); "
        "print(time.perf_counter() - t)"
    )
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'app'}{os.pathsep}{ROOT}")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    return float(out.stdout.strip())


def _timed(work: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench_counts(runs: int) -> None:
    snapshot = _catalog(TOOLS)
    tools = list(snapshot.tools.items)
    baseline = _timed(lambda: json.dumps(tools), runs)
    cold = statistics.median(_cold_count() for _ in range(runs))
    count_snapshot(snapshot)  # loaded
    warm = _timed(lambda: count_snapshot(snapshot), runs)
    lint = _timed(lambda: catalog_lint(snapshot), max(1, runs - 1))
    print(f"\n== a catalog of {TOOLS:,} tools (bench_diff's), median of {runs} ==")
    print(f"json.dumps of the tools (baseline): {baseline * 1000:.0f} ms")
    print(
        f"tokens, cold (table loaded)       : {cold * 1000:.0f} ms = {cold / baseline:.1f}× (target ≤ {TARGET_S:g} s)"
    )
    print(f"tokens, warm                      : {warm * 1000:.0f} ms = {warm / baseline:.1f}×")
    print(f"lint, whole (metaschema per schema): {lint * 1000:.0f} ms = {lint / baseline:.1f}×")


def _config(folder: Path, count: int) -> Path:
    servers = {
        f"demo-{n:02d}": {"command": sys.executable, "args": ["-m", "catalog_inspector.demo", "--mode", "normal"]}
        for n in range(count)
    }
    path = folder / "servers.json"
    path.write_text(json.dumps({"mcpServers": servers}))
    return path


def _cli(*args: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "app"))
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "catalog_inspector", *args], capture_output=True, env=env, check=False)
    return time.perf_counter() - started


def bench_sweep(servers: int, runs: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-fleet-"))
    config = _config(folder, servers)
    single, swept = [], []
    for run in range(runs):  # interleaved: A B A B
        single.append(_cli("snapshot", "--out", str(folder / "one.json"), "--", sys.executable, "-m",
                           "catalog_inspector.demo", "--mode", "normal"))  # fmt: skip
        swept.append(_cli("sweep", "--config", str(config), "--history", str(folder / f"h{run}"), "--parallel", "4"))
    one, all_of_them = max(single), statistics.median(swept)
    print(f"\n== sweep of {servers} demo servers, --parallel 4, {os.cpu_count()} cores; {runs} runs ==")
    print(f"slowest single walk (snapshot)     : {one:.2f} s")
    print(f"sweep (median)                     : {all_of_them:.2f} s = {all_of_them / one:.1f}× the slowest walk "
          f"(serial would be {servers}×; {servers / 4:.1f}× is the ideal at 4 at a time)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--servers", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    bench_counts(args.runs)
    bench_sweep(args.servers, args.runs)


if __name__ == "__main__":
    main()
