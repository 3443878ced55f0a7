"""File ▸ Export snapshot: which catalog to write, under which name, and asking when there are two.

The document is written off the GUI thread by the runtime (through `AppPresenter.export`,
whose `exported` signal says how it went); what it says about itself comes from
`core.catalog.export`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Qt
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from catalog_inspector.core.catalog import Snapshot, Which, export_file_name, export_note
from catalog_inspector.core.text import visible
from catalog_inspector.ui.presenters import AppPresenter, ServerPresenter

__all__ = ["SnapshotExport", "export_choices"]


def export_choices(presenter: ServerPresenter | None) -> dict[Which, Snapshot]:
    """What can be exported for a server: its accepted catalog, and its latest attempt when that was not accepted."""
    return presenter.export_choices() if presenter is not None else {}


class SnapshotExport(QObject):
    """Exports the selected server's catalog for the window."""

    def __init__(
        self,
        window: QMainWindow,
        app: AppPresenter,
        settings: QSettings,
        current: Callable[[], ServerPresenter | None],
    ) -> None:
        super().__init__(window)
        self._window = window
        self._app = app
        self._settings = settings
        self._current = current

    def available(self) -> bool:
        return bool(export_choices(self._current()))

    def export(self, path: Path | None = None, which: Which | None = None) -> bool:
        """Write the selected server's catalog as `mcp-catalog-snapshot/1` JSON, saying in the file which it is.

        `which` is "accepted" (the catalog of record) or "attempt" (the latest walk, when it
        was not accepted). None: the only one there is; when the latest refresh was rejected
        while a catalog stays accepted, the `exportChoice` question asks which (and the export
        goes on once it is answered). `path` None: a file dialog suggests `<server>-<date>.json`
        in the folder used last. False if there was nothing to export, no file was chosen, or
        `which` names nothing there is.
        """
        presenter = self._current()
        choices = export_choices(presenter)
        if presenter is None or not choices:
            self._app.messages.info("Nothing to export yet.")
            return False
        if which is None and len(choices) > 1:
            self._ask_which(presenter, path)
            return True
        chosen: Which = which if which is not None else next(iter(choices))
        snapshot = choices.get(chosen)
        if snapshot is None:
            return False
        if path is None:
            path = self._ask_path(export_file_name(presenter.name, snapshot, chosen))
            if path is None:
                return False
        self._app.messages.progress(f"Writing {path}…")
        self._app.export(snapshot, path, export_note(chosen, snapshot, choices.get("attempt")))
        return True

    def _ask_path(self, name: str) -> Path | None:
        folder = self._settings.value("export/folder")
        start = Path(folder) if isinstance(folder, str) and Path(folder).is_dir() else Path.home()
        chosen, _ = QFileDialog.getSaveFileName(self._window, "Export snapshot", str(start / name), "JSON (*.json)")
        if not chosen:
            return None
        self._settings.setValue("export/folder", str(Path(chosen).parent))
        return Path(chosen)

    def _ask_which(self, presenter: ServerPresenter, path: Path | None) -> QMessageBox:
        failed = export_choices(presenter)["attempt"]
        why = visible(failed.error.message, 300) if failed.error is not None else failed.status
        box = QMessageBox(QMessageBox.Icon.Question, "Export snapshot", "", parent=self._window)
        box.setObjectName("exportChoice")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(
            f"The latest refresh of {visible(presenter.name, 120)} was not accepted ({why}).\n\n"
            "Export the accepted catalog (the last good one, still shown) or the failed attempt (its pages "
            "and error, as the walk left them)? The file says which it is."
        )
        accepted = box.addButton("Accepted catalog", QMessageBox.ButtonRole.AcceptRole)
        accepted.setObjectName("exportAccepted")
        attempt = box.addButton("Failed attempt", QMessageBox.ButtonRole.AcceptRole)
        attempt.setObjectName("exportAttempt")
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(accepted)

        def answered() -> None:
            clicked = box.clickedButton()
            if clicked is accepted or clicked is attempt:
                self.export(path, "accepted" if clicked is accepted else "attempt")

        box.finished.connect(answered)
        box.finished.connect(box.deleteLater)
        box.open()
        return box
