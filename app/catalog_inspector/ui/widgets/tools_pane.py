"""The tools tab: the filter, the tool tree, the detail pane and the tools page timeline."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.catalog import icon_words, icons_of, ui_words
from catalog_inspector.core.text import visible
from catalog_inspector.ui import theme
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.tool_nodes import annotation_badges
from catalog_inspector.ui.models.tool_plan import SLICE, ToolsPlanner
from catalog_inspector.ui.models.tool_tree import ToolTreeModel
from catalog_inspector.ui.widgets.cell_paint import OneLineCellDelegate
from catalog_inspector.ui.widgets.column_fit import ColumnFit, LastStretches
from catalog_inspector.ui.widgets.icon_strip import IconStrip, icons_above
from catalog_inspector.ui.widgets.panes import DISPLAY_CAP, SPLIT_SIZES, plain_text_view, set_capped_text
from catalog_inspector.ui.widgets.tables import (
    COLUMN_MAX,
    fit_tree_columns,
    widen_tree_columns,
)
from catalog_inspector.ui.widgets.timeline_panel import TimelinePanel
from catalog_inspector.ui.widgets.tool_tree_view import ToolTreeView

if TYPE_CHECKING:
    from catalog_inspector.core.calls import LintIssue

__all__ = ["TOOL_COLUMNS", "ToolsPane", "tool_detail"]

# Name, Title, Annotations, Tokens: each as wide as the rows in view need, up to its cap; when the width is short
# they give up some toward their floors (a name the least) so that the Description column keeps DESCRIPTION_ROOM
# of the tree in view. A cell cut short elides; its tooltip and the detail pane have it whole.
TOOL_COLUMNS = (ColumnFit(160, COLUMN_MAX), ColumnFit(40, COLUMN_MAX), ColumnFit(80, 260), ColumnFit(None, 120))
DESCRIPTION_ROOM = 120


def tool_detail(tool: dict[str, Any], resource_uris: frozenset[str] | None = None) -> str:
    """The detail text of a tool; `resource_uris`: the judged resources list's URIs (an MCP Apps interface is said
    to be listed there or not; None: that list was not walked whole)."""
    description = tool.get("description")
    lines = [f"Name: {visible(str(tool.get('name', '')), DISPLAY_CAP)}"]
    if isinstance(tool.get("title"), str):
        lines.append(f"Title: {visible(tool['title'], DISPLAY_CAP)}")
    badges = annotation_badges(tool)
    if badges:
        lines.append(f"Annotations: {', '.join(badges)}")
    lines.extend(ui_words(tool, "tools", resource_uris))
    lines.extend(icon_words(icons_of(tool)))
    lines.append("")
    # Each part cut to what the view shows (DISPLAY_CAP) before it is escaped: a 1 MiB description costs no more.
    lines.append(
        visible(description, DISPLAY_CAP, keep_newlines=True) if isinstance(description, str) else "(no description)"
    )
    lines.append("")
    lines.append("As the server sent it:")
    lines.append(visible(json.dumps(tool, indent=2, ensure_ascii=False), DISPLAY_CAP, keep_newlines=True))
    return "\n".join(lines)


class ToolsPane(QWidget):
    """Tool tree with its filter and detail view, beside the tools page timeline.

    The tree's model filters itself (see ToolTreeModel), so `tree.model()` is
    `model` and its top-level rows are the tools the filter keeps.

    Signals:
        tools_applied(): a catalog given to `set_tools` is now the one shown.
        rows_planned(int): a slice of a catalog was planned (that many new rows' worth of objects).
        tool_selected(object): the current tool changed (its wire object, or None).
    """

    tools_applied = Signal()
    rows_planned = Signal(int)
    tool_selected = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ToolTreeModel(self)
        self._planner: ToolsPlanner | None = None
        # Tools the user expanded, by name: a tool the filter hides loses its row, and
        # with it the view's expanded state; this gives it back when it shows again.
        self._expanded: set[str] = set()
        self._detail_tool: dict[str, Any] | None = None  # the tool the detail shows
        self._detail_removed = False  # … shown as removed by the last refresh
        self.resource_uris: frozenset[str] | None = None  # the catalog's resources, for a tool's MCP Apps interface
        self._marks: tuple[dict[str, str], frozenset[str]] = ({}, frozenset())
        self._linted: Mapping[str, Sequence[LintIssue]] = {}
        self._excluded: dict[str, str] = {}
        self.given = 0  # rows in the latest catalog given (ghosts included)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("toolFilter")
        self.filter.setPlaceholderText("Filter tools by name or description")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._on_filter_text_changed)
        self.filter_count = QLabel(self)
        self.filter_count.setObjectName("toolFilterCount")
        self.filter_count.setTextFormat(Qt.TextFormat.PlainText)
        self.filter_count.setVisible(False)
        self.tree = ToolTreeView(self)  # a plain tool row painted in one call
        self.tree.setObjectName("toolTree")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)  # row heights from one row, not one per row
        self._delegate = OneLineCellDelegate(self.tree)  # a plain cell painted from one answer of the model
        self.tree.setItemDelegate(self._delegate)  # and that row's height from no data
        self.model.fetch_gate = self._wants_more_rows
        self.tree.setWordWrap(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.tree.header().setStretchLastSection(True)
        for column, width in enumerate((170, 130, 150, 64)):
            self.tree.setColumnWidth(column, width)
        # Sorted by a header click, in three turns: up, down, and the server's order again.
        self.tree.header().setSortIndicatorClearable(True)
        self.tree.header().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.tree.setSortingEnabled(True)
        self.tree.selectionModel().currentRowChanged.connect(self._on_current)
        self.columns = LastStretches(self.tree, TOOL_COLUMNS, DESCRIPTION_ROOM)  # no column out of sight (`fit`)
        # An empty result says so where the rows would be, not in a corner.
        self.empty_hint = QLabel(self.tree.viewport())
        self.empty_hint.setObjectName("toolFilterEmpty")
        self.empty_hint.setTextFormat(Qt.TextFormat.PlainText)
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setVisible(False)
        self.tree.viewport().installEventFilter(self)
        # The tree's colours are looked up when painted: a palette change needs a repaint, not a dataChanged.
        theme.theme().changed.connect(self.tree.viewport().update)
        self.tree.expanded.connect(self._on_tree_expanded)
        self.tree.collapsed.connect(self._on_tree_collapsed)
        self.detail = plain_text_view("toolDetail", self)
        self.detail.setPlaceholderText("Select a tool to see its full description and the JSON the server sent.")
        self.icons = IconStrip("toolIcons", self)
        self.timeline = TimelinePanel("pageTimeline", self)
        left = QSplitter(Qt.Orientation.Vertical, self)
        top = QWidget(left)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        filter_row = QHBoxLayout()
        filter_row.addWidget(self.filter, 1)
        filter_row.addWidget(self.filter_count)
        filter_row.addSpacing(8)  # "1 of 13 match" ran into the timeline's "Page timeline:" beside it
        top_layout.addLayout(filter_row)
        top_layout.addWidget(self.tree)
        left.addWidget(top)
        left.addWidget(icons_above(self.icons, self.detail, left))
        left.setSizes([500, 180])
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(left)
        split.addWidget(self.timeline)
        split.setSizes(SPLIT_SIZES)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

    def set_tools(
        self,
        tools: Sequence[dict[str, Any]],
        marks: dict[str, str] | None = None,
        flagged: frozenset[str] = frozenset(),
    ) -> None:
        """Show a new catalog: at once when it is small, else planned a slice per event (see `ToolsPlanner`).

        `marks` and `flagged` (see `ToolTreeModel.set_marks`) apply with the catalog;
        removed tools' ghost rows are among `tools`, after the catalog's own.
        A newer catalog given while one is being planned replaces it.
        """
        self._marks = (dict(marks or {}), flagged)
        self.given = len(tools)
        self._planner = self.model.planner(tools)
        if len(tools) <= SLICE:
            self._plan_step()
        else:
            QTimer.singleShot(0, self, self._plan_step)

    def set_lint(self, linted: Mapping[str, Sequence[LintIssue]], excluded: dict[str, str] | None = None) -> None:
        """Tools with lint issues (name → issues, kept as given) and those conforming 2026-07-28 clients exclude
        (name → why), marked in the Annotations column."""
        self._linted, self._excluded = linted, dict(excluded or {})
        if not self.planning:
            self.model.set_marks(*self._marks, self._linted, self._excluded)

    def show_tool(self, name: str) -> bool:
        """Make tool `name` the current row, in view: the filter cleared if it hides it, rows fetched up to it."""
        model = self.model
        if not model.has_tool(name):
            return False
        if not model.tool_index(name).isValid() and self.filter.text():
            self.filter.clear()
        while not model.tool_index(name).isValid() and model.rowCount() < model.matching_count():
            model.fetchMore(QModelIndex())
        index = model.tool_index(name)
        if index.isValid():
            self.tree.setCurrentIndex(index)
            self.tree.scrollTo(index)
        return index.isValid()

    def set_tokens(self, tokens: Mapping[str, int]) -> None:
        """Each tool's cost in tokens, for the Tokens column (empty until counted)."""
        self.model.set_tokens(tokens)

    @property
    def marks(self) -> tuple[dict[str, str], frozenset[str]]:
        """The marks given with the latest catalog (applied once it is)."""
        return self._marks

    @property
    def planning(self) -> bool:
        """A catalog is being planned; the tree shows the previous one until it is applied."""
        return self._planner is not None

    def _plan_step(self) -> None:
        planner = self._planner
        if planner is None:
            return
        if not planner.step():
            self.rows_planned.emit(SLICE)
            QTimer.singleShot(0, self, self._plan_step)
            return
        self._planner = None
        self.model.apply(planner)
        self.model.set_marks(*self._marks, self._linted, self._excluded)
        self._expanded = {name for name in self._expanded if self.model.has_tool(name)}
        # The rows in view read whole, as far as the width allows; with a schema open, columns only widen (its deep
        # keys may be out of view, and the tree scrolls sideways to them).
        if self._expanded:
            fit_tree_columns(self.tree, grow_only=True)
        else:
            self.columns.fit()
        self._detail_tool = None  # a catalog applied gives the current tool again (the server shown may be another)
        self._on_current(self.tree.currentIndex())
        self._show_filter_result()
        self.tools_applied.emit()

    def _on_filter_text_changed(self, text: str) -> None:
        self.model.set_filter(text)
        for name in self._expanded:
            index = self.model.tool_index(name)
            if index.isValid() and not self.tree.isExpanded(index):
                self.tree.expand(index)
        # The current row is invalidated when the filter hides its tool.
        self._on_current(self.tree.currentIndex())
        self._show_filter_result()

    def _show_filter_result(self) -> None:
        """While filtering: how many tools match, and in the view, that none does."""
        needle = self.filter.text().strip()
        matching, total = self.model.matching_count(), self.model.catalog_count()
        self.filter_count.setVisible(bool(needle))
        self.filter_count.setText(f"{matching:,} of {total:,} match")
        if needle and not matching and total:
            self.empty_hint.setText(f"No tool's name or description contains \u201c{visible(needle, 80)}\u201d.")
        else:
            self.empty_hint.setVisible(False)
            return
        self.empty_hint.setGeometry(self.tree.viewport().rect().adjusted(12, 12, -12, -12))
        self.empty_hint.setVisible(True)

    def _wants_more_rows(self) -> bool:
        """Whether the tree needs more of a big catalog's rows: scrolled to the end, or rows run out in view.

        Qt's tree otherwise fetches a chunk in every relayout (see `ToolTreeModel`), and each
        keystroke in the filter would cost more than the last.
        """
        bar = self.tree.verticalScrollBar()
        if bar.maximum() > 0 and bar.value() >= bar.maximum():
            return True
        return self.model.rowCount() * self._delegate.row_height() < self.tree.viewport().height()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.tree.viewport() and event.type() == QEvent.Type.Resize:
            self.empty_hint.setGeometry(self.tree.viewport().rect().adjusted(12, 12, -12, -12))
        return super().eventFilter(watched, event)

    def _on_tree_expanded(self, index: QModelIndex) -> None:
        if not index.parent().isValid():
            self._expanded.add(str(index.data(Role.KEY)))
        self.columns.held = True  # a schema open: its keys and values widen their columns, kept on a resize
        widen_tree_columns(self.tree, index)  # the keys and values just shown read whole, however deep

    def _on_tree_collapsed(self, index: QModelIndex) -> None:
        if not index.parent().isValid():
            self._expanded.discard(str(index.data(Role.KEY)))
            if not self._expanded:  # every schema closed: the columns share the width again
                self.columns.fit()

    def _on_current(self, index: QModelIndex | QPersistentModelIndex) -> None:
        while index.isValid() and index.parent().isValid():
            index = index.parent()
        tool = self.model.tool_at(index)
        removed = tool is not None and self.model.mark_of(str(index.data(Role.KEY))) == "removed"
        if tool is self._detail_tool and removed == self._detail_removed:  # every keystroke and catalog: on change
            return
        self._detail_tool, self._detail_removed = tool, removed
        self.icons.set_icons(icons_of(tool) if tool is not None else [])
        if tool is not None:
            text = tool_detail(tool, self.resource_uris)
            if removed:
                text = "Removed by the last refresh: this is the tool as the previous catalog had it.\n\n" + text
            set_capped_text(self.detail, text)
        else:
            self.detail.clear()
        self.tool_selected.emit(tool)
