"""The About dialog: what this build is (the app's version) and what it runs on (the MCP SDK, Qt, Python)."""

from __future__ import annotations

import importlib.metadata
import platform

import PySide6
from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import QMessageBox, QWidget

import catalog_inspector
from catalog_inspector.ui.accessible import named

__all__ = ["about_text", "show_about", "versions"]

TITLE = "About MCP Catalog Inspector"


def _distribution_version(name: str) -> str:
    # A frozen bundle has the metadata only of the packages its spec copies (copy_metadata).
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def versions() -> dict[str, str]:
    """What the dialog reports, in its order: the app, the MCP SDK, Qt (and PySide6 when it differs), Python."""
    qt = qVersion()
    bindings = PySide6.__version__
    return {
        "MCP Catalog Inspector": catalog_inspector.__version__,
        "MCP Python SDK": _distribution_version("mcp"),
        "Qt": qt if bindings == qt else f"{qt} (PySide6 {bindings})",
        "Python": f"{platform.python_version()} ({platform.python_implementation()})",
    }


def about_text() -> str:
    """The dialog's plain text: the app and its version, one line of purpose, then one line per dependency."""
    found = versions()
    app = f"MCP Catalog Inspector {found.pop('MCP Catalog Inspector')}"
    purpose = "See exactly what an MCP server's catalog is, page by page."
    return "\n".join([app, purpose, "", *(f"{name}: {value}" for name, value in found.items())])


def show_about(parent: QWidget | None) -> QMessageBox:
    """Open the About box, window-modal but without a nested event loop (`open()`, not `exec()`), and return it."""
    box = QMessageBox(parent)
    box.setObjectName("aboutDialog")
    box.setWindowTitle(TITLE)
    box.setTextFormat(Qt.TextFormat.PlainText)  # message boxes render HTML otherwise
    box.setText(about_text())
    box.setIcon(QMessageBox.Icon.NoIcon)
    if parent is not None and not parent.windowIcon().isNull():
        box.setIconPixmap(parent.windowIcon().pixmap(64, 64))
    box.setStandardButtons(QMessageBox.StandardButton.Close)
    named(box.button(QMessageBox.StandardButton.Close), "", "Close the About box")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
