"""Managing servers in the app: the dialog checks each field, and the menu edits the config file."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QComboBox, QDialogButtonBox, QLabel, QListView, QMessageBox, QTableWidget

from catalog_inspector.core.config import ConfigStore, load_config, parse_entry
from catalog_inspector.ui.app import follow_config
from catalog_inspector.ui.dialogs.server import ServerDialog
from tests.helpers import DEMO
from tests.ui.conftest import Harness, shown, wait_for


def save_enabled(dialog: ServerDialog) -> bool:
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Save).isEnabled()


def error_on(dialog: ServerDialog, field: str) -> str:
    label = dialog.findChild(QLabel, f"serverError:{field}")
    return label.text() if label.isVisibleTo(dialog) else ""


def test_each_invalid_field_says_what_is_wrong_and_nothing_invalid_can_be_saved(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = ServerDialog(None, taken=frozenset({"taken"}))
    qtbot.addWidget(dialog)
    assert not save_enabled(dialog) and "needs a name" in error_on(dialog, "name")
    command_at = dialog.command.mapTo(dialog, dialog.command.rect().topLeft())
    dialog.name.setText("x")  # the name's line goes: the fields below stay where they were, under the mouse
    assert (
        error_on(dialog, "name") == "" and dialog.command.mapTo(dialog, dialog.command.rect().topLeft()) == command_at
    )
    dialog.name.setText("taken")
    assert "exists already" in error_on(dialog, "name")
    dialog.name.setText("files")
    assert error_on(dialog, "command") == "Command cannot be empty" and not save_enabled(dialog)
    dialog.command.setText("npx")
    dialog.args.setPlainText("-y\n@modelcontextprotocol/server-filesystem\n${HOME}/data")
    assert save_enabled(dialog) and dialog.summary.text().startswith("Runs: npx -y")
    dialog.transport.setCurrentIndex(dialog.transport.findData("http"))
    assert not dialog.command.isVisibleTo(dialog) and dialog.url.isVisibleTo(dialog)
    dialog.url.setText("ftp://x.test")
    assert error_on(dialog, "url").startswith("URL must be an http") and not save_enabled(dialog)
    dialog.url.setText("https://x.test/mcp?api_key=${API_KEY}")
    dialog.headers.item(0, 0).setText("Authorization")  # typed into the empty last row, as a user does
    dialog.headers.item(0, 1).setText("Bearer a\r\nInjected: 1")
    assert "line break" in error_on(dialog, "headers") and not save_enabled(dialog)
    assert dialog.headers.rowCount() == 2, "a new empty row follows the one filled in"
    assert "Bearer" not in dialog.headers.item(0, 1).text() or dialog.reveal.isChecked()
    dialog.headers.item(0, 1).setText("Bearer abc")
    assert save_enabled(dialog)
    assert dialog.result_entry() == {"type": "http", "url": "https://x.test/mcp?api_key=${API_KEY}",
                                     "headers": {"Authorization": "Bearer abc"}}  # fmt: skip


def test_values_are_masked_until_shown_and_unknown_keys_survive(qtbot) -> None:  # type: ignore[no-untyped-def]
    entry = {"command": "srv", "env": {"TOKEN": "s3cret"}, "autoApprove": ["read"], "x-team": {"owner": "ana"}}
    dialog = ServerDialog(None, "srv", entry)
    qtbot.addWidget(dialog)
    assert dialog.env.item(0, 0).text() == "TOKEN" and "s3cret" not in dialog.env.item(0, 1).text()
    dialog.reveal.setChecked(True)
    assert dialog.env.item(0, 1).text() == "s3cret"
    dialog.budgets["maxPages"].setText("2.5")
    assert "Budgets maxPages: must be a whole number" in error_on(dialog, "budgets") and not save_enabled(dialog)
    dialog.budgets["maxPages"].setText("50")
    dialog.budgets["requestTimeout"].setText("2.5")
    dialog.disabled.setChecked(True)
    budgets = {"maxPages": 50, "requestTimeout": 2.5}
    assert save_enabled(dialog) and dialog.result_entry() == {**entry, "budgets": budgets, "disabled": True}


def names(window) -> list[str]:  # type: ignore[no-untyped-def]
    model = window.findChild(QListView, "serverList").model()
    return [model.index(row, 0).data().split("\n")[0] for row in range(model.rowCount())]


def test_the_servers_menu_adds_edits_duplicates_disables_and_removes(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "servers.json"
    normal = {"command": DEMO[0], "args": [*DEMO[1:], "--mode", "normal"], "x-kept": 1}
    ConfigStore(path).write({"mcpServers": {"first": normal}, "otherClientSetting": True})
    window = harness.window(load_config(path).specs)
    follow_config(path, window.app, window)

    dialog = window.add_server()
    assert dialog is not None
    dialog.name.setText("second")
    dialog.command.setText(DEMO[0])
    dialog.args.setPlainText("\n".join([*DEMO[1:], "--mode", "single"]))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    wait_for(qtbot, lambda: names(window) == ["first", "second"])
    wait_for(qtbot, lambda: shown(window))
    assert window.current.supervisor.spec.name == "second"

    window.select_server("first")
    dialog = window.edit_server()
    assert dialog is not None and dialog.name.text() == "first"
    dialog.name.setText("renamed")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    wait_for(qtbot, lambda: names(window) == ["renamed", "second"])
    document = json.loads(path.read_text())
    assert document["otherClientSetting"] is True and document["mcpServers"]["renamed"]["x-kept"] == 1

    window.duplicate_server()
    wait_for(qtbot, lambda: names(window) == ["renamed", "second", "renamed (copy)"])
    window.toggle_server_disabled()  # written off the GUI thread
    wait_for(qtbot, lambda: json.loads(path.read_text())["mcpServers"]["renamed (copy)"].get("disabled") is True)
    wait_for(qtbot, lambda: window.current is not None and window.current.supervisor.spec.disabled)

    question = window.remove_server()
    assert isinstance(question, QMessageBox) and "renamed (copy)" in question.text()
    question.button(QMessageBox.StandardButton.Yes).click()
    wait_for(qtbot, lambda: names(window) == ["renamed", "second"])
    assert list(json.loads(path.read_text())["mcpServers"]) == ["renamed", "second"]
    assert json.loads((tmp_path / "servers.json.bak").read_text())["mcpServers"]["renamed (copy)"]


def test_another_clients_file_is_read_but_never_edited(harness: Harness, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    path = tmp_path / ".mcp.json"  # Claude Code's file for this folder
    path.write_text(
        json.dumps({"mcpServers": {"theirs": {"command": DEMO[0], "args": [*DEMO[1:], "--mode", "normal"]}}})
    )
    window = harness.window(load_config(path).specs)
    follow_config(path, window.app, window)
    assert window.add_server() is None and not window.server_actions["add"].isEnabled()
    assert window.remove_server() is None


def test_importing_copies_ticked_entries_with_inputs_answered_and_never_writes_the_source(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLineEdit

    from catalog_inspector.core.config.clients import Location
    from catalog_inspector.ui.dialogs.imports import ImportDialog

    vscode = tmp_path / "Code" / "mcp.json"
    vscode.parent.mkdir()
    source_text = """{
      // VS Code's shape, with an input
      "inputs": [{"type": "promptString", "id": "tok", "description": "API token", "password": true}],
      "servers": {
        "gh": {"type": "http", "url": "https://api.test/mcp", "headers": {"Authorization": "Bearer ${input:tok}"}},
        "local": {"command": "srv", "args": ["${workspaceFolder}"]},
      },
    }"""
    vscode.write_text(source_text)
    missing = Location("Claude Desktop", tmp_path / "nope.json")
    dialog = ImportDialog(None, [missing, Location("VS Code", vscode)])
    qtbot.addWidget(dialog)
    assert "found 1" in dialog.looked.text() and "(not found)" in dialog.files.item(0).text()
    dialog.show()
    qtbot.waitExposed(dialog)
    for row in range(dialog.files.count()):  # each place reads whole, not cut at the dialog's edge
        line = dialog.files.fontMetrics().horizontalAdvance(dialog.files.item(row).text())
        assert line <= dialog.files.viewport().width(), dialog.files.item(row).text()
    dialog.files.setCurrentRow(1)
    assert dialog.servers.count() == 2 and not dialog.import_button.isEnabled(), "the input is not answered yet"
    answer = dialog.findChild(QLineEdit, "importInput:tok")
    assert answer.echoMode() == QLineEdit.EchoMode.Password
    answer.setText("t0k")
    assert dialog.import_button.isEnabled()
    dialog.servers.item(1).setCheckState(Qt.CheckState.Unchecked)
    assert dialog.chosen() == {
        "gh": {"type": "http", "url": "https://api.test/mcp", "headers": {"Authorization": "Bearer t0k"}}
    }
    dialog.pasted.setPlainText('{"tools": []}')
    assert "no servers found" in dialog.problem.text() and dialog.servers.count() == 0

    path = tmp_path / "servers.json"
    ConfigStore(path).write({"mcpServers": {"gh": {"command": "x"}}})
    window = harness.window(load_config(path).specs)
    follow_config(path, window.app, window)
    importing = window.import_servers()
    assert importing is not None
    importing.pasted.setPlainText(json.dumps({"mcpServers": {"gh": {"url": "https://x.test/mcp"}}}))
    importing.import_button.click()
    wait_for(qtbot, lambda: names(window) == ["gh", "gh 2"])
    assert json.loads(path.read_text())["mcpServers"]["gh 2"] == {"url": "https://x.test/mcp"}
    assert vscode.read_text() == source_text


def test_values_go_to_the_keyring_and_the_file_holds_only_a_reference(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import keyring
    from keyring.backend import KeyringBackend

    from catalog_inspector.core.config import Variables, parse_entry

    class Memory(KeyringBackend):
        priority = 1  # type: ignore[assignment]

        def __init__(self) -> None:
            super().__init__()
            self.kept: dict[tuple[str, str], str] = {}

        def get_password(self, service: str, username: str) -> str | None:
            return self.kept.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            self.kept[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            self.kept.pop((service, username), None)

    before = keyring.get_keyring()
    memory = Memory()
    keyring.set_keyring(memory)
    try:
        path = tmp_path / "servers.json"
        ConfigStore(path).write({"mcpServers": {}})
        window = harness.window([])
        follow_config(path, window.app, window)
        dialog = window.add_server()
        assert dialog is not None and dialog.keep_secret.isChecked() and "keyring" in dialog.secrets_where.text()
        dialog.name.setText("srv")
        dialog.command.setText(DEMO[0])
        dialog.args.setPlainText("\n".join([*DEMO[1:], "--mode", "normal"]))
        dialog.env.item(0, 0).setText("API_TOKEN")
        dialog.env.item(0, 1).setText("s3cret-value")
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
        wait_for(qtbot, lambda: names(window) == ["srv"])
        assert "s3cret-value" not in path.read_text()
        saved = json.loads(path.read_text())["mcpServers"]["srv"]
        assert saved["env"] == {"API_TOKEN": "${keyring:srv/env/API_TOKEN}"}
        assert parse_entry("srv", saved, Variables(environ={})).env == {"API_TOKEN": "s3cret-value"}
        assert window.app.runtime.supervisors[0].spec.env == {"API_TOKEN": "s3cret-value"}, "the server gets the value"
    finally:
        keyring.set_keyring(before)


def test_without_a_keyring_the_dialog_says_where_values_are_stored(qtbot) -> None:  # type: ignore[no-untyped-def]
    import keyring
    from keyring.backends import fail

    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        dialog = ServerDialog(None, "srv", {"command": "srv", "env": {"K": "v"}})
        qtbot.addWidget(dialog)
        assert not dialog.keep_secret.isEnabled() and "stored in the configuration file" in dialog.secrets_where.text()
        assert dialog.result_entry(store_secrets=True)["env"] == {"K": "v"}
    finally:
        keyring.set_keyring(before)


def test_fields_no_process_or_http_client_can_take_are_refused_as_typed(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Issue 20, point 8: the rules of `core.config.checks`, the same as the CLI's usage errors."""
    dialog = ServerDialog(None, "srv", {"command": "srv"})
    qtbot.addWidget(dialog)
    assert save_enabled(dialog)
    dialog.args.setPlainText("--flag\nx\0y")
    assert error_on(dialog, "args").startswith("Arguments, item 2: contains a NUL character") and not save_enabled(
        dialog
    )
    dialog.args.setPlainText("--flag")
    dialog.env.item(0, 0).setText("A=B")
    assert "'A=B' cannot be a variable's name" in error_on(dialog, "env") and not save_enabled(dialog)
    dialog.env.item(0, 0).setText("TOKEN")
    dialog.env.item(0, 1).setText("se\0cret")
    assert "the value of 'TOKEN' contains a NUL" in error_on(dialog, "env") and "cret" not in error_on(dialog, "env")
    dialog.env.item(0, 1).setText("secret")
    assert save_enabled(dialog)
    dialog.transport.setCurrentIndex(dialog.transport.findData("http"))
    dialog.url.setText("http://u:hunter2@127.0.0.1:99999/mcp")
    assert "URL is not a usable URL (Port out of range 0-65535)" in error_on(dialog, "url")
    assert "hunter2" not in error_on(dialog, "url") and not save_enabled(dialog)
    dialog.url.setText("http://[::1/mcp")
    assert "Invalid IPv6 URL" in error_on(dialog, "url")
    dialog.url.setText("http://127.0.0.1:8080/mcp")
    dialog.headers.item(0, 0).setText("X-Key")
    dialog.headers.item(0, 1).setText("caf\u00e9")
    assert "has a character HTTP cannot send at position 4" in error_on(dialog, "headers") and not save_enabled(dialog)
    dialog.headers.item(0, 1).setText("cafe")
    assert save_enabled(dialog)


