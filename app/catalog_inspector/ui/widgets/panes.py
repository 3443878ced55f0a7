"""The catalog tabs for resources, resource templates and prompts (table, timeline), and the shared text views."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import (
    QAbstractItemView,
    QPlainTextEdit,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.lists import LIST_KINDS
from catalog_inspector.ui.models.item_list import ItemListModel
from catalog_inspector.ui.widgets.tables import compact_table
from catalog_inspector.ui.widgets.timeline_panel import TimelinePanel

__all__ = ["SPLIT_SIZES", "ListPane", "plain_text_view", "set_capped_text"]

DISPLAY_CAP = 200_000
SPLIT_SIZES = [560, 600]  # content | page timeline


def plain_text_view(object_name: str, parent: QWidget | None = None) -> QPlainTextEdit:
    """A read-only plain-text view that wraps anywhere (one huge token must not stall layout)."""
    view = QPlainTextEdit(parent)
    view.setObjectName(object_name)
    view.setReadOnly(True)
    view.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)
    return view


def set_capped_text(view: QPlainTextEdit, text: str, cap: int = DISPLAY_CAP) -> None:
    if len(text) > cap:
        text = text[:cap] + f"\n\n… truncated at {cap:,} of {len(text):,} characters — export the snapshot for the rest"
    view.setPlainText(text)


OBJECT_NAMES = {
    "resources": ("resourceList", "resourcesTimeline"),
    "resource_templates": ("resourceTemplateList", "resourceTemplatesTimeline"),
    "prompts": ("promptList", "promptsTimeline"),
}


class ListPane(QWidget):
    """One of resources, resource templates or prompts: its items beside its timeline."""

    def __init__(self, list_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        table_name, timeline_name = OBJECT_NAMES[list_name]
        self.model = ItemListModel(LIST_KINDS[list_name].columns, self)
        self.table = QTableView(self)
        self.table.setObjectName(table_name)
        self.table.setModel(self.model)
        compact_table(self.table, QAbstractItemView.SelectionBehavior.SelectRows)
        self.timeline = TimelinePanel(timeline_name, self)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.table)
        split.addWidget(self.timeline)
        split.setSizes(SPLIT_SIZES)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)
