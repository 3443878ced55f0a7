"""The real window against real demo servers: select, refresh, reject, retry, cancel, quit."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QLineEdit,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QTreeView,
)

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.presenters import AppPresenter
from tests.helpers import demo_spec, pids_in
from tests.ui.conftest import Harness, shown, wait_for


def tree(window: MainWindow) -> QTreeView:
    return window.findChild(QTreeView, "toolTree")


def timeline(window: MainWindow, name: str = "pageTimeline") -> QTableView:
    return window.findChild(QTableView, name)


def names_in_tree(window: MainWindow) -> list[str]:
    model = tree(window).model()
    return [model.index(row, 0).data(Role.KEY) for row in range(model.rowCount())]


def banner_text(window: MainWindow) -> str:
    return window.findChild(QLabel, "statusBannerText").text()


def ready(window: MainWindow) -> bool:
    return shown(window)


def test_selecting_a_server_fills_the_tree_and_the_timeline(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="clean")])
    wait_for(qtbot, lambda: ready(window))
    assert names_in_tree(window) == ["echo", "count_items", "delete_everything"]
    pages = timeline(window).model()
    assert pages.rowCount() == 3
    assert [pages.index(r, 3).data() for r in range(3)] == ["1", "0", "2"]
    assert pages.index(0, 1).data() == "(first page)" and pages.index(2, 2).data() == "— (end)"
    sidebar = window.findChild(QListView, "serverList").model()
    assert "ready · 3 tools" in sidebar.index(0, 0).data()
    assert "stdio" in sidebar.index(0, 0).data()
    assert not window.findChild(type(window.banner), "statusBanner").isVisible()
    resources = window.findChild(QTableView, "resourceList").model()
    assert resources.rowCount() == 3
    assert timeline(window, "resourcesTimeline").model().rowCount() == 3


def test_a_rejected_refresh_keeps_the_old_tree_and_explains_itself(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = demo_spec("refresh-duplicate", "--state", str(tmp_path / "dup.json"), name="dup")
    window = harness.window([spec])
    wait_for(qtbot, lambda: ready(window))
    before = names_in_tree(window)
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    with qtbot.waitSignal(supervisor.refresh_failed, timeout=20_000):
        qtbot.mouseClick(window.findChild(QPushButton, "refreshButton"), Qt.MouseButton.LeftButton)
    assert names_in_tree(window) == before, "the last good catalog stays"
    assert window.banner.isVisible()
    text = banner_text(window)
    assert "Rejected: Duplicate name on page 2 of tools" in text
    assert "'echo'" in text and "last good catalog" in text
    assert "Last good catalog: 3 tools" in window.findChild(QLabel, "catalogLabel").text()
    source = window.findChild(QComboBox, "pageTimelineSource")
    labels = [source.itemText(i) for i in range(source.count())]
    assert labels[0].startswith("Failed attempt at") and "Duplicate name" in labels[0]
    assert labels[1].startswith("Accepted catalog")
    pages = timeline(window).model()
    last = pages.rowCount() - 1
    assert pages.index(last, 6).data() == "duplicate name" and pages.index(last, 0).data(Role.OFFENDING) is True
    source.setCurrentIndex(1)
    assert all(pages.index(r, 6).data() == "ok" for r in range(pages.rowCount()))
    sidebar = window.findChild(QListView, "serverList").model()
    assert "failed (last good: 3 tools)" in sidebar.index(0, 0).data()


def test_retry_after_the_server_recovers_shows_the_new_catalog(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("flaky", "--state", str(tmp_path / "flaky.json"), name="flaky")])
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    wait_for(qtbot, lambda: supervisor.state is ServerState.FAILED)
    assert "The server answered with an error on page 1 of tools — JSON-RPC -32603 (internal error)" in banner_text(
        window
    )
    assert "No catalog has been accepted" in banner_text(window)
    assert names_in_tree(window) == []
    retry = window.findChild(QPushButton, "retryButton")
    assert retry.isVisible() and retry.text() == "Retry"
    qtbot.mouseClick(retry, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: shown(window))  # accepted, and published with its first drift report
    assert names_in_tree(window) == ["echo", "count_items", "delete_everything"]
    assert not window.banner.isVisible()


def test_server_text_is_shown_literally_never_as_html(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("hostile", name="hostile")])
    wait_for(qtbot, lambda: ready(window))
    model = tree(window).model()
    first = model.index(0, 0)
    assert first.data() == "⚠ echo\\u200b"
    description = model.index(0, 4).data()
    assert description.startswith("<b>Bold claims</b> <img src='file:///dev/zero'>")
    assert "&lt;b&gt;Bold claims&lt;/b&gt;" in model.index(0, 4).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(1, 0).data() == "⚠ safe\\u202etxt.exe"
    assert model.index(1, 1).data() == "<h1>Title</h1>"
    tree(window).setCurrentIndex(first)
    detail = window.findChild(QPlainTextEdit, "toolDetail").toPlainText()
    assert "<a href='file:///etc/passwd'>click me</a>" in detail
    for label in window.findChildren(QLabel):
        assert label.textFormat() == Qt.TextFormat.PlainText, label.objectName()


def test_the_filter_matches_names_and_descriptions(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="clean")])
    wait_for(qtbot, lambda: ready(window))
    box = window.findChild(QLineEdit, "toolFilter")
    qtbot.keyClicks(box, "DESTRUCTIVE")
    assert names_in_tree(window) == ["delete_everything"]
    box.clear()
    qtbot.keyClicks(box, "count")
    assert names_in_tree(window) == ["count_items"]
    box.clear()
    assert len(names_in_tree(window)) == 3


def test_cancel_stops_a_walk_and_its_process(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("slow", "--delay", "2", name="slow")])
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    wait_for(qtbot, lambda: supervisor.state is ServerState.WALKING and len(harness.pids) == 1)
    cancel = window.findChild(QPushButton, "cancelButton")
    assert cancel.isEnabled()
    qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
    assert supervisor.state is ServerState.NOT_CONNECTED and not supervisor.busy
    source = window.findChild(QComboBox, "pageTimelineSource")
    assert not any(source.itemText(i).startswith("Live walk") for i in range(source.count()))
    assert window.findChild(QPushButton, "refreshButton").isEnabled()
    harness.assert_gone(list(harness.pids))


def test_list_changed_marks_the_catalog_stale(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("notify", name="notify")])
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    wait_for(qtbot, lambda: shown(window, ServerState.STALE))
    assert "changed since this catalog was taken" in banner_text(window)
    assert window.findChild(QPushButton, "retryButton").text() == "Refresh"
    assert len(names_in_tree(window)) == 3


def test_one_failing_server_does_not_affect_another(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("crash", name="crashy"), demo_spec("normal", name="clean")])
    crashy, clean = window.app.runtime.supervisors
    wait_for(qtbot, lambda: crashy.state is ServerState.FAILED)
    assert "Connection failed on page 1 of tools" in banner_text(window)
    assert "The server's last stderr lines:" in banner_text(window) and "[demo] crashing on purpose" in banner_text(
        window
    )
    assert window.select_server("clean")
    wait_for(qtbot, lambda: shown(window))
    assert names_in_tree(window) == ["echo", "count_items", "delete_everything"]
    assert not window.banner.isVisible()
    assert crashy.state is ServerState.FAILED
    sidebar = window.findChild(QListView, "serverList").model()
    assert "failed" in sidebar.index(0, 0).data() and "ready" in sidebar.index(1, 0).data()


def test_geometry_and_last_server_are_remembered(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    settings = QSettings(str(tmp_path / "remember.ini"), QSettings.Format.IniFormat)
    specs = [demo_spec("normal", name="first"), demo_spec("single", name="second")]
    window = harness.window(specs, settings)
    window.select_server("second")
    window.resize(640, 480)  # the offscreen screen is 800x600; restore clamps to it
    wait_for(qtbot, lambda: ready(window))
    saved = window.size()
    assert saved.height() == 480
    harness.close(window)
    again = harness.window(specs, QSettings(str(tmp_path / "remember.ini"), QSettings.Format.IniFormat))
    assert again.current is not None and again.current.supervisor.spec.name == "second"
    assert again.height() == saved.height()
    # The window's minimum (830 px, the Call page's) is wider than the offscreen screen (800 px): restoring
    # fits it to the screen, as it does for any saved size too wide for the screen it opens on.
    screen = again.screen().availableGeometry().width()
    assert again.width() == saved.width() or abs(again.frameGeometry().width() - screen) <= 2


def test_quitting_leaves_no_server_process_even_when_one_hangs(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pidfile = tmp_path / "pids"
    hung = demo_spec("hang", "--spawn-child", "--stubborn", "--pidfile", str(pidfile), name="hang")
    window = harness.window([hung, demo_spec("normal", name="clean")])
    wait_for(qtbot, lambda: window.current is not None and window.current.supervisor.state is ServerState.WALKING)
    window.select_server("clean")
    wait_for(qtbot, lambda: ready(window))
    assert len(harness.pids) == 2
    harness.close(window)
    assert len(pids_in(pidfile)) == 2  # the hung server and the child it started
    harness.assert_gone(list(harness.pids) + pids_in(pidfile))


def test_a_spawn_failure_is_shown_not_raised(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window(
        [ServerSpec(name="missing", command="/nonexistent/mcp-server")], limits=Limits(request_timeout=2)
    )
    wait_for(qtbot, lambda: window.current is not None and window.current.supervisor.state is ServerState.FAILED)
    assert "Connection failed" in banner_text(window) and "/nonexistent/mcp-server" in banner_text(window)


def test_a_stderr_flood_is_kept_bounded(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    from catalog_inspector.ui.main_window import LOG_LINES

    window = harness.window([demo_spec("normal", "--stderr-flood", "30000", name="noisy")])
    wait_for(qtbot, lambda: ready(window))
    log = window.findChild(QPlainTextEdit, "serverLog")
    wait_for(qtbot, lambda: "tools walk 0 page 2" in log.toPlainText())
    assert log.blockCount() <= LOG_LINES
    assert window.current is not None and window.current.supervisor.log.dropped > 0


def test_export_writes_the_accepted_snapshot_off_the_gui_thread(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import json
    import threading

    from catalog_inspector.runtime import runtime as runtime_module

    window = harness.window([demo_spec("normal", name="clean")])
    wait_for(qtbot, lambda: ready(window))
    writers: list[str] = []
    real = runtime_module.write_text_safely

    def spy(path, write):  # type: ignore[no-untyped-def]
        writers.append(threading.current_thread().name)
        real(path, write)

    runtime_module.write_text_safely = spy  # type: ignore[assignment]
    try:
        out = tmp_path / "exported.json"
        with qtbot.waitSignal(window.app.runtime.exported, timeout=10_000) as done:
            assert window.export_snapshot(out)
        assert done.args == [out, None]
        document = json.loads(out.read_text())
        assert document["format"] == "mcp-catalog-snapshot/1" and len(document["tools"]) == 3
        assert writers and all(name != threading.main_thread().name for name in writers)
        blocked = tmp_path / "a-file"
        blocked.write_text("x")
        with qtbot.waitSignal(window.app.runtime.exported, timeout=10_000) as failed:
            assert window.export_snapshot(blocked / "x.json")
        assert isinstance(failed.args[1], OSError)
        assert "Could not write" in window.statusBar().currentMessage()
    finally:
        runtime_module.write_text_safely = real  # type: ignore[assignment]


def test_a_session_that_dies_after_its_walk_is_its_own_state_not_a_failed_attempt(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    import os
    import signal

    window = harness.window([demo_spec("normal", name="clean")])
    wait_for(qtbot, lambda: ready(window))
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None and supervisor.connection is not None
    with qtbot.waitSignal(supervisor.session_lost, timeout=20_000):
        os.kill(harness.pids[0], signal.SIGKILL)
    assert supervisor.state is ServerState.LOST and supervisor.connection is None
    assert names_in_tree(window) == ["echo", "count_items", "delete_everything"], "the last good catalog stays"
    text = banner_text(window)
    assert text.startswith("Connection lost:") and "exit code -9" in text and "stays on screen" in text
    for name in ("pageTimelineSource", "resourcesTimelineSource", "promptsTimelineSource"):
        source = window.findChild(QComboBox, name)
        labels = [source.itemText(i) for i in range(source.count())]
        assert len(labels) == 1 and labels[0].startswith("Accepted catalog"), labels
    assert (
        "connection lost (last good: 3 tools)" in window.findChild(QListView, "serverList").model().index(0, 0).data()
    )
    retry = window.findChild(QPushButton, "retryButton")
    assert retry.text() == "Reconnect"
    with qtbot.waitSignal(supervisor.catalog_accepted, timeout=20_000):
        qtbot.mouseClick(retry, Qt.MouseButton.LeftButton)
    assert supervisor.state is ServerState.READY and supervisor.lost is None
    assert not window.banner.isVisible()


def test_the_live_timeline_keeps_pages_that_arrive_while_another_walk_is_shown(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("slow", "--delay", "1.0", name="slow")])
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    wait_for(qtbot, lambda: supervisor.state is ServerState.READY)
    source = window.findChild(QComboBox, "pageTimelineSource")
    with qtbot.waitSignal(supervisor.page_arrived, timeout=20_000):
        supervisor.refresh()
    source.setCurrentIndex(1)
    assert source.currentText().startswith("Accepted catalog")
    with qtbot.waitSignal(supervisor.page_arrived, timeout=20_000):
        pass  # page 1 of the live walk arrives while the accepted walk is shown
    source.setCurrentIndex(0)
    assert source.currentText().startswith("Live walk") and supervisor.busy
    live = supervisor.attempt.pages_of("tools") if supervisor.attempt else []
    assert len(live) >= 2
    model = timeline(window).model()
    assert [model.index(r, 0).data() for r in range(model.rowCount())] == [str(p.index) for p in live]


def test_ctrl_q_closes_every_session(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="clean")])
    wait_for(qtbot, lambda: ready(window))
    quit_action = next(a for a in window.actions() if a.shortcut().toString() == "Ctrl+Q")
    harness.windows.remove(window)
    with qtbot.waitSignal(window.closed, timeout=20_000):
        quit_action.trigger()
    harness.assert_gone(list(harness.pids))


def test_copy_takes_the_full_cursor_and_tables_never_wrap(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QGuiApplication

    window = harness.window([demo_spec("normal", name="clean")])
    wait_for(qtbot, lambda: ready(window))
    view = timeline(window)
    view.setCurrentIndex(view.model().index(0, 2))
    window.tools_pane.timeline.copy_current()
    assert window.current is not None
    assert QGuiApplication.clipboard().text() == window.current.supervisor.accepted.tools.pages[0].next_cursor  # type: ignore[union-attr]
    # Word wrap would break a cursor at a hyphen and hide the rest of the cell.
    assert all(not table.wordWrap() for table in window.findChildren(QTableView))


def test_a_deleted_window_receives_nothing_from_the_runtime(qtbot, qloop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QObject

    from catalog_inspector.core.catalog import PageRecord
    from catalog_inspector.core.errors import ErrorInfo, ErrorKind
    from catalog_inspector.runtime import Runtime

    runtime = Runtime([demo_spec("normal", name="a"), demo_spec("single", name="b")], Limits())
    window = MainWindow(AppPresenter(runtime), QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window.pages.build_all()  # as the app does after the first frame
    gone: list[bool] = []
    window.destroyed.connect(lambda *_: gone.append(True))
    window.deleteLater()
    qtbot.waitUntil(lambda: bool(gone), timeout=5_000)
    with qtbot.captureExceptions() as raised:
        for supervisor in runtime.supervisors:  # a runtime outliving its window keeps reporting
            supervisor.state_changed.emit()
            supervisor.walk_started.emit()
            supervisor.page_arrived.emit("tools", PageRecord(0, None, None, 0, (), 0, 0.0))
            supervisor.session_lost.emit(ErrorInfo(ErrorKind.CONNECTION, "gone"))
            supervisor.log_appended.emit(["a line"])
        runtime.exported.emit(tmp_path / "x.json", None)
    assert isinstance(runtime, QObject)
    # A slot of a deleted model or window raises "Internal C++ object already deleted".
    assert raised == [], [str(exc) for _, exc, _ in raised]
    with qtbot.waitSignal(runtime.shutdown_finished, timeout=20_000):
        runtime.shutdown()  # the sessions the window started go with this test, not a later one


def test_a_disabled_server_is_listed_but_starts_only_when_asked(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 10: `"disabled": true` entries are shown, not started; Refresh starts one on purpose."""
    pidfile = tmp_path / "off.pids"
    off = ServerSpec(**{**vars(demo_spec("normal", "--pidfile", str(pidfile), name="off")), "disabled": True})
    window = harness.window([off, demo_spec("normal", name="on")])
    disabled, enabled = window.app.runtime.supervisors
    assert window.select_server("on")
    wait_for(qtbot, lambda: enabled.state is ServerState.READY)  # the disabled one was selected first, meanwhile
    assert window.select_server("off")
    assert disabled.state is ServerState.NOT_CONNECTED and not disabled.busy and not pidfile.exists()
    sidebar = window.findChild(QListView, "serverList").model()
    assert "disabled in the config" in sidebar.index(0, 0).data()
    window.refresh()
    wait_for(qtbot, lambda: disabled.state is ServerState.READY)
    assert pids_in(pidfile)


def test_a_live_walk_is_judged_by_its_era_once_connected_and_accepted_without_a_new_timeline(
    harness: Harness, qtbot
) -> None:  # type: ignore[no-untyped-def]
    # A 2026-07-28 walk's pages are judged by that revision's cache-hint rules as they come, so the accepted catalog,
    # the same pages, is the timeline already shown (no reset: a full repaint at the end of every walk).
    window = harness.window([demo_spec("slow", "--delay", "0.3", name="slow")])
    supervisor = window.current.supervisor if window.current is not None else None
    presenter = window.current
    assert supervisor is not None and presenter is not None
    with qtbot.waitSignal(supervisor.page_arrived, timeout=20_000):
        pass
    live = presenter.walks("tools")[0]
    assert live.live and live.hints_required, "the era is known once the session is connected"
    resets: list[bool] = []
    timeline(window).model().modelReset.connect(lambda: resets.append(True))
    wait_for(qtbot, lambda: supervisor.state is ServerState.READY)
    assert presenter.walks("tools")[0].kind == "accepted" and resets == []
