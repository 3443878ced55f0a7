"""The Call tab's presenter alone: real servers, real checks in the sandbox, real calls; no CallPanel.

The test is the arguments editor: it says "checking" (no validation yet), asks the
window's checks, and passes their answer on, as `CallArguments` and `CallPanel` do.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from catalog_inspector.core.calls import CallRecord, Failure, Validation
from catalog_inspector.core.config import ServerSpec
from catalog_inspector.core.errors import ErrorInfo, ErrorKind
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.presenters import AppPresenter, CallPresenter
from catalog_inspector.ui.presenters.call import confirmation_question
from tests.helpers import ROOT, demo_spec, forked
from tests.ui.presenters.conftest import WAIT, Rig


def tool(call: CallPresenter, name: str) -> dict[str, Any]:
    accepted = call.supervisor.accepted
    assert accepted is not None
    return next(t for t in accepted.tools.items if t["name"] == name)


def check(qtbot: Any, app: AppPresenter, call: CallPresenter, arguments: Any, send_anyway: bool = False) -> Validation:
    """What the editor does with arguments shown: "checking" first, then the sandbox's answer."""
    assert call.tool is not None
    call.arguments_checked(arguments, None, "", send_anyway)
    assert not call.ready and not call.can_send, "nothing is sent while its check runs"
    token = app.checks.token()
    with qtbot.waitSignal(app.checks.validated, timeout=WAIT, check_params_cb=lambda t, _v: t == token) as answer:
        app.checks.validate(token, call.tool["inputSchema"], arguments)
    validation = answer.args[1]
    assert isinstance(validation, Validation)
    with qtbot.waitSignal(call.actions_changed, timeout=1_000):
        call.arguments_checked(arguments, validation, "", send_anyway)
    return validation


def answered(qtbot: Any, call: CallPresenter) -> None:
    qtbot.waitUntil(lambda: call.answer.ticket is None and call.answer.outcome_word != "", timeout=WAIT)


def test_choosing_a_tool_starts_unchecked_and_its_check_goes_from_checking_to_invalid_per_field_to_valid(
    rig: Rig, qtbot: Any
) -> None:
    app = rig.app([demo_spec("normal", name="a")])
    call = rig.shown(app, "a").call
    echo = tool(call, "echo")
    with qtbot.waitSignal(call.tool_changed, timeout=1_000) as chosen:
        call.set_tool(echo)
    assert chosen.args == [None], "no draft yet: the editor starts from the schema"
    assert call.tool is echo and call.live and call.validation is None and not call.can_send

    validation = check(qtbot, app, call, {"text": "", "repeat": 9})
    assert {(p.pointer, p.keyword) for p in validation.problems} == {("/text", "minLength"), ("/repeat", "maximum")}
    assert call.invalid and not call.ready and not call.can_send
    assert not call.send() and call.answer.ticket is None, "invalid arguments are not sent"
    call.arguments_checked({"text": "", "repeat": 9}, validation, "", True)
    assert call.ready and call.can_send, "unless the person says to send them anyway"
    call.arguments_checked({}, Validation(), "The arguments are not JSON: Expecting value", False)
    assert not call.ready, "text that does not parse is never sent"
    call.arguments_checked({"text": "x"}, Validation(failure=Failure.OVER_BUDGET, detail="too slow"), "", False)
    assert call.ready, "a check that could not be made does not hold the arguments back"

    assert check(qtbot, app, call, {"text": "hi"}).valid
    assert not call.invalid and call.ready and call.can_send

    call.set_tool(tool(call, "count_items"))
    assert call.validation is None and not call.can_send, "another tool's arguments are checked afresh"


def test_a_draft_is_kept_per_tool_and_per_server_and_so_are_argument_sets(rig: Rig, qtbot: Any) -> None:
    app = rig.app([demo_spec("normal", name="a"), demo_spec("normal", name="b")])
    a = rig.shown(app, "a").call
    b = rig.shown(app, "b").call
    a.set_tool(tool(a, "echo"))
    a.remember({"text": "for a"})
    with qtbot.waitSignal(a.tool_changed, timeout=1_000) as chosen:
        a.set_tool(tool(a, "count_items"))
    assert chosen.args == [None] and a.draft() is None, "echo's draft is not count_items'"
    a.remember({"items": ["x"]})
    with qtbot.waitSignal(a.tool_changed, timeout=1_000) as chosen:
        a.set_tool(tool(a, "echo"))
    assert chosen.args == [{"text": "for a"}] and a.draft() == {"text": "for a"}
    with qtbot.waitSignal(b.tool_changed, timeout=1_000) as chosen:
        b.set_tool(tool(b, "echo"))
    assert chosen.args == [None] and b.draft() is None, "another server's echo has its own draft"
    app.select("a")
    assert app.current is not None and app.current.call is a and a.draft() == {"text": "for a"}
    with qtbot.waitSignal(a.tool_changed, timeout=1_000) as chosen:
        a.set_tool(tool(a, "echo"), {"text": "a re-run's"})
    assert chosen.args == [{"text": "a re-run's"}], "arguments given win over the draft"

    check(qtbot, app, a, {"text": "kept"})
    with qtbot.waitSignal(a.sets_changed, timeout=1_000):
        assert a.save_set("  mine ")
    assert a.sets == {"mine": {"text": "kept"}}
    assert b.sets == {}, "a set is the server's own"
    a.set_tool(tool(a, "count_items"))
    assert a.sets == {}, "and the tool's own"
    a.set_tool(tool(a, "echo"))
    assert not a.save_set("   "), "a set needs a name"
    a.delete_set("mine")
    assert a.sets == {}


