"""The runtime's side of test calls: argument validation and one schema's lint off the GUI thread, a
catalog's lint a slice per event on it, the call history and the named argument sets on disk.

Validation of untrusted schemas runs in the offload sandbox, within its time
budget (a catastrophic `pattern` is stopped and reported, never waited out);
reading and writing the files runs on the offload threads. Widgets ask with
plain method calls and hear back through signals; a request carries a token so
a widget can drop answers to questions it no longer asks. Every job runs in the
runtime's task set and always answers: a check that fails (the sandbox could not
be asked, a bug) answers with a `crashed` validation, and a file that cannot be
read or written is said on the message bridge.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import anyio
from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import ServerSpec
from catalog_inspector.core.steps import Steps
from catalog_inspector.runtime.messages import MessageBridge, failure_words
from catalog_inspector.runtime.offload import Offload, OffloadClosed
from catalog_inspector.runtime.supervisor import CallTicket, ServerSupervisor
from catalog_inspector.runtime.tasks import TaskSet

if TYPE_CHECKING:
    from catalog_inspector.core.calls import CallOutcome, CallRecord, CallStore, LintIssue

__all__ = ["CallDesk"]

METASCHEMA_IN_WINDOW = 40  # JSON values a schema may have to get its metaschema pass between events (~2 ms)
ELICITATION_LINT = 50  # problems of one requested schema said


def _elicitation_lint(schema: Any) -> tuple[str, ...]:
    from catalog_inspector.core.calls import elicitation_schema_problems

    return tuple(elicitation_schema_problems(schema)[:ELICITATION_LINT])


class CallDesk(QObject):
    """Validation, lint, history and argument sets for every server's test calls.

    Attributes:
        store: where calls and argument sets are kept (None: in memory only, for this run).
        histories: each server's calls, oldest first (as last loaded or recorded).
        sets: each server's argument sets: tool → {name → arguments}.
        lints: each server's accepted catalog's structural lint: tool name → issues (tools without any left out).

    Signals:
        validated(int, object): the Validation for the request with this token.
        linted(int, object): the lint issues (a tuple of LintIssue) for the request with this token.
        history_changed(str): this server's `histories` entry changed.
        sets_changed(str): this server's `sets` entry changed.
        catalog_linted(str): this server's `lints` entry is for its accepted catalog now.
    """

    validated = Signal(int, object)
    linted = Signal(int, object)
    history_changed = Signal(str)
    sets_changed = Signal(str)
    catalog_linted = Signal(str)

    def __init__(
        self,
        supervisors: list[ServerSupervisor],
        offload: Offload,
        store: CallStore | None,
        tasks: TaskSet | None = None,
        messages: MessageBridge | None = None,
    ) -> None:
        super().__init__()
        self.store = store
        self.histories: dict[str, list[CallRecord]] = {}
        self.sets: dict[str, dict[str, dict[str, Any]]] = {}
        self.lints: dict[str, dict[str, tuple[Any, ...]]] = {}
        self._offload = offload
        self._tasks = tasks if tasks is not None else TaskSet()
        self._messages = messages if messages is not None else MessageBridge()
        self._specs: dict[str, ServerSpec] = {}
        self._supervisors: list[ServerSupervisor] = []
        self._writes: dict[str, asyncio.Lock] = {}
        for supervisor in supervisors:
            self.follow(supervisor)

    def follow(self, supervisor: ServerSupervisor) -> None:
        """Keep a server's calls, history and lint (at start, and when the configuration adds one)."""
        self._specs[supervisor.spec.name] = supervisor.spec
        self._supervisors.append(supervisor)
        supervisor.call_finished.connect(self._on_supervisor_call_finished)
        supervisor.catalog_accepted.connect(self._on_supervisor_catalog_accepted)

    def forget(self, supervisor: ServerSupervisor) -> None:
        """Drop a server the configuration removed or replaced; what is on disk stays."""
        if supervisor not in self._supervisors:
            return
        self._supervisors.remove(supervisor)
        supervisor.call_finished.disconnect(self._on_supervisor_call_finished)
        supervisor.catalog_accepted.disconnect(self._on_supervisor_catalog_accepted)
        name = supervisor.spec.name
        if not any(s.spec.name == name for s in self._supervisors):
            for table in (self._specs, self.histories, self.sets, self.lints):
                table.pop(name, None)

    def load_all(self) -> None:
        """Read every server's history and argument sets (at start, before any call is made)."""
        for name in self._specs:
            self.load(name)

    def _spawn(self, work: Coroutine[Any, Any, None], server: str, what: str, droppable: bool = False) -> None:
        """Run one job of this desk; whatever it raises is said (with what it was doing) on the message bridge."""

        def failed(exc: BaseException) -> None:
            self._messages.error(f"could not {what}: {failure_words(exc)}", server or None)

        self._tasks.spawn(work, None, failed, name=f"calls: {what}", droppable=droppable)

    # -- validation and lint ---------------------------------------------------
    def validate(self, token: int, schema: Any, instance: Any) -> None:
        """Validate `instance` against an untrusted `schema` in the sandbox; `validated(token, …)` always answers
        (a check that could not be made answers `crashed`, with why)."""
        from catalog_inspector.core.calls import Failure, Validation

        def failed(exc: BaseException) -> None:
            detail = f"the check could not be made: {failure_words(exc)}"
            self.validated.emit(token, Validation(failure=Failure.CRASHED, detail=detail))

        self._tasks.spawn(
            self._offload.validate(schema, instance),
            self._answer(token),
            failed,
            name="calls: validate",
            droppable=True,
        )

    def _answer(self, token: int) -> Any:
        return lambda validation: self.validated.emit(token, validation)

    def lint(self, token: int, schema: Any, kind: str = "tool") -> None:
        """Lint an untrusted input schema on a worker thread; `linted(token, issues)` answers (no issues when
        the lint itself failed: that is said on the message bridge). `kind` "elicitation": an elicitation's
        requested schema, whose issues are the words of what a strict client would refuse (a tuple of str)."""
        from catalog_inspector.core.calls import lint_schema

        def failed(exc: BaseException) -> None:
            self.linted.emit(token, ())
            self._messages.error(f"could not lint the schema: {failure_words(exc)}")

        self._tasks.spawn(
            self._offload.run(lint_schema if kind == "tool" else _elicitation_lint, schema),
            lambda issues: self.linted.emit(token, issues),
            failed,
            name="calls: lint",
            droppable=True,
        )

    def _on_supervisor_catalog_accepted(self, snapshot: Snapshot) -> None:
        supervisor = self.sender()
        if isinstance(supervisor, ServerSupervisor):
            self._spawn(
                self._lint_catalog(supervisor.spec.name, snapshot), supervisor.spec.name, "lint the catalog", True
            )

    async def _lint_catalog(self, name: str, snapshot: Snapshot) -> None:
        """Lint a whole catalog as the CLI does (`catalog_lint`: the same list), without stalling the window.

        On this (the GUI's) thread in slices between events (`Offload.in_slices`), a tool a step,
        with the metaschema pass for each distinct schema of at most METASCHEMA_IN_WINDOW values
        (~0.05 ms a value). Not on a worker thread: this is pure Python, and a thread running it held
        the GIL against the window, which needs it for every call into Python a repaint or a timer
        makes (350 ms stalls at 10,000 tools, `make bench`). A bigger schema's metaschema pass goes to
        the lint sandbox, a process of its own (one took 380 ms); the marks come with the quick pass,
        and the whole list replaces it when the big ones are done.
        """
        cache: dict[str, tuple[LintIssue, ...]] = {}
        try:
            quick = await self._offload.in_slices(self._lint_steps(name, snapshot, cache))
            if quick is None:
                return  # superseded by a newer catalog (or the server is gone): its lint is the one that counts
            found, deferred = quick
            self._publish_lint(name, snapshot, found)
            if not deferred:
                return
            for key, schema in deferred.items():
                whole = await self._offload.lint_whole(schema)
                if not self._current(name, snapshot):
                    return
                if whole is not None:
                    cache[key] = whole
            again = await self._offload.in_slices(self._lint_steps(name, snapshot, cache))
        except OffloadClosed:
            return  # shutting down
        except anyio.ClosedResourceError:
            return  # the lint sandbox closed: shutting down
        if again is not None:
            self._publish_lint(name, snapshot, again[0])

    def _publish_lint(self, name: str, snapshot: Snapshot, found: dict[str, tuple[LintIssue, ...]]) -> None:
        from catalog_inspector.core.calls import exclusion_issues

        for tool, issues in exclusion_issues(snapshot.excluded_tools).items():
            found[tool] = (*issues, *found.get(tool, ()))
        self.lints[name] = found
        self.catalog_linted.emit(name)

    def _current(self, name: str, snapshot: Snapshot) -> bool:
        supervisor = next((s for s in self._supervisors if s.spec.name == name), None)
        return supervisor is not None and supervisor.accepted is snapshot

    def _lint_steps(
        self, name: str, snapshot: Snapshot, cache: dict[str, tuple[LintIssue, ...]]
    ) -> Steps[tuple[dict[str, tuple[LintIssue, ...]], dict[str, Any]] | None]:
        from catalog_inspector.core.calls import tool_lint_steps

        steps = tool_lint_steps(snapshot.tools.items, name, cache, METASCHEMA_IN_WINDOW)
        try:
            while True:
                next(steps)
                yield
                if not self._current(name, snapshot):
                    return None
        except StopIteration as done:
            result: tuple[dict[str, tuple[LintIssue, ...]], dict[str, Any]] = done.value
            return result

    # -- history ---------------------------------------------------------------
    def load(self, name: str) -> None:
        """Read the server's history and argument sets (`history_changed`, `sets_changed` follow)."""
        spec = self._specs.get(name)
        if spec is not None and self.store is not None:
            self._spawn(self._load(spec), name, "read the call history", True)

    async def _load(self, spec: ServerSpec) -> None:
        assert self.store is not None
        try:
            history = await self._offload.run(self.store.history, spec)
            sets = await self._offload.run(self.store.argument_sets, spec)
        except OffloadClosed:
            return
        # Calls made while the file was read are in memory already (and may be on disk by now).
        newer = [record for record in self.histories.get(spec.name, []) if record not in history]
        self.histories[spec.name] = [*history, *newer][-self.store.keep :]
        self.history_changed.emit(spec.name)
        self.sets[spec.name] = sets
        self.sets_changed.emit(spec.name)

    def _on_supervisor_call_finished(self, ticket: CallTicket, outcome: CallOutcome) -> None:
        from catalog_inspector.core.calls import CallRecord, answers_document, capped, kept_rounds

        supervisor = self.sender()
        if not isinstance(supervisor, ServerSupervisor):
            return
        arguments, cut = capped(ticket.arguments)
        record = CallRecord(
            at=datetime.now(UTC).isoformat(timespec="milliseconds"),
            kind=ticket.kind,
            name=ticket.tool,
            arguments=arguments,
            outcome=str(outcome.outcome),
            duration_ms=round(outcome.latency_ms, 1),
            verdict=outcome.verdict.verdict if outcome.verdict is not None else "",
            summary=outcome.summary(),
            arguments_cut=cut,
            rounds=kept_rounds(outcome.rounds),
            rounds_total=len(outcome.rounds),
            answers=answers_document(outcome.rounds, supervisor.spec.roots),
        )
        name = supervisor.spec.name
        history = self.histories.setdefault(name, [])
        history.append(record)
        keep = self.store.keep if self.store is not None else 200
        del history[:-keep]
        self.history_changed.emit(name)
        if self.store is not None:
            self._spawn(self._write(supervisor.spec, record), name, "keep the call in the history")

    async def _write(self, spec: ServerSpec, record: CallRecord) -> None:
        assert self.store is not None
        async with self._writes.setdefault(spec.name, asyncio.Lock()):
            try:
                await self._offload.run(self.store.record, spec, record)
            except OffloadClosed:
                return

    # -- argument sets -----------------------------------------------------------
    def save_set(self, name: str, tool: str, set_name: str, arguments: Any) -> None:
        self.sets.setdefault(name, {}).setdefault(tool, {})[set_name] = arguments
        self.sets_changed.emit(name)
        spec = self._specs.get(name)
        if spec is not None and self.store is not None:
            self._spawn(
                self._persist(spec, self.store.save_set, tool, set_name, arguments), name, "save the argument set"
            )

    def delete_set(self, name: str, tool: str, set_name: str) -> None:
        tools = self.sets.get(name, {})
        tools.get(tool, {}).pop(set_name, None)
        self.sets_changed.emit(name)
        spec = self._specs.get(name)
        if spec is not None and self.store is not None:
            self._spawn(self._persist(spec, self.store.delete_set, tool, set_name), name, "delete the argument set")

    async def _persist(self, spec: ServerSpec, write: Any, *args: Any) -> None:
        async with self._writes.setdefault(spec.name, asyncio.Lock()):
            try:
                await self._offload.run(write, spec, *args)
            except OffloadClosed:
                return
