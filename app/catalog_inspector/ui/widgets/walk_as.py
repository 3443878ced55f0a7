"""The Drift tab's "Walk again as …" button: a menu of the clients the server can be walked as once more."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QPushButton, QWidget

__all__ = ["WalkAsButton"]

TEXT = "Walk again as…"


class WalkAsButton(QPushButton):
    """A button whose menu lists the client profiles (the entry's own, this inspector, the hosts' presets).

    Signals:
        chosen(str): the person picked a profile (its key).
    """

    chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(TEXT, parent)
        self.setObjectName("walkAgainAsButton")
        self.setToolTip(
            "Walk this server once more as another client (its name, version, extensions and protocol version) "
            "and compare what it is given with the catalog shown now"
        )
        self.setMenu(QMenu(self))
        self.menu().setObjectName("walkAgainAsMenu")
        self.menu().triggered.connect(self._on_menu_triggered)

    def show_choices(self, choices: list[tuple[str, str]], walking_as: str | None, enabled: bool) -> None:
        """The profiles offered (key, label); while a walk runs it says as whom, and nothing can be picked."""
        menu = self.menu()
        menu.clear()
        for key, label in choices:
            action = menu.addAction(label.replace("&", "&&"))
            action.setData(key)
        self.setText(TEXT if walking_as is None else f"Walking again as {walking_as}…".replace("&", "&&"))
        self.setEnabled(enabled and walking_as is None and bool(choices))

    def _on_menu_triggered(self, action: QAction) -> None:
        key = action.data()
        if isinstance(key, str):
            self.chosen.emit(key)
