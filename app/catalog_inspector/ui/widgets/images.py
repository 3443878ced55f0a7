"""Untrusted image bytes drawn small, the one way: decoded by Qt under one allocation limit, scaled to a bound.

A result's image previews and an item's icons both come from servers; this is where the limit is set, once."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QImageReader, QPixmap
from PySide6.QtWidgets import QHBoxLayout

__all__ = ["ALLOCATION_MB", "clear_row", "pixmap_of"]

ALLOCATION_MB = 64  # what Qt may allocate to decode one untrusted image

QImageReader.setAllocationLimit(ALLOCATION_MB)


def pixmap_of(data: bytes, longest: int, grow: bool = False) -> QPixmap | None:
    """`data` decoded and scaled so its longer side is at most `longest` (`grow`: exactly `longest`); None when
    Qt cannot decode it (corrupt, not the format it claims, over the allocation limit)."""
    image = QImage()
    if not image.loadFromData(data):
        return None
    if grow or max(image.width(), image.height()) > longest:
        image = image.scaled(
            longest, longest, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
    return QPixmap.fromImage(image)


def clear_row(row: QHBoxLayout) -> None:
    """Take every widget out of a row of images or buttons (its trailing stretch stays)."""
    while row.count() > 1:
        item = row.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widget.deleteLater()
