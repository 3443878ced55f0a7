"""The tool tree: tool → input and output schemas as JSON trees, built lazily, filtered in place.

Top-level rows are the catalog's tools in the order the server sent them, less the
ones the filter hides. Schema nodes are materialized only when a view asks for a
tool's children, so 10,000 tools cost 10,000 small nodes until someone expands one.

The model filters itself rather than sitting behind a QSortFilterProxyModel: the
proxy asks filterAcceptsRow → index.data() once per row through Qt (a keystroke
stalled the loop 115 ms at 10,000 tools); here a keystroke is one list
comprehension over names and descriptions folded once per tool.

A change (new catalog or new filter) is applied as the smallest of:
- nothing, when the same tools are shown in the same order with the same content;
- dataChanged over runs of rows whose tool changed, when the rows stay put;
- one insert or one remove, when the tree was empty or becomes empty;
- otherwise one layoutAboutToBeChanged/layoutChanged pair, with every persistent
  index moved to its tool's new row, or invalidated when its tool is gone or hidden.
  That is linear in tools and persistent indexes (removing and re-inserting moved
  rows one by one was quadratic: a reversed 10,000-tool catalog froze the window
  for 75 s) and keeps QTreeView's expanded rows, current row and selection.
Never a model reset: it would lose what the user expanded and selected.

After any structural change QTreeView relays out every top-level row, calling
index() and hasChildren() once per shown tool from C++ into Python; those two are
written for that hot path (and flags() is deliberately not overridden: an override
returning Qt.ItemFlags cost ~15 µs a row, as Qt calls it twice per row). Even so
that floor is ~1.8 µs a row: 180 ms for 100,000 rows, on every change. So the
rows are exposed to views `chunk` at a time (canFetchMore/fetchMore: a view asks
for more as it scrolls to the end), and a change exposes at most `KEEP_CHUNKS`
chunks again: a change costs what a few thousand rows cost, whatever the catalog's
size. A tool past the exposed rows is not shown yet; its persistent indexes (a
selection, an expanded row) are invalidated like a hidden tool's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from catalog_inspector.core.text import first_line, is_plain_name, visible
from catalog_inspector.ui.models.roles import Role, tooltip

__all__ = ["ToolTreeModel", "annotation_badges"]

Index = QModelIndex | QPersistentModelIndex

NAME, TITLE, ANNOTATIONS, DESCRIPTION = range(4)
HEADERS = ("Name", "Title", "Annotations", "Description")
LAST_COLUMN = len(HEADERS) - 1
PREVIEW = 200
CHUNK = 5_000  # top-level rows exposed at a time (a relayout of 5,000 rows: ~9 ms)
KEEP_CHUNKS = 4  # a change keeps at most this many chunks of what the user had scrolled through
_INVALID = QModelIndex()
# The roles data() answers. A delegate asks seven roles per cell on every paint; the
# others (decoration, alignment, background, check state) return at the door.
_R = Qt.ItemDataRole
_SERVED_ROLES = frozenset(
    int(r) for r in (_R.DisplayRole, _R.ToolTipRole, _R.FontRole, _R.ForegroundRole, Role.RAW, Role.KEY, Role.SEARCH)
)

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


def _description(tool: dict[str, Any]) -> str:
    description = tool.get("description")
    return description if isinstance(description, str) else ""


def _schemas(tool: dict[str, Any]) -> tuple[Any, bool, Any]:
    """What a tool's child rows are built from."""
    return tool.get("inputSchema"), "outputSchema" in tool, tool.get("outputSchema")


def _runs(rows: list[int]) -> Iterable[tuple[int, int]]:
    """Sorted rows as (first, last) runs of consecutive rows."""
    start = end = rows[0]
    for row in rows[1:]:
        if row != end + 1:
            yield start, end
            start = row
        end = row
    yield start, end


