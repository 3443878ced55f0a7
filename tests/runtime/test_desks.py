"""The runtime's desks on their own: every job of theirs that fails reaches the person, none dies silently.

The desks run with a fake of the offload executor: it runs each function in the
test's own thread (so the order of events is the test's), or raises the fault
the test injects for that function. No server is started: a supervisor is
given its accepted catalog and says so, as a real walk would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import catalog_inspector.core.calls as calls_face
from catalog_inspector.core.calls import CallStore, Failure, Validation
from catalog_inspector.core.catalog import FORMAT, Snapshot
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.drift import Comparison, History
from catalog_inspector.core.steps import run_whole
from catalog_inspector.runtime import ServerSupervisor
from catalog_inspector.runtime.calldesk import CallDesk
from catalog_inspector.runtime.messages import Message, MessageBridge
from catalog_inspector.runtime.offload import OffloadClosed
from catalog_inspector.runtime.runtime import Runtime
from catalog_inspector.runtime.signins import SignInDesk
from catalog_inspector.runtime.supervisor import CallTicket
from catalog_inspector.runtime.tasks import TaskSet
from catalog_inspector.runtime.tracker import DriftTracker
from tests.helpers import next_turn

SPEC = ServerSpec(name="files", command="files-server")
HTTP = ServerSpec(name="remote", transport="http", url="https://remote.invalid/mcp")


class FakeOffload:
    """Runs each offloaded function at once, in this thread; raises `faults[name]` instead for a function so named."""

    def __init__(self) -> None:
        self.faults: dict[str, BaseException] = {}
        self.closed = False

    def _fault(self, fn: Callable[..., Any]) -> BaseException | None:
        return self.faults.get(getattr(fn, "__name__", ""))

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        await next_turn()
        if (fault := self._fault(fn)) is not None:
            raise fault
        return fn(*args)

    async def in_slices(self, steps: Any) -> Any:
        """Work the real offload runs in slices on the loop: run whole, or its fault raised, by its function's name."""
        await next_turn()
        if (fault := self.faults.get(steps.__name__)) is not None:
            steps.close()
            raise fault
        return run_whole(steps)

    async def validate(self, schema: Any, instance: Any) -> Validation:
        await next_turn()
        if (fault := self.faults.get("validate")) is not None:
            raise fault
        return Validation()


def snapshot(*names: str) -> Snapshot:
    tools = [{"name": name, "inputSchema": {"type": "object"}} for name in names]
    return Snapshot.from_json(
        {
            "format": FORMAT,
            "status": "complete",
            "tools": tools,
            "resources": {"status": "not_offered"},
            "resource_templates": {"status": "not_offered"},
            "prompts": {"status": "not_offered"},
        }
    )


class Desk:
    """A desk's surroundings: the fake offload, the task set, and every message the bridge showed."""

    def __init__(self, qtbot: Any) -> None:
        self.qtbot = qtbot
        self.offload = FakeOffload()
        self.tasks = TaskSet()
        self.messages = MessageBridge()
        self.said: list[Message] = []
        self.messages.shown.connect(self.said.append)

    def supervisor(self, spec: ServerSpec = SPEC) -> ServerSupervisor:
        return ServerSupervisor(spec, Limits(), tasks=self.tasks.group())

    def accept(self, supervisor: ServerSupervisor, catalog: Snapshot) -> None:
        supervisor.accepted = catalog
        supervisor.catalog_accepted.emit(catalog)

    def settle(self) -> None:
        self.qtbot.waitUntil(lambda: len(self.tasks) == 0, timeout=10_000)

    def said_error(self, words: str) -> Message:
        self.settle()
        found = [m for m in self.said if words in m.text]
        assert found, f"{words!r} not said; said: {[m.text for m in self.said]}"
        return found[0]


@pytest.fixture
def desk(qtbot, qloop) -> Iterator[Desk]:  # type: ignore[no-untyped-def]
    made = Desk(qtbot)
    yield made
    made.settle()


def _tracker(desk: Desk, tmp_path: Path) -> tuple[DriftTracker, ServerSupervisor]:
    supervisor = desk.supervisor()
    tracker = DriftTracker([supervisor], desk.offload, History(tmp_path / "history"), desk.tasks, desk.messages)  # type: ignore[arg-type]
    return tracker, supervisor


