"""Benchmark: the `snapshot` command against the official MCP Inspector's CLI, same server, same run.

Both clients walk `tools/list` of the same stdio server (the bundled demo in
"many" mode) from a cold process start to its exit, A B A B so that drift in
machine load hits both sides:

- inspector: `inspector --cli --method tools/list -- SERVER…` (Inspector 2.12.0 on
  Node 22, installed from npm into .bench/ by `make bench`), its JSON to /dev/null;
- ours: `mcp-catalog-inspector snapshot --bare --out FILE -- SERVER…` (the walk alone, as the Inspector's);
- full: the same without `--bare`: the document with its `tokens` and `lint` (what they cost on top);
- plain: for reference, a 40-line client that spawns the server and walks with
  plain `json` (no SDK, no checks): the floor for a Python client.

Sizes: 10,000 and 100,000 tools in 50 pages each (the Inspector stops beyond
64 pages), and a 10-tool server, where start-up is all there is. Peak memory
is the client process's own high-water mark (VmHWM, sampled every 5 ms; the
server is its child, not counted on either side). Prints medians and the ratios ours / inspector;
asserts only that every run walked the whole catalog.

    .venv/bin/python tests/benchmarks/bench_inspector.py [--runs 5] [--sizes 10000:200 ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH_DIR = os.environ.get("BENCH_DIR", os.path.join(ROOT, ".bench"))
INSPECTOR = os.path.join(BENCH_DIR, "node_modules", ".bin", "inspector")
OURS = os.path.join(os.path.dirname(sys.executable), "mcp-catalog-inspector")
SIZES = ("10000:200", "100000:2000", "10:10")

PLAIN = r"""
import json, subprocess, sys
server = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
ids = iter(range(1, 1 << 30))

def ask(method, params=None):
    request = {"jsonrpc": "2.0", "id": next(ids), "method": method}
    if params is not None:
        request["params"] = params
    server.stdin.write(json.dumps(request).encode() + b"\n")
    server.stdin.flush()
    while True:
        message = json.loads(server.stdout.readline())
        if "id" in message and "method" not in message:
            return message["result"]

ask("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "plain", "version": "0"}})
server.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
tools, cursor = [], None
while True:
    page = ask("tools/list", {"cursor": cursor} if cursor else {})
    tools += page["tools"]
    cursor = page.get("nextCursor")
    if not cursor:
        break
json.dump({"tools": tools}, open("/dev/null", "w"))
server.stdin.close()
server.wait()
print(len(tools))
"""


def _server(tools: int, page_size: int) -> list[str]:
    return [sys.executable, "-m", "catalog_inspector.demo", "--mode", "many", "--tools", str(tools),
            "--page-size", str(page_size)]  # fmt: skip


def _commands(tools: int, page_size: int, out: str) -> dict[str, list[str]]:
    server = _server(tools, page_size)
    return {
        "inspector": [INSPECTOR, "--cli", "--method", "tools/list", "--", *server],
        # Like for like: the Inspector neither counts tokens nor lints; `--bare` leaves both out of ours too.
        "ours": [OURS, "snapshot", "--bare", "--timeout", "600", "--deadline", "3600", "--out", out, "--", *server],
        # The whole document, `tokens` and `lint` included: what they cost on top.
        "full": [OURS, "snapshot", "--timeout", "600", "--deadline", "3600", "--out", out, "--", *server],
        "plain": [sys.executable, "-c", PLAIN, *server],
    }


def _peak_rss(pid: int, peak: list[float], stop: threading.Event) -> None:
    """The client's own high-water mark (VmHWM), read until it exits.

    Not wait4's max RSS: that includes the server (a reaped grandchild) and, through
    exec, this process's own peak at the fork.
    """
    path = f"/proc/{pid}/status"
    while not stop.wait(0.005):
        try:
            with open(path) as handle:
                for line in handle:
                    if line.startswith("VmHWM:"):
                        peak[0] = max(peak[0], int(line.split()[1]) / 1024)
        except OSError:
            return


def _run(args: list[str], stdout_path: str) -> tuple[float, float]:
    """Wall seconds and the client's own peak RSS (MiB) of one cold run."""
    # Node 22 from .bench/ (the Inspector's launcher runs `env node`), ahead of the machine's own.
    path = os.pathsep.join([os.path.dirname(INSPECTOR), os.environ.get("PATH", "")])
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "app"), PATH=path)
    peak = [0.0]
    stop = threading.Event()
    with open(stdout_path, "wb") as out:
        started = time.perf_counter()
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.DEVNULL, env=env)
        sampler = threading.Thread(target=_peak_rss, args=(proc.pid, peak, stop), daemon=True)
        sampler.start()
        code = proc.wait()
        wall = time.perf_counter() - started
        stop.set()
        sampler.join()
    if code != 0:
        raise SystemExit(f"{args[0]} exited {code}")
    return wall, peak[0]


