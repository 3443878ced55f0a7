"""Noticing that the config file changed outside the app."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

__all__ = ["ConfigWatcher"]

SETTLE_MS = 250  # editors write in steps (truncate, write, rename): react once it is over


class ConfigWatcher(QObject):
    """Says `changed` once per burst of changes to one file, including its creation and replacement.

    The folder is watched too: an editor that saves by renaming a new file over
    the old one ends the watch on the old file, and a file that does not exist
    yet can only be seen appearing from its folder. On a first run even the folder may not exist: the nearest
    folder above it that does is watched instead, and each folder below it as it appears, down to the file.
    """

    changed = Signal()

    def __init__(self, path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self._watcher = QFileSystemWatcher(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._watcher.fileChanged.connect(self._on_watcher_changed)
        self._watcher.directoryChanged.connect(self._on_watcher_changed)
        self._last = self._stamp()
        self._watch()

    @property
    def folders(self) -> list[str]:
        """The folders watched now: the config file's own, or the nearest above it that exists."""
        return self._watcher.directories()

    def _stamp(self) -> tuple[int, int] | None:
        try:
            status = self.path.stat()
        except OSError:
            return None
        return status.st_mtime_ns, status.st_size

    def _watch(self) -> None:
        nearest = next((folder for folder in (self.path.parent, *self.path.parent.parents) if folder.is_dir()), None)
        watched = self._watcher.directories()
        for folder in watched:  # a folder above the config folder is watched only until the one below exists
            if folder != str(nearest):
                self._watcher.removePath(folder)
        if nearest is not None and str(nearest) not in watched:
            self._watcher.addPath(str(nearest))
        if self.path.is_file() and str(self.path) not in self._watcher.files():
            self._watcher.addPath(str(self.path))

    def _on_watcher_changed(self, _path: str) -> None:
        self._watch()
        self._timer.start()

    def _on_timer_timeout(self) -> None:
        stamp = self._stamp()
        if stamp != self._last:  # other files in the folder (backups, temporary files) change too
            self._last = stamp
            self.changed.emit()
