"""Benchmark: the tools tab (ToolsPane: tool tree, filter box) applying catalogs and filtering.

A real, shown QTreeView over the real model, fed by the real filter box, at
10,000 and 100,000 tools built as the demo's `many` mode builds them. Each
figure is GUI-thread time: the model's work, the view's relayout (forced with
executeDelayedItemsLayout) and one repaint of the viewport. Before each catalog
change the tree has three tools expanded and a current row, as a user leaves it.

The baselines are measured in the same run: a bare QTreeView relaying out the
same number of rows over a trivial Python model (the floor for any model
written in Python: Qt calls index() and hasChildren() per top-level row) and
over a C++ QStringListModel (Qt's own floor). Prints a table; asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_tree.py [--sizes 10000 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QStringListModel, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QTreeView

from catalog_inspector.demo.catalog import Options, plan_for
from catalog_inspector.ui.app import freeze_startup_objects, prefer_the_gui_thread
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.startup import import_engine
from catalog_inspector.ui.widgets.tools_pane import ToolsPane

NEEDLES = {
    "synthetic": "every prefix matches every tool",
    "number 77": "narrows to 11%, then 1%, on the last two keys",
    "tool_0777": "narrows on its last four keys",
}
WIDE = "1"  # one key that keeps ~40% of the rows: the filter's worst keystroke


def demo_tools(n: int) -> list[dict[str, Any]]:
    """The tools of the demo's `many` mode, one page of `n`."""
    return plan_for("many", "tools", 0, Options(tools=n, page_size=n)).page(0).items