@pytest.mark.parametrize(
    ("fault", "exc", "words"),
    [
        ("_compared_with", ValueError("a damaged kept snapshot"), "could not compare with the history: ValueError"),
        ("build_report_steps", TypeError("a bug of ours"), "could not compare with the history: TypeError"),
        ("save", OSError(28, "No space left on device"), "could not keep the catalog in the history: No space"),
        ("entries", OSError(13, "Permission denied"), "could not list the kept snapshots: Permission denied"),
        ("collisions_steps", TypeError("a bug of ours"), "could not compare tool names across servers: TypeError"),
    ],
)
def test_each_job_that_follows_an_accepted_catalog_reports_its_failure(
    desk: Desk, tmp_path: Path, fault: str, exc: BaseException, words: str
) -> None:
    tracker, supervisor = _tracker(desk, tmp_path)
    reports: list[str] = []
    tracker.report_ready.connect(reports.append)
    desk.offload.faults[fault] = exc
    desk.accept(supervisor, snapshot("a", "b"))
    message = desk.said_error(words)
    assert message.server in (None, "files")
    assert reports == ["files"], "the catalog still gets its report (without drift when the history failed)"
    assert tracker.report_for(supervisor) is not None


@pytest.mark.parametrize(
    ("act", "fault", "words"),
    [
        ("delete", "delete", "could not delete"),
        ("keep", "prune", "could not remove kept snapshots beyond the limit"),
        ("approve", "save_pins", "could not save the approval"),
        ("forget", "forget_pins", "could not forget the approval"),
        ("list", "entries", "could not list the kept snapshots"),
    ],
)
def test_each_thing_a_person_asks_of_the_history_says_when_it_failed(
    desk: Desk, tmp_path: Path, act: str, fault: str, words: str
) -> None:
    tracker, supervisor = _tracker(desk, tmp_path)
    desk.accept(supervisor, snapshot("a"))
    desk.settle()
    entries = tracker.entries["files"]
    assert entries, "the accepted catalog was kept"
    desk.offload.faults[fault] = OSError(5, "Input/output error")
    if act == "delete":
        tracker.delete("files", entries[0])
    elif act == "keep":
        tracker.set_keep(1)
        tracker.history.save(SPEC, snapshot("a", "c"))  # type: ignore[union-attr]  # two kept: one to prune
        tracker.set_keep(1)
    elif act == "approve":
        assert tracker.approve("files")
    elif act == "forget":
        tracker.forget_approval("files")
    else:
        tracker.list_history("files")
    assert "Input/output error" in desk.said_error(words).text


def test_a_comparison_that_cannot_read_a_kept_snapshot_answers_with_why(desk: Desk, tmp_path: Path) -> None:
    tracker, supervisor = _tracker(desk, tmp_path)
    desk.accept(supervisor, snapshot("a"))
    desk.settle()
    answers: list[Comparison] = []
    tracker.comparison_ready.connect(lambda _name, comparison: answers.append(comparison))
    desk.offload.faults["_load"] = ValueError("not JSON")
    tracker.request_comparison("files", tracker.entries["files"][0], None)
    desk.settle()
    assert len(answers) == 1 and answers[0].error is not None and "not JSON" in answers[0].error


def test_a_report_is_matched_to_its_catalog_by_identity_not_by_its_time(desk: Desk, tmp_path: Path) -> None:
    tracker, supervisor = _tracker(desk, tmp_path)
    first = snapshot("a")
    desk.accept(supervisor, first)
    desk.settle()
    twin = Snapshot.from_json(first.to_json())  # the same taken_at, another catalog object
    supervisor.accepted = twin
    assert twin.taken_at == first.taken_at and tracker.report_for(supervisor) is None


def _calls(desk: Desk, tmp_path: Path) -> tuple[CallDesk, ServerSupervisor]:
    supervisor = desk.supervisor()
    calls = CallDesk([supervisor], desk.offload, CallStore(tmp_path / "calls"), desk.tasks, desk.messages)  # type: ignore[arg-type]
    return calls, supervisor


def test_a_check_that_fails_answers_crashed_so_the_editor_never_waits_forever(desk: Desk, tmp_path: Path) -> None:
    calls, _supervisor = _calls(desk, tmp_path)
    answers: list[tuple[int, Validation]] = []
    calls.validated.connect(lambda token, validation: answers.append((token, validation)))
    desk.offload.faults["validate"] = TypeError("unhashable type: 'dict'")
    calls.validate(7, {"type": "object"}, {})
    desk.settle()
    assert len(answers) == 1
    token, validation = answers[0]
    assert token == 7 and validation.failure is Failure.CRASHED and "TypeError" in validation.detail


def test_a_lint_that_fails_answers_no_issues_and_says_why(desk: Desk, tmp_path: Path) -> None:
    calls, _supervisor = _calls(desk, tmp_path)
    answers: list[tuple[int, object]] = []
    calls.linted.connect(lambda token, issues: answers.append((token, issues)))
    desk.offload.faults["lint_schema"] = RecursionError("too deep")
    calls.lint(3, {"type": "object"})
    assert "could not lint the schema: RecursionError" in desk.said_error("lint").text
    assert answers == [(3, ())]