def test_a_tool_not_annotated_read_only_asks_first_once_per_run(rig: Rig, qtbot: Any) -> None:
    app = rig.app([demo_spec("normal", name="a")])
    presenter = rig.shown(app, "a")
    call = presenter.call
    call.set_tool(tool(call, "delete_everything"))
    check(qtbot, app, call, {"confirm": True})
    with qtbot.waitSignal(call.asked, timeout=1_000):
        assert not call.send()
    assert call.question.startswith("'delete_everything' is not annotated read-only and may be destructive")
    assert call.answer.ticket is None, "nothing is sent before the answer"
    with qtbot.waitSignal(call.asked, timeout=1_000):
        call.confirm(False)
    assert call.question == "" and call.answer.outcome_text == "Not sent." and call.answer.ticket is None
    with qtbot.waitSignal(call.asked, timeout=1_000):
        assert not call.send(), "a no is not remembered: it asks again"
    call.confirm(True)
    assert call.question == "" and call.answer.ticket is not None and call.answer.ticket.tool == "delete_everything"
    answered(qtbot, call)
    assert (
        call.answer.layer == "tool_error"
        and call.answer.outcome_word == "tool_error"
        and call.answer.result is not None
    )
    assert call.answer.result["isError"] is True

    assert call.send() and call.question == "", "asked once"
    answered(qtbot, call)

    with qtbot.waitSignal(presenter.catalog_changed, timeout=WAIT):
        presenter.refresh()  # a new session of the same entry, in the same run: not asked again
    call.set_tool(tool(call, "delete_everything"))
    check(qtbot, app, call, {"confirm": True})
    assert call.send() and call.question == "", "asked once per tool per server entry per run"
    answered(qtbot, call)

    changed = {**tool(call, "delete_everything"), "annotations": {"destructiveHint": True}}
    call.set_tool(changed)  # the same tool, annotated otherwise (as a refresh could bring)
    check(qtbot, app, call, {"confirm": True})
    with qtbot.waitSignal(call.asked, timeout=1_000):
        assert not call.send()
    assert call.question.endswith(", before its annotations changed.)") and "(You allowed it at " in call.question


def test_the_question_follows_the_tools_annotations() -> None:
    assert confirmation_question({"name": "r", "annotations": {"readOnlyHint": True}}) is None
    assert "may be destructive" in str(confirmation_question({"name": "d"})), "the spec's default is destructive"
    gentle = confirmation_question({"name": "w", "annotations": {"destructiveHint": False}})
    assert gentle is not None and "may change things" in gentle and "destructive" not in gentle
    assert "\\u202e" in str(confirmation_question({"name": "x\u202e"})), "a hidden character is shown"


def test_a_pending_call_shows_its_progress_can_be_cancelled_and_the_next_one_brings_its_answer(
    rig: Rig, qtbot: Any, tmp_path: Path
) -> None:
    gate = tmp_path / "gate"  # the server answers once it exists: until then the call is pending
    app = rig.app([demo_spec("normal", "--call-delay", "0.2", "--call-gate", str(gate), name="a")])
    call = rig.shown(app, "a").call
    call.set_tool(tool(call, "echo"))
    check(qtbot, app, call, {"text": "hi"})
    with qtbot.waitSignal(call.answer_changed, timeout=1_000):
        assert call.send(), "a read-only tool is sent without a question"
    first = call.answer.ticket
    assert first is not None and call.answer.outcome_text == "Calling echo…" and call.answer.result is None
    assert not call.can_send, "one call at a time"
    qtbot.waitUntil(lambda: call.answer.progress_text == "Progress 1 of 2: demo: step 2 of 2", timeout=WAIT)
    assert call.answer.ticket is first, "the gate is shut: still pending"
    assert call.cancel()
    answered(qtbot, call)
    assert call.answer.layer == "cancelled" and call.answer.outcome_word == "cancelled" and call.answer.result is None
    said, took = call.answer.outcome_text.split(" — after ")
    assert said == "Cancelled: you stopped the call, and the server was told to stop", "one sentence, said once"
    assert int(took.removesuffix(" ms").replace(",", "")) >= 100, "the real time it ran (its first step takes 0.1 s)"
    assert not call.cancel(), "nothing is pending any more"

    gate.touch()
    check(qtbot, app, call, {"text": "hi"})
    assert call.send()
    assert call.answer.progress_text == "" and call.answer.outcome_word == "", (
        "the last answer's words go with a new call"
    )
    answered(qtbot, call)
    assert call.answer.layer == "ok" and call.answer.outcome_word == "ok" and call.answer.verdict == "valid"
    assert call.answer.result is not None and call.answer.result["structuredContent"] == {"text": "hi", "length": 2}
    assert call.answer.outcome_text.startswith("The server answered") and call.answer.outcome_text.endswith(" ms")
    assert call.can_send


