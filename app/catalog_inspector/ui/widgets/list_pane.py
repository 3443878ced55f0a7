"""The catalog tabs for resources, resource templates and prompts: a table and its detail, beside the page timeline."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QSplitter, QTableView, QVBoxLayout, QWidget

from catalog_inspector.core.catalog import LIST_KINDS, icons_of
from catalog_inspector.ui import theme
from catalog_inspector.ui.models.item_list import ItemListModel
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.presenters.checks import Checks
from catalog_inspector.ui.presenters.request import RequestKind
from catalog_inspector.ui.widgets.icon_strip import IconStrip, icons_above
from catalog_inspector.ui.widgets.item_detail import item_detail
from catalog_inspector.ui.widgets.labels import plain_label
from catalog_inspector.ui.widgets.panes import SPLIT_SIZES, plain_text_view, set_capped_text
from catalog_inspector.ui.widgets.request_box import RequestBox
from catalog_inspector.ui.widgets.tables import OneLineDelegate, compact_table, fit_columns
from catalog_inspector.ui.widgets.timeline_panel import TimelinePanel

__all__ = ["ListPane"]


OBJECT_NAMES = {  # table, detail, timeline
    "resources": ("resourceList", "resourceDetail", "resourcesTimeline"),
    "resource_templates": ("resourceTemplateList", "resourceTemplateDetail", "resourceTemplatesTimeline"),
    "prompts": ("promptList", "promptDetail", "promptsTimeline"),
}
REQUEST_KINDS: dict[str, RequestKind] = {"resources": "resource", "resource_templates": "template", "prompts": "prompt"}
NOTICE_NAMES = {
    "resources": "resourcesNotice",
    "resource_templates": "resourceTemplatesNotice",
    "prompts": "promptsNotice",
}
# A list that failed on its own is a failure's colour; a finding about the server a warning's; not offered, none.
# (`ui.theme` tints and lines: the label's own text, the palette's, stays readable on them.)
NOTICE_STYLES: dict[str, tuple[theme.Shade, theme.Shade] | None] = {
    "failed": (theme.FAILURE, theme.FAILURE_LINE),
    "rejected": (theme.FAILURE, theme.FAILURE_LINE),
    "unimplemented": (theme.NOTICE, theme.CAUTION_LINE),
    "not_offered": None,
}


def notice_style(state: str) -> str:
    """The notice's style sheet for `state`, in the palette of now."""
    colors = NOTICE_STYLES.get(state)
    return theme.frame_style("QLabel", *colors) if colors else ""


PLACEHOLDERS = {
    "resources": "Select a resource to see its whole URI, every field and the JSON the server sent.",
    "resource_templates": "Select a resource template to see every field and the JSON the server sent.",
    "prompts": "Select a prompt to see its arguments, every field and the JSON the server sent.",
}