def _count(name: str, path: str, snapshot: str) -> int:
    if name == "plain":
        with open(path) as handle:
            return int(handle.read().split()[-1])
    with open(snapshot if name in ("ours", "full") else path) as handle:
        return len(json.load(handle)["tools"])


def measure(tools: int, page_size: int, runs: int) -> dict[str, dict[str, float]]:
    work = tempfile.mkdtemp(prefix="bench-inspector-")
    snapshot = os.path.join(work, "snapshot.json")
    commands = _commands(tools, page_size, snapshot)
    walls: dict[str, list[float]] = {name: [] for name in commands}
    rss: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, args in commands.items():  # interleaved: A B C A B C
            stdout_path = os.path.join(work, f"{name}.out")
            wall, peak = _run(args, stdout_path)
            found = _count(name, stdout_path, snapshot)
            assert found == tools, (name, found, tools)
            walls[name].append(wall)
            rss[name].append(peak)
    return {
        name: {
            "wall": statistics.median(walls[name]),
            "low": min(walls[name]),
            "high": max(walls[name]),
            "rss": statistics.median(rss[name]),
        }
        for name in commands
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", nargs="+", default=list(SIZES), help="TOOLS:PAGE_SIZE")
    args = parser.parse_args()
    if not os.path.exists(INSPECTOR):
        raise SystemExit(f"no Inspector at {INSPECTOR}: `make bench` installs it into .bench/")
    for size in args.sizes:
        tools, page_size = (int(part) for part in size.split(":"))
        runs = args.runs if tools <= 10_000 else max(3, args.runs - 2)
        figures = measure(tools, page_size, runs)
        ins, ours, full, plain = figures["inspector"], figures["ours"], figures["full"], figures["plain"]
        pages = -(-tools // page_size)
        print(f"\n== {tools:,} tools in {pages} pages over stdio, cold processes; median of {runs} runs ==")
        for name, what in (
            ("inspector", "Inspector 2.12.0 CLI"),
            ("ours", "snapshot --bare"),
            ("full", "snapshot (whole doc)"),
            ("plain", "plain json"),
        ):
            row = figures[name]
            print(f"{what:<21}: {row['wall']:.2f} s ({row['low']:.2f}–{row['high']:.2f}), max RSS {row['rss']:.0f} MiB")
        print(f"wall ratio, snapshot / Inspector   : {ours['wall'] / ins['wall']:.2f}")
        print(f"memory ratio, snapshot / Inspector : {ours['rss'] / ins['rss']:.2f}")
        print(f"wall ratio, plain json / Inspector : {plain['wall'] / ins['wall']:.2f}")
        print(f"wall ratio, whole doc / Inspector  : {full['wall'] / ins['wall']:.2f} (tokens and lint included)")
        print(f"memory ratio, whole doc / Inspector: {full['rss'] / ins['rss']:.2f}")


if __name__ == "__main__":
    main()