class _Node:
    """A row: a tool (`tool` set, no parent), a schema section, or a JSON value inside a schema.

    `row` is the row under the parent; for a tool, its shown row, or -1 while it is
    hidden by the filter or gone from the catalog. `search` is a tool's folded name
    and description ("" until first needed).
    """

    __slots__ = ("children", "key", "parent", "row", "search", "tool", "value")

    def __init__(self, parent: _Node | None, row: int, key: str, value: Any, tool: dict[str, Any] | None = None) -> None:
        self.parent = parent
        self.row = row
        self.key = key
        self.value = value
        self.tool = tool
        self.search = ""
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

    def folded(self) -> str:
        if not self.search:
            assert self.tool is not None
            # Never empty once computed, so "" can mean "not yet".
            self.search = f"{self.key}\n{_description(self.tool)}".casefold()
        return self.search

    def tool_row(self) -> int:
        """The row of the tool this node belongs to."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node.row

    def attached(self) -> bool:
        """Whether this node is still in the tree that is shown (no replaced ancestor)."""
        node = self
        while node.parent is not None:
            siblings = node.parent.children
            if siblings is None or node.row >= len(siblings) or siblings[node.row] is not node:
                return False
            node = node.parent
        return node.row >= 0


class ToolTreeModel(QAbstractItemModel):
    """Tools and their schemas, filtered by name and description; see the module docstring.

    Attributes:
        chunk: how many top-level rows a view gets at a time (see the module docstring).

    Signals: only QAbstractItemModel's own.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.chunk = CHUNK
        self._exposed = 0  # top-level rows views know of: the first `_exposed` of `_tools`
        self._all: list[_Node] = []  # the catalog, in server order
        self._by_name: dict[str, _Node] = {}
        self._tools: list[_Node] = []  # the shown rows: `_all` less what the filter hides
        self._needle = ""
        self._unfolded = False  # some tool's `search` is not computed yet
        # Nodes dropped by the last change stay referenced until the next one: Qt's
        # indexes point at them without owning them, and a view may hold plain
        # indexes (QTreeView's item list) until its delayed relayout.
        self._retired: list[Any] = []
        self._bold: QFont | None = None  # tool names: one font, not one per painted cell

    # -- applying a catalog or a filter -------------------------------------
    def tool_names(self) -> list[str]:
        """Every tool of the catalog in server order, shown or hidden by the filter."""
        return [node.key for node in self._all]

    def has_tool(self, name: str) -> bool:
        return name in self._by_name

    def matching_count(self) -> int:
        """How many tools the filter keeps (views may not have fetched all of their rows yet)."""
        return len(self._tools)

    def tool_index(self, name: str) -> QModelIndex:
        """The row of tool `name`, or an invalid index if it is hidden, not exposed yet or not in the catalog."""
        node = self._by_name.get(name)
        if node is None or not 0 <= node.row < self._exposed:
            return QModelIndex()
        return self.createIndex(node.row, 0, node)

    def set_tools(self, tools: Sequence[dict[str, Any]]) -> None:
        """Show `tools` (wire objects, in server order) by diffing against what is shown.

        Names are the row keys: an accepted catalog has no duplicates, and should
        one be passed anyway only its first occurrence is shown.
        """
        old = self._by_name
        by_name: dict[str, _Node] = {}
        edited: list[_Node] = []
        rebuilt: list[_Node] = []
        created = 0
        for tool in tools:
            name = tool.get("name", "")
            if type(name) is not str:
                name = str(name)
            if name in by_name:
                continue
            node = old.get(name)
            if node is None:
                node = _Node(None, -1, name, None, tool)
                created += 1
            elif node.tool is not tool and node.tool != tool:
                # Content only (rows are not touched yet): the view reads it after the change.
                if node.children is not None and _schemas(node.tool or {}) != _schemas(tool):
                    rebuilt.append(node)
                node.tool, node.search = tool, ""
                edited.append(node)
            by_name[name] = node
        kept = len(by_name) - created
        self._unfolded = self._unfolded or bool(created or edited)
        self._retired = [node for name, node in old.items() if name not in by_name] if kept < len(old) else []
        self._by_name = by_name
        self._all = list(by_name.values())  # dicts keep insertion order: the server's
        shown = self._matching(self._all)
        if shown == self._tools:  # identity, element by element: no row moves
            self._rebuild_children(rebuilt)
            rows = sorted(node.row for node in edited if 0 <= node.row < self._exposed)
            for first, last in _runs(rows) if rows else ():
                self.dataChanged.emit(self.index(first, 0), self.index(last, LAST_COLUMN))
        else:
            self._show(shown, rebuilt)

    def set_filter(self, text: str) -> None:
        """Show only tools whose name or description contains `text`, ignoring case."""
        needle = text.casefold().strip()
        if needle == self._needle:
            return
        # Typing on only narrows: a tool without the shorter needle lacks the longer one.
        pool = self._tools if self._needle in needle else self._all
        self._needle = needle
        self._show(self._matching(pool), [])

    def prepare_filter(self) -> None:
        """Fold the names and descriptions of new and edited tools now, not on the next keystroke.

        Folding 100,000 tools takes ~30 ms: worth its own event, after a catalog.
        """
        if self._unfolded:
            for node in self._all:
                node.folded()
            self._unfolded = False

    def _matching(self, nodes: list[_Node]) -> list[_Node]:
        needle = self._needle
        if not needle:
            return list(nodes)
        self.prepare_filter()  # then the scan below reads attributes, no calls
        return [node for node in nodes if needle in node.search]

    def _drop_children(self, nodes: list[_Node]) -> None:
        """Forget the schema rows of `nodes` (their schemas changed): built again when a view asks."""
        for node in nodes:
            self._retired.append(node.children)
            node.children = None

    def _rebuild_children(self, nodes: list[_Node]) -> None:
        """Replace the schema rows of `nodes` while the top-level rows stay put."""
        for node in nodes:
            count = len(node.children or ())
            if node.row < 0 or not count:  # not shown: no view holds these rows
                self._drop_children([node])
                continue
            parent = self.createIndex(node.row, 0, node)
            self.beginRemoveRows(parent, 0, count - 1)
            self._drop_children([node])
            node.children = []
            self.endRemoveRows()
            new_count = len(_Node(None, 0, node.key, None, node.tool).materialize())
            self.beginInsertRows(parent, 0, new_count - 1)
            node.children = None
            self.endInsertRows()

    def _show(self, shown: list[_Node], rebuilt: list[_Node]) -> None:
        """Make `shown` the top-level rows, as one structural change."""
        if shown == self._tools:
            return
        before = self._exposed
        exposed = min(len(shown), max(self.chunk, min(before, self.chunk * KEEP_CHUNKS)))
        if not before:
            self._drop_children(rebuilt)
            if exposed:
                self.beginInsertRows(QModelIndex(), 0, exposed - 1)
            self._renumber(shown)
            self._exposed = exposed
            if exposed:
                self.endInsertRows()
        elif not exposed:
            self.beginRemoveRows(QModelIndex(), 0, before - 1)
            self._renumber(shown)
            self._exposed = 0
            self.endRemoveRows()
            self._drop_children(rebuilt)
        else:
            self._relayout(shown, rebuilt, exposed)

    def _renumber(self, shown: list[_Node]) -> None:
        # Child rows find their parent's row through `row`, so it must be right before Qt asks.
        for node in self._tools:
            node.row = -1
        self._tools = shown
        for row, node in enumerate(shown):
            node.row = row

    def _relayout(self, shown: list[_Node], rebuilt: list[_Node], exposed: int) -> None:
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        self._drop_children(rebuilt)
        self._renumber(shown)
        self._exposed = exposed
        moved_from: list[QModelIndex] = []
        moved_to: list[QModelIndex] = []
        for index in before:
            node: _Node = index.internalPointer()
            if node.parent is None:  # a tool row: follow its tool, or go if the tool did (or is past the exposed rows)
                if node.row != index.row() or node.row >= exposed:
                    moved_from.append(index)
                    kept = 0 <= node.row < exposed
                    moved_to.append(self.createIndex(node.row, index.column(), node) if kept else _INVALID)
            elif not node.attached() or node.tool_row() >= exposed:  # under a tool now hidden, gone, rebuilt or unexposed
                moved_from.append(index)
                moved_to.append(_INVALID)
        self.changePersistentIndexList(moved_from, moved_to)
        self.layoutChanged.emit()

    # -- Qt model interface -------------------------------------------------
    def _node(self, index: Index) -> _Node | None:
        return index.internalPointer() if index.isValid() else None

    def index(self, row: int, column: int, parent: Index = _INVALID) -> QModelIndex:
        # Hot path: QTreeView calls this once per shown tool on every relayout.
        if parent.isValid():
            if parent.column() != 0:
                return _INVALID
            siblings = parent.internalPointer().materialize()
            if 0 <= row < len(siblings) and 0 <= column <= LAST_COLUMN:
                return self.createIndex(row, column, siblings[row])
            return _INVALID
        if 0 <= row < self._exposed and 0 <= column <= LAST_COLUMN:
            return self.createIndex(row, column, self._tools[row])
        return _INVALID

    def parent(self, index: Index = _INVALID) -> QModelIndex:  # type: ignore[override]
        node = self._node(index)
        if node is None or node.parent is None or node.parent.row < 0:
            return _INVALID
        return self.createIndex(node.parent.row, 0, node.parent)

    def rowCount(self, parent: Index = _INVALID) -> int:
        if not parent.isValid():
            return self._exposed
        if parent.column() != 0:
            return 0
        node: _Node = parent.internalPointer()
        return len(node.materialize()) if node.expandable() else 0

    def columnCount(self, parent: Index = _INVALID) -> int:
        return len(HEADERS)

    def hasChildren(self, parent: Index = _INVALID) -> bool:
        # Hot path, as index(): a tool always has its schema rows.
        if not parent.isValid():
            return self._exposed > 0
        if parent.column() != 0:
            return False
        node: _Node = parent.internalPointer()
        return node.tool is not None or node.expandable()

    def canFetchMore(self, parent: Index) -> bool:
        return not parent.isValid() and self._exposed < len(self._tools)

    def fetchMore(self, parent: Index) -> None:
        if parent.isValid() or self._exposed >= len(self._tools):
            return
        end = min(len(self._tools), self._exposed + self.chunk)
        self.beginInsertRows(QModelIndex(), self._exposed, end - 1)
        self._exposed = end
        self.endInsertRows()

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _SERVED_ROLES:
            return None
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
        description = _description(tool)
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
            if self._bold is None:  # made on first paint: a QFont needs the application
                self._bold = QFont()
                self._bold.setBold(True)
            return self._bold
        if role == Role.RAW:
            return tool
        if role == Role.KEY:
            return node.key
        if role == Role.SEARCH:
            return node.folded()
        return None
