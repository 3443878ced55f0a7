"""The questions a server asks during a request, waiting for a person: one queue per server, answered by the GUI.

A request that the server answers by asking (`core.session.asking`) awaits an
`Answerer`; the app's answerer puts the question in its server's queue as a
`PendingAsk` (an asyncio future the window resolves) and waits. Every question has
its own entry, so two pending questions never overwrite each other: a round of
several, a call and a prompt at once, a question from outside any call (older eras,
no call in flight). A question leaves the queue in exactly one way each time: it is
answered, or withdrawn (its call was cancelled or ended), and `on_settled` says so.

A re-run gives the answers kept from the run it repeats (`core.calls.replay`); a
question none of them fits, or whose kept content breaks the schema the server asks
for now, is asked again, with a note saying why.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from catalog_inspector.core.config import Limits, ServerSpec, limits_for
from catalog_inspector.core.text import visible
from catalog_inspector.runtime.offload import Offload

if TYPE_CHECKING:  # the engine: used once a session runs (`runtime.engine`)
    from catalog_inspector.core.calls import Answerer, ContentCheck, FieldProblem, InputAnswer, InputAsk, Round
    from catalog_inspector.core.session import Asking, Connection

__all__ = ["AskQueue", "PendingAsk", "roots_words", "sandbox_check"]

WITHDRAWN = "the call was stopped before the question was answered"

_numbers = itertools.count(1)


@dataclass(eq=False)
class PendingAsk:
    """A question of the server's that waits for a person; compared by identity.

    Attributes:
        number: its place in the order questions arrived (across servers).
        server: the server entry's name.
        ticket: the request it came in (a `CallTicket`), or None: asked outside any call.
        ask: the question, as the server sent it.
        note: why it is asked although a re-run had answers to give ("" when it had none for it).
        future: resolved with the answer (by `AskQueue.answer` or `withdraw`).
    """

    server: str
    ticket: Any
    ask: InputAsk
    note: str = ""
    number: int = field(default_factory=lambda: next(_numbers))
    future: asyncio.Future[InputAnswer] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class AskQueue:
    """One server's questions that wait for a person, oldest first, and how its requests are answered.

    Attributes:
        spec, limits: the server entry (its roots, its name) and the app's budgets (its own override them).
        pending: the questions waiting now, in the order they came.
        check: checks accepted content against its requested schema (the sandbox's, in the app).
    """

    def __init__(
        self,
        spec: ServerSpec,
        limits: Limits,
        on_asked: Callable[[PendingAsk], None],
        on_settled: Callable[[PendingAsk], None],
        log: Callable[[str], None] = lambda _line: None,
        check: ContentCheck | None = None,
    ) -> None:
        self.spec = spec
        self.server = spec.name
        self.limits = limits
        self.pending: list[PendingAsk] = []
        self._on_asked = on_asked
        self._on_settled = on_settled
        self._log = log
        if check is None:  # checked in this process (a queue made on its own); the runtime's: in the sandbox
            from catalog_inspector.core.calls import check_content_in_process

            check = check_content_in_process
        self.check = check

    def asking(self, ticket: Any, kept: Mapping[str, Any] | None, on_round: Callable[[Round], None]) -> Asking:
        """How one request's questions are answered: `kept` answers (a re-run's) then a person, roots from the
        entry, within the server's rounds budget; `on_round` hears each round as it begins and as it is answered."""
        from catalog_inspector.core.calls import RoundLog

        limits = limits_for(self.spec, self.limits)

        def heard(entry: Round) -> None:
            self._log_roots(entry.responses)
            on_round(entry)

        from catalog_inspector.core.session import Asking  # the engine: a request runs, so it is imported

        return Asking.of(self.spec, limits, self.answerer(ticket, kept), self.check, RoundLog(on_round=heard))

    def serve(self, connection: Connection) -> None:
        """A new session: what its server asks while no call is in flight (older eras) is asked of a person too."""
        if connection.desk is not None:
            connection.desk.fallback = self.answerer(None)
            connection.desk.on_idle_ask = self._on_idle_ask

    def _log_roots(self, answers: Sequence[InputAnswer]) -> None:
        """Server & log shows what roots/list was answered with (unasked: from the entry)."""
        if any(answer.action == "roots" for answer in answers):
            self._log(f"[mcp-catalog-inspector] roots/list answered with {roots_words(self.spec.roots)}")

    def _on_idle_ask(self, ask: InputAsk, answer: InputAnswer) -> None:
        """The server asked outside any call (older eras): what it asked and was told goes in its log."""
        if answer.action == "roots":
            self._log_roots((answer,))
        else:
            self._log(
                f"[mcp-catalog-inspector] the server asked {visible(ask.method, 100)} outside a call: {answer.action}"
            )

    def answerer(self, ticket: Any, kept: Mapping[str, Any] | None = None) -> Answerer:
        """The answerer of one request (`ticket`, None outside any call): the `kept` answers first, then a person."""
        from catalog_inspector.core.calls import replay_answer

        async def answer(ask: InputAsk) -> InputAnswer:
            note = ""
            if kept is not None:
                given = replay_answer(kept, ask)
                if given is not None:
                    note = await self._misfit(ask, given)
                    if not note:
                        return given
                else:
                    note = "None of the answers kept from the run this one repeats fits this question."
            return await self._ask(PendingAsk(self.server, ticket, ask, note))

        return answer

    async def _misfit(self, ask: InputAsk, given: InputAnswer) -> str:
        """Why a kept answer no longer fits (its content breaks the requested schema), or ""."""
        from catalog_inspector.core.calls import ELICIT

        response = given.response or {}
        if ask.method != ELICIT or given.action != "accept" or ask.mode != "form" or "content" not in response:
            return ""
        problems = await self.check(ask.requested_schema, response["content"])
        if not problems:
            return ""
        first = problems[0]
        return (
            "The answer kept from the run this one repeats no longer fits the requested schema "
            f"({visible(first.pointer or '(root)', 200)}: {visible(first.message, 300)})."
        )

    async def _ask(self, pending: PendingAsk) -> InputAnswer:
        self.pending.append(pending)
        self._on_asked(pending)
        try:
            return await pending.future
        finally:
            self._settle(pending)  # answered, withdrawn, or its request was cancelled while it waited

    def _settle(self, pending: PendingAsk) -> None:
        if pending in self.pending:
            self.pending.remove(pending)
            self._on_settled(pending)

    def answer(self, pending: PendingAsk, answer: InputAnswer) -> bool:
        """Give `pending` its answer; False if it no longer waits (answered, withdrawn, its call gone)."""
        if pending not in self.pending or pending.future.done():
            return False
        pending.future.set_result(answer)
        self._settle(pending)  # now, not when the request resumes: the window follows at once
        return True

    def withdraw(self, ticket: Any) -> int:
        """Close every question of this request as unanswered (its call was cancelled or ended); how many."""
        from catalog_inspector.core.calls import closed

        withdrawn = [pending for pending in self.pending if pending.ticket is ticket]
        for pending in withdrawn:
            self.answer(pending, closed(pending.ask, WITHDRAWN))
        return len(withdrawn)

    def withdraw_all(self) -> None:
        """Close every question (the server is closing)."""
        from catalog_inspector.core.calls import closed

        for pending in list(self.pending):
            self.answer(pending, closed(pending.ask, "the server's session closed"))


def sandbox_check(offload: Offload) -> ContentCheck:
    """Accepted content against the requested schema, in the validation sandbox (untrusted schema: bounded)."""

    async def check(schema: Any, content: Any) -> tuple[FieldProblem, ...]:
        from catalog_inspector.core.calls import checking_with  # made when a check runs, not at start

        return await checking_with(offload.validate)(schema, content)

    return check


def roots_words(roots: Sequence[Mapping[str, str]]) -> str:
    """The roots given, in words: `2 roots: file:///a (a), file:///b` or `no roots (the entry lists none)`."""
    if not roots:
        return "no roots (the entry lists none)"
    listed = ", ".join(
        visible(root.get("uri", ""), 300) + (f" ({visible(root['name'], 100)})" if root.get("name") else "")
        for root in roots[:20]
    )
    more = f" and {len(roots) - 20} more" if len(roots) > 20 else ""
    return f"{len(roots)} root{'s' if len(roots) != 1 else ''}: {listed}{more}"
