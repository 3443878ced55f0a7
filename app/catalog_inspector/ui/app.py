"""Starting the desktop app: display check, QApplication, the main window."""

from __future__ import annotations

import os
import sys

__all__ = ["display_problem", "run_app"]


def display_problem() -> str | None:
    """One line explaining why no window can open here, or None."""
    if sys.platform != "linux" or os.environ.get("QT_QPA_PLATFORM"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return (
        "mcp-catalog-inspector: no display found (DISPLAY and WAYLAND_DISPLAY are unset); "
        "run it in a desktop session, under xvfb-run, or with QT_QPA_PLATFORM=offscreen"
    )


def run_app(argv: list[str]) -> int:
    problem = display_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    from PySide6.QtWidgets import QApplication, QLabel

    app = QApplication([sys.argv[0], *argv])
    label = QLabel("MCP Catalog Inspector")
    label.show()
    return app.exec()
