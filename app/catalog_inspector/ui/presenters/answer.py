"""The answer to one tab's request (a test call, a resource read, a prompt get), shared by the Call tab and the
request boxes: the request in flight, its rounds as they happen, the server's question that waits for the person,
and how the request ended, in words.

A server may answer a request with questions (elicitation, sampling) before its
result. The question shown is the oldest of this tab's request that waits; the
others queue behind it (`waiting`), and none replaces another. The Call tab also
shows a question the server asks outside any request (older eras, `takes_idle`).
A JSON-RPC -32042 error (URL elicitation required, before 2026-07-28) carries the
pages to visit: they are shown as the same URL question (`notice`), with nothing
left to answer.
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING, Any, Literal

from PySide6.QtCore import QObject, QTimer, Signal

from catalog_inspector.core.calls import REQUEST_LOGS  # the logs module: preloaded (`ui.preload.BEFORE_QT`)
from catalog_inspector.core.text import visible
from catalog_inspector.runtime import CallTicket, ServerSupervisor
from catalog_inspector.runtime.asks import PendingAsk

if TYPE_CHECKING:
    from catalog_inspector.core.calls import CallOutcome, InputAnswer, InputAsk, LogMessage, Round, TaskRecord

__all__ = ["Answer", "RequestKind"]

VERDICT_LIMIT = 4000  # characters of the output verdict shown (up to 50 problems, each with its pointer)
NOTICES = 10  # URL elicitations of one -32042 error shown
LOG_LINE_LIMIT = 2400  # characters of one log message's line shown (its data is cut at 2,000 already)
RequestKind = Literal["tool", "resource", "template", "prompt"]


def _notices(outcome: CallOutcome, server: str) -> tuple[InputAsk, ...]:
    """The URL elicitations a -32042 error carries, as questions with nothing to answer."""
    from catalog_inspector.core.calls import url_elicitations

    error = outcome.error
    if error is None:
        return ()
    return url_elicitations(error.code, error.details.get("data"), server, NOTICES)


def _log_line(message: LogMessage) -> str:
    return visible(message.line(), LOG_LINE_LIMIT)


class Answer(QObject):
    """One tab's request and its answer.

    Attributes:
        supervisor: the server the request goes to.
        kind: the request's kind (tool, resource, prompt).
        takes_idle: questions asked outside any request are shown here too (the Call tab's answer).
        ticket: the request in flight, or None.
        outcome_text, progress_text, verdict_text: the words (the outcome with its latency, the latest progress
            notification, the verdict against the output schema); "" when there are none.
        layer, outcome_word, verdict: the outcome's layer, its word and its verdict word ("" when none).
        result: the server's last answer as sent, or None; `result_is_question` when it asked again (an
            `input_required` answer after the rounds cap or a refused answer: never a result).
        rounds: the request's rounds, live while it runs, then as it ended.
        asking: the question shown (the oldest of this request's that waits for the person), or None.
        waiting: how many of this request's questions wait (the one shown included).
        notice: the URL elicitations a -32042 error carried (nothing to answer), else ().
        task_text: the task the request runs as, in words, as it changes (its id, status, message, poll
            interval, progress); "" for a request that is no task.
        logs: the server's log messages for the request (the latest `REQUEST_LOGS`), live while it runs, then as
            it ended; `logs_dropped` counts the older ones let go.

    Signals:
        changed(): the words, `result` or `ticket` changed.
        rounds_changed(): `rounds` changed.
        asked(): `asking`, `waiting` or `notice` changed.
        logs_changed(): `logs` were replaced (a new request, or its end): `log_lines()` is what to show.
        logs_added(object): log messages arrived for the request in flight: their lines (a list of str, visible).
    """

    changed = Signal()
    rounds_changed = Signal()
    asked = Signal()
    logs_changed = Signal()
    logs_added = Signal(object)

    def __init__(
        self, supervisor: ServerSupervisor, kind: RequestKind, takes_idle: bool = False, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.supervisor = supervisor
        self.kind = kind
        self.takes_idle = takes_idle
        self.ticket: CallTicket | None = None
        self._started = 0.0  # when the request in flight went out (monotonic)
        self._change_due = False  # a coalesced `changed` is queued (see _changed_soon)
        self.outcome_text = self.progress_text = self.verdict_text = ""
        self.layer = self.outcome_word = self.verdict = ""
        self.result: dict[str, Any] | None = None
        self.rounds: list[Round] = []
        self.asking: PendingAsk | None = None
        self.waiting = 0
        self.notice: tuple[InputAsk, ...] = ()
        self.task_text = ""
        supervisor.call_task.connect(self._on_supervisor_call_task)
        self.logs: deque[LogMessage] = deque(maxlen=REQUEST_LOGS)
        self.logs_dropped = 0
        supervisor.call_finished.connect(self._on_supervisor_call_finished)
        supervisor.call_progress.connect(self._on_supervisor_call_progress)
        supervisor.call_round.connect(self._on_supervisor_call_round)
        supervisor.call_logged.connect(self._on_supervisor_call_logged)
        supervisor.input_asked.connect(self._on_supervisor_input_changed)
        supervisor.input_settled.connect(self._on_supervisor_input_changed)
        self._follow_questions()

    @property
    def result_is_question(self) -> bool:
        return self.result is not None and self.result.get("resultType") == "input_required"

    # -- what the tab does -------------------------------------------------------------
    def start(self, ticket: CallTicket, words: str) -> None:
        """A request went out: the last answer's words, rounds and notice go."""
        self.ticket = ticket
        self._started = time.monotonic()
        self.progress_text = self.verdict_text = self.layer = self.outcome_word = self.verdict = ""
        self.result = None
        self.outcome_text = words
        self.task_text = ""
        self.rounds = []
        self.notice = ()
        self._set_logs((), 0)
        self.changed.emit()
        self.rounds_changed.emit()
        self._follow_questions()

    def say(self, words: str) -> None:
        self.outcome_text = words
        self.changed.emit()

    def clear(self) -> None:
        """Forget the answer shown (another item was chosen); one still on its way is dropped when it comes."""
        self.ticket = None
        self.outcome_text = self.progress_text = self.verdict_text = self.layer = self.outcome_word = ""
        self.verdict = ""
        self.result = None
        self.task_text = ""
        self.rounds = []
        self.notice = ()
        self._set_logs((), 0)
        self.changed.emit()
        self.rounds_changed.emit()
        self._follow_questions()

    def log_lines(self) -> list[str]:
        """The request's log messages as lines to show (time, level, logger, data), made visible and bounded."""
        head = [f"[{self.logs_dropped:,} earlier log messages not kept]"] if self.logs_dropped else []
        return head + [_log_line(message) for message in self.logs]

    def _set_logs(self, logs: Any, dropped: int) -> None:
        self.logs = deque(logs, maxlen=REQUEST_LOGS)
        self.logs_dropped = dropped
        self.logs_changed.emit()

    def respond(self, answer: InputAnswer) -> bool:
        """The person's answer to the question shown; False if it no longer waits."""
        asking = self.asking
        return asking is not None and self.supervisor.answer_input(asking, answer)

    def dismiss_notice(self) -> None:
        if self.notice:
            self.notice = ()
            self.asked.emit()

    def cancel(self) -> bool:
        return self.ticket is not None and self.supervisor.cancel_call(self.ticket)

    # -- what the server says -------------------------------------------------------------
    def owns(self, pending: PendingAsk) -> bool:
        """`pending` is this answer's to show: its request's, or one asked outside any request when it takes those."""
        ticket = self.ticket
        return (ticket is not None and pending.ticket is ticket) or (self.takes_idle and pending.ticket is None)

    def _follow_questions(self) -> None:
        mine = [pending for pending in self.supervisor.asks.pending if self.owns(pending)]
        asking = mine[0] if mine else None
        if asking is not self.asking or len(mine) != self.waiting:
            self.asking, self.waiting = asking, len(mine)
            self.asked.emit()

    def _on_supervisor_input_changed(self, _pending: PendingAsk) -> None:
        self._follow_questions()

    def _on_supervisor_call_round(self, ticket: CallTicket, entry: Round) -> None:
        from catalog_inspector.core.calls import merge_round

        if ticket is not self.ticket:
            return
        merge_round(self.rounds, entry)
        self.rounds_changed.emit()

    def _on_supervisor_call_logged(self, ticket: CallTicket, batch: list[LogMessage], seen: int) -> None:
        if ticket is not self.ticket:
            return
        before = len(self.logs)
        self.logs.extend(batch)
        self.logs_dropped += before + seen - len(self.logs)  # what the relay and this list let go
        self.logs_added.emit([_log_line(message) for message in batch])

    def _on_supervisor_call_progress(self, ticket: CallTicket, progress: float, total: Any, message: Any) -> None:
        if ticket is not self.ticket:
            return
        amount = f"{progress:g} of {total:g}" if isinstance(total, int | float) else f"{progress:g}"
        words = f": {visible(str(message), 300)}" if message else ""
        self.progress_text = f"Progress {amount}{words}"
        self._changed_soon()

    def _on_supervisor_call_task(self, ticket: CallTicket, task: TaskRecord) -> None:
        if ticket is not self.ticket:
            return
        self.task_text = task.words()
        self._changed_soon()

    def _changed_soon(self) -> None:
        """Progress and task statuses can come by the thousand: the Call tab is drawn once per turn of the loop
        with the latest of them, not once per notification."""
        if not self._change_due:
            self._change_due = True
            QTimer.singleShot(0, self, self._emit_changed)

    def _emit_changed(self) -> None:
        if self._change_due:
            self._change_due = False
            self.changed.emit()

    def _on_supervisor_call_finished(self, ticket: CallTicket, outcome: CallOutcome) -> None:
        from catalog_inspector.core.calls import verdict_words

        if ticket is not self.ticket:
            return
        self.ticket = None
        # A call the person stopped has no server time: it is said with how long it ran before they did.
        if outcome.layer == "cancelled":
            self.outcome_text = f"{outcome.summary()} — after {(time.monotonic() - self._started) * 1000:,.0f} ms"
        else:
            self.outcome_text = f"{outcome.summary()} — {outcome.latency_ms:,.0f} ms"
        self.layer, self.outcome_word = outcome.layer, str(outcome.outcome)
        # The words hold the server's keys (in JSON pointers): made visible and bounded here, as any server text.
        words = verdict_words(outcome.verdict) if self.kind == "tool" and outcome.result is not None else ""
        self.verdict_text = visible(words, VERDICT_LIMIT, keep_newlines=True)
        self.verdict = outcome.verdict.verdict if outcome.verdict else ""
        self.result = outcome.result
        self.task_text = outcome.task.words() if outcome.task is not None else ""
        self.rounds = list(outcome.rounds) or self.rounds
        if outcome.logs or outcome.logs_dropped:  # else (a cancelled call) the live ones stay
            self._set_logs(outcome.logs, outcome.logs_dropped)
        else:
            self.logs_changed.emit()
        self.notice = _notices(outcome, self.supervisor.spec.name)
        self.changed.emit()
        self.rounds_changed.emit()
        self._follow_questions()
        if self.notice:
            self.asked.emit()