def test_a_catalog_lint_that_breaks_says_so(desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls, supervisor = _calls(desk, tmp_path)

    def broken(*_args: object, **_kwargs: object) -> dict[str, object]:
        raise KeyError("a bug in a lint rule")

    monkeypatch.setattr(calls_face, "tool_lint_steps", broken)  # our own rule, made to fail: not the SDK's
    desk.accept(supervisor, snapshot("a"))
    assert desk.said_error("could not lint the catalog: KeyError").server == "files"


@pytest.mark.parametrize(
    ("fault", "words"),
    [
        ("history", "could not read the call history"),
        ("record", "could not keep the call in the history"),
        ("save_set", "could not save the argument set"),
        ("delete_set", "could not delete the argument set"),
    ],
)
def test_each_call_history_file_that_cannot_be_read_or_written_is_said(
    desk: Desk, tmp_path: Path, fault: str, words: str
) -> None:
    calls, supervisor = _calls(desk, tmp_path)
    desk.offload.faults[fault] = OSError(30, "Read-only file system")
    if fault == "history":
        calls.load("files")
    elif fault == "record":
        from catalog_inspector.core.calls import CallOutcome

        supervisor.call_finished.emit(CallTicket(1, "echo", {}), CallOutcome("ok", {}))
    elif fault == "save_set":
        calls.save_set("files", "echo", "mine", {"text": "hi"})
    else:
        calls.delete_set("files", "echo", "mine")
    assert "Read-only file system" in desk.said_error(words).text


@pytest.mark.parametrize(
    ("fault", "act", "words"),
    [
        ("grant_of", "read", "could not read the kept sign-in: RuntimeError"),
        ("forget", "sign_out", "could not sign out: RuntimeError"),
    ],
)
def test_a_keyring_job_that_fails_unexpectedly_is_said(desk: Desk, fault: str, act: str, words: str) -> None:
    supervisor = desk.supervisor(HTTP)
    signins = SignInDesk(desk.offload, desk.tasks, desk.messages)  # type: ignore[arg-type]
    signins.follow(supervisor)
    signins.grants["remote"] = object()  # type: ignore[assignment]  # a kept sign-in, so there is one to forget
    desk.offload.faults[fault] = RuntimeError("the keyring daemon went away")
    if act == "read":
        signins.read("remote")
    else:
        assert signins.sign_out("remote")
    assert desk.said_error(words).server == "remote"


def test_offload_closed_while_quitting_is_no_news(desk: Desk, tmp_path: Path) -> None:
    tracker, supervisor = _tracker(desk, tmp_path)
    desk.offload.faults["entries"] = OffloadClosed("the runtime is shutting down")
    desk.tasks.close()
    tracker.list_history("files")
    desk.settle()
    assert desk.said == []


def test_an_export_that_fails_for_any_reason_reports_an_error(qtbot, qloop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    offload = FakeOffload()
    offload.faults["write_snapshot_file"] = ValueError("Out of range float values are not JSON compliant")
    runtime = Runtime([], Limits(), offload=offload)  # type: ignore[arg-type]
    with qtbot.waitSignal(runtime.exported, timeout=5_000) as done:
        runtime.export(snapshot("a"), tmp_path / "out.json")
    path, error = done.args
    assert path == tmp_path / "out.json" and isinstance(error, OSError) and "not JSON compliant" in str(error)


def test_a_report_that_raises_is_said_as_the_inspectors_own_error(qtbot, qloop, capsys) -> None:  # type: ignore[no-untyped-def]
    runtime = Runtime([], Limits(), offload=FakeOffload())  # type: ignore[arg-type]
    said: list[Message] = []
    runtime.messages.shown.connect(said.append)

    async def job() -> int:
        return 1

    def broken(_value: int) -> None:
        raise AttributeError("a widget that is gone")

    runtime.tasks.spawn(job(), broken, lambda _exc: None, name="a report")
    qtbot.waitUntil(lambda: bool(said), timeout=5_000)
    assert said[0].text.startswith("internal error in the inspector (a report): AttributeError")
    assert "AttributeError" in capsys.readouterr().err, "the traceback is kept too"


def test_a_report_given_its_token_counts_keeps_what_it_worked_out_of_its_diff(desk: Desk, tmp_path: Path) -> None:
    # Worked out again on the GUI thread, the counts of a 10,000-tool refresh's changes took 6 ms of one event.
    tracker, supervisor = _tracker(desk, tmp_path)
    counted: list[str] = []
    tracker.tokens_counted.connect(counted.append)
    desk.accept(supervisor, snapshot("a", "b"))
    desk.qtbot.waitUntil(lambda: counted == ["files"], timeout=10_000)
    desk.accept(supervisor, snapshot("a", "c"))
    desk.qtbot.waitUntil(lambda: counted == ["files", "files"], timeout=10_000)
    report = tracker.report_for(supervisor)
    assert report is not None and report.tokens is not None and report.diff is not None
    assert {"worst", "counts"} <= report.__dict__.keys(), "made off the GUI thread with the report, and kept"
    assert report.counts == report.diff.counts()
