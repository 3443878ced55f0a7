"""The tool filter per server with its count, Export's name and choice, and actions enabled only when they can act."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QLineEdit, QMessageBox, QPushButton

from catalog_inspector.core.catalog import Snapshot, export_file_name
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for


def ready(window) -> bool:  # type: ignore[no-untyped-def]
    return shown(window)


def actions(window) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    enabled = {key: window.file_actions[key].isEnabled() for key in ("refresh", "cancel", "export")}
    enabled["refreshButton"] = window.findChild(QPushButton, "refreshButton").isEnabled()
    enabled["cancelButton"] = window.findChild(QPushButton, "cancelButton").isEnabled()
    return enabled


def test_each_server_keeps_its_own_filter_and_the_view_says_how_many_match(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("many", "--tools", "2000", name="many"), demo_spec("normal", name="clean")])
    wait_for(qtbot, lambda: ready(window) and window.tools_pane.model.catalog_count() == 2000)
    wait_for(qtbot, lambda: not window.tools_pane.planning)
    field = window.findChild(QLineEdit, "toolFilter")
    count = window.findChild(QLabel, "toolFilterCount")
    empty = window.findChild(QLabel, "toolFilterEmpty")
    assert not count.isVisible() and not empty.isVisible()

    qtbot.keyClicks(field, "tool_00012")
    matching = window.tools_pane.model.matching_count()
    assert 0 < matching < 2000
    assert count.isVisible() and count.text() == f"{matching:,} of 2,000 match"
    assert not empty.isVisible()

    qtbot.keyClicks(field, "zzz")
    assert window.tools_pane.model.rowCount() == 0
    assert count.text() == "0 of 2,000 match"
    assert empty.isVisible() and "tool_00012zzz" in empty.text()
    assert empty.geometry().intersects(window.tools_pane.tree.viewport().rect())

    # Another server: its own (empty) filter, all its tools, no hint.
    assert window.select_server("clean")
    wait_for(qtbot, lambda: ready(window) and window.current.supervisor.spec.name == "clean")
    wait_for(qtbot, lambda: window.tools_pane.model.catalog_count() == 3 and not window.tools_pane.planning)
    assert field.text() == ""
    assert window.tools_pane.model.rowCount() == 3
    assert not count.isVisible() and not empty.isVisible()
    qtbot.keyClicks(field, "echo")
    assert count.text() == "1 of 3 match"

    # Back: the first server's text comes back with it.
    assert window.select_server("many")
    assert field.text() == "tool_00012zzz"
    wait_for(qtbot, lambda: window.tools_pane.model.catalog_count() == 2000 and not window.tools_pane.planning)
    assert window.tools_pane.model.rowCount() == 0 and empty.isVisible()
    field.clear()
    assert window.tools_pane.model.rowCount() > 0 and not empty.isVisible() and not count.isVisible()


def test_with_no_servers_nothing_that_acts_on_a_server_is_enabled(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([])
    assert actions(window) == dict.fromkeys(("refresh", "cancel", "export", "refreshButton", "cancelButton"), False)
    assert window.file_actions["quit"].isEnabled()
    # F5 and Esc do nothing either: a disabled action's shortcut does not fire.
    window.file_actions["refresh"].trigger()
    assert window.current is None


def test_actions_follow_what_the_selected_server_can_do(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("slow", "--delay", "0.3", name="slow")])
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    wait_for(qtbot, lambda: supervisor.busy)
    assert actions(window) == {
        "refresh": False,
        "cancel": True,
        "export": False,
        "refreshButton": False,
        "cancelButton": True,
    }
    wait_for(qtbot, lambda: ready(window))
    assert actions(window) == {
        "refresh": True,
        "cancel": False,
        "export": True,
        "refreshButton": True,
        "cancelButton": False,
    }


def test_export_suggests_the_server_and_date_and_the_file_says_it_is_the_accepted_catalog(
    harness: Harness, qtbot, tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("export/folder", str(tmp_path))
    window = harness.window([demo_spec("normal", name="demo: clean/catalog")], settings=settings)
    wait_for(qtbot, lambda: ready(window))
    suggested: list[str] = []

    def save_dialog(parent, caption, start, filters):  # type: ignore[no-untyped-def]
        suggested.append(start)
        return str(tmp_path / "chosen.json"), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_dialog))
    with qtbot.waitSignal(window.app.runtime.exported, timeout=10_000):
        window.file_actions["export"].trigger()
    accepted = window.current.supervisor.accepted
    assert accepted is not None
    assert suggested == [str(tmp_path / f"demo-clean-catalog-{accepted.taken_at[:10]}.json")]
    document = json.loads((tmp_path / "chosen.json").read_text())
    assert document["status"] == "complete"
    assert document["export"]["of"] == "accepted" and "latest_attempt" not in document["export"]
    assert Snapshot.from_json(document).tools.items == accepted.tools.items  # still a snapshot document


def test_exporting_after_a_rejected_refresh_asks_which_and_the_file_says_so(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("refresh-duplicate", "--state", str(tmp_path / "dup.json"), name="dup")])
    wait_for(qtbot, lambda: ready(window))
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    with qtbot.waitSignal(supervisor.refresh_failed, timeout=20_000):
        window.refresh()

    out = tmp_path / "accepted.json"
    assert window.export_snapshot(out)
    box = window.findChild(QMessageBox, "exportChoice")
    assert box is not None and box.isVisible()
    assert "not accepted" in box.text() and "'echo' appears again on page 2" in box.text()
    with qtbot.waitSignal(window.app.runtime.exported, timeout=10_000):
        qtbot.mouseClick(box.findChild(QPushButton, "exportAccepted"), Qt.MouseButton.LeftButton)
    document = json.loads(out.read_text())
    assert document["status"] == "complete" and len(document["tools"]) == 3
    assert document["export"]["of"] == "accepted"
    latest = document["export"]["latest_attempt"]
    assert latest["status"] == "rejected" and latest["error"]["kind"] == "duplicate_name"

    out = tmp_path / "attempt.json"
    assert window.export_snapshot(out)
    box = _open_choice(window)
    with qtbot.waitSignal(window.app.runtime.exported, timeout=10_000):
        qtbot.mouseClick(box.findChild(QPushButton, "exportAttempt"), Qt.MouseButton.LeftButton)
    document = json.loads(out.read_text())
    assert document["status"] == "rejected" and document["export"] == {
        "of": "attempt",
        "exported_at": document["export"]["exported_at"],
    }
    assert document["error"]["kind"] == "duplicate_name"

    # Cancel writes nothing.
    out = tmp_path / "none.json"
    assert window.export_snapshot(out)
    box = _open_choice(window)
    box.button(QMessageBox.StandardButton.Cancel).click()
    QApplication.processEvents()
    assert not out.exists()


def _open_choice(window) -> QMessageBox:  # type: ignore[no-untyped-def]
    boxes = [box for box in window.findChildren(QMessageBox, "exportChoice") if box.isVisible()]
    assert len(boxes) == 1
    return boxes[0]


def test_export_names_are_safe_file_names() -> None:
    snapshot = Snapshot("complete", None, {}, {}, None, {}, taken_at="2026-12-01T05:00:00.000+00:00")
    assert export_file_name("demo: clean catalog", snapshot, "accepted") == "demo-clean-catalog-2026-12-01.json"
    assert export_file_name("a/../b\u202e", snapshot, "attempt") == "a-..-b-2026-12-01-failed.json"
    assert export_file_name("...", snapshot, "accepted") == "server-2026-12-01.json"
    undated = Snapshot("complete", None, {}, {}, None, {})
    assert export_file_name("x", undated, "accepted").startswith("x-20")
