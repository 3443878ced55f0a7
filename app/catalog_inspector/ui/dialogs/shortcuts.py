"""Help › Keyboard shortcuts: every shortcut of the window's actions, read from the actions themselves, then the
keys Qt gives (`ui.keyboard.shortcut_rows`); plain text in a table a screen reader can walk."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QDialog, QDialogButtonBox, QHeaderView, QTableView, QVBoxLayout

from catalog_inspector.ui.accessible import describe, named
from catalog_inspector.ui.keyboard import shortcut_rows
from catalog_inspector.ui.widgets.tables import compact_table

if TYPE_CHECKING:
    from catalog_inspector.ui.main_window import MainWindow

__all__ = ["ShortcutsDialog", "show_shortcuts"]


class ShortcutsDialog(QDialog):
    """The shortcuts as they are now (`shortcutsTable`: keys, what they do), and Close.

    Attributes:
        rows: what the table lists, (keys, what) each.
    """

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keyboard shortcuts")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.rows = shortcut_rows(window)
        model = QStandardItemModel(0, 2, self)
        model.setHorizontalHeaderLabels(["Keys", "What they do"])
        for keys, what in self.rows:
            cells = [QStandardItem(keys), QStandardItem(what)]  # item text is literal, never rich
            for cell in cells:
                cell.setEditable(False)
            model.appendRow(cells)
        self.table = QTableView(self)
        self.table.setObjectName("shortcutsTable")
        self.table.setModel(model)
        compact_table(self.table, QAbstractItemView.SelectionBehavior.SelectRows)  # one line a row, Tab moves on
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        named(buttons.button(QDialogButtonBox.StandardButton.Close), "", "Close the list of shortcuts")
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        describe(self)
        self.resize(720, 560)


def show_shortcuts(window: MainWindow) -> ShortcutsDialog:
    """Open the list over `window` (not modal), the focus in its table."""
    dialog = ShortcutsDialog(window)
    dialog.show()
    dialog.table.setFocus(Qt.FocusReason.OtherFocusReason)
    return dialog
