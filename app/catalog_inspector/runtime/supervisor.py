"""One supervisor per configured server: starts session workers, swaps sessions, runs calls, reports state.

Publish only after success: a walk runs in a candidate worker; only an
accepted walk replaces the active worker (which is then retired: it closes
once the calls made on it are done), and a rejected or failed candidate closes
itself while the active session and its catalog stay. Retries are manual: one
user action, one fresh walk.

Every task reports back: whatever a worker or a call raises ends in exactly one
report (a failed walk, a lost session or a call outcome), never in silence.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from datetime import datetime
from types import ModuleType
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.catalog import PageRecord, Snapshot, failed_snapshot, source_of
from catalog_inspector.core.config import Limits, ServerSpec, limits_for
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind, internal_error
from catalog_inspector.core.processes import ProcessRegistry
from catalog_inspector.core.server_log import ServerLog
from catalog_inspector.runtime.asks import AskQueue, PendingAsk
from catalog_inspector.runtime.engine import EngineGate
from catalog_inspector.runtime.records import (
    Attempt,
    CallTicket,
    FrameBatch,
    LogRelay,
    ProgressRelay,
    ServerState,
    next_ticket,
)
from catalog_inspector.runtime.tasks import TaskSet

if TYPE_CHECKING:  # the engine: imported where a session starts, once the gate is open (`runtime.engine`)
    from catalog_inspector.core.calls import ContentCheck, InputAnswer, Judge, Round, TaskRecord
    from catalog_inspector.core.oauth import SignIn
    from catalog_inspector.core.session import Connection, SessionWorker

__all__ = ["Attempt", "CallTicket", "ServerState", "ServerSupervisor", "asking"]

# The notifications that say a list changed, and the lists each one covers.
LIST_CHANGED = {
    "notifications/tools/list_changed": ("tools",),
    "notifications/resources/list_changed": ("resources", "resource_templates"),
    "notifications/prompts/list_changed": ("prompts",),
}
CLOSE_TIMEOUT = 6.0  # seconds to wait for a worker's own shutdown before abandoning it
SIGN_IN_SLACK = 1.0
# The supervisor a request is made for: set in each worker's task and each call's task. The SDK sends
# an HTTP request in the context of the task that sent the message (its transport runs the POST, and
# so the OAuth flow, under the sender's context; tasks it starts inherit it otherwise), so the app's
# sign-in hooks (`runtime.signins`) know which server asks, and show the sign-in there.
asking: ContextVar[ServerSupervisor | None] = ContextVar("asking", default=None)


def _session() -> ModuleType:
    """The engine's session layer: imported where a session starts, once the engine gate is open."""
    from catalog_inspector.core import session

    return session


