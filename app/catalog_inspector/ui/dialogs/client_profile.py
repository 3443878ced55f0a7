"""The server dialog's client profile: who the client says it is to this server (the entry's `"client"`).

A choice of this inspector (no `"client"`), a host's preset (`"client": "cursor"`), or
the entry's own profile as the file has it (an object: name, version, extensions, a
pinned version), kept exactly as it was; it is edited in the file, the dialog only
shows it and checks it.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtWidgets import QComboBox, QWidget

from catalog_inspector.core.config import DEFAULT_KEY, OURS, PRESETS
from catalog_inspector.core.text import visible

__all__ = ["ClientProfileCombo"]

CUSTOM = "custom"
SHOWN_LIMIT = 80  # characters of the file's own profile shown in its item


class ClientProfileCombo(QComboBox):
    """The entry's `"client"` choice; `value()` gives what to save."""

    def __init__(self, parent: QWidget, original: Any, present: bool) -> None:
        super().__init__(parent)
        self.setObjectName("serverClientProfile")
        self._original = original
        self._present = present
        self.addItem(f"This inspector ({OURS.name})", DEFAULT_KEY)
        for key, preset in PRESETS.items():
            self.addItem(f"{preset.title}: {preset.describe()}", key)
        chosen = DEFAULT_KEY
        if present and original != DEFAULT_KEY:
            chosen = original if isinstance(original, str) and original in PRESETS else CUSTOM
        if chosen == CUSTOM:
            shown = visible(json.dumps(original, ensure_ascii=False), SHOWN_LIMIT)
            self.addItem(f"As the file says: {shown}", CUSTOM)
        self._initial = chosen
        self.setCurrentIndex(max(0, self.findData(chosen)))
        self.setToolTip("Servers may offer other tools to another client: this is who the inspector says it is")

    def value(self) -> tuple[bool, Any]:
        """(whether the entry has a `"client"`, its value): unchanged, exactly as it was."""
        chosen = self.currentData()
        if chosen == self._initial:
            return self._present, self._original
        if chosen == DEFAULT_KEY:
            return False, None
        if chosen == CUSTOM:
            return True, self._original
        return True, chosen
