"""The Servers menu: add, import, edit, duplicate, disable and remove entries of the app's own config file.

It only ever edits the file (atomically, through `ConfigStore`, off the GUI thread:
a write and its fsync, and any value kept in the keyring, go to the app's offload
threads and report back); `reload` then applies it, so the sidebar, the supervisors
and their signals follow the file as they do when it changes outside the app.
Another client's file is never edited: the menu is given no store for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox

from catalog_inspector.core.config import ConfigError, ConfigStore, store_secret
from catalog_inspector.core.text import visible
from catalog_inspector.ui.accessible import named
from catalog_inspector.ui.presenters import AppPresenter

if TYPE_CHECKING:  # imported when first opened: nothing of them is needed for the first frame
    from catalog_inspector.ui.dialogs.imports import ImportDialog
    from catalog_inspector.ui.dialogs.server import ServerDialog

__all__ = ["ServerMenu"]

T = TypeVar("T")


class ServerMenu(QObject):
    """The Servers menu's actions over the app's config file, for the server the window has selected.

    Attributes:
        actions: by key; object names `serverAction:<key>` (add, import, edit, duplicate,
            disable, remove, signout, demo: the bundled demo servers listed or not).
    """

    def __init__(
        self,
        window: QMainWindow,
        app: AppPresenter,
        menu: QMenu,
        selected: Callable[[], str | None],
        select: Callable[[str], bool],
        sign_out: Callable[[], object],
    ) -> None:
        super().__init__(window)
        self._window = window
        self._app = app
        self._selected = selected  # the selected server's (or unusable entry's) name
        self._select = select
        self._store: ConfigStore | None = None
        self._reload: Callable[[Callable[[], object] | None], None] | None = None
        self.actions: dict[str, QAction] = {}
        entries: tuple[tuple[str, str, Callable[[], object]], ...] = (
            ("add", "&Add server…", self.add_server),
            ("import", "&Import from other clients…", self.import_servers),
            ("edit", "&Edit server…", self.edit_server),
            ("duplicate", "&Duplicate server", self.duplicate_server),
            ("disable", "Disa&ble / enable server", self.toggle_server_disabled),  # E is Edit's
            ("remove", "&Remove server…", self.remove_server),
            ("signout", "Sign &out", sign_out),
        )
        for key, text, handler in entries:
            action = QAction(text, window)
            action.setObjectName(f"serverAction:{key}")
            action.triggered.connect(handler)
            menu.addAction(action)
            self.actions[key] = action
        menu.addSeparator()
        demo = QAction("Show the bundled de&mo servers", window)  # D is Duplicate's
        demo.setObjectName("serverAction:demo")
        demo.setCheckable(True)
        demo.setToolTip("List the demo servers this app ships beside your own (your configuration is left alone)")
        demo.triggered.connect(app.set_show_demo)
        menu.addAction(demo)
        self.actions["demo"] = demo
        self.update(can_sign_out=False)

    def manage(self, store: ConfigStore, reload: Callable[[Callable[[], object] | None], None]) -> None:
        """Edit `store` (the app's own file); `reload(then)` reads and applies it at once, then calls `then`."""
        self._store = store
        self._reload = reload

    def entry(self, name: str) -> dict[str, Any] | None:
        """The file's entry for `name` as written (None: no file to edit, or no such entry)."""
        if self._store is None:
            return None
        try:
            entry = self._store.read()["mcpServers"].get(name)
        except ConfigError:
            return None
        return entry if isinstance(entry, dict) else None

    def update(self, can_sign_out: bool) -> None:
        """Enable what can act on the selection: adding needs a file, editing an entry in it."""
        has_file = self._store is not None
        name = self._selected()
        in_file = name is not None and self.entry(name) is not None
        self.actions["add"].setEnabled(has_file)
        self.actions["import"].setEnabled(has_file)
        for key in ("edit", "duplicate", "disable", "remove"):
            self.actions[key].setEnabled(in_file)
        self.actions["signout"].setEnabled(can_sign_out)
        self.actions["demo"].setEnabled(bool(self._app.demo))
        self.actions["demo"].setChecked(self._app.demo_shown)

    # -- the actions -----------------------------------------------------------
    def add_server(self) -> ServerDialog | None:
        """Open the dialog for a new server; Save writes it to the config file (returns the open dialog)."""
        if self._store is None:
            return None
        from catalog_inspector.ui.dialogs.server import ServerDialog

        dialog = ServerDialog(self._window, taken=self._names(), keyring=self._app.keyring)
        dialog.accepted.connect(lambda: self._on_server_dialog_saved(dialog, None))
        dialog.open()
        return dialog

    def import_servers(self) -> ImportDialog | None:
        """Open the import dialog; Import copies the ticked entries into the app's own file."""
        if self._store is None:
            return None
        from catalog_inspector.ui.dialogs.imports import ImportDialog

        dialog = ImportDialog(self._window)
        dialog.accepted.connect(lambda: self._on_import_dialog_accepted(dialog))
        dialog.open()
        return dialog

    def edit_server(self) -> ServerDialog | None:
        name = self._selected()
        entry = self.entry(name) if name is not None else None
        if name is None or entry is None:
            return None
        from catalog_inspector.ui.dialogs.server import ServerDialog

        dialog = ServerDialog(self._window, name, entry, taken=self._names() - {name}, keyring=self._app.keyring)
        dialog.accepted.connect(lambda: self._on_server_dialog_saved(dialog, name))
        dialog.open()
        return dialog

    def duplicate_server(self) -> None:
        name = self._selected()
        if name is not None and self.entry(name) is not None:
            self._save(lambda store: store.duplicate(name), self._select)

    def toggle_server_disabled(self) -> None:
        name = self._selected()
        entry = self.entry(name) if name is not None else None
        if name is not None and entry is not None:
            disabled = entry.get("disabled") is True
            self._save(lambda store: store.set_disabled(name, not disabled))

    def remove_server(self) -> QMessageBox | None:
        """Ask, then remove the selected server from the config file (returns the open question)."""
        name = self._selected()
        if name is None or self.entry(name) is None:
            return None
        box = QMessageBox(QMessageBox.Icon.Question, "Remove server", "", parent=self._window)
        box.setObjectName("removeServerQuestion")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(f"Remove {visible(name, 200)} from the configuration? Its history stays on disk.")
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
        named(box.button(QMessageBox.StandardButton.Yes), "", "Remove the entry from the configuration file")
        named(box.button(QMessageBox.StandardButton.Cancel), "", "Keep the entry")
        box.accepted.connect(lambda: self._save(lambda store: store.remove(name)))
        box.finished.connect(box.deleteLater)
        box.open()
        return box

    # -- the file --------------------------------------------------------------
    def _save(self, change: Callable[[ConfigStore], T], then: Callable[[T], object] | None = None) -> None:
        """Make `change` to the file off the GUI thread; once it is written, apply the file and call `then` with
        its result. A change that fails is said on the message bridge and changes nothing."""
        store = self._store
        assert store is not None

        def done(result: T) -> None:
            after = (lambda: then(result)) if then is not None else None
            if self._reload is not None:
                self._reload(after)  # `then` once the file is applied: a new server is in the sidebar by then
            elif after is not None:
                after()

        self._app.save_config(lambda: change(store), done, "save the configuration")

    def _names(self) -> frozenset[str]:
        if self._store is None:
            return frozenset()
        try:
            return frozenset(self._store.read()["mcpServers"])
        except ConfigError:
            return frozenset()

    def _on_import_dialog_accepted(self, dialog: ImportDialog) -> None:
        chosen = dialog.chosen()

        def imported(given: list[str]) -> None:
            if given:
                self._app.messages.info(f"Imported {len(given)} server(s); each asks before its first run.")
                self._select(given[0])

        self._save(lambda store: list(store.import_entries(chosen)), imported)
        dialog.deleteLater()

    def _on_server_dialog_saved(self, dialog: ServerDialog, old_name: str | None) -> None:
        name = dialog.result_name()
        entry, secrets = dialog.result_with_secrets()  # read from the widgets here; kept off the GUI thread

        def put(store: ConfigStore) -> str:
            for path, value in secrets.items():  # a keyring that refuses one stops the save: nothing is written
                store_secret(path, value)
            store.put(name, entry, replacing=old_name)
            return name

        self._save(put, self._select)
        dialog.deleteLater()
