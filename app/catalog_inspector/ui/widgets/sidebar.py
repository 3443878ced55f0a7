"""The sidebar: the configured servers, with what the app says about the configuration above them."""

from __future__ import annotations

from PySide6.QtWidgets import QListView, QVBoxLayout, QWidget

from catalog_inspector.ui import theme
from catalog_inspector.ui.models.server_list import ServerListModel
from catalog_inspector.ui.presenters import AppPresenter
from catalog_inspector.ui.widgets.labels import plain_label

__all__ = ["ServerSidebar"]

NEED_ROWS = 200  # rows measured for the width the servers' lines need (a long list: its first ones)


class ServerSidebar(QWidget):
    """The server list (`serverList`, over `servers`) under the configuration's notice (`configNotice`, hidden when
    there is nothing to say).

    Attributes:
        servers: one row per configured server (and per entry that could not be used).
        view: the list of them.
        notice: what the app says about the configuration (plain text).
    """

    def __init__(self, app: AppPresenter, notice: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.servers = ServerListModel(app, self)
        self.view = QListView(self)
        self.view.setObjectName("serverList")
        self.view.setModel(self.servers)
        self.view.setSpacing(2)
        self.notice = plain_label("configNotice", self, wrap=False)
        self.notice.setWordWrap(True)
        self.notice.setMargin(6)
        theme.themed_style(
            self.notice, lambda: theme.frame_style("QLabel#configNotice", theme.NOTICE, theme.NOTICE_LINE)
        )
        self.set_notice(notice)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.notice)
        layout.addWidget(self.view)

    def set_notice(self, notice: str) -> None:
        """What the sidebar says about the configuration (empty: nothing to say)."""
        self.notice.setText(notice)
        self.notice.setVisible(bool(notice))

    def need(self) -> int:
        """The width the server list needs to show its lines whole (measured per row, NEED_ROWS at most)."""
        view, servers = self.view, self.servers
        rows = min(servers.rowCount(), NEED_ROWS)
        text = max((view.sizeHintForIndex(servers.index(row)).width() for row in range(rows)), default=0)
        bar = view.verticalScrollBar().sizeHint().width()
        return text + 2 * (view.frameWidth() + view.spacing()) + bar