class ListPane(QWidget):
    """One of resources, resource templates or prompts: the table, the chosen item's detail, its timeline.

    Resources can be read, templates filled in and read, and prompts got (`request`, below the detail; with
    `checks`, a server's questions are answered there too).
    A new catalog keeps the chosen item chosen (found again by its key) while it is still there; each server's
    catalog comes back with that server's own item chosen (its request box's), never another server's row.

    Attributes:
        model: the `ItemListModel` behind `table`.
        table: the items, one line each (`resourceList`, `resourceTemplateList`, `promptList`).
        detail: the chosen item in full, plain text (`resourceDetail`, `resourceTemplateDetail`, `promptDetail`).
        request: the read/get box.
        timeline: the list's page timeline.
        notice: what the shown catalog says of this list on its own (`resourcesNotice` …; hidden when it was
            walked whole): why it was not accepted while the tools were, a finding (offered, not implemented),
            or that the server does not offer it. `notice_state` is its state (`ui.presenters.words.list_notice`).

    Signals: none.
    """

    def __init__(self, list_name: str, parent: QWidget | None = None, checks: Checks | None = None) -> None:
        super().__init__(parent)
        self.list_name = list_name
        table_name, detail_name, timeline_name = OBJECT_NAMES[list_name]
        kind = LIST_KINDS[list_name]
        self.model = ItemListModel(kind.columns, self, key_field=kind.key_field)
        self.table = QTableView(self)
        self.table.setObjectName(table_name)
        self.table.setModel(self.model)
        compact_table(self.table, QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setItemDelegate(OneLineDelegate(self.table))
        self.detail = plain_text_view(detail_name, self)
        self.icons = IconStrip(f"{detail_name}Icons", self)
        self.detail.setPlaceholderText(PLACEHOLDERS[list_name])
        self.detail.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.timeline = TimelinePanel(timeline_name, self)
        self.notice = plain_label(NOTICE_NAMES[list_name], self)
        self.notice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notice.setContentsMargins(6, 4, 6, 4)
        self.notice.hide()
        self.notice_state = "none"
        self._shown: dict[str, Any] | None = None  # the item the detail shows
        self._kept_key: str | None = None  # the chosen item's key across a new catalog
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_row_changed)
        self.model.modelAboutToBeReset.connect(self._on_model_about_to_be_reset)
        self.model.modelReset.connect(self._on_model_reset)
        content = QSplitter(Qt.Orientation.Vertical, self)
        content.addWidget(self.table)
        content.addWidget(icons_above(self.icons, self.detail, content))
        self.request = RequestBox(REQUEST_KINDS[list_name], self, checks)
        self.request.marks_changed.connect(self.model.set_marks)
        content.addWidget(self.request)
        content.setSizes([220, 200, 220])
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(content)
        split.addWidget(self.timeline)
        split.setSizes(SPLIT_SIZES)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.notice)
        layout.addWidget(split, 1)

    def set_notice(self, state: str, text: str) -> None:
        """Say what the catalog shown says of this list on its own (`none`: nothing, the notice hides)."""
        if state == "none":
            if self.notice_state != "none":
                self.notice.hide()
                self.notice.clear()
            self.notice_state = state
            return
        if state != self.notice_state:  # a style sheet set again polishes the label again
            theme.themed_style(self.notice, lambda: notice_style(state))
        self.notice_state = state
        if self.notice.text() != text:
            self.notice.setText(text)
        self.notice.show()

    def read_link(self, link: dict[str, Any]) -> None:
        """Read a resource link from a result (`resources/read` of its URI): the listed resource if the catalog
        has it, else the link itself, described as sent."""
        row = self.model.row_of(str(link.get("uri")))
        if row is not None:
            self.table.setCurrentIndex(self.model.index(row, 0))
        else:
            self.table.clearSelection()
            self.table.setCurrentIndex(self.model.index(-1, 0))
            self._shown = link
            note = "Not in the resources list: a resource link from a result, as sent.\n\n"
            set_capped_text(self.detail, note + item_detail(self.list_name, link))
            self.request.set_item(link)
        self.request.send()

    def _on_model_about_to_be_reset(self) -> None:
        # The item to choose again: the bound server's own (its box's item; the row chosen now may be another
        # server's), else the row chosen now.
        current = self.table.currentIndex()
        if self.request.presenter is not None:
            item = self.request.item
            self._kept_key = self.model.key_of(item) if item is not None else None
        else:
            self._kept_key = current.data(Role.KEY) if current.isValid() else None

    def _on_model_reset(self) -> None:
        # A reset forgets the current row without a signal: choose the same item again, or show nothing.
        fit_columns(self.table)
        row = self.model.row_of(self._kept_key) if self._kept_key is not None else None
        self._kept_key = None
        if row is not None:
            self.table.setCurrentIndex(self.model.index(row, 0))
        self._show(self.table.currentIndex())

    def _on_table_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show(current)

    def _show(self, index: QModelIndex) -> None:
        item = self.model.item_at(index)
        if item is not self._shown:
            self._shown = item
            self.icons.set_icons(icons_of(item) if item is not None else [])
            if item is None:
                self.detail.clear()
            else:
                set_capped_text(self.detail, item_detail(self.list_name, item))
        # The same prompt again (a refresh) keeps the arguments typed for it.
        if item != self.request.item:
            self.request.set_item(item)
