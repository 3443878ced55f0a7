"""What the Call tab shows for one server, and what it does: the tool, its draft, the arguments' check,
the question before a call, the call in flight, its answer, the history and the argument sets.

Held per server, so switching servers and back finds the tab as it was left (the
draft of each tool, what was allowed in this run, the last answer). Tested
without widgets; the Call tab binds to the presenter of the selected server.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.calls import task_support
from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.text import visible
from catalog_inspector.runtime import ServerSupervisor
from catalog_inspector.runtime.calldesk import CallDesk
from catalog_inspector.ui.presenters.answer import Answer

if TYPE_CHECKING:
    from catalog_inspector.core.calls import CallRecord, Validation

__all__ = ["EXCLUDED_WORDS", "SEND_EXCLUDED", "CallPresenter", "confirmation_question"]

NAME_LIMIT = 120
EXCLUDED_WORDS = "conforming 2026-07-28 clients must not call this tool (its x-mcp-header annotation is invalid)."
SEND_EXCLUDED = "Send even though conforming clients exclude it"


def confirmation_question(tool: dict[str, Any]) -> str | None:
    """What to ask before the first call of a tool not annotated read-only (None: no need to ask)."""
    annotations = tool.get("annotations") if isinstance(tool.get("annotations"), dict) else {}
    assert isinstance(annotations, dict)
    if annotations.get("readOnlyHint") is True:
        return None
    name = visible(str(tool.get("name", "")), NAME_LIMIT)
    # The spec's default for an absent destructiveHint is true: say so unless the server said otherwise.
    if annotations.get("destructiveHint", True) is not False:
        return f"'{name}' is not annotated read-only and may be destructive: it can change or delete things. Send it?"
    return f"'{name}' is not annotated read-only: it may change things on the server's side. Send it?"


def _name(tool: dict[str, Any] | None) -> str:
    return str(tool.get("name", "")) if tool is not None else ""


def _annotations_of(tool: dict[str, Any]) -> str:
    """What a person allowed when they allowed a tool: its annotations, as canonical text."""
    return json.dumps(tool.get("annotations"), sort_keys=True, ensure_ascii=False, default=str)


class CallPresenter(QObject):
    """The Call tab of one server.

    Attributes:
        supervisor: the server (its session makes the calls).
        tool: the tool chosen in the tool tree (wire object), or None.
        answer: the call in flight and its answer: its rounds, the server's question waiting, its words
            (`ticket`, `outcome_text`, `progress_text`, `verdict_text`, `layer`, `outcome_word`, `verdict` and
            `result` read from it).
        question: what is asked before sending (a tool not annotated read-only), or "" when nothing is asked.
        validation, parse_error, send_anyway: the check of the arguments shown, as the editor last said it.
        send_excluded: the person ticked "Send even though conforming clients exclude it" for this tool.
        run_as_task: the person ticked "Run as task" (`task_forced`: the tool requires it, whatever the tick).

    Signals:
        tool_changed(object): `tool` changed; the arguments to show with it (its draft, a re-run's), or None.
        asked(): `question` changed (a question is up, or it was answered).
        answer_changed(): the answer's words, `result` or `ticket` changed (`answer.changed`).
        actions_changed(): what may be done changed (send, cancel, save a set).
        history_changed(): the server's calls changed (`history`).
        sets_changed(): this server's argument sets changed (`sets`).
        send_when_checked(): a re-run waits for its arguments' check, then sends (the editor checks now).
    """

    tool_changed = Signal(object)
    asked = Signal()
    answer_changed = Signal()
    actions_changed = Signal()
    history_changed = Signal()
    sets_changed = Signal()
    send_when_checked = Signal()

    def __init__(self, supervisor: ServerSupervisor, desk: CallDesk, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.supervisor = supervisor
        self._desk = desk
        self.tool: dict[str, Any] | None = None
        self.answer = Answer(supervisor, "tool", takes_idle=True, parent=self)
        self.question = ""
        self.parsed: Any = {}
        self.validation: Validation | None = None
        self.parse_error = ""
        self.send_anyway = False
        self.send_excluded = False
        self.run_as_task = False
        self.timeout = 30.0
        self._drafts: dict[str, Any] = {}  # tool name → the arguments last edited for it
        # Tools the person allowed in this run, by name: when, and the annotations they allowed (a refresh keeps it;
        # a tool whose annotations changed is asked about again).
        self._confirmed: dict[str, tuple[str, str]] = {}
        self._pending: dict[str, Any] | None = None  # a send waiting for the answer to `question`
        self._answered = ""  # the tool the answer shown was asked of
        self._rerun = False  # a re-run sends once its arguments are checked
        self._kept_answers: dict[str, Any] | None = None  # a re-run's: the answers of the call it repeats
        self._excluded: tuple[Snapshot | None, dict[str, str]] = (None, {})  # per accepted catalog: name → why
        self.answer.changed.connect(self.answer_changed)
        self.answer.changed.connect(self.actions_changed)
        supervisor.state_changed.connect(self.actions_changed)
        desk.history_changed.connect(self._on_desk_history_changed)
        desk.sets_changed.connect(self._on_desk_sets_changed)

    @property
    def name(self) -> str:
        return self.supervisor.spec.name

    # -- the tool and its arguments ----------------------------------------------------
    def set_tool(self, tool: dict[str, Any] | None, arguments: Any = None) -> None:
        """Call this tool, with `arguments` (a re-run's) or the draft last left for it. The answer shown belongs
        to the tool it was asked of: another tool's goes (one still running stays, named, so it can be cancelled)."""
        if _name(tool) != self._answered and self.answer.ticket is None:
            self.answer.clear()
            self._answered = ""
        self.tool = tool
        self._close_question()
        self._rerun = False
        self._kept_answers = None
        self.send_excluded = False  # deliberate for each tool, never carried over from another
        self.run_as_task = False  # the same: a tick for one tool must not send the next one as a task
        self.validation = None
        if tool is not None and arguments is None:
            arguments = self._drafts.get(_name(tool))
        self.tool_changed.emit(arguments)
        self.sets_changed.emit()
        self.actions_changed.emit()

    def arguments_checked(
        self, parsed: Any, validation: Validation | None, parse_error: str, send_anyway: bool
    ) -> None:
        """The editor's word on the arguments shown: what they parse to, their check (None while it runs)."""
        self.parsed, self.validation, self.parse_error, self.send_anyway = parsed, validation, parse_error, send_anyway
        self.actions_changed.emit()
        if self._rerun and validation is not None:
            self._rerun = False
            if not self.send() and not self.question:
                if self.ready and self.excluded_reason is not None:
                    self._say(f"Not sent again: {EXCLUDED_WORDS} Tick “{SEND_EXCLUDED}” to send it.")
                else:
                    self._say("Not sent again: the arguments no longer pass the tool's schema (see below).")

    def draft(self) -> Any:
        """The arguments last edited for the chosen tool (None: none were)."""
        return self._drafts.get(_name(self.tool)) if self.tool is not None else None

    def remember(self, arguments: Any) -> None:
        """The person edited the arguments: they come back when this tool is picked again."""
        if self.tool is not None:
            self._drafts[_name(self.tool)] = arguments

    @property
    def excluded_reason(self) -> str | None:
        """Why conforming 2026-07-28 clients exclude the chosen tool (its x-mcp-header annotation), or None."""
        accepted = self.supervisor.accepted
        if self._excluded[0] is not accepted:
            reasons = {entry["name"]: entry["reason"] for entry in accepted.excluded_tools} if accepted else {}
            self._excluded = (accepted, reasons)
        return self._excluded[1].get(_name(self.tool)) if self.tool is not None else None

    def allow_excluded(self, allowed: bool) -> None:
        """The person's tick: send the chosen tool even though conforming clients exclude it."""
        if allowed != self.send_excluded:
            self.send_excluded = allowed
            self.actions_changed.emit()

    @property
    def invalid(self) -> bool:
        return self.validation is not None and bool(self.validation.problems)

    @property
    def ready(self) -> bool:
        """The arguments may be sent: they parse, were checked, and are valid (or may be sent anyway). A check
        that could not be made at all (a schema too slow or broken to check) does not hold them back."""
        if self.parse_error or self.validation is None:
            return False
        return not self.invalid or self.send_anyway

    @property
    def task_support(self) -> str | None:
        """The chosen tool's `execution.taskSupport` as it declares it (None: none, or no tool)."""
        return task_support(self.tool) if self.tool is not None else None

    @property
    def task_forced(self) -> bool:
        """The tool requires a task: a conforming client must run it as one (so does the inspector)."""
        return self.task_support == "required"

    @property
    def as_task(self) -> bool:
        return self.run_as_task or self.task_forced

    def set_run_as_task(self, wanted: bool) -> None:
        self.run_as_task = wanted
        self.actions_changed.emit()

    @property
    def live(self) -> bool:
        return self.supervisor.connection is not None

    @property
    def can_send(self) -> bool:
        if self.tool is None or not self.live or self.answer.ticket is not None or not self.ready:
            return False
        return self.send_excluded or self.excluded_reason is None

    # -- sending -----------------------------------------------------------------------
    def send(self) -> bool:
        """Send the arguments shown (asking first for a tool not annotated read-only). False if not sent now."""
        tool = self.tool
        if tool is None or not self.can_send:
            return False
        question = confirmation_question(tool)
        allowed = self._confirmed.get(_name(tool))
        if question is not None and (allowed is None or allowed[1] != _annotations_of(tool)):
            if allowed is not None:
                question += f" (You allowed it at {allowed[0]}, before its annotations changed.)"
            self._pending = self.parsed
            self.question = question
            self.asked.emit()
            return False
        return self._send(self.parsed)

    def confirm(self, yes: bool) -> None:
        """The answer to `question`: send (and do not ask again for this tool in this run, while its annotations
        stay as they are), or do not."""
        pending, tool = self._pending, self.tool
        self._close_question()
        if not yes:
            self._say("Not sent.")
            return
        if tool is not None:
            self._confirmed[_name(tool)] = (datetime.now().astimezone().strftime("%H:%M:%S"), _annotations_of(tool))
        if pending is not None:
            self._send(pending)

    def _close_question(self) -> None:
        self._pending = None
        if self.question:
            self.question = ""
            self.asked.emit()

    def _send(self, arguments: Any) -> bool:
        assert self.tool is not None
        kept, self._kept_answers = self._kept_answers, None
        excluded = self.send_excluded and self.excluded_reason is not None
        ticket = self.supervisor.call_tool(
            _name(self.tool), arguments, self.timeout, kept, send_excluded=excluded, task=self.as_task
        )
        if ticket is None:
            self._say("Not sent: no session is live (refresh or reconnect the server first).")
            return False
        again = " with the answers it was given" if kept else ""
        how = " as a task" if ticket.task else ""
        self.answer.start(ticket, f"Calling {visible(ticket.tool, NAME_LIMIT)}{how}{again}…")
        self._answered = ticket.tool
        return True

    def cancel(self) -> bool:
        return self.answer.cancel()

    def rerun(self, record: CallRecord) -> bool:
        """Call a kept call again with its arguments and the answers it was given (the person is asked only where
        one no longer fits); False if it cannot be."""
        if record.kind != "tool" or record.arguments_cut:
            return False
        accepted = self.supervisor.accepted
        tool = next((t for t in accepted.tools.items if t.get("name") == record.name), None) if accepted else None
        if tool is None:
            self._say(f"Not sent: {visible(record.name, NAME_LIMIT)} is not in the accepted catalog any more.")
            return False
        self.set_tool(tool, record.arguments)
        self._kept_answers = record.answers
        self._rerun = True  # sent as soon as its arguments are checked, like any other call
        self._say("Checking the arguments before sending them again…")
        self.send_when_checked.emit()
        return True

    def _say(self, words: str) -> None:
        self.answer.say(words)

    # -- history and argument sets -------------------------------------------------------
    @property
    def history(self) -> list[CallRecord]:
        """The server's calls, oldest first (as kept)."""
        return self._desk.histories.get(self.name, [])

    @property
    def sets(self) -> dict[str, Any]:
        """The chosen tool's argument sets, by name."""
        if self.tool is None:
            return {}
        return self._desk.sets.get(self.name, {}).get(_name(self.tool), {})

    def save_set(self, set_name: str) -> bool:
        """Keep the arguments shown under `set_name` for this tool (they come back when it is picked again)."""
        if self.tool is None or self.parse_error or not set_name.strip():
            return False
        self._desk.save_set(self.name, _name(self.tool), set_name.strip(), self.parsed)
        return True

    def delete_set(self, set_name: str) -> None:
        if self.tool is not None:
            self._desk.delete_set(self.name, _name(self.tool), set_name)

    def command_of(self, record: CallRecord) -> str:
        """The `call` command line that makes this call again from a terminal; with the answers it was given, the
        lines that write them to an answers file first (`--answers`)."""
        from catalog_inspector.core.calls import command_with_answers

        return command_with_answers(self.supervisor.spec, record.name, record.arguments, record.answers)

    @staticmethod
    def json_of(record: CallRecord) -> str:
        document = {"kind": record.kind, "name": record.name, "arguments": record.arguments, "at": record.at,
                    "outcome": record.outcome, "duration_ms": record.duration_ms}  # fmt: skip
        if record.rounds_total:
            document.update(rounds=list(record.rounds), rounds_total=record.rounds_total, answers=record.answers)
        return json.dumps(document, indent=2, ensure_ascii=False)

    def _on_desk_history_changed(self, name: str) -> None:
        if name == self.name:
            self.history_changed.emit()

    def _on_desk_sets_changed(self, name: str) -> None:
        if name == self.name:
            self.sets_changed.emit()
