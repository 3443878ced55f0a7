"""Adding and editing one server entry: every field checked as typed, nothing invalid saved.

The dialog edits the entry's JSON, not a `ServerSpec`: keys it does not show
(another client's settings) are carried through unchanged. Environment and
header values are masked until "Show values" is ticked. The roots the server is
given when it asks (`roots/list`: `"roots": [{"uri", "name"}]`, file:// only), the
protocol era (`"protocolEra"`) and the log level asked of the server (`"logLevel"`) are
edited here too, and the client profile (`"client"`: who the client says it is) is chosen here.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.config import (
    BUDGET_KEYS,
    DEFAULT_LOG_LEVEL,
    LOG_LEVELS,
    ConfigError,
    Limits,
    Variables,
    keyring_status,
    parse_entry,
    reference,
    store_secret,
)
from catalog_inspector.ui import theme
from catalog_inspector.ui.accessible import describe, named
from catalog_inspector.ui.dialogs.client_profile import ClientProfileCombo
from catalog_inspector.ui.widgets.labels import plain_label

__all__ = ["ServerDialog"]

TRANSPORTS = (("stdio", "stdio (a local command)"), ("http", "Streamable HTTP"), ("sse", "legacy HTTP+SSE"))
SHOWN_KEYS = ("type", "transport", "command", "args", "env", "cwd", "url", "headers", "disabled", "budgets", "roots",
              "protocolEra", "client", "logLevel")  # fmt: skip
BUDGETS_PER_ROW = 4
LINE_PADDING = 24  # a line edit's frame and text margins around its text (a placeholder reads whole within it)
FIELDS = ("name", "command", "args", "env", "cwd", "url", "headers", "budgets", "roots", "client")
ERAS = (("auto", "auto (2026-07-28 when the server offers it)"), ("legacy", "legacy (initialize, 2025-11-25 and before)"),
        ("modern", "modern (2026-07-28 only)"))  # fmt: skip


class _Pairs(QTableWidget):
    """Names and values (env, headers); values masked unless shown."""

    def __init__(self, object_name: str, parent: QWidget) -> None:
        super().__init__(0, 2, parent)
        self.setObjectName(object_name)
        self.setHorizontalHeaderLabels(["Name", "Value"])
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().setVisible(False)
        self._values: list[str] = []
        self._shown = False
        self.itemChanged.connect(self._on_item_changed)

    def set_pairs(self, pairs: dict[str, str]) -> None:
        self.blockSignals(True)
        self.setRowCount(0)
        self._values = []
        for key, value in [*pairs.items(), ("", "")]:
            self._append(key, value)
        self.blockSignals(False)

    def _append(self, key: str, value: str) -> None:
        row = self.rowCount()
        self.insertRow(row)
        self._values.append(value)
        self.setItem(row, 0, QTableWidgetItem(key))
        self.setItem(row, 1, QTableWidgetItem(self._face(value)))

    def _face(self, value: str) -> str:
        return value if self._shown or not value else "•" * 8

    def show_values(self, shown: bool) -> None:
        self._shown = shown
        self.blockSignals(True)
        for row, value in enumerate(self._values):
            item = self.item(row, 1)
            if item is not None:
                item.setText(self._face(value))
        self.blockSignals(False)

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if item.column() == 1:
            # A masked cell edited while hidden takes what was typed as the new value, then masks it again.
            self._values[item.row()] = item.text()
            self.blockSignals(True)
            item.setText(self._face(item.text()))
            self.blockSignals(False)
        if item.row() == self.rowCount() - 1 and item.text():
            self.blockSignals(True)
            self._append("", "")
            self.blockSignals(False)

    def pairs(self) -> dict[str, str]:
        return dict(self.rows())

    def rows(self) -> list[tuple[str, str]]:
        """The filled-in rows in order (a row without a name left out)."""
        found: list[tuple[str, str]] = []
        for row in range(self.rowCount()):
            key_item = self.item(row, 0)
            key = key_item.text().strip() if key_item is not None else ""
            if key:
                found.append((key, self._values[row]))
        return found


class _Roots(_Pairs):
    """The roots the server is given: a URI and a name per row, never masked (they are not secrets)."""

    def __init__(self, object_name: str, parent: QWidget) -> None:
        super().__init__(object_name, parent)
        self.setHorizontalHeaderLabels(["URI (file://)", "Name"])
        self._shown = True

    def show_values(self, shown: bool) -> None:
        return

    def set_roots(self, value: Any) -> None:
        roots = value if isinstance(value, list) else []
        pairs = [(str(r.get("uri", "")), str(r.get("name", ""))) for r in roots if isinstance(r, dict)]
        self.blockSignals(True)
        self.setRowCount(0)
        self._values = []
        for uri, name in [*pairs, ("", "")]:
            self._append(uri, name)
        self.blockSignals(False)

    def roots(self) -> list[dict[str, str]]:
        return [{"uri": uri, **({"name": name.strip()} if name.strip() else {})} for uri, name in self.rows()]


def _problem_words(title: str, said: str) -> str:
    """A config rule's words as the dialog says them, under the field's own name and without the file's paths:
    "Command cannot be empty", "Arguments, item 2: contains a NUL character…", "Environment TOKEN: must be text"."""
    said = (
        said.strip()
        .replace("must be a non-empty string", "cannot be empty")
        .replace("must be a string", "must be text")
    )
    item = re.match(r"\[(\d+)\](?:\.(\S+))?\s+(.*)", said, re.S)
    if item is not None:
        key = f"{item.group(2)} " if item.group(2) else ""
        return f"{title}, item {int(item.group(1)) + 1}: {key}{item.group(3)}"
    keyed = re.match(r"\.(\S+)\s+(.*)", said, re.S)
    if keyed is not None:
        return f"{title} {keyed.group(1)}: {keyed.group(2)}"
    return f"{title} {said}"


class ServerDialog(QDialog):
    """Edit `entry` (or a new one); `result_entry()` gives the JSON to save under `result_name()`.

    `taken`: names of the other servers (a name must be unique). `keyring`: whether values can go to a
    keyring, and where, in words, as the app probed it off its GUI thread (None: asked here, now).
    """

    def __init__(self, parent: QWidget | None, name: str = "", entry: dict[str, Any] | None = None,
                 taken: frozenset[str] = frozenset(), keyring: tuple[bool, str] | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setObjectName("serverDialog")
        self.setWindowTitle("Edit server" if entry is not None else "Add server")
        self._original = dict(entry or {})
        self._taken = taken
        layout = QVBoxLayout(self)
        form = QFormLayout()
        layout.addLayout(form)
        self.name = self._line("serverName", name)
        self.transport = QComboBox(self)
        self.transport.setObjectName("serverTransport")
        for key, text in TRANSPORTS:
            self.transport.addItem(text, key)
        self.command = self._line("serverCommand", str(self._original.get("command", "")))
        self.args = QPlainTextEdit(self)
        self.args.setObjectName("serverArgs")
        self.args.setTabChangesFocus(True)  # one argument a line: Tab goes on to the next field
        self.args.setPlaceholderText("one argument per line")
        self.args.setPlainText("\n".join(str(a) for a in self._original.get("args") or []))
        self.args.setMaximumHeight(90)
        self.cwd = self._line("serverCwd", str(self._original.get("cwd") or ""))
        self.env = _Pairs("serverEnv", self)
        self.env.set_pairs(_strings(self._original.get("env")))
        self.url = self._line("serverUrl", str(self._original.get("url", "")))
        self.headers = _Pairs("serverHeaders", self)
        self.headers.set_pairs(_strings(self._original.get("headers")))
        self.roots = _Roots("serverRoots", self)
        self.roots.set_roots(self._original.get("roots"))
        self.roots.setMaximumHeight(110)
        self.era = QComboBox(self)
        self.era.setObjectName("serverProtocolEra")
        for key, text in ERAS:
            self.era.addItem(text, key)
        self.era.setCurrentIndex(max(0, self.era.findData(self._original.get("protocolEra", "auto"))))
        self.client = ClientProfileCombo(self, self._original.get("client"), "client" in self._original)
        self.log_level = QComboBox(self)
        self.log_level.setObjectName("serverLogLevel")
        for level in LOG_LEVELS:
            self.log_level.addItem(f"{level} and above" if level != LOG_LEVELS[-1] else level, level)
        self.log_level.setToolTip(
            "The least severe log message (notifications/message) asked of the server: in each request's _meta "
            "on 2026-07-28, by logging/setLevel before (to a server that declares logging)"
        )
        level = self._original.get("logLevel", DEFAULT_LOG_LEVEL)
        found = self.log_level.findData(level) if isinstance(level, str) else -1
        self.log_level.setCurrentIndex(found if found >= 0 else self.log_level.findData(DEFAULT_LOG_LEVEL))
        self.reveal = QCheckBox("Show values", self)
        self.reveal.setObjectName("serverRevealValues")
        self.reveal.toggled.connect(self._on_reveal_toggled)
        self.budgets: dict[str, QLineEdit] = {}
        budget_row = QWidget(self)
        budget_layout = QGridLayout(budget_row)  # BUDGETS_PER_ROW a row: each placeholder reads whole
        budget_layout.setContentsMargins(0, 0, 0, 0)
        given = self._original.get("budgets") if isinstance(self._original.get("budgets"), dict) else {}
        defaults = Limits()
        for position, (key, (field, _kind)) in enumerate(BUDGET_KEYS.items()):
            line = self._line(f"serverBudget:{key}", str(given.get(key, "")) if given else "")
            default = _default_words(getattr(defaults, field))
            line.setPlaceholderText(f"{key} {default}")
            line.setToolTip(f"{key}: empty for the app's default ({default})")
            named(line, f"Budget {key}", f"Empty for the app's default ({default})")
            line.setMinimumWidth(line.fontMetrics().horizontalAdvance(line.placeholderText()) + LINE_PADDING)
            budget_layout.addWidget(line, *divmod(position, BUDGETS_PER_ROW))
            self.budgets[key] = line
        available, where = keyring if keyring is not None else keyring_status()
        self.keep_secret = QCheckBox("Keep values in the system keyring", self)
        self.keep_secret.setObjectName("serverUseKeyring")
        self.keep_secret.setEnabled(available)
        self.keep_secret.setChecked(available)
        self.secrets_where = plain_label("serverSecretsWhere", self)
        self.secrets_where.setText(
            f"Values are kept in {where}; the file holds only a reference."
            if available
            else f"Values are stored in the configuration file as typed: {where}."
        )
        self.disabled = QCheckBox("Disabled (listed, not started on its own)", self)
        self.disabled.setObjectName("serverDisabled")
        self.disabled.setChecked(self._original.get("disabled") is True)
        self.errors: dict[str, QLabel] = {field: plain_label(f"serverError:{field}", self) for field in FIELDS}
        for field, label in self.errors.items():
            theme.themed_style(label, lambda: theme.ink_style(theme.PROBLEM))
            label.setVisible(False)
            if field in ("name", "command"):  # the first fields typed in: the rows below must not jump as they go
                policy = label.sizePolicy()
                policy.setRetainSizeWhenHidden(True)
                label.setSizePolicy(policy)
        self._rows: dict[str, list[QWidget]] = {}
        self._titles: dict[str, str] = {}  # what each field is called on screen, for its problem's words
        for field, title, widget in (
            ("name", "Name", self.name),
            ("transport", "Transport", self.transport),
            ("command", "Command", self.command),
            ("args", "Arguments", self.args),
            ("cwd", "Working directory", self.cwd),
            ("env", "Environment", self.env),
            ("url", "URL", self.url),
            ("headers", "Headers", self.headers),
            ("budgets", "Budgets", budget_row),
            ("roots", "Roots (roots/list)", self.roots),
            ("protocolEra", "Protocol era", self.era),
            ("client", "Client profile", self.client),
            ("logLevel", "Log level", self.log_level),
        ):
            form.addRow(title, widget)
            self._titles[field] = title
            self._rows[field] = [widget, form.labelForField(widget)]
            if field in self.errors:
                form.addRow("", self.errors[field])
        form.addRow("", self.reveal)
        form.addRow("", self.keep_secret)
        form.addRow("", self.secrets_where)
        form.addRow("", self.disabled)
        self.summary = plain_label("serverDialogSummary", self)
        layout.addWidget(self.summary)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        kind = self._original.get("type") or self._original.get("transport")
        kind = "http" if kind not in ("stdio", "sse") and (kind or "url" in self._original) else (kind or "stdio")
        self.transport.setCurrentIndex(max(0, self.transport.findData(kind)))
        for signal in (self.name.textChanged, self.command.textChanged, self.cwd.textChanged, self.url.textChanged,
                       self.args.textChanged, self.transport.currentIndexChanged, self.disabled.toggled,
                       self.era.currentIndexChanged, self.client.currentIndexChanged,
                       self.log_level.currentIndexChanged):  # fmt: skip
            signal.connect(self._on_field_changed)
        for line in self.budgets.values():
            line.textChanged.connect(self._on_field_changed)
        self.env.itemChanged.connect(self._on_field_changed)
        self.headers.itemChanged.connect(self._on_field_changed)
        self.roots.itemChanged.connect(self._on_field_changed)
        self._on_field_changed()
        describe(self)
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        named(save, "", "Write the entry to the configuration file (once every field is valid)")
        named(self.buttons.button(QDialogButtonBox.StandardButton.Cancel), "", "Close without saving")

    def _line(self, object_name: str, text: str) -> QLineEdit:
        line = QLineEdit(text, self)
        line.setObjectName(object_name)
        return line

    def _on_reveal_toggled(self, shown: bool) -> None:
        self.env.show_values(shown)
        self.headers.show_values(shown)

    def result_name(self) -> str:
        return self.name.text().strip()

    def result_entry(self, store_secrets: bool = False, secrets: dict[str, str] | None = None) -> dict[str, Any]:
        """The entry as it will be saved: the shown fields, plus every key the dialog does not show.

        `store_secrets` (on Save, with the keyring box ticked): env and header values go to
        the keyring and the entry holds `${keyring:…}` references instead; with `secrets`,
        they are collected there (path → value) for the caller to store, not stored here.

        Raises:
            keyring.errors.KeyringError: the keyring refused a value (with `store_secrets`).
        """
        entry = {key: value for key, value in self._original.items() if key not in SHOWN_KEYS}
        kind = self.transport.currentData()
        if kind == "stdio":
            entry["command"] = self.command.text().strip()
            args = [line for line in self.args.toPlainText().split("\n") if line.strip()]
            if args:
                entry["args"] = args
            if self.cwd.text().strip():
                entry["cwd"] = self.cwd.text().strip()
            if env := self.env.pairs():
                entry["env"] = self._kept("env", env, store_secrets, secrets)
        else:
            entry["type"] = kind
            entry["url"] = self.url.text().strip()
            if headers := self.headers.pairs():
                entry["headers"] = self._kept("headers", headers, store_secrets, secrets)
        budgets: dict[str, Any] = {}
        for key, line in self.budgets.items():
            text = line.text().strip()
            if text:
                budgets[key] = _number(text)
        if budgets:
            entry["budgets"] = budgets
        if roots := self.roots.roots():
            entry["roots"] = roots
        if self.era.currentData() != "auto":
            entry["protocolEra"] = self.era.currentData()
        present, client = self.client.value()
        if present:
            entry["client"] = client
        # The default is left out, unless the entry said it itself: what was there stays there.
        if self.log_level.currentData() != DEFAULT_LOG_LEVEL or "logLevel" in self._original:
            entry["logLevel"] = self.log_level.currentData()
        if self.disabled.isChecked():
            entry["disabled"] = True
        return entry

    def result_with_secrets(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The entry as it will be saved, and the values to put in the keyring first (keyring path → value):
        read from the fields now; the keyring writes are the caller's to make (off the GUI thread)."""
        secrets: dict[str, str] = {}
        entry = self.result_entry(store_secrets=True, secrets=secrets)
        return entry, secrets

    def _kept(self, kind: str, pairs: dict[str, str], store: bool, secrets: dict[str, str] | None) -> dict[str, str]:
        if not store or not self.keep_secret.isChecked():
            return pairs
        kept = {}
        for key, value in pairs.items():
            if value.startswith("${") and value.endswith("}"):
                kept[key] = value  # already a reference or a variable
                continue
            path = f"{self.result_name()}/{kind}/{key}"
            if secrets is None:
                store_secret(path, value)
            else:
                secrets[path] = value
            kept[key] = reference(self.result_name(), kind, key)
        return kept

    def problem(self) -> tuple[str, str] | None:
        """The first thing wrong, as (field, message), or None when the entry can be saved."""
        name = self.result_name()
        if not name:
            return "name", "a server needs a name"
        if name in self._taken:
            return "name", f"a server named {name!r} exists already"
        try:
            # Variables are checked for their form only: their values belong to the machine that runs it.
            parse_entry(
                name, self.result_entry(), Variables(environ=_Anything(), inputs=_Anything(), workspace=Path.home())
            )
        except ConfigError as exc:
            prefix = f"mcpServers.{name}"
            rest = str(exc).removeprefix(prefix)
            field = next((f for f in FIELDS if rest.startswith(f".{f}")), "name")
            if not str(exc).startswith(prefix):
                return field, str(exc)
            return field, _problem_words(self._titles.get(field, field), rest.removeprefix(f".{field}"))
        return None

    def _on_field_changed(self, *_args: object) -> None:
        stdio = self.transport.currentData() == "stdio"
        for field in ("command", "args", "cwd", "env"):
            for widget in self._rows[field]:
                widget.setVisible(stdio)
        for field in ("url", "headers"):
            for widget in self._rows[field]:
                widget.setVisible(not stdio)
        problem = self.problem()
        for field, label in self.errors.items():
            shown = problem is not None and problem[0] == field
            label.setText(problem[1] if shown and problem is not None else "")
            label.setVisible(shown)
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        save.setEnabled(problem is None)
        command = " ".join(shlex.quote(part) for part in [self.command.text(), *self.result_entry().get("args", [])])
        self.summary.setText(f"Runs: {command}" if stdio and self.command.text() else "")

    def accept(self) -> None:
        if self.problem() is None:  # Enter in a field must not save what the Save button would refuse
            super().accept()


class _Anything(dict[str, str]):
    """An environment in which every variable is set: `${VAR}` is checked for its form, not its value."""

    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: str) -> str:
        return "set"

    def get(self, key: str, default: Any = None) -> str:
        return "set"


def _default_words(value: float) -> str:
    """A default budget as typed: `4194304`, `30` or `0.5` (never `4.1943e+06`)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _number(text: str) -> Any:
    """What was typed as JSON would have it: 5 → 5, 2.5 → 2.5, anything else stays text (and is refused)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def _strings(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}
