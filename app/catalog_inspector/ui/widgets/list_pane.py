"""The catalog tabs for resources, resource templates and prompts: a table beside its page timeline."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QSplitter, QTableView, QVBoxLayout, QWidget

from catalog_inspector.core.lists import LIST_KINDS
from catalog_inspector.ui.models.item_list import ItemListModel
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.widgets.panes import SPLIT_SIZES
from catalog_inspector.ui.widgets.request_box import RequestBox
from catalog_inspector.ui.widgets.tables import compact_table
from catalog_inspector.ui.widgets.timeline_panel import TimelinePanel

__all__ = ["ListPane"]


OBJECT_NAMES = {
    "resources": ("resourceList", "resourcesTimeline"),
    "resource_templates": ("resourceTemplateList", "resourceTemplatesTimeline"),
    "prompts": ("promptList", "promptsTimeline"),
}


class ListPane(QWidget):
    """One of resources, resource templates or prompts: its items beside its timeline.

    Resources can be read and prompts got (`request`, below the table); templates only listed.
    """

    def __init__(self, list_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        table_name, timeline_name = OBJECT_NAMES[list_name]
        self.model = ItemListModel(LIST_KINDS[list_name].columns, self)
        self.table = QTableView(self)
        self.table.setObjectName(table_name)
        self.table.setModel(self.model)
        compact_table(self.table, QAbstractItemView.SelectionBehavior.SelectRows)
        self.timeline = TimelinePanel(timeline_name, self)
        self.request: RequestBox | None = None
        content: QWidget = self.table
        if list_name in ("resources", "prompts"):
            self.request = RequestBox("resource" if list_name == "resources" else "prompt", self)
            self.table.selectionModel().currentRowChanged.connect(self._on_table_current_row_changed)
            content = QSplitter(Qt.Orientation.Vertical, self)
            content.addWidget(self.table)
            content.addWidget(self.request)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(content)
        split.addWidget(self.timeline)
        split.setSizes(SPLIT_SIZES)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

    def _on_table_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self.request is not None:
            item = current.data(Role.RAW) if current.isValid() else None
            self.request.set_item(item if isinstance(item, dict) else None)
