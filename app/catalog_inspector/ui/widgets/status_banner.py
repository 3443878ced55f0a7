"""The status banner: what went wrong, in words, with one button (Retry, Refresh, Reconnect); or a sign-in
that waits for the browser, with its link and buttons."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QMouseEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from catalog_inspector.ui import theme
from catalog_inspector.ui.models.roles import tooltip
from catalog_inspector.ui.presenters.words import Banner
from catalog_inspector.ui.widgets.labels import ElidedLabel, plain_label
from catalog_inspector.ui.widgets.sign_in import SignInControls

__all__ = ["StatusBanner"]

# Each kind's background and border (`ui.theme` resolves them against the palette: dark palettes get dark tints).
COLORS = {
    "failure": theme.FAILURE,
    "lost": theme.FAILURE,
    "stale": theme.NOTICE,
    "drift": theme.INFO,
    "consent": theme.NOTICE,
    "entry": theme.FAILURE,
    "signin": theme.SIGNIN,
}
BORDERS = {"signin": theme.SIGNIN_LINE}  # others: BORDER
BORDER = theme.FAILURE_LINE
SHOW, HIDE = "Details…", "Less"


class StatusBanner(QFrame):
    """Hidden unless there is something to say about the selected server.

    It shows the message's title and one detail line, each cut to the banner's width
    (`statusBannerTitle`, `statusBannerDetail`). When anything is cut or more lines
    follow, "Details…" (or a click on those lines) shows the whole message instead,
    wrapped and selectable (`statusBannerText`, which always holds the whole text),
    and the tooltip holds it too; "Copy message" in the context menu copies it.
    Everything is plain text: the message quotes the server. Its background is the kind's
    tint in the palette of now (set again when the palette changes), under the palette's text.

    A `signin` banner (a server waits for a person to sign in) adds a row with the
    authorization URL and its buttons (`sign_in`, a `SignInControls`: `signInUrl`,
    `signInOpen`, `signInCopy`, `signInCancel`) instead of the one button.

    Attributes:
        kind: the ErrorKind behind what is shown (None for a stale notice or nothing).
        state: the banner's kind (`none`, `failure`, `stale`, `lost`, `drift`, `consent`, `entry`, `signin`).
        sign_in: the sign-in row (shown for `signin` only).
        expanded: whether the whole message is shown.

    Signals:
        retry_clicked(): the user pressed the button: one fresh walk from the first page, or, for
            `drift`, show the drift.
    """

    retry_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = ElidedLabel("statusBannerTitle", self, own_tooltip=False)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.detail = ElidedLabel("statusBannerDetail", self, own_tooltip=False)
        self.label = plain_label("statusBannerText", self, wrap=True)  # the whole message, on demand
        self.label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.label.hide()
        for line in (self.title, self.detail):
            line.elision_changed.connect(self._on_line_elision_changed)
            line.installEventFilter(self)
        self.details = QPushButton(SHOW, self)
        self.details.setObjectName("statusBannerDetails")
        self.details.setCheckable(True)
        self.details.setToolTip("Show the whole message, to read or copy")
        self.details.toggled.connect(self._on_details_toggled)
        self.sign_in = SignInControls(self)
        self.sign_in.hide()
        self.retry = QPushButton("Retry", self)
        self.retry.setObjectName("retryButton")
        self.retry.setToolTip("Start one fresh walk from the first page")
        self.retry.clicked.connect(self.retry_clicked)
        self.copy = QAction("Copy message", self)
        self.copy.setObjectName("statusBannerCopy")
        self.copy.triggered.connect(self.copy_message)
        self.addAction(self.copy)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.lines = QVBoxLayout()
        self.lines.setSpacing(2)
        for widget in (self.title, self.detail, self.label, self.sign_in):
            self.lines.addWidget(widget)
        layout = self.row = QHBoxLayout(self)
        layout.addLayout(self.lines, 1)
        layout.addWidget(self.details, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.retry, 0, Qt.AlignmentFlag.AlignTop)
        self.kind: str | None = None
        self.state = "none"  # the Banner's kind: what the button means
        self.expanded = False
        self._more_lines = False  # lines beyond the title and the detail
        self.hide()

    def show_banner(self, banner: Banner) -> None:
        """Show what the presenter says (or hide, for `none`); a new message starts collapsed."""
        self.kind = banner.error_kind
        self.state = banner.kind
        if banner.kind == "none":
            self._set_text(Banner())
            self.hide()
            return
        if banner.text != self.label.text():
            self._set_text(banner)
        self.sign_in.setVisible(banner.kind == "signin")
        if banner.kind == "signin":
            self.sign_in.set_link(banner.url)
        self.retry.setText(banner.button)
        self.retry.setVisible(bool(banner.button))
        self.retry.setEnabled(banner.button_enabled)
        self.setProperty("bannerState", banner.kind)
        background, border = COLORS[banner.kind], BORDERS.get(banner.kind, BORDER)
        theme.themed_style(self, lambda: theme.frame_style("QFrame#statusBanner", background, border))
        self.show()

    def collapsed_height(self) -> int:
        """How high the banner is with its title, one detail line and its buttons (whether or not it is up)."""
        margins = self.row.contentsMargins()
        lines = self.title.sizeHint().height() + self.lines.spacing() + self.detail.sizeHint().height()
        buttons = max(self.retry.sizeHint().height(), self.details.sizeHint().height())
        return max(lines, buttons) + margins.top() + margins.bottom() + 2 * self.frameWidth()

    def set_expanded(self, expanded: bool) -> None:
        """Show the whole message (wrapped, selectable) or the two cut lines."""
        self.details.setChecked(expanded)  # its toggled signal does the rest

    def copy_message(self) -> None:
        """Put the whole message on the clipboard, as plain text."""
        QGuiApplication.clipboard().setText(self.label.text())

    def _set_text(self, banner: Banner) -> None:
        self.title.setText(banner.title)
        self.detail.setText(banner.detail)
        self.detail.setVisible(bool(banner.detail) and not self.expanded)
        self.label.setText(banner.text)
        self._more_lines = banner.text.count("\n") > 1
        self.set_expanded(False)
        self._update_more()

    def _has_more(self) -> bool:
        return self._more_lines or self.title.elided or self.detail.elided

    def _update_more(self) -> None:
        more = self._has_more()
        self.details.setVisible(more or self.expanded)
        self.copy.setEnabled(bool(self.label.text()))
        # The whole message as the tooltip, when the lines shown do not hold it all.
        self.setToolTip(tooltip(self.label.text()) if more and not self.expanded else "")
        cursor = Qt.CursorShape.PointingHandCursor if more else Qt.CursorShape.ArrowCursor
        for line in (self.title, self.detail):
            line.setCursor(cursor)

    def _on_line_elision_changed(self, _elided: bool) -> None:
        self._update_more()

    def _on_details_toggled(self, expanded: bool) -> None:
        self.expanded = expanded
        self.details.setText(HIDE if expanded else SHOW)
        self.title.setVisible(not expanded)
        self.detail.setVisible(not expanded and bool(self.detail.text()))
        self.label.setVisible(expanded)
        self._update_more()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # A click on the cut lines opens the whole message, as the button does.
        if (
            watched in (self.title, self.detail)
            and event.type() == QEvent.Type.MouseButtonRelease
            and isinstance(event, QMouseEvent)
            and event.button() == Qt.MouseButton.LeftButton
            and self._has_more()
        ):
            self.set_expanded(True)
            return True
        return super().eventFilter(watched, event)
