"""One server's completions as a person types: `completion/complete` on its live session, one question at a time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.errors import ErrorInfo, ErrorKind, internal_error
from catalog_inspector.runtime.supervisor import ServerSupervisor
from catalog_inspector.runtime.tasks import TaskSet

if TYPE_CHECKING:
    from catalog_inspector.core.calls import Completion

__all__ = ["Completer"]

NO_SESSION = "no session is live (refresh or reconnect the server first)"


class Completer(QObject):
    """Asks the server for suggestions; a new question cancels the one still on its way (the server is sent
    `notifications/cancelled`), so only the answer to what is typed now arrives.

    Signals:
        answered(object, object): (the asker's token, the `Completion`): once per question not superseded.
    """

    answered = Signal(object, object)

    def __init__(self, supervisor: ServerSupervisor, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.supervisor = supervisor
        self._tasks = TaskSet()
        self._asked: object = None  # the token of the question in flight

    @property
    def offered(self) -> bool:
        """Whether the accepted catalog's server declares `completions` (nothing is asked of one that does not)."""
        accepted = self.supervisor.accepted
        return accepted is not None and accepted.capabilities.get("completions") is not None

    def ask(self, token: object, ref: Mapping[str, str], argument: str, value: str, context: Mapping[str, str]) -> bool:
        """Ask for `argument`'s suggestions; `answered` reports them with `token`. False if nothing was asked
        (the server declares no completions, or no session is live: `answered` says which)."""
        from catalog_inspector.core.calls import Completion

        self.cancel()
        connection = self.supervisor.connection
        if not self.offered or connection is None:
            why = NO_SESSION if self.offered else "the server declares no completions capability"
            self.answered.emit(token, Completion(error=ErrorInfo(ErrorKind.CONNECTION, why)))
            return False
        from catalog_inspector.core.session import complete  # the engine is loaded once a session is live

        self._asked = token
        self._tasks.spawn(
            complete(connection, ref, argument, value, context),
            lambda answer: self._answer(token, answer),
            lambda exc: self._answer(token, Completion(error=internal_error(exc).info)),
            key="completion",
            name=f"{self.supervisor.spec.name}: completion",
            droppable=True,
        )
        return True

    def cancel(self) -> None:
        """Stop the question in flight (its answer, if it still comes, is nobody's)."""
        self._asked = None
        self._tasks.cancel("completion")

    def _answer(self, token: Any, answer: Completion) -> None:
        if token is self._asked:
            self._asked = None
            self.answered.emit(token, answer)
