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
import gc
import json
import math
import random
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from catalog_inspector.core.drift import CatalogDiff, diff_catalogs
from catalog_inspector.core.drift.diff import diff_item

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


# --- scaling: large random schemas, time per element at n against 10n --------------------------

GROWTH_LIMIT = 4.0  # linear work keeps the growth near 1 (n log n: ~1.3; caches and load: up to ~2); quadratic ~10
STOP_AFTER_S = 60.0  # a run at 10n is stopped here whatever its budget, so a quadratic rule ends the bench
NAME_SHAPES = ("required", "properties", "enum", "type", "arguments", "annotations", "_meta")
SCHEMA_SHAPES = ("anyOf", "oneOf", "allOf", "prefixItems", "items", "$defs", "patternProperties", "icons")
SHAPES = (*NAME_SHAPES, *SCHEMA_SHAPES, "deep", "tools")
MUTATIONS = ("append", "prepend", "reverse", "shuffle", "edit-all", "drop-half", "from-absent", "to-absent")
# Each rule with the edit that was its worst case, so every one is measured on every run.
WORST = {
    "required": "reverse", "properties": "prepend", "enum": "shuffle", "type": "reverse",
    "arguments": "edit-all", "annotations": "edit-all", "_meta": "edit-all", "anyOf": "prepend",
    "oneOf": "drop-half", "allOf": "edit-all", "prefixItems": "prepend", "items": "append",
    "$defs": "edit-all", "patternProperties": "from-absent", "icons": "prepend", "deep": "edit-all",
    "tools": "shuffle",
}  # fmt: skip


@dataclass(frozen=True)
class Recipe:
    """One large input: which rule's input grows, how the new side differs, and where it sits.

    `host` is a small schema around the grown part (at `place`, a path of property names
    inside it); `field` is the schema it goes in. The same recipe builds any size.
    """

    shape: str
    mutation: str
    field: str = "inputSchema"
    host: dict[str, Any] = dataclass_field(default_factory=dict)
    place: tuple[str, ...] = ()
    seed: int = 0

    def label(self) -> str:
        where = "/".join(self.place) or "top"
        return f"{self.shape} {self.mutation} ({self.field}, at {where})"


def _elements(shape: str, n: int) -> list[Any]:
    if shape in NAME_SHAPES:
        return [f"p{i}" for i in range(n)]
    if shape == "icons":
        return [{"src": f"https://example.invalid/{i}.png", "sizes": [f"{i}x{i}"]} for i in range(n)]
    return [{"type": "string", "const": f"c{i}", "description": f"choice {i}"} for i in range(n)]


def _mutated(recipe: Recipe, elements: list[Any]) -> list[Any] | None:
    """The new side's elements (None: the keyword is absent there)."""
    how = recipe.mutation
    fresh = _elements(recipe.shape, len(elements) + 1)[-1]
    if how == "append":
        return [*elements, fresh]
    if how == "prepend":
        return [fresh, *elements]
    if how == "reverse":
        return elements[::-1]
    if how == "shuffle":
        shuffled = list(elements)
        random.Random(recipe.seed).shuffle(shuffled)
        return shuffled
    if how == "edit-all":
        return [e + "x" if isinstance(e, str) else {**e, "description": "edited"} for e in elements]
    if how == "drop-half":
        return elements[::2]
    return None if how == "to-absent" else elements


def _keyword(shape: str, elements: list[Any] | None) -> dict[str, Any]:
    """The keywords of the grown part for one side (nothing where the side has none)."""
    if elements is None:
        return {}
    if shape == "required":
        return {"type": "object", "properties": {"p0": {"type": "string"}}, "required": elements}
    if shape == "properties":
        return {"type": "object", "properties": {e: {"type": "string"} for e in elements}, "required": elements}
    if shape in ("$defs", "patternProperties"):
        return {shape: {f"k{i}": e for i, e in enumerate(elements)} if shape == "$defs" else {
            f"^x{i}$": e for i, e in enumerate(elements)}}  # fmt: skip
    return {shape: elements}


def _deep(depth: int, width: int, leaf: str) -> dict[str, Any]:
    """Objects nested `depth` deep, each with `width` equal siblings before the way down."""
    node: dict[str, Any] = {"type": "string", "description": leaf}
    for level in range(depth):
        siblings = {f"s{level}_{i}": {"type": "integer", "minimum": i} for i in range(width)}
        node = {"type": "object", "properties": {**siblings, "down": node}}
    return node


