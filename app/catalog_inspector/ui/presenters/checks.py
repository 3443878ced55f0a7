"""The checks an arguments editor asks for: validation in the sandbox and a schema's lint, answered by token.

One for the whole window: the editor asks with a token and keeps only the answer
to its latest question, so an answer that comes late for a schema no longer shown
is dropped. The runtime's call desk does the work off the GUI thread and always
answers (a check that could not be made answers `crashed`).
"""

from __future__ import annotations

import itertools
from typing import Any

from PySide6.QtCore import QObject, Signal

from catalog_inspector.runtime.calldesk import CallDesk

__all__ = ["Checks"]


class Checks(QObject):
    """Asks the call desk to validate or lint; says the answers.

    Signals:
        validated(int, object): the Validation for the check with this token.
        linted(int, object): the lint issues (a tuple of LintIssue) for the lint with this token.
    """

    validated = Signal(int, object)
    linted = Signal(int, object)

    def __init__(self, desk: CallDesk, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._desk = desk
        self._tokens = itertools.count(1)
        desk.validated.connect(self.validated)
        desk.linted.connect(self.linted)

    def token(self) -> int:
        """A token no earlier question had."""
        return next(self._tokens)

    def validate(self, token: int, schema: Any, instance: Any) -> None:
        self._desk.validate(token, schema, instance)

    def lint(self, token: int, schema: Any, kind: str = "tool") -> None:
        """`kind` "elicitation": what a strict client would refuse in a requested schema (words, a tuple of str)."""
        self._desk.lint(token, schema, kind)
