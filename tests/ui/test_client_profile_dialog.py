"""The server dialog's client profile: a preset chosen is saved, the entry's own is kept exactly, a bad one says why."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialogButtonBox, QLabel

from catalog_inspector.core.config import PRESETS, parse_entry
from catalog_inspector.ui.dialogs.server import ServerDialog


def combo(dialog: ServerDialog) -> QComboBox:
    return dialog.findChild(QComboBox, "serverClientProfile")


def test_a_preset_is_chosen_saved_and_read_back_and_this_inspector_drops_the_key(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = ServerDialog(None, "srv", {"command": "srv"})
    qtbot.addWidget(dialog)
    profiles = combo(dialog)
    assert profiles.currentData() == "default" and "client" not in dialog.result_entry()
    assert [profiles.itemData(i) for i in range(profiles.count())] == ["default", *PRESETS]
    profiles.setCurrentIndex(profiles.findData("cursor"))
    assert dialog.result_entry() == {"command": "srv", "client": "cursor"}
    assert parse_entry("srv", dialog.result_entry()).client is PRESETS["cursor"]
    profiles.setCurrentIndex(profiles.findData("default"))
    assert dialog.result_entry() == {"command": "srv"}


def test_the_entrys_own_profile_is_kept_exactly_unless_another_is_chosen(qtbot) -> None:  # type: ignore[no-untyped-def]
    own = {"preset": "vscode", "version": "1.139.0", "extensions": {"acme.dev/beta": {"level": 2}}}
    dialog = ServerDialog(None, "srv", {"command": "srv", "client": own, "x-team": "ana"})
    qtbot.addWidget(dialog)
    profiles = combo(dialog)
    assert profiles.currentData() == "custom" and "acme.dev/beta" in profiles.currentText()
    assert dialog.result_entry() == {"command": "srv", "client": own, "x-team": "ana"}
    profiles.setCurrentIndex(profiles.findData("claude-desktop"))
    assert dialog.result_entry()["client"] == "claude-desktop"
    profiles.setCurrentIndex(profiles.findData("custom"))
    assert dialog.result_entry()["client"] == own


def test_a_profile_that_cannot_be_used_is_said_under_its_field_and_cannot_be_saved(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = ServerDialog(None, "srv", {"command": "srv", "client": "cursor", "protocolEra": "modern"})
    qtbot.addWidget(dialog)
    error = dialog.findChild(QLabel, "serverError:client")
    assert error.isVisibleTo(dialog) and "pins protocolVersion 2025-11-25" in error.text()
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Save).isEnabled()
    dialog.era.setCurrentIndex(dialog.era.findData("auto"))
    assert not error.isVisibleTo(dialog)
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Save).isEnabled()
    typo = ServerDialog(None, "srv", {"command": "srv", "client": "cursr"})
    qtbot.addWidget(typo)
    assert combo(typo).currentData() == "custom", "an unknown preset is shown as the file has it"
    assert "Client profile must be one of" in typo.findChild(QLabel, "serverError:client").text()