def _placed(host: dict[str, Any], place: tuple[str, ...], part: dict[str, Any]) -> dict[str, Any]:
    """`host` with `part`'s keywords merged into the object at `place` (a copy)."""
    if not place:
        return {**host, **part}
    inner = host.get("properties", {}).get(place[0], {})
    props = {**host.get("properties", {}), place[0]: _placed(inner if isinstance(inner, dict) else {}, place[1:], part)}
    return {**host, "properties": props}


def build(recipe: Recipe, n: int) -> tuple[Any, Any, Callable[[Any, Any], object]]:
    """(old, new, diff): the two sides at size `n` and the diff call that compares them."""
    shape = recipe.shape
    if shape == "tools":
        old_tools = [make_tool(i) for i in range(n)]
        new_tools = json.loads(json.dumps(_mutated(recipe, old_tools) or []))  # no shared objects
        return {"tools": old_tools}, {"tools": new_tools}, diff_catalogs
    if shape == "deep":
        width = 200
        depth = max(1, min(n // width, 250))  # _walk recurses twice per level: well inside the recursion limit
        old_part, new_part = _deep(depth, width, "old"), _deep(depth, width, "new")
    else:
        elements = _elements(shape, n)
        before = None if recipe.mutation == "from-absent" else elements
        old_part, new_part = _keyword(shape, before), _keyword(shape, _mutated(recipe, elements))
    if shape == "arguments":
        old = {"name": "p", "arguments": [{"name": a, "required": False} for a in old_part.get("arguments", [])]}
        new = {"name": "p", "arguments": [{"name": a, "required": True} for a in new_part.get("arguments", [])]}
        return old, new, lambda a, b: diff_item("prompts", a, b)
    if shape in ("annotations", "_meta", "icons"):
        side = (
            (lambda part: dict.fromkeys(part.get(shape, []), True))
            if shape != "icons"
            else (lambda part: part.get(shape, []))
        )
        base = {"name": "t", "inputSchema": recipe.host}
        return {**base, shape: side(old_part)}, {**base, shape: side(new_part)}, lambda a, b: diff_item("tools", a, b)
    old = {"name": "t", "inputSchema": {}, recipe.field: _placed(recipe.host, recipe.place, old_part)}
    new = {"name": "t", "inputSchema": {}, recipe.field: _placed(recipe.host, recipe.place, new_part)}
    return old, new, lambda a, b: diff_item("tools", a, b)


class _OverBudget(Exception):
    pass


def _stop(_signum: int, _frame: object) -> None:
    raise _OverBudget


def _timed(action: Callable[[], object], budget: float | None = None) -> float | None:
    """One run of `action` in seconds; None when it ran past `budget` (it is stopped there).

    With the cycle collector off, as `timeit` runs: a full collection walks the whole heap
    (this process holds every catalog it built), which would time the heap, not the action.
    """
    gc.collect()
    gc.disable()
    previous = signal.signal(signal.SIGALRM, _stop)
    if budget is not None:
        # Repeating: a handler that ran inside a finalizer had its exception swallowed.
        signal.setitimer(signal.ITIMER_REAL, budget, 0.01)
    start = time.perf_counter()
    try:
        try:
            action()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _OverBudget:
        return None
    finally:
        signal.signal(signal.SIGALRM, previous)
        gc.enable()
    took = time.perf_counter() - start
    return None if budget is not None and took > budget else took


@dataclass
class Growth:
    """A recipe measured at n and 10n: the diff's time over a JSON round trip of the same two sides."""

    recipe: Recipe
    n: int
    small: float  # diff seconds at n
    small_ratio: float  # ... over the round trip at n
    large: float | None  # diff seconds at 10n (None: stopped at the budget)
    large_ratio: float | None
    budget: float

    @property
    def growth(self) -> float:
        return math.inf if self.large_ratio is None else self.large_ratio / self.small_ratio

    def row(self) -> str:
        large = f"{self.large:9.4f}" if self.large is not None else f"> {self.budget:6.2f}s"
        return f"{self.recipe.label():58.58} {self.small:9.4f} {large:>10} {self.growth:8.2f}"


@dataclass
class _Runs:
    fastest: float = math.inf  # seconds of the diff's fastest run
    ratios: list[float] = dataclass_field(default_factory=list)  # each run's time over its round trip
    budget: float = 0.0  # seconds the last run was allowed
    stopped: bool = False


def _ratio(diff: Callable[[], object], sides: list[Any], runs: int, limit: float | None = None) -> _Runs:
    """Runs of the diff, each just after a JSON round trip of the same two sides (so a change in the machine's
    load hits both alike); with `limit`, a run is stopped when it takes `limit` × its round trip."""
    found = _Runs()
    for _ in range(runs):
        base = _timed(lambda: json.loads(json.dumps(sides)))
        assert base is not None
        found.budget = min(STOP_AFTER_S, limit * base + 0.05) if limit is not None else math.inf
        took = _timed(diff, found.budget if limit is not None else None)
        if took is None:
            found.stopped = True
            return found
        found.ratios.append(took / base)
        found.fastest = min(found.fastest, took)
    return found


def grow(recipe: Recipe, n: int) -> Growth:
    """Diff the recipe at n and at 10n; a run at 10n may take GROWTH_LIMIT × linear before it is stopped."""
    old, new, diff = build(recipe, n)
    small = _ratio(lambda: diff(old, new), [old, new], 7)
    small_ratio = statistics.median(small.ratios)
    old10, new10, diff10 = build(recipe, 10 * n)
    large = _ratio(lambda: diff10(old10, new10), [old10, new10], 3, GROWTH_LIMIT * small_ratio)
    large_ratio = None if large.stopped else statistics.median(large.ratios)
    return Growth(
        recipe, n, small.fastest, small_ratio, None if large.stopped else large.fastest, large_ratio, large.budget
    )


HOST_KEYWORDS = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["object", ["object", "null"]]),
        "description": st.text(max_size=20),
        "additionalProperties": st.booleans(),
        "minProperties": st.integers(0, 3),
    },
)
HOSTS = st.recursive(
    HOST_KEYWORDS,
    lambda inner: st.tuples(
        HOST_KEYWORDS, st.dictionaries(st.sampled_from(["a", "b", "c/d", "~e"]), inner, max_size=3)
    ).map(lambda pair: {**pair[0], "properties": pair[1]}),
    max_leaves=6,
)


