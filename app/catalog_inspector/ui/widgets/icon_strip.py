"""An item's icons, drawn only when they are safe raster data (`core.catalog.icons`): decoded by Qt under its
allocation limit (`ui.widgets.images`), scaled small; anything else is said in the item's detail text, never drawn or fetched."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from catalog_inspector.core.catalog import Icon
from catalog_inspector.ui.widgets.images import clear_row, pixmap_of

__all__ = ["ICON_PIXELS", "IconStrip", "icons_above"]

ICON_PIXELS = 32  # the longer side of an icon as shown


class IconStrip(QWidget):
    """A row of icons above a detail (hidden when there is none to draw). `shown` counts the icons drawn; one that
    Qt cannot decode is left out and counted in `undecodable`."""

    def __init__(self, object_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(0, 0, 0, 0)
        self._row.addStretch(1)
        self.shown = 0
        self.undecodable = 0
        self.hide()

    def set_icons(self, icons: Sequence[Icon]) -> None:
        clear_row(self._row)
        self.shown = self.undecodable = 0
        for icon in icons:
            if icon.kind != "raster" or icon.data is None:
                continue
            pixmap = pixmap_of(icon.data, ICON_PIXELS, grow=True)
            if pixmap is None:
                self.undecodable += 1
                continue
            label = QLabel(self)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setPixmap(pixmap)
            label.setToolTip(f"{icon.mime}, {icon.source}")
            self._row.insertWidget(self._row.count() - 1, label)
            self.shown += 1
        self.setVisible(self.shown > 0)


def icons_above(icons: IconStrip, detail: QWidget, parent: QWidget) -> QWidget:
    """A detail with its item's icons over it, as one widget (for a splitter)."""
    both = QWidget(parent)
    layout = QVBoxLayout(both)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(icons)
    layout.addWidget(detail, 1)
    return both