def test_the_roots_a_server_is_given_and_its_protocol_era_are_edited_and_checked(qtbot) -> None:  # type: ignore[no-untyped-def]
    entry = {"command": "srv", "roots": [{"uri": "file:///home/ada/project", "name": "project"}]}
    dialog = ServerDialog(None, "srv", entry)
    qtbot.addWidget(dialog)
    roots = dialog.findChild(QTableWidget, "serverRoots")
    assert (roots.item(0, 0).text(), roots.item(0, 1).text()) == ("file:///home/ada/project", "project")
    assert dialog.result_entry() == entry, "unchanged roots are written back as they were"
    roots.item(1, 0).setText("https://example.invalid/not-a-root")  # typed into the empty last row
    assert error_on(dialog, "roots").startswith(
        "Roots (roots/list), item 2: uri must be a file:// URI"
    ) and not save_enabled(dialog)
    roots.item(1, 0).setText("file:///tmp/scratch")
    era = dialog.findChild(QComboBox, "serverProtocolEra")
    assert era.currentData() == "auto"
    era.setCurrentIndex(era.findData("legacy"))
    assert save_enabled(dialog) and dialog.result_entry() == {
        "command": "srv",
        "roots": [{"uri": "file:///home/ada/project", "name": "project"}, {"uri": "file:///tmp/scratch"}],
        "protocolEra": "legacy",
    }
    spec = parse_entry("srv", dialog.result_entry())
    assert spec.roots[1] == {"uri": "file:///tmp/scratch"} and spec.protocol_era == "legacy"