def variants(base: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    rng = random.Random(7)
    n = len(base)
    moved = list(base)
    picked = sorted(rng.sample(range(n), 1000), reverse=True)
    taken = [moved.pop(i) for i in picked]
    for tool in taken:
        moved.insert(rng.randrange(len(moved) + 1), tool)
    churned = list(base)
    for i in sorted(rng.sample(range(n), 1000), reverse=True):
        del churned[i]
    for i in range(1000):
        extra = dict(base[0], name=f"added_{i:04d}", description=f"Added tool {i}.")
        churned.insert(rng.randrange(len(churned) + 1), extra)
    return {
        "same catalog (new objects)": json.loads(json.dumps(base)),
        "one tool first→last": base[1:] + base[:1],
        "reverse order": base[::-1],
        "1,000 moved": moved,
        "1,000 added + 1,000 removed": churned,
        "every description edited": [dict(t, description=t["description"] + " Edited.") for t in base],
    }


class _FlatModel(QAbstractItemModel):
    """A trivial Python model: n top-level rows with children, constant data."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.rows = [object() for _ in range(n)]

    def index(self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:
        if parent.isValid() or not 0 <= row < len(self.rows):
            return QModelIndex()
        return self.createIndex(row, column, self.rows[row])

    def parent(self, index: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        return QModelIndex()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 4

    def hasChildren(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:
        return not parent.isValid()

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        return "tool" if role == Qt.ItemDataRole.DisplayRole else None


def settle(app: QApplication, tree: QTreeView) -> None:
    """Run the view's pending relayout now, repaint, and let posted events through."""
    tree.executeDelayedItemsLayout()
    tree.viewport().repaint()
    app.processEvents()


def timed(app: QApplication, tree: QTreeView, action: Callable[[], object]) -> tuple[float, float, float]:
    """(model ms, + relayout + paint ms, ms of the events it queued) for one action.

    Queued events (the filter's folding of new tools) run in their own turn of the
    event loop, so they are a separate stall, not part of this one.
    """
    start = time.perf_counter()
    action()
    model = time.perf_counter()
    tree.executeDelayedItemsLayout()
    tree.viewport().repaint()
    total = time.perf_counter()
    app.processEvents()
    return (model - start) * 1000, (total - start) * 1000, (time.perf_counter() - total) * 1000


def bare_relayout(app: QApplication, model: QAbstractItemModel) -> float:
    tree = QTreeView()
    tree.setUniformRowHeights(True)
    tree.resize(900, 600)
    tree.setModel(model)
    tree.show()
    settle(app, tree)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        model.layoutAboutToBeChanged.emit()
        model.layoutChanged.emit()
        settle(app, tree)
        best = min(best, time.perf_counter() - start)
    tree.close()
    tree.deleteLater()
    return best * 1000


def show_now(pane: ToolsPane, tools: list[dict[str, Any]]) -> None:
    """Apply a catalog with all of its work in this call.

    The window plans a big catalog a slice per event (`ToolsPlanner`), so no single
    event costs this much; the figures here are the whole work, and bench_walk.py
    measures the longest stall the window actually has.
    """
    pane.set_tools(tools)
    while pane.planning:
        pane._plan_step()


def prepare(app: QApplication, pane: ToolsPane, tools: list[dict[str, Any]]) -> None:
    """Show `tools` with three tools expanded and one current, as a user leaves the tree."""
    pane.filter.clear()
    show_now(pane, [])
    show_now(pane, tools)
    settle(app, pane.tree)
    model = pane.tree.model()
    rows = model.rowCount()
    for row in (0, rows // 2, rows - 1):
        pane.tree.expand(model.index(row, 0))
    pane.tree.setCurrentIndex(model.index(rows // 3, 0))
    settle(app, pane.tree)


def type_needle(app: QApplication, pane: ToolsPane, needle: str) -> tuple[float, float]:
    """Type `needle` one key at a time; (longest keystroke ms, total ms), each key handled and painted."""
    longest = total = 0.0
    for char in needle:
        start = time.perf_counter()
        QTest.keyClick(pane.filter, char)
        settle(app, pane.tree)
        took = (time.perf_counter() - start) * 1000
        longest = max(longest, took)
        total += took
    return longest, total


def clear_filter(app: QApplication, pane: ToolsPane) -> float:
    return sum(timed(app, pane.tree, pane.filter.clear)[1:])


def measure(app: QApplication, n: int, cases: list[str]) -> dict[str, tuple[float, float, float]]:
    base = demo_tools(n)
    out: dict[str, tuple[float, float, float]] = {}
    out["baseline: bare tree, trivial Python model, relayout"] = (0.0, bare_relayout(app, _FlatModel(n)), 0.0)
    out["baseline: bare tree, C++ QStringListModel, relayout"] = (
        0.0,
        bare_relayout(app, QStringListModel([f"tool_{i:05d}" for i in range(n)])),
        0.0,
    )
    pane = ToolsPane()
    pane.resize(1400, 900)
    pane.show()
    settle(app, pane.tree)
    show_now(pane, [])
    settle(app, pane.tree)
    if "fill" in cases:
        out["initial fill (empty → n)"] = timed(app, pane.tree, lambda: show_now(pane, base))
    for name, tools in variants(base).items():
        if "all" not in cases and not any(c in name for c in cases):
            continue
        prepare(app, pane, base)
        out[name] = timed(app, pane.tree, lambda tools=tools: show_now(pane, tools))  # type: ignore[misc]
        print(f"  … {n:,} {name}: {out[name][1]:.1f} ms", file=sys.stderr, flush=True)
    if "filter" in cases:
        prepare(app, pane, base)
        for needle, note in NEEDLES.items():
            longest, total = type_needle(app, pane, needle)
            out[f"typing {needle!r}: longest key ({note})"] = (0.0, longest, 0.0)
            out[f"typing {needle!r}: all 9 keys"] = (0.0, total, 0.0)
            out[f"clear filter after {needle!r} (back to all rows)"] = (0.0, clear_filter(app, pane), 0.0)
        longest, _ = type_needle(app, pane, WIDE)
        out[f"one key keeping ~40% of rows ({WIDE!r})"] = (0.0, longest, 0.0)
        out[f"clear filter after {WIDE!r}"] = (0.0, clear_filter(app, pane), 0.0)
    shown = [pane.tree.model().index(r, 0).data(Role.KEY) for r in range(min(3, pane.tree.model().rowCount()))]
    print(f"  … {n:,} done; first rows now {shown}", file=sys.stderr, flush=True)
    pane.close()
    pane.deleteLater()
    app.processEvents()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=3, help="median of this many runs per figure")
    parser.add_argument("--cases", nargs="+", default=["all"], help="substrings of case names, 'fill', 'filter'")
    args = parser.parse_args()
    cases = args.cases if args.cases != ["all"] else ["all", "fill", "filter"]
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    import_engine()  # as run_app does behind the window: nothing the walk needs is imported during it
    freeze_startup_objects()  # as run_app does: the collector then sees what the app sees
    prefer_the_gui_thread()
    for n in args.sizes:
        runs = [measure(app, n, cases) for _ in range(args.runs)]
        names = list(runs[0])
        baseline = statistics.median(r["baseline: bare tree, trivial Python model, relayout"][1] for r in runs)
        print(f"\n{n:,} tools — median of {args.runs} run(s); ms of GUI-thread time")
        print(f"{'':62} {'model':>8} {'+view':>8} {'worst':>8} {'queued':>8} {'× bare':>7}")
        for name in names:
            model = statistics.median(r[name][0] for r in runs)
            total = statistics.median(r[name][1] for r in runs)
            worst = max(r[name][1] for r in runs)
            queued = statistics.median(r[name][2] for r in runs)
            model_text = f"{model:8.1f}" if model else f"{'':8}"
            queued_text = f"{queued:8.1f}" if queued >= 0.05 else f"{'':8}"
            print(f"{name[:62]:62} {model_text} {total:8.1f} {worst:8.1f} {queued_text} {total / baseline:7.2f}")
        print("model: the model's own work; +view: with the tree's relayout and a repaint (median of runs);")
        print("worst: the slowest run of +view; queued: the events it queued, run as their own stall afterwards;")
        print("× bare: +view over the bare tree's relayout of a trivial Python model. Keys include their repaint.")


if __name__ == "__main__":
    main()
