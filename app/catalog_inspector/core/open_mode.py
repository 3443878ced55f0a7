"""How a command shows a sign-in (the `--oauth-open` choices), apart from `core.oauth`: the command line's
parser offers them without importing the SDK (a usage error is then said at once, before a server that was
started ahead has done anything)."""

from __future__ import annotations

import enum
import os
import sys

__all__ = ["OpenMode", "default_mode"]


class OpenMode(enum.StrEnum):
    BROWSER = "browser"  # the system browser; the URL is printed too
    PRINT = "print"  # the URL on stderr; a person opens it
    FETCH = "fetch"  # requested by the inspector itself, redirects followed to the listener


def default_mode() -> OpenMode:
    """`browser` where there is a display to show one on, else `print`."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return OpenMode.PRINT
    return OpenMode.BROWSER