def test_the_log_level_is_chosen_per_server_defaults_to_info_and_survives_a_round_trip(  # type: ignore[no-untyped-def]
    qtbot, tmp_path: Path
) -> None:
    dialog = ServerDialog(None, "srv", {"command": "srv"})
    qtbot.addWidget(dialog)
    level = dialog.findChild(QComboBox, "serverLogLevel")
    assert level.currentData() == "info"
    assert dialog.result_entry() == {"command": "srv"}, "the default is not written"
    level.setCurrentIndex(level.findData("warning"))
    assert save_enabled(dialog) and dialog.result_entry() == {"command": "srv", "logLevel": "warning"}
    assert parse_entry("srv", dialog.result_entry()).log_level == "warning"
    # Through the file: what the dialog saves is read back as it was, with another client's keys kept.
    store = ConfigStore(tmp_path / "servers.json")
    store.write({"mcpServers": {"srv": {"command": "srv", "logLevel": "error", "theirKey": {"x": 1}}}})
    entry = store.read()["mcpServers"]["srv"]
    again = ServerDialog(None, "srv", entry)
    qtbot.addWidget(again)
    assert again.findChild(QComboBox, "serverLogLevel").currentData() == "error"
    store.put("srv", again.result_entry(), replacing="srv")
    assert json.loads((tmp_path / "servers.json").read_text())["mcpServers"]["srv"] == {
        "command": "srv",
        "logLevel": "error",
        "theirKey": {"x": 1},
    }
    assert load_config(tmp_path / "servers.json").specs[0].log_level == "error"
    # An explicit default stays as written; a level no server knows is shown as the default and saved valid.
    explicit = ServerDialog(None, "srv", {"command": "srv", "logLevel": "info"})
    qtbot.addWidget(explicit)
    assert explicit.result_entry() == {"command": "srv", "logLevel": "info"}
    broken = ServerDialog(None, "srv", {"command": "srv", "logLevel": "loud"})
    qtbot.addWidget(broken)
    assert broken.findChild(QComboBox, "serverLogLevel").currentData() == "info"
    assert parse_entry("srv", broken.result_entry()).log_level == "info"
