"""Benchmark: `diff_catalogs` over two catalogs of realistic tools, against the 0.2 s target.

Each tool has a nested input schema (an object with an array of objects, enums,
bounds, a `$defs` entry), an output schema and annotations. The new catalog has
about 1% of the tools changed (a retyped nested property, a new required input,
an edited description, a flipped hint), some added and removed, and a few moved.

Two baselines are measured in the same run, on the same catalogs: a plain `==`
of the old tool list with an equal copy of it (the C-level compare the diff starts
with, run over every tool in full: the floor for any diff that looks at every
tool), and `json.loads(json.dumps(...))` of the old catalog (a copy of one side,
a cost anyone reading a snapshot pays). Prints a table; asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_diff.py [--sizes 10000] [--runs 7]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from catalog_inspector.core.drift import CatalogDiff, diff_catalogs

TARGET_S = 0.2  # per 10,000 tools


def make_tool(n: int) -> dict[str, Any]:
    """One tool as a real server lists it: nested input, output schema, annotations."""
    line = {
        "type": "object",
        "properties": {
            "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$", "description": "Stock keeping unit."},
            "qty": {"type": "integer", "minimum": 1, "maximum": 999},
            "note": {"type": ["string", "null"], "maxLength": 200},
        },
        "required": ["sku", "qty"],
        "additionalProperties": False,
    }
    return {
        "name": f"tool_{n:05d}",
        "title": f"Tool {n}",
        "description": f"Synthetic tool number {n}: places an order in warehouse {n % 37} and reports the result.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "order": {
                    "type": "object",
                    "properties": {
                        "items": {"type": "array", "items": line, "minItems": 1, "maxItems": 50},
                        "priority": {"type": "string", "enum": ["low", "normal", "high"], "default": "normal"},
                        "ship_to": {"$ref": "#/$defs/Address"},
                    },
                    "required": ["items"],
                },
                "dry_run": {"type": "boolean", "default": False},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
            },
            "required": ["order"],
            "$defs": {
                "Address": {
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "zip": {"type": "string", "pattern": "^[0-9]{5}$"}},
                    "required": ["street"],
                }
            },
        },
        "outputSchema": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}, "total": {"type": "number"}},
            "required": ["order_id"],
        },
        "annotations": {"readOnlyHint": False, "destructiveHint": n % 3 == 0, "openWorldHint": True},
        "_meta": {"vendor/version": f"1.{n % 5}.0"},
    }


def edit(tool: dict[str, Any], kind: int) -> dict[str, Any]:
    """One of four realistic edits, on a copy."""
    tool = copy.deepcopy(tool)
    order = tool["inputSchema"]["properties"]["order"]
    if kind == 0:
        order["properties"]["items"]["items"]["properties"]["qty"]["type"] = "string"
    elif kind == 1:
        tool["inputSchema"]["properties"]["region"] = {"type": "string", "enum": ["eu", "us"]}
        tool["inputSchema"]["required"].append("region")
    elif kind == 2:
        tool["description"] += " Now also sends an email."
    else:
        tool["annotations"]["destructiveHint"] = not tool["annotations"]["destructiveHint"]
    return tool


def catalogs(n: int) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]], dict[str, int]]:
    """(old, new, what was planted): new has ~1% edited, 0.5% removed, 0.5% added and 5 tools moved."""
    rng = random.Random(11)
    old = [make_tool(i) for i in range(n)]
    new = json.loads(json.dumps(old))  # equal, but no shared objects: `==` must compare them
    edited = rng.sample(range(n), max(1, n // 100))
    for k, i in enumerate(edited):
        new[i] = edit(new[i], k % 4)
    untouched = sorted(set(range(n)) - set(edited))
    removed = set(rng.sample(untouched, max(1, n // 200)))
    new = [tool for i, tool in enumerate(new) if i not in removed]
    added = max(1, n // 200)
    for i in range(added):
        new.insert(rng.randrange(len(new) + 1), make_tool(n + i))
    moved = 5
    for _ in range(moved):
        new.insert(rng.randrange(len(new) + 1), new.pop(rng.randrange(len(new))))
    planted = {"changed": len(edited), "removed": len(removed), "added": added, "moved (at most)": moved}
    return {"tools": old}, {"tools": new}, planted


def median_seconds(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def describe(diff: CatalogDiff) -> str:
    tools = diff.lists["tools"]
    counts = diff.counts()
    return (
        f"found {len(tools.changed)} changed, {len(tools.removed)} removed, {len(tools.added)} added, "
        f"{len(tools.moved)} moved; " + ", ".join(f"{n} {s.value}" for s, n in counts.items())
    )


def measure(n: int, runs: int) -> None:
    old, new, planted = catalogs(n)
    twin = json.loads(json.dumps(old))  # equal to old, no shared objects
    equal = median_seconds(lambda: old["tools"] == twin["tools"], runs)
    copied = median_seconds(lambda: json.loads(json.dumps(old)), runs)
    diff = median_seconds(lambda: diff_catalogs(old, new), runs)
    same = median_seconds(lambda: diff_catalogs(old, twin), runs)
    print(f"\n{n:,} tools — median of {runs} run(s); planted: " + ", ".join(f"{v} {k}" for k, v in planted.items()))
    print(f"  {describe(diff_catalogs(old, new))}")
    print(f"{'':52} {'seconds':>9} {'× ==':>8} {'× copy':>8}")
    rows = [
        ("baseline: old == equal copy of old (full compare)", equal),
        ("baseline: json.loads(json.dumps(old catalog))", copied),
        ("diff_catalogs(old, new)", diff),
        ("diff_catalogs(old, equal copy of old)", same),
    ]
    for name, seconds in rows:
        print(f"{name:52} {seconds:9.4f} {seconds / equal:8.2f} {seconds / copied:8.3f}")
    print("× ==: over the full `==` of two equal tool lists; × copy: over the JSON round trip of one catalog.")
    target = TARGET_S * max(1.0, n / 10_000)
    verdict = "meets" if diff <= target else "MISSES"
    print(
        f"diff_catalogs {verdict} the target of ≤ {target:g} s at {n:,} tools ({diff:.4f} s; {TARGET_S} s per 10,000)."
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000])
    parser.add_argument("--runs", type=int, default=7, help="median of this many runs per figure")
    args = parser.parse_args()
    for n in args.sizes:
        measure(n, args.runs)


if __name__ == "__main__":
    main()
