"""Drift, history, pinning, duplicates and staleness in the real window, against real demo servers."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import (
    QLabel,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QTableWidget,
)

from catalog_inspector.core.drift import History
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_main_window import tree


def marks(window: MainWindow) -> dict[str, str]:
    model = tree(window).model()
    return {model.index(r, 0).data(Role.KEY): model.index(r, 0).data(Role.DRIFT) for r in range(model.rowCount())}


def drift_rows(window: MainWindow) -> list[tuple[str, ...]]:
    model = window.findChild(QTableView, "driftView").model()
    return [tuple(model.index(r, c).data() for c in range(8)) for r in range(model.rowCount())]


def sidebar_badge(window: MainWindow) -> str:
    return window.findChild(QListView, "serverList").model().index(0, 0).data(Role.DRIFT)


def reported(window: MainWindow) -> bool:
    """The accepted catalog's drift report has arrived (it is made off the GUI thread), and the pages show it (a
    hidden Drift tab a frame later)."""
    return window.presenter is not None and window.presenter.report is not None and not window.pages.following


def accept_refresh(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    before = supervisor.accepted
    window.refresh()
    wait_for(
        qtbot, lambda: supervisor.accepted is not before and supervisor.state is ServerState.READY and reported(window)
    )
    wait_for(qtbot, lambda: not window.tools_pane.planning)


def test_a_drifting_server_marks_the_tree_keeps_ghosts_and_lists_every_change(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    spec = demo_spec("drift", "--state", str(tmp_path / "walks.json"), name="drifting")
    window = harness.window([spec, demo_spec("normal", name="other")], history=History(tmp_path / "history"))
    wait_for(qtbot, lambda: reported(window))
    assert window.presenter is not None and window.presenter.report is not None
    assert window.presenter.report.diff is None, "the first catalog has nothing to compare with"
    assert set(marks(window).values()) == {""} and sidebar_badge(window) == ""

    accept_refresh(window, qtbot)
    assert marks(window) == {
        "echo": "changed",
        "count_items": "",
        "delete_everything": "changed",
        "added_in_walk_1": "added",
        "added_in_walk_0": "removed",
    }
    model = tree(window).model()
    assert "added_in_walk_0" not in window.tools_pane.model.tool_names(), "a ghost is not part of the catalog"
    ghost = model.index(4, 0)
    assert ghost.data(Role.KEY) == "added_in_walk_0" and ghost.data().startswith("− ")
    assert ghost.data(Qt.ItemDataRole.FontRole).strikeOut()
    rows = drift_rows(window)
    assert ("breaking", "Tools", "echo", "inputSchema", "/properties/repeat/type", '"integer"', '"string"') == rows[
        next(i for i, r in enumerate(rows) if r[4] == "/properties/repeat/type")
    ][:7]
    assert rows[0][0] == "breaking", "worst first"
    assert any(r[2] == "delete_everything" and r[4] == "/destructiveHint" and r[0] == "warning" for r in rows)
    assert any(r[2] == "added_in_walk_0" and r[0] == "breaking" for r in rows), "a removed tool is breaking"
    assert "breaking drift" in sidebar_badge(window)
    assert window.banner.state == "drift" and window.banner.isVisible()
    # The banner's button shows the drift.
    qtbot.mouseClick(window.findChild(QPushButton, "retryButton"), Qt.MouseButton.LeftButton)
    assert window.tabs.currentWidget() is window.drift_pane
    # Selecting a change shows its old and new values side by side.
    view = window.findChild(QTableView, "driftView")
    row = next(i for i, r in enumerate(rows) if r[4] == "/properties/repeat/type")
    view.selectRow(row)
    assert window.findChild(QPlainTextEdit, "driftOld").toPlainText() == '"integer"'
    assert window.findChild(QPlainTextEdit, "driftNew").toPlainText() == '"string"'
    # The selection is the server's: an approval redraws the table, another server is shown and this
    # one again, and the same change is still the one selected.
    presenter = window.presenter
    assert presenter is not None
    qtbot.mouseClick(window.findChild(QPushButton, "approveButton"), Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: presenter.report is not None and presenter.report.pins is not None)
    assert [index.row() for index in view.selectionModel().selectedRows()] == [row]
    assert window.select_server("other")
    wait_for(qtbot, lambda: window.presenter is not presenter)
    assert window.select_server("drifting")
    assert [index.row() for index in view.selectionModel().selectedRows()] == [row]
    assert window.findChild(QPlainTextEdit, "driftNew").toPlainText() == '"string"'

    accept_refresh(window, qtbot)
    now = marks(window)
    assert "added_in_walk_0" not in now, "ghosts last until the next refresh"
    assert now["added_in_walk_1"] == "removed" and now["added_in_walk_2"] == "added"


def test_drift_is_computed_against_the_history_across_restarts(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = demo_spec("drift", "--state", str(tmp_path / "walks.json"), name="drifting")
    history = History(tmp_path / "history")
    first = harness.window([spec], history=history)
    wait_for(qtbot, lambda: reported(first) and len(history.entries(spec)) == 1)
    harness.close(first)
    second = harness.window([spec], history=History(tmp_path / "history"))
    wait_for(qtbot, lambda: reported(second))
    assert second.presenter is not None and second.presenter.report is not None
    diff = second.presenter.report.diff
    assert diff is not None and not diff.empty, "the restart compared with the catalog kept on disk"
    assert marks(second)["added_in_walk_0"] == "removed"
    wait_for(qtbot, lambda: second.findChild(QListView, "historyList").model().rowCount() == 2)


def test_any_two_kept_snapshots_can_be_compared_and_deleted(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = demo_spec("drift", "--state", str(tmp_path / "walks.json"), name="drifting")
    history = History(tmp_path / "history")
    window = harness.window([spec], history=history)
    wait_for(qtbot, lambda: reported(window))
    accept_refresh(window, qtbot)
    accept_refresh(window, qtbot)
    kept = window.findChild(QListView, "historyList")
    wait_for(qtbot, lambda: kept.model().rowCount() == 3)
    # The oldest (walk 0) and the newest (walk 2): walk 1's tool is in neither.
    selection = kept.selectionModel()
    for row in (0, 2):
        selection.select(kept.model().index(row, 0), QItemSelectionModel.SelectionFlag.Select)
    with qtbot.waitSignal(window.app.runtime.tracker.comparison_ready, timeout=10_000):
        qtbot.mouseClick(window.findChild(QPushButton, "compareButton"), Qt.MouseButton.LeftButton)
    summary = window.findChild(QLabel, "driftSummary").text()
    assert summary.startswith("From ") and "breaking" in summary
    keys = {(r[2], r[0]) for r in drift_rows(window)}
    assert ("added_in_walk_0", "breaking") in keys and ("added_in_walk_2", "info") in keys
    assert not any(r[2] == "added_in_walk_1" for r in drift_rows(window))
    qtbot.mouseClick(window.findChild(QPushButton, "lastRefreshButton"), Qt.MouseButton.LeftButton)
    assert not window.findChild(QLabel, "driftSummary").text().startswith("From ")

    kept.clearSelection()
    selection.select(kept.model().index(2, 0), QItemSelectionModel.SelectionFlag.Select)  # the oldest
    oldest = history.entries(spec)[0]
    qtbot.mouseClick(window.findChild(QPushButton, "deleteSnapshotButton"), Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: kept.model().rowCount() == 2)
    assert not oldest.path.exists()


def test_a_pinned_tool_whose_description_changes_is_flagged(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = demo_spec("drift", "--state", str(tmp_path / "walks.json"), name="drifting")
    window = harness.window([spec], history=History(tmp_path / "history"))
    wait_for(qtbot, lambda: reported(window))
    qtbot.mouseClick(window.findChild(QPushButton, "approveButton"), Qt.MouseButton.LeftButton)
    presenter = window.presenter
    assert presenter is not None
    wait_for(qtbot, lambda: presenter.report is not None and presenter.report.pins is not None)
    assert presenter.report is not None and presenter.report.pins is not None and presenter.report.pins.clean
    assert "Matches the catalog approved" in window.findChild(QLabel, "pinStatus").text()

    accept_refresh(window, qtbot)
    pins = presenter.report.pins if presenter.report else None
    assert pins is not None and set(pins.changed) == {"echo", "delete_everything"}
    assert pins.added == ("added_in_walk_1",) and pins.removed == ("added_in_walk_0",)
    model = tree(window).model()
    echo = model.index(0, 0)
    assert echo.data(Role.KEY) == "echo" and echo.data(Role.FLAGGED) is True and echo.data().startswith("⚑")
    assert model.index(1, 0).data(Role.FLAGGED) is False, "count_items did not change"
    assert "differs from approved" in sidebar_badge(window)
    # Approving again clears the flags.
    qtbot.mouseClick(window.findChild(QPushButton, "approveButton"), Qt.MouseButton.LeftButton)
    wait_for(
        qtbot,
        lambda: presenter.report is not None and presenter.report.pins is not None and presenter.report.pins.clean,
    )
    wait_for(qtbot, lambda: model.index(0, 0).data(Role.FLAGGED) is False)


def test_a_rejected_duplicate_shows_both_definitions_side_by_side(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = demo_spec("refresh-duplicate", "--state", str(tmp_path / "dup.json"), name="dup")
    window = harness.window([spec])
    wait_for(qtbot, lambda: shown(window))
    supervisor = window.current.supervisor if window.current is not None else None
    with qtbot.waitSignal(supervisor.refresh_failed, timeout=20_000):
        window.refresh()
    table = window.findChild(QTableWidget, "duplicatesView")
    assert table.rowCount() == 1
    assert [table.item(0, c).text() for c in range(3)] == ["echo", "Tools", "0 and 2"]
    first = window.findChild(QPlainTextEdit, "duplicateFirst").toPlainText()
    second = window.findChild(QPlainTextEdit, "duplicateSecond").toPlainText()
    assert first.startswith("// as sent on page 0") and second.startswith("// as sent on page 2")
    assert '"Returns the text it was given, with its length."' in first
    assert "A second tool with the same name" in second
    assert len(window.findChild(QPlainTextEdit, "duplicateFirst").extraSelections()) > 0, "differing lines are marked"
    changes = window.findChild(QPlainTextEdit, "duplicateChanges").toPlainText()
    assert "outputSchema /properties/text/type" in changes
    assert window.tabs.tabText(window.tabs.indexOf(window.duplicates_pane)) == "Duplicates (1)"
    pages = window.findChild(QTableView, "pageTimeline").model()
    assert [pages.index(r, 0).data(Role.RELATED) for r in range(pages.rowCount())] == [True, False, False]
    assert pages.index(2, 0).data(Role.OFFENDING) is True


@pytest.mark.parametrize("era", [("--legacy",), ()], ids=["handshake", "2026-07-28"])
def test_list_changed_before_the_walk_leaves_the_server_ready(harness: Harness, qtbot, era: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("notify-early", *era, name="early")])
    # Ready, with the catalog shown on every page (they follow the report a turn later): a stale mark never clears.
    wait_for(qtbot, lambda: reported(window) and shown(window))
    assert window.current.supervisor.changes_heard >= 1, "the server did announce a change (before the first page)"
    accept_refresh(window, qtbot)
    assert window.current.supervisor.state is ServerState.READY, "still ready after a refresh that heard it again"


def test_a_refresh_after_a_stale_mark_says_whether_anything_changed(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # The server announces a change after its first walk only: the refresh answers it, in a new session.
    state = str(tmp_path / "walks.json")
    window = harness.window([demo_spec("notify", "--notify-walks", "1", "--state", state, name="notify")])
    wait_for(qtbot, lambda: shown(window, ServerState.STALE))
    wait_for(qtbot, lambda: reported(window))
    assert window.banner.state == "stale"
    presenter = window.presenter
    assert presenter is not None and presenter.report is not None and not presenter.report.after_stale
    window.refresh()
    wait_for(qtbot, lambda: presenter.report is not None and presenter.report.after_stale)
    assert presenter.report.diff is not None and presenter.report.diff.empty
    headline = presenter.report.headline()
    assert headline.startswith(
        "Refreshed after the server said its list changed, in a new session: nothing changed since"
    )
    assert headline.endswith(
        "The change may have been to the old session's own items (a session-scoped change), which a new session "
        "cannot show."
    )
    wait_for(qtbot, lambda: window.banner.state == "none" and not window.pages.following)
    assert not window.banner.isVisible(), "the refresh answered the change: no banner stays behind"
    assert window.drift_pane.summary.text() == headline


def test_the_reach_tab_shows_what_first_page_hosts_miss_and_cross_server_collisions(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="one"), demo_spec("single", name="two")])
    wait_for(qtbot, lambda: reported(window) and shown(window))
    summary = window.findChild(QLabel, "firstPageSummary").text()
    assert "sees 1 of 3 tools" in summary
    hidden = window.findChild(QTableView, "firstPageView").model()
    assert [hidden.index(r, 0).data() for r in range(hidden.rowCount())] == ["count_items", "delete_everything"]
    window.select_server("two")
    wait_for(qtbot, lambda: shown(window))
    collisions = window.findChild(QTableWidget, "collisionsView")
    wait_for(qtbot, lambda: collisions.rowCount() == 3)
    assert collisions.item(0, 0).text() == "count_items" and collisions.item(0, 1).text() == "one → two"


def test_the_drift_tab_says_what_each_change_costs_in_tokens(  # type: ignore[no-untyped-def]
    harness: Harness, qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalog_inspector.core.catalog import count_texts, host_text
    from catalog_inspector.runtime import tracker
    from catalog_inspector.ui.models.drift_rows import TOKENS

    counted: list[object] = []
    steps = tracker.count_snapshot_steps
    monkeypatch.setattr(
        tracker, "count_snapshot_steps", lambda snapshot: (counted.append(snapshot), steps(snapshot))[1]
    )
    spec = demo_spec("drift", "--state", str(tmp_path / "walks.json"), name="drifting")
    window = harness.window([spec], history=History(tmp_path / "history"))
    wait_for(qtbot, lambda: reported(window) and window.presenter.report.tokens is not None)
    first = window.current.supervisor.accepted
    accept_refresh(window, qtbot)
    presenter = window.presenter
    wait_for(qtbot, lambda: presenter.report is not None and presenter.report.tokens is not None)
    second = window.current.supervisor.accepted
    assert [id(s) for s in counted] == [id(first), id(second)], "each catalog counted once: the refresh's base is kept"

    def cost(snapshot, name: str) -> int:  # type: ignore[no-untyped-def]
        tool = next(t for t in snapshot.tools.items if t["name"] == name)
        return count_texts([host_text("tools", tool)])[0]

    old_total = sum(count_texts(host_text("tools", t) for t in first.tools.items))
    new_total = sum(count_texts(host_text("tools", t) for t in second.tools.items))
    summary = window.findChild(QLabel, "driftSummary").text()
    assert f"The tools cost {old_total:,} → {new_total:,} tokens (" in summary
    model = window.findChild(QTableView, "driftView").model()
    by_item = {model.index(r, 2).data(): model.index(r, TOKENS).data() for r in range(model.rowCount())}
    assert by_item["added_in_walk_1"] == f"+{cost(second, 'added_in_walk_1'):,}"
    assert by_item["added_in_walk_0"] == f"−{cost(first, 'added_in_walk_0'):,}"
    echo = cost(second, "echo") - cost(first, "echo")
    assert by_item["echo"] == (f"+{echo:,}" if echo > 0 else f"−{-echo:,}" if echo else "")


def test_the_approval_goes_out_and_comes_back_as_the_lockfile_the_cli_checks(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from catalog_inspector.core.drift import read_lockfile
    from tests.cli_runner import run_cli
    from tests.helpers import DEMO

    window = harness.window([demo_spec("normal", name="plain")], history=History(tmp_path / "history"))
    wait_for(qtbot, lambda: reported(window))
    presenter = window.presenter
    export, import_ = (window.findChild(QPushButton, name) for name in ("exportApprovalButton", "importApprovalButton"))
    assert not export.isEnabled() and import_.isEnabled(), "nothing to export before an approval"
    qtbot.mouseClick(window.findChild(QPushButton, "approveButton"), Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: presenter.report is not None and presenter.report.pins is not None)
    assert export.isEnabled()
    lock = tmp_path / "mcp-catalog.lock.json"
    window.drift_pane.export_approval(lock)
    wait_for(qtbot, lambda: lock.exists())
    pins = read_lockfile(lock)
    kinds = {pin.kind for pin in pins.items}
    assert kinds == {"tools", "resources", "resource_templates", "prompts"}, "every list is pinned, not only tools"
    # The CLI holds the same server to the app's approval.
    check = run_cli("check", "--pins", str(lock), "--", *DEMO, "--mode", "normal", timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    # Forgotten, then imported back: approved again, and the catalog matches it.
    qtbot.mouseClick(window.findChild(QPushButton, "forgetApprovalButton"), Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: not window.drift_pane.presenter.approved)
    window.drift_pane.import_approval(lock)
    wait_for(qtbot, lambda: window.drift_pane.presenter.approved and presenter.report.pins is not None)
    assert presenter.report.pins.clean
    # A file that is not a lockfile changes nothing and says why.
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "something else"}')
    window.drift_pane.import_approval(broken)
    wait_for(qtbot, lambda: "is not a catalog lockfile" in window.statusBar().currentMessage())
    assert window.drift_pane.presenter.approved and presenter.report.pins.clean


def test_a_report_reaches_a_hidden_drift_tab_a_frame_later_and_a_drift_tab_brought_up_at_once(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    # The report's banner, tree and repaint are one stall as a refresh ends; the hidden Drift tab is not part of it.
    spec = demo_spec("drift", "--state", str(tmp_path / "walks.json"), name="drifting")
    window = harness.window([spec], history=History(tmp_path / "history"))
    wait_for(qtbot, lambda: reported(window))
    presenter, pane = window.presenter, window.drift_pane
    assert presenter is not None and not pane.isVisible()
    before = drift_rows(window)
    at_report: list[tuple[bool, list[tuple[str, ...]]]] = []
    presenter.drift.report_changed.connect(lambda: at_report.append((pane.rendering_due, drift_rows(window))))
    accept_refresh(window, qtbot)
    assert at_report == [(True, before)], "the hidden tab waited a frame"
    assert presenter.report is not None and presenter.report.diff is not None and not presenter.report.diff.empty
    assert drift_rows(window) != before and pane.summary.text() == presenter.report.headline(with_pins=False)
    # The tab brought up while its report waits: shown with it, at its first paint.
    # (Its tokens come later, counted between events: the headline compared is the report's as it came.)
    at_show: list[tuple[bool, str, str]] = []
    shown: list[str] = []

    def bring_up() -> None:
        window.tabs.setCurrentWidget(pane)
        assert presenter.report is not None
        shown.append(presenter.report.taken_at)
        at_show.append((pane.rendering_due, pane.summary.text(), presenter.report.headline(with_pins=False)))

    presenter.drift.report_changed.connect(bring_up)
    accept_refresh(window, qtbot)
    report = presenter.report
    assert report is not None and shown == [report.taken_at], "the refresh's own report"
    assert [(due, summary == headline) for due, summary, headline in at_show] == [(False, True)], at_show
