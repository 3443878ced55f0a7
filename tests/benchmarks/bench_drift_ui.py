"""Benchmark: the GUI-thread work of showing a drift report, at 10,000 and 100,000 tools.

The runtime diffs off the GUI thread (bench_diff.py times that); what is left
for the window is rendering the report: the drift table (one reset: its rows
are made with the diff, off the GUI thread), the tool tree's marks (one dataChanged and a repaint), the first-page
reach list, and the tree taking the ghost rows of removed tools. The drift is
the demo's `many-drift` walk: every tool moved (the order reversed) and every
tenth description edited, the worst case for the number of rows, with 1,000
tools removed on top for ghost rows.

The baseline, measured in the same run, is Qt's own floor for a table of that
many rows: a QStringListModel given as many strings, shown in a QTableView,
with one repaint. Prints a table; asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_drift_ui.py [--sizes 10000 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QStringListModel
from PySide6.QtWidgets import QApplication, QTableView, QWidget

from catalog_inspector.core.drift import DriftReport, FirstPage, diff_catalogs, rows_of
from catalog_inspector.demo.catalog import Options, plan_for
from catalog_inspector.ui.widgets.checks_pane import ChecksPane
from catalog_inspector.ui.widgets.drift_pane import DriftPane
from catalog_inspector.ui.widgets.tools_pane import ToolsPane

BUDGET_MS = 16.0


def walk_tools(n: int, walk: int) -> list[dict[str, Any]]:
    plan = plan_for("many", "tools", walk, Options(tools=n, page_size=n, many_drift=True))
    return plan.page(0).items


def paint(app: QApplication, widget: QWidget) -> None:
    widget.repaint()
    app.processEvents()


def timed(app: QApplication, widget: QWidget, action: Callable[[], object]) -> tuple[float, float]:
    """(ms of the action itself, ms with one repaint of the whole tab and the events it posted)."""
    start = time.perf_counter()
    action()
    done = time.perf_counter()
    paint(app, widget)
    return (done - start) * 1000, (time.perf_counter() - start) * 1000


def baseline(app: QApplication, rows: int) -> tuple[float, float]:
    view = QTableView()
    model = QStringListModel()
    view.setModel(model)
    view.resize(1200, 700)
    view.show()
    strings = [f"row {i}" for i in range(rows)]
    took = timed(app, view, lambda: model.setStringList(strings))
    view.close()
    view.deleteLater()
    return took


def measure(app: QApplication, n: int) -> dict[str, tuple[float, float]]:
    old = walk_tools(n, 0)
    new = walk_tools(n, 1)[: n - 1000]  # reversed, every tenth edited, 1,000 gone
    diff = diff_catalogs({"tools": old}, {"tools": new})
    report = DriftReport(taken_at="now", base_taken_at="before", diff=diff, rows=tuple(rows_of(diff)))
    drift = DriftPane()
    drift.resize(1200, 700)
    drift.show()
    tools = ToolsPane()
    tools.resize(1200, 700)
    tools.show()
    tools.set_tools(new)
    while tools.planning:
        tools._plan_step()
    checks = ChecksPane()
    checks.resize(1200, 700)
    checks.show()
    paint(app, tools)
    marks = report.tool_marks()
    shown = [*new, *report.removed_tools]
    keys = [str(t["name"]) for t in new]
    reach = FirstPage("tools", 100, len(keys), tuple(keys[100:]))

    def ghosts() -> None:  # the plan is sliced per event in the window; this is its whole work
        tools.set_tools(shown, marks)
        while tools.planning:
            tools._plan_step()

    out = {
        "drift table: rows and reset": timed(app, drift, lambda: drift.show_report(report, True, False)),
        "tree marks: one dataChanged": timed(app, tools, lambda: tools.model.set_marks(marks)),
        "tree ghost rows (whole plan, sliced in the app)": timed(app, tools, ghosts),
        "first-page reach list": timed(app, checks, lambda: checks.show_first_page(reach)),
        "rows in the drift table": (float(drift.model.rowCount()), 0.0),
        "bare QTableView of as many rows": baseline(app, drift.model.rowCount()),
    }
    for widget in (drift, tools, checks):
        widget.close()
        widget.deleteLater()
    app.processEvents()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    for n in args.sizes:
        runs = [measure(app, n) for _ in range(args.runs)]
        figures = {name: tuple(statistics.median(run[name][i] for run in runs) for i in (0, 1)) for name in runs[0]}
        rows = figures.pop("rows in the drift table")[0]
        floor = figures.pop("bare QTableView of as many rows")[1]
        print(f"\n{n:,} tools, {rows:,.0f} drift rows — median of {args.runs} run(s); ms of GUI-thread time")
        print(f"{'':52} {'action':>8} {'+paint':>8} {'× bare table':>13}")
        for name, (action, total) in figures.items():
            print(f"{name:52} {action:8.1f} {total:8.1f} {total / floor:13.2f}")
        print(f"{'bare QTableView of as many rows, same size (baseline)':52} {'':8} {floor:8.1f} {1.0:13.2f}")
        print("action: the call itself; +paint: with one repaint of the whole tab (1200×700) and posted events.")
    print(f"\nThe frame budget is {BUDGET_MS:g} ms per event.")


if __name__ == "__main__":
    main()
