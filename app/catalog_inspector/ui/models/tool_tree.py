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

Qt 6's QTreeView fetches one more chunk in *every* relayout of the root while
canFetchMore says yes, so without a say from the view each change (a keystroke,
a refresh) exposed another chunk until all were: `fetch_gate`, set by the view's
owner, says when the view really wants more rows (scrolled to the end, rows running
out in view). Only exposed rows carry their row number, so a change costs what
they cost, not what the catalog does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from catalog_inspector.core.text import first_line, is_plain_name, visible
from catalog_inspector.ui import theme
from catalog_inspector.ui.models.roles import Role, tooltip
from catalog_inspector.ui.models.tool_nodes import (
    PREVIEW,
    Node,
    annotation_badges,
    description_of,
    preview,
    schemas_of,
)
from catalog_inspector.ui.models.tool_plan import ToolsPlanner

if TYPE_CHECKING:
    from catalog_inspector.core.calls import LintIssue

__all__ = ["CHUNK", "KEEP_CHUNKS", "ToolTreeModel", "annotation_badges"]

Index = QModelIndex | QPersistentModelIndex

NAME, TITLE, ANNOTATIONS, TOKENS, DESCRIPTION = range(5)
HEADERS = ("Name", "Title", "Annotations", "Tokens", "Description")
LAST_COLUMN = len(HEADERS) - 1
_COLUMNS = range(len(HEADERS))
# Top-level rows exposed at a time: QTreeView relays them all out on each change, in the event after it (a
# filter's key at 10,000 tools: 4.3-7.8 ms for 1,000 rows, 1.9-2.0 ms for 300: ~13 screens of rows).
CHUNK = 300
KEEP_CHUNKS = 3  # a change keeps at most this many chunks of what the user had scrolled through
_INVALID = QModelIndex()
# The roles data() answers. A delegate asks seven roles per cell on every paint; the
# others (decoration, alignment, background, check state) return at the door.
_R = Qt.ItemDataRole
_SERVED_ROLES = frozenset(
    int(r)
    for r in (
        _R.DisplayRole,
        _R.ToolTipRole,
        _R.FontRole,
        _R.ForegroundRole,
        _R.TextAlignmentRole,
        Role.RAW,
        Role.KEY,
        Role.SEARCH,
        Role.DRIFT,
        Role.FLAGGED,
        Role.CELL,
    )
)
# What the last refresh did to a tool: a sign before its name, a colour (a `ui.theme` ink, resolved against
# the palette when painted), and words for the tooltip.
MARKS = {
    "added": ("+ ", theme.ADDED, "Added by the last refresh."),
    "changed": ("Δ ", theme.CHANGED, "Changed by the last refresh: the Drift tab shows every difference."),
    "removed": ("− ", theme.REMOVED, "Removed by the last refresh: shown greyed until the next one."),
}
FLAG = ("⚑ ", theme.FLAGGED, "Differs from the catalog you approved: approve it again once you have checked it.")
TOKENS_TIP = (
    "What the tool costs in a model's context before the first message: its name, title, description and "
    "schemas as a host sends them, in o200k_base tokens (GPT-4o's encoding; other models' differ by a few "
    "percent). Hosts add a few tokens of framing per tool."
)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
# A tool whose x-mcp-header annotation is invalid: kept and shown, with what a conforming client does with it.
EXCLUDED = ("⊘ excluded", "Excluded by conforming 2026-07-28 clients:")


def _runs(rows: list[int]) -> Iterable[tuple[int, int]]:
    """Sorted rows as (first, last) runs of consecutive rows."""
    start = end = rows[0]
    for row in rows[1:]:
        if row != end + 1:
            yield start, end
            start = row
        end = row
    yield start, end


