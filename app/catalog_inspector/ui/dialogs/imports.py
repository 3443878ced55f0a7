"""Importing servers other MCP clients already know: from their usual files, a chosen file, or pasted JSON.

Entries are copied into the app's own file; the other client's file is only
read. VS Code's `${input:ID}` values are asked for here (masked when the input
says `password`) and written into the copy, since the app has no prompt of its
own when a server starts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.config import (
    ConfigError,
    Input,
    ShapeError,
    Source,
    Variables,
    inputs_used,
    known_locations,
    look,
    parse_entry,
    read_document,
    servers_of,
)
from catalog_inspector.core.text import visible
from catalog_inspector.ui import theme
from catalog_inspector.ui.accessible import describe, described, named
from catalog_inspector.ui.keyboard import follow_layout
from catalog_inspector.ui.widgets.labels import plain_label

__all__ = ["ImportDialog", "with_inputs"]


def with_inputs(entry: Any, answers: dict[str, str]) -> Any:
    """`entry` with each `${input:ID}` replaced by its answer (other variables stay for later)."""
    if isinstance(entry, str):
        for key, value in answers.items():
            entry = entry.replace(f"${{input:{key}}}", value)
        return entry
    if isinstance(entry, dict):
        return {key: with_inputs(value, answers) for key, value in entry.items()}
    if isinstance(entry, list):
        return [with_inputs(value, answers) for value in entry]
    return entry


MIN_WIDTH, MAX_WIDTH = 640, 1200  # pixels: the dialog is sized to its paths between these
PADDING = 80  # the list's frame, scroll bar and the dialog's margins


class ImportDialog(QDialog):
    """Pick a source, tick servers, answer inputs; `chosen()` gives the entries to copy in."""

    def __init__(self, parent: QWidget | None, locations: list[Any] | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importDialog")
        self.setWindowTitle("Import servers")
        self.source: Source | None = None
        layout = QVBoxLayout(self)
        self.looked = plain_label("importLooked", self)
        layout.addWidget(self.looked)
        self.files = QListWidget(self)
        self.files.setObjectName("importFiles")
        found = look(locations if locations is not None else known_locations())
        for place in found:
            state = "found" if place.exists else "not found"
            item = QListWidgetItem(f"{place.location.client} — {place.location.path} ({state})")
            item.setData(Qt.ItemDataRole.UserRole, str(place.location.path))
            if not place.exists:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            self.files.addItem(item)
        count = sum(place.exists for place in found)
        self.looked.setText(f"Looked in {len(found)} places other clients use; found {count}:")
        self.files.currentItemChanged.connect(self._on_files_current_changed)
        layout.addWidget(self.files)
        self.open_button = QPushButton("Open a file…", self)
        self.open_button.setObjectName("importOpenFile")
        self.open_button.clicked.connect(self._on_open_clicked)
        layout.addWidget(self.open_button)
        self.pasted = QPlainTextEdit(self)
        self.pasted.setObjectName("importPasted")
        self.pasted.setTabChangesFocus(True)  # Tab goes on: no keyboard trap
        self.pasted.setPlaceholderText('…or paste JSON here: {"mcpServers": {…}} or {"servers": {…}}')
        self.pasted.setMaximumHeight(100)
        self.pasted.textChanged.connect(self._on_pasted_changed)
        layout.addWidget(self.pasted)
        self.problem = plain_label("importProblem", self)
        theme.themed_style(self.problem, lambda: theme.ink_style(theme.PROBLEM))
        layout.addWidget(self.problem)
        self.servers = QListWidget(self)
        self.servers.setObjectName("importServers")
        self.servers.itemChanged.connect(self._on_servers_changed)
        layout.addWidget(self.servers)
        self.inputs_form = QFormLayout()
        layout.addLayout(self.inputs_form)
        self.answers: dict[str, QLineEdit] = {}
        self.buttons = QDialogButtonBox(self)
        self.import_button = self.buttons.addButton("Import", QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setObjectName("importButton")
        cancel = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        named(cancel, "", "Close without importing anything")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._on_servers_changed()
        describe(self)
        # Wide enough for the paths listed (they are what a person checks), within what a screen holds.
        widest = max((self.files.fontMetrics().horizontalAdvance(self.files.item(row).text())
                      for row in range(self.files.count())), default=0)  # fmt: skip
        self.resize(min(max(MIN_WIDTH, widest + PADDING), MAX_WIDTH), self.sizeHint().height())

    # -- sources ---------------------------------------------------------------
    def load_file(self, path: Path) -> None:
        try:
            self._show(servers_of(read_document(path)))
        except (ConfigError, ShapeError) as exc:
            self._fail(str(exc))

    def load_text(self, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError as exc:
            self._fail(f"the pasted text is not JSON: {exc}")
            return
        try:
            self._show(servers_of(data))
        except ShapeError as exc:
            self._fail(str(exc))

    def _on_files_current_changed(self, item: QListWidgetItem | None, _previous: QListWidgetItem | None) -> None:
        if item is not None and item.flags() & Qt.ItemFlag.ItemIsEnabled:
            self.load_file(Path(item.data(Qt.ItemDataRole.UserRole)))

    def _on_open_clicked(self) -> None:
        chosen, _ = QFileDialog.getOpenFileName(self, "Import servers from", str(Path.home()), "JSON (*.json)")
        if chosen:
            self.load_file(Path(chosen))

    def _on_pasted_changed(self) -> None:
        text = self.pasted.toPlainText().strip()
        if text:
            self.load_text(text)

    def _fail(self, message: str) -> None:
        self.source = None
        self.problem.setText(visible(message, 500))
        self.servers.clear()
        self._on_servers_changed()

    def _show(self, source: Source) -> None:
        self.source = source
        self.problem.setText("" if source.servers else "No servers in it.")
        self.servers.blockSignals(True)
        self.servers.clear()
        for name, entry in source.servers.items():
            try:
                described = parse_entry(str(name), entry, Variables(environ={}, inputs={}, workspace=Path.home()))
                what = described.describe()
            except ConfigError:
                what = "kept as written; its variables are expanded when it starts"
            item = QListWidgetItem(visible(f"{name} — {what}", 300))
            item.setData(Qt.ItemDataRole.UserRole, str(name))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.servers.addItem(item)
        self.servers.blockSignals(False)
        self._on_servers_changed()

    # -- choosing --------------------------------------------------------------
    def _checked(self) -> list[str]:
        names = []
        for row in range(self.servers.count()):
            item = self.servers.item(row)
            if item.checkState() == Qt.CheckState.Checked:
                names.append(str(item.data(Qt.ItemDataRole.UserRole)))
        return names

    def _needed(self) -> list[Input]:
        if self.source is None:
            return []
        used: list[str] = []
        for name in self._checked():
            used += [key for key in inputs_used(self.source.servers[name]) if key not in used]
        declared = {item.id: item for item in self.source.inputs}
        return [declared.get(key, Input(key)) for key in used]

    def _on_servers_changed(self, *_args: object) -> None:
        kept = {key: line.text() for key, line in self.answers.items()}  # answers outlive a change of ticks
        while self.inputs_form.rowCount():
            self.inputs_form.removeRow(0)
        self.answers = {}
        for needed in self._needed():
            line = QLineEdit(kept.get(needed.id, needed.default), self)
            line.setObjectName(f"importInput:{needed.id}")
            if needed.password:
                line.setEchoMode(QLineEdit.EchoMode.Password)
            line.textChanged.connect(self._on_answer_changed)
            self.answers[needed.id] = line
            self.inputs_form.addRow(visible(needed.description or needed.id, 200), line)  # the row's label names it
            what = "A value the file asks for (a password: hidden)" if needed.password else "A value the file asks for"
            named(line, "", described(f"{what}:", needed.id))
        follow_layout(self)  # made after the dialog: Tab reaches them before Import
        self._on_answer_changed()

    def _on_answer_changed(self) -> None:
        ready = bool(self._checked()) and all(line.text() for line in self.answers.values())
        self.import_button.setEnabled(ready)

    def chosen(self) -> dict[str, Any]:
        """The ticked entries as they will be copied, with the inputs answered."""
        if self.source is None:
            return {}
        answers = {key: line.text() for key, line in self.answers.items()}
        return {name: with_inputs(self.source.servers[name], answers) for name in self._checked()}
