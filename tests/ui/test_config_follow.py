"""The window follows the config file: servers added, changed and removed without a restart."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QDialogButtonBox, QLabel, QListView, QWidget

from catalog_inspector.core.config import ConfigStore, load_config
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.app import follow_config
from tests.helpers import DEMO, pids_in
from tests.ui.conftest import Harness, wait_for


def entry(mode: str, pidfile: Path) -> dict[str, object]:
    return {"command": DEMO[0], "args": [*DEMO[1:], "--mode", mode, "--pidfile", str(pidfile)]}


def rows(window) -> list[str]:  # type: ignore[no-untyped-def]
    model = window.findChild(QListView, "serverList").model()
    return [model.index(row, 0).data().split("\n")[0] for row in range(model.rowCount())]


def test_edits_to_the_file_reach_the_sidebar_and_the_sessions(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "servers.json"
    store = ConfigStore(path)
    store.write(
        {"mcpServers": {"keep": entry("normal", tmp_path / "keep"), "drop": entry("normal", tmp_path / "drop")}}
    )
    window = harness.window(load_config(path).specs)
    watcher = follow_config(path, window.app, window)
    keep, drop = window.app.runtime.supervisors
    for name, supervisor in (("keep", keep), ("drop", drop)):
        assert window.select_server(name)
        wait_for(qtbot, lambda s=supervisor: s.state is ServerState.READY)
    dropped = pids_in(tmp_path / "drop")

    with qtbot.waitSignal(watcher.changed, timeout=10_000):
        store.remove("drop")
        store.put("new", entry("single", tmp_path / "new"))
    wait_for(qtbot, lambda: rows(window) == ["keep", "new"])
    assert window.app.runtime.supervisors[0] is keep and keep.state is ServerState.READY, (
        "an unchanged entry keeps its session"
    )
    harness.assert_gone(dropped)  # the event loop runs meanwhile: the removed server's session closes
    assert window.current is not None and window.current.supervisor.spec.name == "keep", (
        "the selection moved off the removed server"
    )

    with qtbot.waitSignal(watcher.changed, timeout=10_000):
        store.put("keep", entry("empty", tmp_path / "keep2"))  # changed: a new session for the new command
    wait_for(qtbot, lambda: window.app.runtime.supervisors[0] is not keep)
    wait_for(qtbot, lambda: window.app.runtime.supervisors[0].state is ServerState.READY)
    assert window.current is not None and window.current.supervisor is window.app.runtime.supervisors[0]

    with qtbot.waitSignal(watcher.changed, timeout=10_000):
        path.write_text('{"mcpServers": {"half')  # a broken save
    notice = window.findChild(QLabel, "configNotice")
    wait_for(qtbot, lambda: "not reloaded" in notice.text())
    assert rows(window) == ["keep", "new"], "a broken file leaves the servers shown"

    with qtbot.waitSignal(watcher.changed, timeout=10_000):
        path.write_text(
            json.dumps(
                {
                    "mcpServers": {
                        "new": entry("single", tmp_path / "new"),
                        "ws": {"type": "websocket", "url": "wss://x"},
                    }
                }
            )
        )
    wait_for(qtbot, lambda: rows(window) == ["new", "ws"])  # the bad entry has a row of its own
    assert "type 'websocket' is not supported" in notice.text()


def test_a_bad_entry_has_its_own_row_with_its_reason_and_a_way_to_fix_it(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QPushButton

    path = tmp_path / "servers.json"
    ConfigStore(path).write(
        {"mcpServers": {"good": entry("normal", tmp_path / "g"), "ws": {"type": "websocket", "url": "wss://x"}}}
    )
    window = harness.window(load_config(path).specs)
    follow_config(path, window.app, window)
    wait_for(qtbot, lambda: rows(window) == ["good", "ws"])
    assert window.select_server("ws")
    assert window.banner.state == "entry" and "type 'websocket' is not supported" in window.banner.label.text()
    assert window.title.text() == "ws" and not window.refresh_button.isEnabled()
    window.findChild(QPushButton, "retryButton").click()  # "Edit…"
    dialog = window.findChild(QWidget, "serverDialog")
    assert dialog is not None and dialog.name.text() == "ws"
    dialog.transport.setCurrentIndex(dialog.transport.findData("http"))
    dialog.url.setText("https://x.test/mcp")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    wait_for(qtbot, lambda: rows(window) == ["good", "ws"] and window.app.runtime.supervisor("ws") is not None)
    assert window.app.runtime.problems == []


def test_a_config_file_whose_folder_does_not_exist_yet_is_picked_up_when_it_appears(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # A first run: not even the app's config folder exists. Another program (or a person) makes it, then the file.
    from catalog_inspector.ui.config_watch import ConfigWatcher

    path = tmp_path / "config" / "mcp-catalog-inspector" / "servers.json"
    watcher = ConfigWatcher(path)
    path.parent.parent.mkdir()
    wait_for(qtbot, lambda: str(path.parent.parent) in watcher.folders)
    path.parent.mkdir()
    wait_for(qtbot, lambda: str(path.parent) in watcher.folders)
    with qtbot.waitSignal(watcher.changed, timeout=10_000):
        ConfigStore(path).write({"mcpServers": {"a": {"command": "true"}}})
    assert watcher.folders == [str(path.parent)], "only the config folder is watched once it exists"
    with qtbot.waitSignal(watcher.changed, timeout=10_000):
        ConfigStore(path).put("b", {"command": "true"})  # and edits to the file after that


def test_a_broken_file_with_nothing_loaded_yet_is_not_said_to_keep_servers(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "servers.json"
    path.write_text('{"mcpServers": {"half')
    window = harness.window([])
    follow_config(path, window.app, window)
    notice = window.findChild(QLabel, "configNotice")
    wait_for(qtbot, lambda: notice.text().startswith("Configuration not loaded: "))
    assert "servers shown stay" not in notice.text()


def test_the_demo_servers_hidden_by_a_first_server_are_said_gone_and_can_come_back(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QAction

    from tests.helpers import demo_spec

    demo = [demo_spec("normal", name="demo: clean catalog"), demo_spec("drift", name="demo: drifting catalog")]
    window = harness.window(list(demo))  # no configuration yet: the demo set is what is shown
    window.app.demo = list(demo)
    path = tmp_path / "config" / "servers.json"  # its folder does not exist yet
    watcher = follow_config(path, window.app, window)
    assert rows(window) == ["demo: clean catalog", "demo: drifting catalog"]
    with qtbot.waitSignal(watcher.changed, timeout=10_000):
        ConfigStore(path).put("mine", entry("single", tmp_path / "mine"))  # the first server, as Add server does
    wait_for(qtbot, lambda: rows(window) == ["mine"])
    notice = window.findChild(QLabel, "configNotice")
    assert "The bundled demo servers are hidden" in notice.text() and "Servers › Show the bundled demo" in notice.text()
    action = window.findChild(QAction, "serverAction:demo")
    assert action is not None and action.isEnabled()
    action.trigger()  # checks it: the demo set comes back beside the file's, which is left alone
    wait_for(qtbot, lambda: rows(window) == ["mine", "demo: clean catalog", "demo: drifting catalog"])
    assert list(json.loads(path.read_text())["mcpServers"]) == ["mine"]
    action.trigger()
    wait_for(qtbot, lambda: rows(window) == ["mine"])
