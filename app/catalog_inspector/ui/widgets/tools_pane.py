"""The tools tab: the filter, the tool tree, the detail pane and the tools page timeline."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QSplitter,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.text import visible
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.tool_tree import ToolTreeModel, annotation_badges
from catalog_inspector.ui.widgets.panes import SPLIT_SIZES, plain_text_view, set_capped_text
from catalog_inspector.ui.widgets.timeline_panel import TimelinePanel

__all__ = ["ToolFilterProxy", "ToolsPane", "tool_detail"]


class ToolFilterProxy(QSortFilterProxyModel):
    """Filters tools by name and description; a kept tool keeps all of its schema rows."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._needle = ""

    def set_needle(self, text: str) -> None:
        self.beginFilterChange()
        self._needle = text.casefold().strip()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        if source_parent.isValid() or not self._needle:
            return True
        index = self.sourceModel().index(source_row, 0, source_parent)
        return self._needle in str(index.data(Role.SEARCH) or "")


def tool_detail(tool: dict[str, Any]) -> str:
    description = tool.get("description")
    lines = [f"Name: {visible(str(tool.get('name', '')))}"]
    if isinstance(tool.get("title"), str):
        lines.append(f"Title: {visible(tool['title'])}")
    badges = annotation_badges(tool)
    if badges:
        lines.append(f"Annotations: {', '.join(badges)}")
    lines.append("")
    lines.append(visible(description, keep_newlines=True) if isinstance(description, str) else "(no description)")
    lines.append("")
    lines.append("As the server sent it:")
    lines.append(visible(json.dumps(tool, indent=2, ensure_ascii=False), keep_newlines=True))
    return "\n".join(lines)


class ToolsPane(QWidget):
    """Tool tree with its filter and detail view, beside the tools page timeline."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ToolTreeModel(self)
        self.proxy = ToolFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("toolFilter")
        self.filter.setPlaceholderText("Filter tools by name or description")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.set_needle)
        self.tree = QTreeView(self)
        self.tree.setObjectName("toolTree")
        self.tree.setModel(self.proxy)
        self.tree.setUniformRowHeights(True)  # constant-time layout for 10,000 rows
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.tree.header().setStretchLastSection(True)
        for column, width in enumerate((170, 130, 150)):
            self.tree.setColumnWidth(column, width)
        self.tree.selectionModel().currentRowChanged.connect(self._on_current)
        self.detail = plain_text_view("toolDetail", self)
        self.detail.setPlaceholderText("Select a tool to see its full description and the JSON the server sent.")
        self.timeline = TimelinePanel("pageTimeline", self)
        left = QSplitter(Qt.Orientation.Vertical, self)
        top = QWidget(left)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.filter)
        top_layout.addWidget(self.tree)
        left.addWidget(top)
        left.addWidget(self.detail)
        left.setSizes([500, 180])
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(left)
        split.addWidget(self.timeline)
        split.setSizes(SPLIT_SIZES)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

    def set_tools(self, tools: Sequence[dict[str, Any]]) -> None:
        self.model.set_tools(tools)
        self._on_current(self.tree.currentIndex())

    def _on_current(self, index: QModelIndex | QPersistentModelIndex) -> None:
        while index.isValid() and index.parent().isValid():
            index = index.parent()
        tool = index.data(Role.RAW) if index.isValid() else None
        if isinstance(tool, dict):
            set_capped_text(self.detail, tool_detail(tool))
        else:
            self.detail.clear()