class ToolTreeModel(QAbstractItemModel):
    """Tools and their schemas, filtered by name and description; see the module docstring.

    Attributes:
        chunk: how many top-level rows a view gets at a time (see the module docstring).
        fetch_gate: when set, views may fetch more rows only while it returns True (see the module docstring).

    Signals: only QAbstractItemModel's own.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.chunk = CHUNK
        self.fetch_gate: Callable[[], bool] | None = None
        self._exposed = 0  # top-level rows views know of: the first `_exposed` of `_tools`, the numbered ones
        self._all: list[Node] = []  # the catalog, in server order
        self._by_name: dict[str, Node] = {}
        self._tools: list[Node] = []  # the shown rows: `_all` less what the filter hides
        self._needle = ""
        # Nodes dropped by the last change stay referenced until the next one: Qt's
        # indexes point at them without owning them, and a view may hold plain
        # indexes (QTreeView's item list) until its delayed relayout.
        self._retired: list[Any] = []
        self._bold: QFont | None = None  # tool names: one font, not one per painted cell
        self._ghost_font: QFont | None = None
        self._marks: dict[str, str] = {}  # tool name → what the last refresh did to it (see MARKS)
        self._flagged: frozenset[str] = frozenset()  # tools that differ from the approved catalog
        # Tools with lint issues → the issues, kept as given (the desk's own mapping: 10,000 linted tools are not
        # copied nor turned into words until a tooltip asks).
        self._linted: Mapping[str, Sequence[LintIssue]] = {}
        self._excluded: dict[str, str] = {}  # tools conforming 2026-07-28 clients drop → why (x-mcp-header)
        self._tokens: Mapping[str, int] = {}  # tool → what it costs in a model's context (`core.catalog.tokens`)
        self._sort: tuple[int, bool] | None = None  # (column, descending) the rows are sorted by; None: server order

    # -- applying a catalog or a filter -------------------------------------
    def tool_names(self) -> list[str]:
        """Every tool of the catalog in server order, shown or hidden by the filter (not the removed ones' ghosts)."""
        marks = self._marks
        return [node.key for node in self._all if marks.get(node.key) != "removed"]

    def set_marks(
        self,
        marks: dict[str, str],
        flagged: frozenset[str] = frozenset(),
        linted: Mapping[str, Sequence[LintIssue]] | None = None,
        excluded: dict[str, str] | None = None,
    ) -> None:
        """Mark tools as the last refresh left them (`added`, `changed`, `removed` for ghost rows), the ones
        that differ from the approved catalog, those with lint issues (`linted`: name → issues, kept as
        given: a new lint is a new mapping) and those conforming 2026-07-28 clients exclude (`excluded`: name → why). One
        dataChanged over the exposed rows."""
        linted, excluded = linted if linted is not None else {}, excluded or {}
        same_lint = linted is self._linted or (not linted and not self._linted)
        if marks == self._marks and flagged == self._flagged and same_lint and excluded == self._excluded:
            return
        self._marks, self._flagged, self._linted, self._excluded = dict(marks), flagged, linted, dict(excluded)
        if self._exposed:
            self.dataChanged.emit(self.index(0, 0), self.index(self._exposed - 1, LAST_COLUMN))

    def set_tokens(self, tokens: Mapping[str, int]) -> None:
        """Each tool's cost in tokens (the Tokens column), kept as given (a new count is a new mapping); sorted by
        it, the rows take their new order."""
        if tokens is self._tokens or (not tokens and not self._tokens):
            return
        self._tokens = tokens
        if self._sort is not None and self._sort[0] == TOKENS:
            self._show(self._ordered(self._matching(self._all)), [])
        if self._exposed:
            self.dataChanged.emit(self.index(0, TOKENS), self.index(self._exposed - 1, TOKENS))

    def tokens_of(self, name: str) -> int | None:
        return self._tokens.get(name)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Rows by a column (a view's header click); the server's order again for a column past the last.

        Linear-logarithmic in the tools shown, and a relayout like a filter's: expanded rows and the
        selection follow their tools.
        """
        self._sort = (column, order == Qt.SortOrder.DescendingOrder) if 0 <= column <= LAST_COLUMN else None
        self._show(self._ordered(self._matching(self._all)), [])

    def _ordered(self, nodes: list[Node]) -> list[Node]:
        if self._sort is None:
            return nodes
        column, descending = self._sort
        if column == TOKENS:
            tokens = self._tokens
            return sorted(nodes, key=lambda node: tokens.get(node.key, -1), reverse=descending)
        if column == TITLE:
            return sorted(
                nodes, key=lambda node: str((node.tool or {}).get("title") or "").casefold(), reverse=descending
            )
        if column == DESCRIPTION:
            return sorted(nodes, key=lambda node: first_line(description_of(node.tool or {})).casefold(),
                          reverse=descending)  # fmt: skip
        if column == ANNOTATIONS:
            return sorted(nodes, key=lambda node: " ".join(annotation_badges(node.tool or {})), reverse=descending)
        return sorted(nodes, key=lambda node: node.key.casefold(), reverse=descending)

    def mark_of(self, name: str) -> str:
        return self._marks.get(name, "")

    def tool_at(self, index: Index) -> dict[str, Any] | None:
        """The tool of a tool's row, the very wire object as sent (None for a schema row or no row); not read
        through Qt, which would hand back a copy with its keys sorted (see `Role.RAW`)."""
        node = self._node(index)
        return node.tool if node is not None else None

    def has_tool(self, name: str) -> bool:
        return name in self._by_name

    def matching_count(self) -> int:
        """How many tools the filter keeps (views may not have fetched all of their rows yet)."""
        return len(self._tools)

    def catalog_count(self) -> int:
        """How many rows the catalog has, shown or hidden by the filter (removed tools' ghosts included)."""
        return len(self._all)

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
        planner = self.planner(tools)
        while not planner.step():
            pass
        self.apply(planner)

    def planner(self, tools: Sequence[dict[str, Any]]) -> ToolsPlanner:
        """Work out what `tools` change, a slice at a time (see `ToolsPlanner`); `apply` it when done."""
        return ToolsPlanner(self._by_name, tools)

    def apply(self, planner: ToolsPlanner) -> None:
        """Make a finished plan the catalog shown: content first, then one structural change."""
        plan = planner.result
        assert plan is not None, "the plan is not finished"
        rebuilt: list[Node] = []
        for node, tool, search in plan.edited:
            # Schema rows a view has seen are rebuilt only if the schemas changed.
            if node.children is not None and schemas_of(node.tool or {}) != schemas_of(tool):
                rebuilt.append(node)
            node.tool, node.search = tool, search
        self._retired = plan.retired
        self._by_name = plan.by_name
        self._all = list(plan.by_name.values())  # dicts keep insertion order: the server's
        shown = self._ordered(self._matching(self._all))
        if shown == self._tools:  # identity, element by element: no row moves
            self._rebuild_children(rebuilt)
            rows = sorted(node.row for node, _, _ in plan.edited if 0 <= node.row < self._exposed)
            for first, last in _runs(rows) if rows else ():
                self.dataChanged.emit(self.index(first, 0), self.index(last, LAST_COLUMN))
        else:
            self._show(shown, rebuilt)

    def set_filter(self, text: str) -> None:
        """Show only tools whose name or description contains `text`, ignoring case."""
        needle = text.casefold().strip()
        if needle == self._needle:
            return
        narrowing = self._needle in needle
        self._needle = needle
        # Typing on only narrows the rows shown (already in their order); anything else starts from the catalog.
        self._show(self._matching(self._tools) if narrowing else self._ordered(self._matching(self._all)), [])

    def _matching(self, nodes: list[Node]) -> list[Node]:
        needle = self._needle
        if not needle:
            return list(nodes)
        return [node for node in nodes if needle in node.search]  # folded when planned: no calls

    def _drop_children(self, nodes: list[Node]) -> None:
        """Forget the schema rows of `nodes` (their schemas changed): built again when a view asks."""
        for node in nodes:
            self._retired.append(node.children)
            node.children = None

    def _rebuild_children(self, nodes: list[Node]) -> None:
        """Replace the schema rows of `nodes` while the top-level rows stay put."""
        for node in nodes:
            count = len(node.children or ())
            if not 0 <= node.row < self._exposed or not count:  # not shown (or not fetched): no view holds these rows
                self._drop_children([node])
                continue
            parent = self.createIndex(node.row, 0, node)
            self.beginRemoveRows(parent, 0, count - 1)
            self._drop_children([node])
            node.children = []
            self.endRemoveRows()
            new_count = len(Node(None, 0, node.key, None, node.tool).materialize())
            self.beginInsertRows(parent, 0, new_count - 1)
            node.children = None
            self.endInsertRows()

    def _show(self, shown: list[Node], rebuilt: list[Node]) -> None:
        """Make `shown` the top-level rows, as one structural change."""
        if shown == self._tools:
            return
        before = self._exposed
        exposed = min(len(shown), max(self.chunk, min(before, self.chunk * KEEP_CHUNKS)))
        if not before:
            self._drop_children(rebuilt)
            if exposed:
                self.beginInsertRows(QModelIndex(), 0, exposed - 1)
            self._renumber(shown, exposed)
            if exposed:
                self.endInsertRows()
        elif not exposed:
            self.beginRemoveRows(QModelIndex(), 0, before - 1)
            self._renumber(shown, 0)
            self.endRemoveRows()
            self._drop_children(rebuilt)
        else:
            self._relayout(shown, rebuilt, exposed)

    def _renumber(self, shown: list[Node], exposed: int) -> None:
        """Make `shown` the rows and the first `exposed` of them the exposed ones, numbered; the rest are -1.

        Child rows find their parent's row through `row`, so it must be right before Qt asks. Only
        exposed rows are ever numbered, so un-numbering the old ones is linear in what was exposed.
        """
        for node in self._tools[: self._exposed]:
            node.row = -1
        self._tools = shown
        self._exposed = exposed
        for row in range(exposed):
            shown[row].row = row

    def _relayout(self, shown: list[Node], rebuilt: list[Node], exposed: int) -> None:
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        self._drop_children(rebuilt)
        self._renumber(shown, exposed)
        moved_from: list[QModelIndex] = []
        moved_to: list[QModelIndex] = []
        for index in before:
            node: Node = index.internalPointer()
            if node.parent is None:  # a tool row: follow its tool, or go if the tool did (or is past the exposed rows)
                if node.row != index.row() or node.row >= exposed:
                    moved_from.append(index)
                    kept = 0 <= node.row < exposed
                    moved_to.append(self.createIndex(node.row, index.column(), node) if kept else _INVALID)
            elif (
                not node.attached() or node.tool_row() >= exposed
            ):  # under a tool now hidden, gone, rebuilt or unexposed
                moved_from.append(index)
                moved_to.append(_INVALID)
        self.changePersistentIndexList(moved_from, moved_to)
        self.layoutChanged.emit()

    # -- Qt model interface -------------------------------------------------
    def _node(self, index: Index) -> Node | None:
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
        node: Node = parent.internalPointer()
        return len(node.materialize()) if node.expandable() else 0

    def columnCount(self, parent: Index = _INVALID) -> int:
        return len(HEADERS)

    def hasChildren(self, parent: Index = _INVALID) -> bool:
        # Hot path, as index(): a tool always has its schema rows.
        if not parent.isValid():
            return self._exposed > 0
        if parent.column() != 0:
            return False
        node: Node = parent.internalPointer()
        return node.tool is not None or node.expandable()

    def canFetchMore(self, parent: Index) -> bool:
        if parent.isValid() or self._exposed >= len(self._tools):
            return False
        return self.fetch_gate is None or self.fetch_gate()

    def fetchMore(self, parent: Index) -> None:
        if parent.isValid() or self._exposed >= len(self._tools):
            return
        start, end = self._exposed, min(len(self._tools), self._exposed + self.chunk)
        self.beginInsertRows(QModelIndex(), start, end - 1)
        for row in range(start, end):
            self._tools[row].row = row
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
        if role == Role.CELL:  # asked for every cell painted: one answer instead of seven
            return self._cell(node, index.column())
        if node.tool is not None:
            return self._tool_data(node, index.column(), role)
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == NAME:
                return visible(node.key, PREVIEW)
            if index.column() == TITLE:
                return preview(node.value)
        if role == Role.RAW:
            return node.value
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == TITLE and not isinstance(node.value, dict | list):
            return tooltip(json.dumps(node.value, ensure_ascii=False))
        return None

    def row_cells(self, index: Index) -> tuple[tuple[str, bool, bool], ...] | None:
        """A tool's row as Role.CELL's answers, one a column; None for a schema row or a row with a cell that is
        not plain (the view then paints that row cell by cell)."""
        node: Node | None = index.internalPointer() if index.isValid() else None
        if node is None or node.tool is None:
            return None
        cells = tuple(self._cell(node, column) for column in _COLUMNS)
        return None if None in cells else cells  # type: ignore[return-value]

    def _cell(self, node: Node, column: int) -> tuple[str, bool, bool] | None:
        """A plain cell as (text, right-aligned, bold); None for one with a colour or a font of its own (a marked or
        flagged tool's name, a removed tool's row, an unusual name), which the style paints from its roles."""
        key = node.key
        if node.tool is None:
            if column == NAME:
                return visible(key, PREVIEW), False, False
            return (preview(node.value) if column == TITLE else ""), False, False
        mark = self._marks.get(key) if self._marks else ""
        if (mark or key in self._flagged) and (column == NAME or mark == "removed"):
            return None  # a sign and a colour before the name; a ghost's whole row greyed
        if column == NAME:
            return (visible(key, PREVIEW), False, True) if is_plain_name(key) else None
        return self._tool_data(node, column, _R.DisplayRole) or "", column == TOKENS, False

    def _tool_data(self, node: Node, column: int, role: int) -> Any:
        tool = node.tool
        assert tool is not None
        if self._marks or self._flagged:
            marked = self._marked_data(node, column, role)
            if marked is not None:
                return marked
        if (self._linted or self._excluded) and column == ANNOTATIONS and role in (_R.DisplayRole, _R.ToolTipRole):
            lint, excluded = self._linted.get(node.key), self._excluded.get(node.key)
            if lint or excluded is not None:
                from catalog_inspector.core.calls import LintSeverity, lint_words, worst_severity  # loaded by now

                if role == _R.ToolTipRole:  # the lint, once made, lists the exclusion with the rest
                    return tooltip(lint_words(lint) if lint else f"{EXCLUDED[1]} {excluded}")
                worst = worst_severity(lint) if lint else None
                badge = "lint notes" if worst is LintSeverity.INFO else "⚠ lint"  # ⓘ is missing from common fonts
                return " · ".join([EXCLUDED[0] if excluded is not None else badge, *annotation_badges(tool)])
        description = description_of(tool)
        if role == Qt.ItemDataRole.DisplayRole:
            if column == NAME:
                name = visible(node.key, PREVIEW)
                return name if is_plain_name(node.key) else f"⚠ {name}"
            if column == TITLE:
                title = tool.get("title")
                return visible(title, PREVIEW) if isinstance(title, str) else ""
            if column == ANNOTATIONS:
                return " · ".join(annotation_badges(tool))
            if column == TOKENS:
                tokens = self._tokens.get(node.key)
                return f"{tokens:,}" if tokens is not None else ""
            if column == DESCRIPTION:
                return visible(first_line(description))
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == NAME and not is_plain_name(node.key):
                return tooltip(f"Unusual name: {visible(node.key)} (outside A–Z a–z 0–9 . _ -, or longer than 128)")
            if column == DESCRIPTION and description:
                return tooltip(description)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if column == TOKENS else None
        if role == Qt.ItemDataRole.ToolTipRole and column == TOKENS and node.key in self._tokens:
            return tooltip(TOKENS_TIP)
        if role == Qt.ItemDataRole.ForegroundRole and column == NAME and not is_plain_name(node.key):
            return theme.brush(theme.UNUSUAL)
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
        if role == Role.DRIFT:
            return ""
        if role == Role.FLAGGED:
            return False
        return None

    def _marked_data(self, node: Node, column: int, role: int) -> Any:
        """What a drift mark or an approval flag changes in a tool's row; None for the unmarked answer."""
        mark = self._marks.get(node.key, "")
        flagged = node.key in self._flagged
        if role == Role.DRIFT:
            return mark
        if role == Role.FLAGGED:
            return flagged
        if not mark and not flagged:
            return None
        signs = (FLAG[0] if flagged else "") + (MARKS[mark][0] if mark else "")
        if role == Qt.ItemDataRole.DisplayRole and column == NAME:
            name = visible(node.key, PREVIEW)
            return f"{signs}{name}" if is_plain_name(node.key) else f"{signs}⚠ {name}"
        if role == Qt.ItemDataRole.ForegroundRole and (column == NAME or mark == "removed"):
            return theme.brush(FLAG[1] if flagged else MARKS[mark][1])
        if role == Qt.ItemDataRole.ToolTipRole and column == NAME:
            words = [text for on, text in ((flagged, FLAG[2]), (bool(mark), MARKS.get(mark, ("", "", ""))[2])) if on]
            if not is_plain_name(node.key):
                words.append(f"Unusual name: {visible(node.key)} (outside A–Z a–z 0–9 . _ -, or longer than 128)")
            return tooltip("\n".join(words))
        if role == Qt.ItemDataRole.FontRole and mark == "removed":
            if self._ghost_font is None:
                self._ghost_font = QFont()
                self._ghost_font.setItalic(True)
                self._ghost_font.setStrikeOut(True)
            return self._ghost_font
        return None