def test_a_refused_call_says_jsonrpc_error_as_the_cli_does(rig: Rig, qtbot: Any) -> None:
    app = rig.app([demo_spec("normal", "--call-fail", "jsonrpc", name="a")])
    call = rig.shown(app, "a").call
    call.set_tool(tool(call, "echo"))
    check(qtbot, app, call, {"text": "hi"})
    assert call.send()
    answered(qtbot, call)
    assert (call.answer.layer, call.answer.outcome_word, call.answer.result) == ("server_error", "jsonrpc_error", None)
    assert call.answer.outcome_text.startswith("JSON-RPC error")


def test_a_refused_call_names_its_code_with_the_data_in_the_call_tab_and_the_history(rig: Rig, qtbot: Any) -> None:
    spec = ServerSpec(
        name="a", command=sys.executable, args=forked("tests.fixtures.named_errors_server")[1:], cwd=str(ROOT)
    )
    app = rig.app([spec])
    call = rig.shown(app, "a").call
    named = "JSON-RPC -32021 (the client lacks a capability the server requires: form elicitation)"
    for name, said in (
        ("needs_form", named),
        ("vanished", "JSON-RPC -32602 (unknown tool): Unknown tool: vanished"),
        ("bad_args", "JSON-RPC -32602 (invalid params): Invalid arguments for tool bad_args"),
    ):
        call.set_tool(tool(call, name))
        check(qtbot, app, call, {})
        with qtbot.waitSignal(call.history_changed, timeout=WAIT):
            assert call.send()
        answered(qtbot, call)
        assert call.answer.outcome_word == "jsonrpc_error"
        assert call.answer.outcome_text.startswith(f"JSON-RPC error: the server refused the request — {said}")
        assert said in call.history[-1].summary
    assert "the server answered with an error" not in call.answer.outcome_text, "the heading says it once"


def test_each_round_is_kept_and_a_kept_one_runs_again_once_its_arguments_pass(rig: Rig, qtbot: Any) -> None:
    app = rig.app([demo_spec("normal", name="a"), demo_spec("normal", name="idle")])
    call = rig.shown(app, "a").call
    call.set_tool(tool(call, "echo"))
    check(qtbot, app, call, {"text": "one"})
    with qtbot.waitSignal(call.history_changed, timeout=WAIT):
        assert call.send()
    (record,) = call.history
    assert app.presenters["idle"].call.history == [], "the history is the server's own"
    assert (record.name, record.arguments, record.outcome) == ("echo", {"text": "one"}, "ok")
    assert "echo" in call.command_of(record) and '"text": "one"' in call.json_of(record)

    call.set_tool(tool(call, "count_items"))
    with qtbot.waitSignals([call.tool_changed, call.send_when_checked], timeout=1_000):
        assert call.rerun(record)
    assert call.tool is not None and call.tool["name"] == "echo"
    assert (
        call.answer.outcome_text == "Checking the arguments before sending them again…" and call.answer.ticket is None
    )
    with qtbot.waitSignal(call.history_changed, timeout=WAIT):
        check(qtbot, app, call, record.arguments)  # its check passes: it goes without another click
    assert [r.arguments for r in call.history] == [{"text": "one"}, {"text": "one"}]

    check(qtbot, app, call, {"text": ""}, send_anyway=True)
    with qtbot.waitSignal(call.history_changed, timeout=WAIT):
        assert call.send()
    sent_anyway = call.history[-1]
    assert call.rerun(sent_anyway)
    check(qtbot, app, call, sent_anyway.arguments)
    assert call.answer.ticket is None and len(call.history) == 3, "a re-run is checked like any call"
    assert call.answer.outcome_text.startswith("Not sent again: the arguments no longer pass")

    gone = CallRecord(at="", kind="tool", name="vanished", arguments={}, outcome="ok", duration_ms=1.0)
    assert not call.rerun(gone)
    assert call.answer.outcome_text == "Not sent: vanished is not in the accepted catalog any more."


def test_without_a_live_session_nothing_can_be_sent(rig: Rig, qtbot: Any) -> None:
    app = rig.app([demo_spec("normal", name="a"), demo_spec("normal", name="idle")])
    idle = app.presenters["idle"].call
    assert not idle.live and not idle.can_send and not idle.send(), "a server never started"
    presenter = rig.shown(app, "a")
    call = presenter.call
    call.set_tool(tool(call, "echo"))
    check(qtbot, app, call, {"text": "hi"})
    assert call.can_send
    with qtbot.waitSignal(call.actions_changed, timeout=WAIT):
        assert presenter.supervisor.drop_session(ErrorInfo(ErrorKind.CONNECTION, "the test closed the session"))
    assert presenter.supervisor.state is ServerState.LOST
    assert not call.live and not call.can_send and not call.send() and call.answer.ticket is None
