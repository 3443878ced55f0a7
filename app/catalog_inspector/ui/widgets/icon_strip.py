"""An item's icons, drawn only when they are safe raster data (`core.catalog.icons`): decoded by Qt under its
allocation limit, scaled small; anything else is said in the item's detail text, never drawn or fetched."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QImageReader, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from catalog_inspector.core.catalog import Icon

__all__ = ["ICON_PIXELS", "IconStrip", "icons_above"]

ICON_PIXELS = 32  # the longer side of an icon as shown
ALLOCATION_MB = 64  # what Qt may allocate to decode one untrusted image (as for a result's images)

QImageReader.setAllocationLimit(ALLOCATION_MB)


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
        while self._row.count() > 1:
            item = self._row.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.shown = self.undecodable = 0
        for icon in icons:
            if icon.kind != "raster" or icon.data is None:
                continue
            image = QImage()
            if not image.loadFromData(icon.data):
                self.undecodable += 1
                continue
            scaled = image.scaled(
                ICON_PIXELS, ICON_PIXELS, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
            )
            label = QLabel(self)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setPixmap(QPixmap.fromImage(scaled))
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
