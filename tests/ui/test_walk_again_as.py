"""Drift → "Walk again as …" in the real window: the server walked once more as another client, diffed with ours."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QPushButton

from catalog_inspector.core.config import ServerSpec
from catalog_inspector.core.drift import History
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.main_window import MainWindow
from tests.helpers import alive, forked, spin_until_gone
from tests.ui.conftest import Harness, shown, wait_for

SERVER = forked("tests.fixtures.profile_server")


def profile_spec(record: Path, *extra: str) -> ServerSpec:
    return ServerSpec(name="profiles", command=SERVER[0], args=(*SERVER[1:], "--record", str(record), *extra))


def action(window: MainWindow, key: str) -> QAction:
    button = window.findChild(QPushButton, "walkAgainAsButton")
    found = [a for a in button.menu().actions() if a.data() == key]
    assert found, [a.data() for a in button.menu().actions()]
    return found[0]


def ready(window: MainWindow) -> bool:
    return shown(window) and window.presenter is not None and window.presenter.report is not None


def test_walking_again_as_cursor_shows_what_cursor_sees_versus_what_we_see_and_leaves_no_process(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "seen.jsonl"
    history = History(tmp_path / "history")
    spec = profile_spec(record)
    window = harness.window([spec], history=history)
    wait_for(qtbot, lambda: ready(window) and len(history.entries(spec)) == 1)
    presenter = window.current
    assert presenter is not None and presenter.drift is not None
    supervisor = presenter.supervisor
    accepted = supervisor.accepted
    active = list(harness.pids)
    button = window.findChild(QPushButton, "walkAgainAsButton")
    assert button.isEnabled() and button.text() == "Walk again as…"
    labels = [a.text() for a in button.menu().actions()]
    assert labels[0] == "The entry's own profile (this inspector)" and "Cursor" in labels and "VS Code" in labels

    action(window, "cursor").trigger()
    assert not button.isEnabled() and button.text() == "Walking again as Cursor…"
    drift = presenter.drift
    wait_for(qtbot, lambda: drift.comparison is not None and drift.walking_as is None)
    comparison = drift.comparison
    assert comparison is not None and comparison.diff is not None, comparison
    summary = window.findChild(QLabel, "driftSummary").text()
    assert summary == "What Cursor sees versus what we see: 1 added, 1 removed.", summary
    changes = {(row.what, row.list_name, row.key) for row in window.drift_pane.model.rows}
    assert changes == {("added", "tools", "cursor_rules"), ("removed", "tools", "inspector_probe")}
    assert button.isEnabled() and button.text() == "Walk again as…"

    # The second walk spoke as Cursor, in a session of its own that is gone now; ours is untouched.
    seen = [json.loads(line) for line in record.read_text().splitlines()]
    assert [(s["client"], s["proposed"]) for s in seen] == [
        ("mcp-catalog-inspector", "2026-07-28"),
        ("cursor-vscode", "2025-11-25"),
    ]
    second = [pid for pid in harness.pids if pid not in active]
    assert second, "the second walk started a process of its own"
    spin_until_gone(qtbot, second)
    assert all(alive(pid) for pid in active), "the active session is still served"
    assert supervisor.accepted is accepted and supervisor.state is ServerState.READY
    assert len(history.entries(spec)) == 1, "the history did not see it"
    assert not drift.approved

    # As VS Code (the MCP Apps extension): the tool only such clients are given.
    action(window, "vscode").trigger()
    wait_for(qtbot, lambda: drift.walking_as is None and drift.comparison is not comparison)
    changes = {(row.what, row.key) for row in window.drift_pane.model.rows}
    assert changes == {("added", "show_dashboard"), ("removed", "inspector_probe")}
    window.findChild(QPushButton, "lastRefreshButton").click()
    assert drift.comparison is None, "the last refresh's report is shown again"


def test_a_second_walk_that_fails_says_why_and_the_catalog_stays(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = profile_spec(tmp_path / "seen.jsonl", "--refuse", "claude-ai")
    window = harness.window([spec])
    wait_for(qtbot, lambda: ready(window))
    presenter = window.current
    assert presenter is not None and presenter.drift is not None
    accepted = presenter.supervisor.accepted
    action(window, "claude-desktop").trigger()
    drift = presenter.drift
    wait_for(qtbot, lambda: drift.comparison is not None and drift.walking_as is None)
    summary = window.findChild(QLabel, "driftSummary").text()
    assert summary.startswith("What Claude Desktop sees versus what we see: the walk as Claude Desktop failed: ")
    assert (
        "(tools, page 0; JSON-RPC -32600 (invalid request))" in summary
        and "tools are not listed for claude-ai" in summary
    ), summary
    assert window.drift_pane.model.rowCount() == 0
    assert presenter.supervisor.accepted is accepted and presenter.supervisor.state is ServerState.READY