def _places(host: dict[str, Any]) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = [()]
    for name, inner in host.get("properties", {}).items():
        if isinstance(inner, dict):
            found += [(name, *rest) for rest in _places(inner)]
    return found


@st.composite
def recipes(draw: st.DrawFn) -> Recipe:
    """A random large input: any rule, any edit, inside a random schema, at a random depth in it."""
    host = draw(HOSTS)
    return Recipe(
        shape=draw(st.sampled_from(SHAPES)),
        mutation=draw(st.sampled_from(MUTATIONS)),
        field=draw(st.sampled_from(["inputSchema", "outputSchema"])),
        host=host,
        place=draw(st.sampled_from(_places(host))),
        seed=draw(st.integers(0, 2**16)),
    )


def scaling(n: int, examples: int) -> bool:
    """Every rule at its worst edit, then `examples` random recipes; True when every one stayed linear."""
    print(f"\nscaling: time per element at {n:,} and {10 * n:,} elements, each over a JSON round trip of the same")
    print(f"two sides (growth ~1 is linear, ~10 quadratic; each must stay ≤ {GROWTH_LIMIT:g})")
    print(f"{'recipe':58} {'s at n':>9} {'s at 10n':>10} {'growth':>8}")
    missed: list[Growth] = []
    for shape, mutation in WORST.items():
        found = grow(Recipe(shape, mutation), n)
        print(found.row(), flush=True)
        if found.growth > GROWTH_LIMIT:
            missed.append(found)

    @settings(
        max_examples=examples, deadline=None, database=None, derandomize=True,
        phases=[Phase.generate], suppress_health_check=list(HealthCheck),
    )  # fmt: skip
    @given(recipes())
    def random_recipes_stay_linear(recipe: Recipe) -> None:
        found = grow(recipe, n)
        assert found.growth <= GROWTH_LIMIT, found.row()

    print(f"and {examples} random recipes (hypothesis, derandomized: the same ones every run) …", flush=True)
    try:
        random_recipes_stay_linear()
    except AssertionError as exc:
        print(f"MISSES: a random recipe grew faster than linear: {exc}")
        return False
    if missed:
        print("MISSES: " + "; ".join(f"{m.recipe.label()} grew {m.growth:.1f}×" for m in missed))
        return False
    print(f"every recipe stayed within {GROWTH_LIMIT:g}× of linear.")
    return True


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000])
    parser.add_argument("--runs", type=int, default=7, help="median of this many runs per figure")
    parser.add_argument("--scaling-n", type=int, default=5_000, help="the smaller size of the scaling check (0: skip)")
    parser.add_argument("--examples", type=int, default=25, help="random recipes in the scaling check")
    args = parser.parse_args()
    for n in args.sizes:
        measure(n, args.runs)
    if args.scaling_n and not scaling(args.scaling_n, args.examples):
        sys.exit(1)


if __name__ == "__main__":
    main()
