"""A tool's arguments, two ways: a form from its input schema and the raw JSON, kept in step and checked live.

Editing either view updates the other. Every change is checked against the
tool's own input schema in the runtime's sandbox (asked through `Checks`: off the GUI thread, within a
time budget) after a short typing pause; each problem is listed with its JSON
pointer and keyword and marked on its field. The schema is linted once per tool.
Answers carry a token: one for arguments no longer shown is dropped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.calls import Validation, counted, lint_words, with_defaults
from catalog_inspector.core.text import visible, visible_json
from catalog_inspector.ui.presenters.checks import Checks
from catalog_inspector.ui.widgets.call_form import CallForm
from catalog_inspector.ui.widgets.labels import plain_label
from catalog_inspector.ui.widgets.panes import plain_text_view
from catalog_inspector.ui.widgets.tables import compact_table

__all__ = ["ANSWER_FACE", "CALL_FACE", "ArgumentsEditor", "EditorFace"]

VALIDATE_MS = 150  # typing pauses this long before the arguments are checked
MESSAGE_ROWS = 200
NO_ARGUMENTS = {"type": "object", "properties": {}}


@dataclass(frozen=True)
class EditorFace:
    """What an arguments editor's parts are called and how it speaks: the Call tab's (a tool's arguments) by
    default; the input request panel's edits the answer to an elicitation, against the schema the server asked for."""

    form: str = "callForm"
    text: str = "callArguments"
    messages: str = "validationMessages"
    summary: str = "validationSummary"
    lint: str = "schemaLint"
    send_anyway: str = "sendAnyway"
    noun: str = "the arguments"
    verb: str = "are"
    against: str = "the tool's input schema"
    held_back: str = "not sent unless you say so"
    lint_kind: str = "tool"  # the desk's lint: a tool's input schema, or an elicitation's requested schema
    anyway: bool = True  # "Send even if invalid" is offered
    defaults: bool = False  # the schema's defaults are filled in (SEP-1034)


CALL_FACE = EditorFace()
ANSWER_FACE = EditorFace(
    "inputRequestForm", "inputRequestJson", "inputValidationMessages", "inputValidationSummary", "inputSchemaLint",
    "inputSendAnyway", "the answer", "is", "the requested schema", "Accept stays off until they are fixed", "elicitation", False, True,
)  # fmt: skip


class ArgumentsEditor(QWidget):
    """The arguments of one tool call.

    Attributes:
        form, text: the two views (`callForm`, `callArguments`).
        messages: the problems found (`validationMessages`); `summary` says what the check found.
        send_anyway: invalid arguments may be sent (`sendAnyway`).
        lint: the schema lint line (`schemaLint`).
        schema, active: the input schema checked against, and whether a tool's arguments are shown at all.
        parsed: the arguments the JSON holds (when it parses); `parse_error` says why it does not.
        validation: the latest finished check of the arguments shown (None while one runs).

    Signals:
        changed(): `parsed`, `parse_error`, `validation` or `send_anyway` changed.
        edited(object): the user changed the arguments (the new ones, parsed).
        checked(): a check of the arguments shown finished (`validation` is set).
    """

    changed = Signal()
    edited = Signal(object)
    checked = Signal()

    def __init__(self, checks: Checks, parent: QWidget | None = None, face: EditorFace = CALL_FACE) -> None:
        super().__init__(parent)
        self.checks = checks
        self.face = face
        self.schema: Any = NO_ARGUMENTS
        self.active = False  # a tool's arguments are shown
        self.parsed: Any = {}
        self.parse_error = ""
        self.validation: Validation | None = None
        self._syncing = False  # one view is being set from the other: not a user's edit
        self._token = 0
        self._lint_token = 0
        self.lint = plain_label(face.lint, self)
        self.form = CallForm(self)
        self.form.setObjectName(face.form)
        self.form.edited.connect(self._on_form_edited)
        self.text = plain_text_view(face.text, self)
        self.text.setReadOnly(False)
        self.text.setTabChangesFocus(True)  # Tab leaves the JSON (it needs no tab characters): no keyboard trap
        self.text.textChanged.connect(self._on_text_changed)
        views = QSplitter(Qt.Orientation.Horizontal, self)
        views.addWidget(self.form)
        views.addWidget(self.text)
        # Side by side, sharing the room: the JSON is read as much as the form is filled in (fixed 400/220
        # pixels left it a ~200 px column in any window), and both grow with the window.
        views.setStretchFactor(0, 1)
        views.setStretchFactor(1, 1)
        views.setSizes([500, 500])
        self.summary = plain_label(face.summary, self)
        self.messages = QTableWidget(0, 3, self)
        self.messages.setObjectName(face.messages)
        self.messages.setHorizontalHeaderLabels(["Path", "Keyword", "Problem"])
        self.messages.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        compact_table(self.messages, QAbstractItemView.SelectionBehavior.SelectRows)
        self.messages.setColumnWidth(0, 160)
        self.messages.cellActivated.connect(self._on_messages_cell_activated)
        self.send_anyway = QCheckBox("Send even if invalid (to test the server's own validation)", self)
        self.send_anyway.setObjectName(face.send_anyway)
        self.send_anyway.toggled.connect(self.changed)
        self.send_anyway.setVisible(face.anyway)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.lint)
        layout.addWidget(views, 3)
        layout.addWidget(self.summary)
        layout.addWidget(self.messages, 1)
        layout.addWidget(self.send_anyway)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(VALIDATE_MS)
        self._timer.timeout.connect(self.validate_now)
        checks.validated.connect(self._on_checks_validated)
        checks.linted.connect(self._on_checks_linted)

    @property
    def invalid(self) -> bool:
        """The latest check found problems."""
        return self.validation is not None and bool(self.validation.problems)

    @property
    def ready(self) -> bool:
        """The arguments may be sent: they parse, were checked, and are valid (or may be sent anyway).

        A check that could not be made (a schema too slow or broken to check) does not hold them back.
        """
        if self.parse_error or self.validation is None:
            return False
        return not self.invalid or self.send_anyway.isChecked()

    def show_schema(self, schema: Any, active: bool = True) -> None:
        """Edit arguments for this input schema (as the server sent it), starting from the form's empty
        value; `active=False`: there is no tool to call, and nothing to edit."""
        self.active = active
        self.schema = schema if active else NO_ARGUMENTS
        self._syncing = True
        try:
            self.form.set_schema(self.schema)
            value = self.form.value()
            if active and self.face.defaults and isinstance(value, dict):
                value = with_defaults(self.schema, value)
                self.form.set_value(value)
            self.text.setPlainText(visible_json(value, 2) if active else "")
        finally:
            self._syncing = False
        self.lint.clear()
        if active:
            self._lint_token = self.checks.token()
            self.lint.setText("Schema lint: checking…")
            self.checks.lint(self._lint_token, schema, self.face.lint_kind)
        self._parse()
        self.validate_now()

    def set_arguments(self, arguments: Any) -> None:
        """Show these arguments in both views, and check them."""
        self._syncing = True
        try:
            self.text.setPlainText(visible_json(arguments, 2))
            self.form.set_value(arguments)
        finally:
            self._syncing = False
        self._parse()
        self._schedule()

    def validate_now(self) -> None:
        """Check the arguments shown now (the answer comes as `checked`)."""
        self._timer.stop()
        self._token = self.checks.token()
        self.validation = None
        if self.parse_error or not self.active:
            self._show_problems()
            return
        self.summary.setText(self._checking_words())
        self.checks.validate(self._token, self.schema, self.parsed)
        self.changed.emit()

    # -- the two views, kept in step -------------------------------------------------
    def _on_form_edited(self) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            self.text.setPlainText(visible_json(self.form.value(), 2))
        finally:
            self._syncing = False
        self._parse()
        self._user_edited()

    def _on_text_changed(self) -> None:
        if self._syncing:
            return
        self._parse()
        if not self.parse_error:
            self._syncing = True
            try:
                self.form.set_value(self.parsed)
            finally:
                self._syncing = False
        self._user_edited()

    def _user_edited(self) -> None:
        if not self.parse_error:
            self.edited.emit(self.parsed)
        self._schedule()

    def _parse(self) -> None:
        text = self.text.toPlainText()
        try:
            self.parsed = json.loads(text) if text.strip() else {}
            self.parse_error = ""
        except ValueError as exc:
            self.parse_error = f"{self.face.noun.capitalize()} {self.face.verb} not JSON: {exc}"

    def _schedule(self) -> None:
        """The arguments changed: a check in flight is for old ones; check these after a typing pause."""
        self._token = self.checks.token()
        self.validation = None
        self._timer.start()
        self.changed.emit()

    # -- answers ----------------------------------------------------------------------
    def _on_checks_validated(self, token: int, validation: Validation) -> None:
        if token != self._token:
            return  # an answer to arguments no longer shown
        self.validation = validation
        self._show_problems()
        self.checked.emit()

    def _on_checks_linted(self, token: int, issues: Any) -> None:
        if token != self._lint_token:
            return
        if self.face.lint_kind == "elicitation":
            words = "; ".join(str(issue) for issue in issues)
            self.lint.setText(
                f"Schema lint: a strict client would refuse this form: {visible(words, 4000)}"
                if issues
                else "Schema lint: inside the spec's subset for elicitation forms."
            )
            return
        if not issues:
            self.lint.setText("Schema lint: no problems a strict host would reject.")
        else:
            self.lint.setText(visible(lint_words(issues), 4000, keep_newlines=True))

    def _show_problems(self) -> None:
        validation = self.validation
        problems = validation.problems if validation is not None else ()
        self.form.mark_problems(problems)
        shown = problems[:MESSAGE_ROWS]
        self.messages.setRowCount(len(shown))
        for row, problem in enumerate(shown):
            for column, text in enumerate((problem.pointer or "(root)", problem.keyword, problem.message)):
                self.messages.setItem(row, column, QTableWidgetItem(visible(text, 500)))
        self.summary.setText(self._summary_text())
        self.changed.emit()

    def _summary_text(self) -> str:
        validation = self.validation
        if not self.active:
            return ""
        if self.parse_error:
            return visible(self.parse_error, 300)
        face = self.face
        if validation is None:
            return self._checking_words()
        if validation.failure is not None:
            detail = visible(validation.detail, 400)
            return f"{face.noun.capitalize()} could not be checked: {validation.failure.heading} — {detail}"
        if validation.problems:
            more = f" ({validation.detail})" if validation.truncated else ""
            return f"{counted(len(validation.problems), 'problem')} with {face.noun}{more}: {face.held_back}."
        return f"{face.noun.capitalize()} {face.verb} valid against {face.against}."

    def _checking_words(self) -> str:
        return f"Checking {self.face.noun} against {self.face.against}…"

    def _on_messages_cell_activated(self, row: int, _column: int) -> None:
        problems = self.validation.problems if self.validation is not None else ()
        if 0 <= row < len(problems):
            field = self.form.field_at(problems[row].pointer)
            if field is not None:
                field.setFocus()