class ServerSupervisor(QObject):
    """Owns the sessions of one server and says what state they are in.

    Attributes:
        spec, limits: the server and the walk budgets.
        state: a `ServerState`.
        accepted: the accepted snapshot (the catalog of record), or None.
        accepted_at: when it was accepted.
        attempt: the latest walk (live while walking); its snapshot when finished.
        lost: why the accepted session ended, while no new session replaced it.
        sign_in: the sign-in this server waits for a person to finish in the browser, or None.
        log: the server's stderr across its sessions, bounded (and our own tracebacks).
        call_drain: seconds a replaced session waits for its calls before closing.
        engine: the engine gate: a walk asked for before the engine is imported waits for it.
        consent: says whether the user agreed to run this server's command (None: no question).
        awaiting_consent: a start was refused for want of that agreement.

    `judge` checks call results (the runtime's is bounded, in the sandbox process).

    Signals:
        state_changed(): `state`, `accepted`, `attempt` or `lost` changed.
        walk_started(): a new attempt began (its timeline is empty).
        page_arrived(str, object): a page of the running attempt (list name, PageRecord).
        catalog_accepted(object): a walk was accepted (Snapshot); it is now `accepted`.
        refresh_failed(object): a walk was rejected or failed (Snapshot); `accepted` is unchanged.
        session_lost(object): the accepted session ended on its own (ErrorInfo); `accepted` stays.
        call_finished(object, object): a test call ended (CallTicket, CallOutcome).
        call_progress(object, float, object, object): a progress notification for a call
            (CallTicket, progress, total or None, message or None).
        log_appended(object): lines for the server log (a list of str): its stderr, its log messages (time, level,
            logger, data) and our own notes, a batch per `LOG_BATCH_MS`.
        sign_in_changed(): `sign_in` changed: a sign-in began waiting, or ended (finished, cancelled,
            timed out, or its session went away).
        sign_in_noticed(str): words about a sign-in a person should know, no failure (a refused
            refresh, a keyring that cannot keep it); also in the log.
        input_asked(object): a question of the server's waits for a person (a PendingAsk in `asks.pending`).
        input_settled(object): that PendingAsk was answered or withdrawn; it is no longer pending.
        call_round(object, object): a round of a request began or got its answers (CallTicket, Round).
        call_task(object, object): the task a call runs as changed: a status, progress, its cancel
            (CallTicket, TaskRecord).
        call_logged(object, object, int): the server's log messages for a request (CallTicket, a list of the
            latest LogMessages, how many arrived), a batch per `LOG_BATCH_MS`; its outcome keeps them too.
    """

    state_changed = Signal()
    walk_started = Signal()
    page_arrived = Signal(str, object)
    catalog_accepted = Signal(object)
    refresh_failed = Signal(object)
    session_lost = Signal(object)
    call_finished = Signal(object, object)
    call_progress = Signal(object, float, object, object)
    log_appended = Signal(object)
    sign_in_changed = Signal()
    sign_in_noticed = Signal(str)
    input_asked = Signal(object)
    input_settled = Signal(object)
    call_round = Signal(object, object)
    call_task = Signal(object, object)
    call_logged = Signal(object, object, int)

    def __init__(
        self,
        spec: ServerSpec,
        limits: Limits,
        registry: ProcessRegistry | None = None,
        judge: Judge | None = None,
        tasks: TaskSet | None = None,
        check: ContentCheck | None = None,
        engine: EngineGate | None = None,
    ) -> None:
        super().__init__()
        self.spec = spec
        self.engine = engine if engine is not None else EngineGate()
        self.limits = limits
        self.state = ServerState.NOT_CONNECTED
        self.consent: Callable[[ServerSpec], bool] | None = None  # None: every command may run
        self.awaiting_consent = False
        self.accepted: Snapshot | None = None
        self.accepted_at: datetime | None = None
        self.attempt: Attempt | None = None
        self.lost: ErrorInfo | None = None
        # A flooding server writes a line per write: the lines of one frame reach the pane as one batch.
        self.log = ServerLog(on_line=FrameBatch(lambda lines, _seen: self.log_appended.emit(lines)))
        self.call_drain = limits.request_timeout
        self.changes_heard = 0  # list-changed notifications heard, on any session (for the curious and for tests)
        self.sign_in: SignIn | None = None
        self._registry = registry
        if judge is None:  # results judged in this process (a supervisor made on its own); the runtime's: bounded
            from catalog_inspector.core.calls import judge_in_process

            judge = judge_in_process
        self._judge = judge
        # The server's questions that wait for a person (its requests', and any it asks outside a call).
        self.asks = AskQueue(spec, limits, self.input_asked.emit, self.input_settled.emit, self.log.append, check)
        self._active: SessionWorker | None = None
        self._candidate: SessionWorker | None = None
        self._waiting = False  # a walk was asked for before the engine was imported: it starts when it is
        self._tasks = tasks if tasks is not None else TaskSet()  # this server's group of the runtime's task set
        self._cancelled: set[CallTicket] = set()  # calls the user stopped (their tasks end as "cancelled")
        self._stale = False
        self._candidate_saw_change = False  # list_changed arrived while the candidate walked
        self._closing = False

    # -- what the UI asks ---------------------------------------------------
    @property
    def busy(self) -> bool:
        return self._candidate is not None or self._waiting

    @property
    def connection(self) -> Connection | None:
        """The active session's connection (for test calls), or None."""
        return self._active.connection if self._active is not None else None

    def ensure_started(self) -> None:
        """Connect and walk if nothing was attempted yet (selecting a server in the sidebar).

        A server the config marks disabled is never started on its own; Refresh still starts it.
        """
        if self.state is ServerState.NOT_CONNECTED and not self.busy and not self.spec.disabled:
            self.refresh()

    def refresh(self) -> bool:
        """Start one fresh walk from the first page in a candidate session; False if one runs already.

        A command the user has not agreed to run is not started: `awaiting_consent` says so
        (with `state_changed`) until `consent` approves it.
        """
        if self.busy or self._closing:
            return False
        if self.consent is not None and not self.consent(self.spec):
            self.awaiting_consent = True
            self.state_changed.emit()
            return False
        self.awaiting_consent = False
        self.attempt = Attempt(datetime.now().astimezone(), after_stale=self.state is ServerState.STALE)
        self._candidate_saw_change = False
        if self.engine.loaded:
            self._candidate = self._new_worker()
        else:  # the walk starts once the engine is imported (`runtime.engine`); Cancel stops it meanwhile
            self._waiting = True
            self.engine.when_loaded(self._on_engine_loaded)
        self._set_state(ServerState.CONNECTING)
        self.walk_started.emit()
        self._start_candidate()
        return True

    def _on_engine_loaded(self) -> None:
        if self._waiting and not self._closing:
            self._waiting = False
            self._candidate = self._new_worker()
            self._start_candidate()

    def _new_worker(self) -> SessionWorker:
        candidate: SessionWorker = _session().SessionWorker(
            self.spec,
            limits_for(self.spec, self.limits),
            log=self.log,
            on_page=self._on_page,
            on_notification=lambda method: self._on_notification(candidate, method),
            on_spawn=self._registry.add if self._registry else None,
            on_exit=self._registry.remove if self._registry else None,
            on_connected=lambda connection: self._on_connected(candidate, connection),
            on_lost=lambda error: self._on_lost(candidate, error),
        )
        return candidate

    def _start_candidate(self) -> None:
        candidate = self._candidate
        if candidate is not None:
            self._start(candidate, self._run_worker(candidate), lambda exc: self._on_crashed(candidate, exc))

    def walk_beside(self, spec: ServerSpec, on_walked: Callable[[Snapshot], None]) -> bool:
        """Walk `spec` (this server as another client: "walk again as …") once, in a session of its own beside the
        active one, under the same budgets; it closes as soon as it has walked. `on_walked` gets its snapshot, exactly
        once (a stopped walk's says `cancelled`); it is never published, and `close()` stops it like any session.
        False when this server is closing (nothing starts)."""
        if self._closing or not self.engine.loaded:  # before the engine there is no catalog to compare with
            return False
        worker = _session().SessionWorker(
            spec,
            limits_for(spec, self.limits),
            on_spawn=self._registry.add if self._registry else None,
            on_exit=self._registry.remove if self._registry else None,
        )
        worker.stop()  # asked before it runs: the session closes as soon as the walk is reported
        reported: list[Snapshot] = []

        def report(snapshot: Snapshot) -> None:
            if not reported:
                reported.append(snapshot)
                on_walked(snapshot)

        async def walk() -> None:
            asking.set(self)  # a sign-in this walk needs is shown on this server
            try:
                await worker.run(report)
            finally:
                stopped = CatalogError(ErrorInfo(ErrorKind.CANCELLED, "the walk was stopped before it finished"))
                report(failed_snapshot(stopped, source_of(spec)))

        def crashed(exc: BaseException) -> None:
            report(failed_snapshot(self._report_bug(exc), source_of(spec)))

        return self._start(worker, walk(), crashed) is not None

    def cancel(self) -> bool:
        """Stop the walk in progress; the shown catalog stays. False if nothing runs."""
        candidate, waited = self._candidate, self._waiting
        if candidate is None and not waited:
            return False
        self._candidate, self._waiting = None, False
        task = self._tasks.get(candidate) if candidate is not None else None
        if task is not None:
            task.cancel()  # the worker exits its own contexts as the cancellation unwinds it
        self.attempt = None
        self._set_state(self._settled_state())
        return True

    def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None,
        timeout: float | None = None,
        answers: dict[str, Any] | None = None,
        send_excluded: bool = False,
        task: bool = False,
    ) -> CallTicket | None:
        """Make a test call on the active session; `call_finished` reports it. None if no session is live.

        The call finishes on the session it started on, even if a refresh
        replaces that session meanwhile (the old one waits for it, up to
        `call_drain`); a call cut off by the swap says so, never "connection".
        The server's questions are asked of a person (`input_asked`), after `answers` (a re-run's).
        A tool conforming 2026-07-28 clients exclude is sent only with `send_excluded` (else the
        outcome is `excluded_tool`, nothing sent). `task` runs it as a task: `call_task` tells each change of it.
        """
        return self._request(CallTicket(next_ticket(), name, arguments, "tool", timeout, answers, send_excluded, task))

    def read_resource(self, uri: str, timeout: float | None = None) -> CallTicket | None:
        """`resources/read` on the active session; `call_finished` reports it. None if no session is live."""
        return self._request(CallTicket(next_ticket(), uri, None, "resource", timeout))

    def get_prompt(
        self, name: str, arguments: dict[str, str] | None, timeout: float | None = None
    ) -> CallTicket | None:
        """`prompts/get` on the active session; `call_finished` reports it. None if no session is live."""
        return self._request(CallTicket(next_ticket(), name, dict(arguments or {}), "prompt", timeout))

    def cancel_call(self, ticket: CallTicket) -> bool:
        """Stop a call in progress: the server is sent `notifications/cancelled`, and
        `call_finished` reports the layer `cancelled`. False if it already ended."""
        task = self._tasks.get(ticket)
        if task is None or task.done():
            return False
        self._cancelled.add(ticket)
        task.cancel()
        self.asks.withdraw(ticket)  # on older eras its questions wait in the SDK's tasks, not in the call's
        return True

    def answer_input(self, pending: PendingAsk, answer: InputAnswer) -> bool:
        """A person answered a question of the server's; False if it no longer waits (withdrawn, answered)."""
        return self.asks.answer(pending, answer)

    def _request(self, ticket: CallTicket) -> CallTicket | None:
        worker, snapshot = self._active, self.accepted
        if worker is None or worker.connection is None or snapshot is None or self._closing:
            return None
        task = self._start(
            ticket, self._run_call(ticket, worker, worker.connection, snapshot), self._call_failed(ticket)
        )
        if task is None:
            return None
        # A call cancelled before its task first ran never enters its own handler: report it here.
        task.add_done_callback(lambda done: self._report_cancelled(ticket) if done.cancelled() else None)
        return ticket

    def cancel_sign_in(self) -> bool:
        """Stop waiting for the person to sign in: the request that asked fails as an `auth` error
        (step authorization, cause cancelled). False if no sign-in waits."""
        sign_in = self.sign_in
        if sign_in is None or sign_in.cancelled:
            return False
        sign_in.cancel()
        return True

    def drop_session(self, error: ErrorInfo) -> bool:
        """Close the active session now (its sign-in was forgotten: it must not use or renew the tokens it
        holds); the catalog stays, `lost` says why. False if no session is live."""
        worker = self._active
        if worker is None or self._closing:
            return False
        self._active = None
        worker.stop()
        self.lost = error
        if not self.busy:
            self._set_state(ServerState.LOST)
        self.session_lost.emit(error)
        return True

    # -- what the app's sign-in hooks report (`runtime.signins`), in this server's worker tasks ----------
    def show_sign_in(self, sign_in: SignIn) -> None:
        """A request of this server's met a 401 and the engine asks a person to sign in: `sign_in` waits.

        It is shown until it ends: the browser came back, it was cancelled, its wait ran out,
        or the task that asked ended (a cancelled walk, a closed session).
        """
        self.sign_in = sign_in
        self.sign_in_changed.emit()
        # SignIn is unhashable: a fresh key. A bug while following it is ours: in the log, and the sign-in ends.
        self._start(object(), self._follow_sign_in(sign_in, asyncio.current_task()), self._log_bug)

    def hear_sign_in_notice(self, words: str) -> None:
        self.log.append(f"[mcp-catalog-inspector] sign-in: {words}")
        self.sign_in_noticed.emit(words)

    async def _follow_sign_in(self, sign_in: SignIn, asker: asyncio.Future[Any] | None) -> None:
        # Its end, or the end of the walk or call that asked (a flow that fails before it waits never ends it).
        woken = asyncio.ensure_future(sign_in.ended())
        waits: set[asyncio.Future[Any]] = {woken} if asker is None else {woken, asker}
        try:
            await asyncio.wait(waits, timeout=sign_in.seconds + SIGN_IN_SLACK, return_when=asyncio.FIRST_COMPLETED)
        finally:
            woken.cancel()
            if self.sign_in is sign_in:
                self.sign_in = None
                self.sign_in_changed.emit()

    def _report_cancelled(
        self, ticket: CallTicket, rounds: tuple[Round, ...] = (), task: TaskRecord | None = None
    ) -> None:
        from catalog_inspector.core.calls import cancelled_by_person

        if ticket in self._cancelled:
            self._cancelled.discard(ticket)
            self.call_finished.emit(ticket, cancelled_by_person(rounds, task))

    async def close(self, quick: bool = True) -> None:
        """Close every session of this server (bounded); no process is left running.

        `quick` (quitting): servers get no grace period to leave on their own.
        """
        self._closing = True
        self.asks.withdraw_all()
        if self.sign_in is not None:
            self.sign_in.cancel()  # nobody is left to finish it: its listener closes at once
        if self.engine.loaded:  # else no session was ever started
            for owner in self._tasks.keys():
                if isinstance(owner, _session().SessionWorker):
                    owner.stop(quick=quick)
        if self.busy:
            self.cancel()
        if not await self._tasks.settle(CLOSE_TIMEOUT):
            self._tasks.cancel_all()
            await self._tasks.settle(CLOSE_TIMEOUT)

    # -- tasks: each one ends in exactly one report ----------------------------
    def _start(
        self, owner: object, work: Coroutine[Any, Any, None], on_error: Callable[[BaseException], None]
    ) -> asyncio.Task[None] | None:
        """One job of this server's, keyed by what it is for (a worker, a call's ticket); `on_error` takes
        whatever it raises, so a bug anywhere below still ends in a report (a failed walk, a call outcome)."""
        return self._tasks.spawn(work, None, on_error, key=owner, name=f"{self.spec.name}: {type(owner).__name__}")

    def _call_failed(self, ticket: CallTicket) -> Callable[[BaseException], None]:
        from catalog_inspector.core.calls import CallOutcome

        def failed(exc: BaseException) -> None:
            self.call_finished.emit(ticket, CallOutcome("internal", error=self._report_bug(exc).info))

        return failed

    async def _run_worker(self, worker: SessionWorker) -> None:
        asking.set(self)  # this task's own context: the SDK's tasks under it inherit it
        await worker.run(lambda snapshot: self._on_walked(worker, snapshot))

    async def _run_call(
        self, ticket: CallTicket, worker: SessionWorker, connection: Connection, snapshot: Snapshot
    ) -> None:
        from catalog_inspector.core.calls import CallOutcome, TaskLog

        session = _session()
        asking.set(self)  # this task's own context: a sign-in this request needs is shown on this server
        progress = ProgressRelay(self.call_progress, ticket)
        logged = LogRelay(self.call_logged, ticket)

        worker.call_started()
        timeout = ticket.timeout
        questions = self.asks.asking(ticket, ticket.answers, lambda entry: self.call_round.emit(ticket, entry))
        task = TaskLog(on_change=lambda log: self.call_task.emit(ticket, log.record())) if ticket.task else None
        try:
            if ticket.kind == "resource":
                outcome = await session.read_resource(connection, ticket.tool, timeout, questions, logged)
            elif ticket.kind == "prompt":
                outcome = await session.get_prompt(
                    connection, ticket.tool, ticket.arguments, timeout, questions, logged
                )
            else:
                outcome = await session.call_tool(
                    connection,
                    snapshot,
                    ticket.tool,
                    ticket.arguments,
                    timeout,
                    self._judge,
                    progress,
                    questions,
                    send_excluded=ticket.send_excluded,
                    task=task,
                    on_log=logged,
                )
        except asyncio.CancelledError:
            if ticket in self._cancelled:
                self._report_cancelled(ticket, tuple(questions.log.rounds), task.record() if task else None)
                return  # our own cancellation ends here: the task reports and finishes
            cancelled = CallOutcome("cut_off", error=ErrorInfo(ErrorKind.CONNECTION, "the call was cancelled"))
            self.call_finished.emit(ticket, cancelled)
            raise
        except Exception as exc:  # the task boundary: our bug is an outcome of its own
            outcome = CallOutcome("internal", error=self._report_bug(exc).info)
        finally:
            self.asks.withdraw(ticket)  # a question still waiting (older eras: in the SDK's task) goes with its call
            worker.call_finished()
        if outcome.layer == "connection" and worker.retired:
            message = "a refresh replaced the session this call was made on, and it closed before the answer came"
            outcome = CallOutcome(
                "cut_off", error=ErrorInfo(ErrorKind.CONNECTION, message), latency_ms=outcome.latency_ms
            )
        self.call_finished.emit(ticket, outcome)

    def _on_crashed(self, worker: SessionWorker, exc: BaseException) -> None:
        error = self._report_bug(exc)
        if worker is self._candidate:
            self._on_walked(worker, self._crashed_snapshot(error))
        elif worker is self._active:
            self._on_lost(worker, error)

    def _log_bug(self, exc: BaseException) -> None:
        self._report_bug(exc)

    def _report_bug(self, exc: BaseException) -> CatalogError:
        """Our own bug: classify it as `internal` and put its traceback in the server log."""
        error = internal_error(exc)
        self.log.append(f"[mcp-catalog-inspector] internal error: {error.info.message}")
        for line in str(error.info.details.get("traceback", "")).splitlines():
            self.log.append(f"[mcp-catalog-inspector] {line}")
        return error

    def _crashed_snapshot(self, error: CatalogError) -> Snapshot:
        """A failed snapshot that keeps the pages the walk had reached."""
        return failed_snapshot(error, source_of(self.spec), pages=self.attempt.live if self.attempt else None)

    # -- what workers report ----------------------------------------------------
    def _on_connected(self, worker: SessionWorker, connection: Connection) -> None:
        self.asks.serve(connection)
        if worker is self._candidate:
            if self.attempt is not None:  # a live walk's pages are judged by its era (cache hints) as they come
                self.attempt.protocol_version = connection.protocol_version
            self._set_state(ServerState.WALKING)

    def _on_page(self, list_name: str, page: PageRecord) -> None:
        attempt = self.attempt
        if attempt is not None and attempt.snapshot is None:
            attempt.live.setdefault(list_name, []).append(page)
            self.page_arrived.emit(list_name, page)

    def _on_notification(self, worker: SessionWorker, method: str) -> None:
        lists = LIST_CHANGED.get(method)
        if lists is None:
            return
        self.changes_heard += 1
        if worker is self._candidate:
            # A change the server announced before it answered the list's first page is in
            # that page already (the reference "everything" server announces one right after
            # `initialized`); one announced after it may have split the walk: stale once accepted.
            attempt = self.attempt
            if attempt is not None and any(attempt.live.get(name) for name in lists):
                self._candidate_saw_change = True
        elif worker is self._active and not self._stale:
            # A flood of notifications costs one state change: the flag only flips once.
            self._stale = True
            if self.state is ServerState.READY:
                self._set_state(ServerState.STALE)

    def _on_walked(self, worker: SessionWorker, snapshot: Snapshot) -> None:
        if worker is not self._candidate:
            worker.stop()  # cancelled or superseded: its result is not ours to publish
            return
        self._candidate = None
        if self.attempt is not None:
            self.attempt.snapshot = snapshot
            self.attempt.live.clear()  # the snapshot holds the same pages now
        if snapshot.status == "complete" and not self._closing:
            old, self._active = self._active, worker
            if old is not None:
                old.retire(self.call_drain)
            self.accepted = snapshot
            self.accepted_at = datetime.now().astimezone()
            self.lost = None
            self._stale = self._candidate_saw_change
            self._set_state(ServerState.STALE if self._stale else ServerState.READY)
            self.catalog_accepted.emit(snapshot)
        else:
            worker.stop()
            self._set_state(ServerState.FAILED)
            self.refresh_failed.emit(snapshot)

    def _on_lost(self, worker: SessionWorker, error: CatalogError) -> None:
        """The active session broke after its walk: say so; the last good catalog stays."""
        if worker is not self._active or self._closing:
            return
        self._active = None
        self.lost = error.info
        if not self.busy:
            self._set_state(ServerState.LOST)
        self.session_lost.emit(error.info)

    def _settled_state(self) -> ServerState:
        """The state once no walk runs: what the accepted catalog (if any) and its session say."""
        if self.accepted is None:
            return ServerState.NOT_CONNECTED
        if self._active is None and self.lost is not None:
            return ServerState.LOST
        return ServerState.STALE if self._stale else ServerState.READY

    def _set_state(self, state: ServerState) -> None:
        self.state = state
        self.state_changed.emit()
