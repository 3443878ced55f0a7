"""The tool tree: tool → input and output schemas as JSON trees, built lazily.

Top-level rows are tools in the order the server sent them. Schema nodes are
materialized only when a view asks for a tool's children, so 10,000 tools cost
10,000 small nodes until someone expands one. A new catalog is applied as row
removals, insertions and dataChanged, never a model reset.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from catalog_inspector.core.text import first_line, is_plain_name, visible
from catalog_inspector.ui.models.roles import Role, tooltip

__all__ = ["ToolTreeModel", "annotation_badges"]

Index = QModelIndex | QPersistentModelIndex

NAME, TITLE, ANNOTATIONS, DESCRIPTION = range(4)
HEADERS = ("Name", "Title", "Annotations", "Description")
PREVIEW = 200

_BADGES = (
    ("readOnlyHint", "read-only"),
    ("destructiveHint", "destructive"),
    ("idempotentHint", "idempotent"),
    ("openWorldHint", "open-world"),
)


def annotation_badges(tool: dict[str, Any]) -> list[str]:
    """The hints a tool sets to true, as short badges (only what the server said)."""
    annotations = tool.get("annotations")
    if not isinstance(annotations, dict):
        return []
    return [label for key, label in _BADGES if annotations.get(key) is True]


def _preview(value: Any) -> str:
    if isinstance(value, dict):
        return f"{{…}} {len(value)} key{'s' if len(value) != 1 else ''}"
    if isinstance(value, list):
        return f"[…] {len(value)} item{'s' if len(value) != 1 else ''}"
    return visible(json.dumps(value, ensure_ascii=False), PREVIEW)


class _Node:
    """A row: a tool, a schema section, or a JSON value inside a schema."""

    __slots__ = ("children", "key", "parent", "row", "tool", "value")

    def __init__(self, parent: _Node | None, row: int, key: str, value: Any, tool: dict[str, Any] | None = None) -> None:
        self.parent = parent
        self.row = row
        self.key = key
        self.value = value
        self.tool = tool
        self.children: list[_Node] | None = None

    def expandable(self) -> bool:
        if self.tool is not None:
            return True
        return isinstance(self.value, dict | list) and len(self.value) > 0

    def materialize(self) -> list[_Node]:
        if self.children is None:
            if self.tool is not None:
                sections = [("Input schema", self.tool.get("inputSchema"))]
                if "outputSchema" in self.tool:
                    sections.append(("Output schema", self.tool.get("outputSchema")))
                self.children = [_Node(self, i, key, value) for i, (key, value) in enumerate(sections)]
            elif isinstance(self.value, dict):
                self.children = [_Node(self, i, str(k), v) for i, (k, v) in enumerate(self.value.items())]
            elif isinstance(self.value, list):
                self.children = [_Node(self, i, f"[{i}]", v) for i, v in enumerate(self.value)]
            else:
                self.children = []
        return self.children


class ToolTreeModel(QAbstractItemModel):
    """Tools and their schemas; see the module docstring."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._tools: list[_Node] = []

    # -- applying a catalog -----------------------------------------------
    def tool_names(self) -> list[str]:
        return [node.key for node in self._tools]

    def set_tools(self, tools: Sequence[dict[str, Any]]) -> None:
        """Show `tools` (wire objects, in server order) by diffing against what is shown.

        Names are the row keys: an accepted catalog has no duplicates, and should
        one be passed anyway only its first occurrence is shown.
        """
        seen: set[str] = set()
        unique = []
        for tool in tools:
            name = str(tool.get("name", ""))
            if name not in seen:
                seen.add(name)
                unique.append(tool)
        tools = unique
        wanted = [str(t.get("name", "")) for t in tools]
        wanted_set = set(wanted)
        # 1. Remove rows whose names are gone, in contiguous runs from the bottom.
        row = len(self._tools) - 1
        while row >= 0:
            if self._tools[row].key in wanted_set:
                row -= 1
                continue
            end = row
            while row >= 0 and self._tools[row].key not in wanted_set:
                row -= 1
            self.beginRemoveRows(QModelIndex(), row + 1, end)
            del self._tools[row + 1 : end + 1]
            self._renumber(row + 1)
            self.endRemoveRows()
        # 2. Walk the wanted order: keep, move (remove + insert) or insert, in runs.
        position = {node.key: node for node in self._tools}
        i = 0
        while i < len(wanted):
            current = self._tools[i].key if i < len(self._tools) else None
            if current == wanted[i]:
                self._update(i, tools[i])
                i += 1
                continue
            if wanted[i] in position and current is not None:
                old_row = self._tools.index(position[wanted[i]])
                self.beginRemoveRows(QModelIndex(), old_row, old_row)
                del self._tools[old_row]
                self._renumber(old_row)
                self.endRemoveRows()
                del position[wanted[i]]
                continue  # re-inserted below as new content at row i
            run_end = i
            while run_end < len(wanted) and wanted[run_end] not in position:
                run_end += 1
            self.beginInsertRows(QModelIndex(), i, run_end - 1)
            # Snapshots are frozen: rows share the tool objects instead of copying them.
            self._tools[i:i] = [_Node(None, 0, wanted[j], None, tools[j]) for j in range(i, run_end)]
            self._renumber(i)
            self.endInsertRows()
            i = run_end

    def _renumber(self, start: int) -> None:
        # Child indexes find their parent through `row`, so it must be right at every step.
        for row in range(start, len(self._tools)):
            self._tools[row].row = row

    def _update(self, row: int, tool: dict[str, Any]) -> None:
        node = self._tools[row]
        if node.tool == tool:
            return
        parent = self.index(row, 0)
        if node.children:
            # Children were shown: remove them, then announce the new ones (built lazily).
            self.beginRemoveRows(parent, 0, len(node.children) - 1)
            node.children = []
            self.endRemoveRows()
            node.tool = tool
            count = len(_Node(None, 0, node.key, None, node.tool).materialize())
            self.beginInsertRows(parent, 0, count - 1)
            node.children = None
            self.endInsertRows()
        else:
            node.children = None
            node.tool = tool
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(HEADERS) - 1))

    # -- Qt model interface -----------------------------------------------
    def _node(self, index: Index) -> _Node | None:
        return index.internalPointer() if index.isValid() else None

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        if column < 0 or column >= len(HEADERS) or row < 0:
            return QModelIndex()
        node = self._node(parent)
        siblings = self._tools if node is None else node.materialize()
        if row >= len(siblings):
            return QModelIndex()
        return self.createIndex(row, column, siblings[row])

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        node = self._node(index)
        if node is None or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.parent.row, 0, node.parent)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        node = self._node(parent)
        if node is None:
            return len(self._tools)
        return len(node.materialize()) if node.expandable() else 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return len(HEADERS)

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:
        node = self._node(parent)
        if node is None:
            return bool(self._tools)
        return parent.column() == 0 and node.expandable()

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        node = self._node(index)
        if node is None:
            return None
        if node.tool is not None:
            return self._tool_data(node, index.column(), role)
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == NAME:
                return visible(node.key, PREVIEW)
            if index.column() == TITLE:
                return _preview(node.value)
        if role == Role.RAW:
            return node.value
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == TITLE and not isinstance(node.value, dict | list):
            return tooltip(json.dumps(node.value, ensure_ascii=False))
        return None

    def _tool_data(self, node: _Node, column: int, role: int) -> Any:
        tool = node.tool
        assert tool is not None
        description = tool.get("description")
        description = description if isinstance(description, str) else ""
        if role == Qt.ItemDataRole.DisplayRole:
            if column == NAME:
                name = visible(node.key, PREVIEW)
                return name if is_plain_name(node.key) else f"⚠ {name}"
            if column == TITLE:
                title = tool.get("title")
                return visible(title, PREVIEW) if isinstance(title, str) else ""
            if column == ANNOTATIONS:
                return " · ".join(annotation_badges(tool))
            if column == DESCRIPTION:
                return visible(first_line(description))
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == NAME and not is_plain_name(node.key):
                return tooltip(f"Unusual name: {visible(node.key)} (outside A–Z a–z 0–9 . _ -, or longer than 128)")
            if column == DESCRIPTION and description:
                return tooltip(description)
        if role == Qt.ItemDataRole.ForegroundRole and column == NAME and not is_plain_name(node.key):
            return QBrush(QColor("#b35900"))
        if role == Qt.ItemDataRole.FontRole and column == NAME:
            font = QFont()
            font.setBold(True)
            return font
        if role == Role.RAW:
            return tool
        if role == Role.KEY:
            return node.key
        if role == Role.SEARCH:
            return f"{node.key}\n{description}".casefold()
        return None
