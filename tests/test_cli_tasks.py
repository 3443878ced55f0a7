"""`call --task`: a call run as a task on either era, its id and statuses in the document, its questions answered
from the answers file, its deadline, a tool that requires a task, a task the server cancels."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_runner import run_cli
from tests.helpers import ROOT, forked
from tests.test_cli_call import DOC_KEYS

SERVER = ["--", *forked("tests.fixtures.tasks_server")]
TASK_KEYS = {"id", "era", "statuses", "statuses_dropped", "progress", "cancel_sent", "note"}


def call(tool: str, *args: str, era: str = "legacy") -> tuple[int, dict[str, Any], str]:
    proc = run_cli("call", tool, *args, "--protocol-era", era, *SERVER, cwd=ROOT, timeout=60)
    document = json.loads(proc.stdout)
    assert set(document) == DOC_KEYS and proc.stdout.isascii()
    if document["task"] is not None:
        assert set(document["task"]) == TASK_KEYS
    return proc.returncode, document, proc.stderr


def said(document: dict[str, Any]) -> list[str]:
    return [state["status"] for state in document["task"]["statuses"]]


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_call_task_follows_the_task_and_the_document_says_its_id_and_every_status(era: str) -> None:
    code, doc, _ = call("count", "--task", "--args", '{"steps": 2}', era=era)
    assert code == 0 and doc["outcome"] == "ok" and doc["result"]["structuredContent"] == {"count": 2}
    task = doc["task"]
    assert task["era"] == era and isinstance(task["id"], str) and task["id"]
    assert said(doc)[0] == "working" and said(doc)[-1] == "completed" and not task["cancel_sent"]
    # Times from the call's start (not the walk's): the last status came before the answer.
    assert 0 <= task["statuses"][0]["at_ms"] <= task["statuses"][-1]["at_ms"] <= doc["duration_ms"]
    messages = {state["message"] for state in task["statuses"]}
    assert "counted" in messages  # the completed status's own words
    if era == "legacy":  # every change is notified: none is missed between two polls
        assert {"step 1 of 2", "step 2 of 2"} <= messages and task["progress"]["progress"] == 2
    code, plain, _ = call("count", era=era)  # without --task: a plain call, no task
    assert code == 0 and plain["task"] is None and plain["rounds"] == []


def test_a_tool_that_requires_a_task_runs_as_one_without_task_and_the_document_says_so() -> None:
    code, doc, _ = call("needs_task")
    assert code == 0 and doc["result"]["content"][0]["text"] == "done as a task"
    assert doc["task"]["note"] == "run as a task: the tool's execution.taskSupport is required"


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_tasks_question_is_answered_from_the_answers_file_and_kept_in_rounds(era: str, tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"elicitation": [{"match": "name", "content": {"name": "Ada"}}]}))
    code, doc, _ = call("ask_name", "--task", "--answers", str(answers), era=era)
    assert code == 0 and doc["result"]["content"][0]["text"] == "Hello, Ada!"
    assert "input_required" in said(doc)
    (entry,) = doc["rounds"]
    assert entry["era"] == era and entry["responses"][0]["action"] == "accept"
    code, doc, _ = call("ask_name", "--task", "--decline-all", era=era)
    assert code == 0 and doc["result"]["content"][0]["text"] == "No name given."


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_task_that_never_ends_is_a_timeout_at_the_task_deadline_and_is_cancelled(era: str) -> None:
    code, doc, stderr = call("forever", "--task", "--task-deadline", "3", era=era)
    assert code == 4 and doc["outcome"] == "timeout" and doc["task"]["cancel_sent"] is True
    assert doc["error"]["message"] == "the task did not end within the task deadline of 3 s; tasks/cancel was sent"
    assert stderr.startswith("timeout: forever: the task did not end within the task deadline")


def test_a_task_the_server_cancels_is_task_cancelled_and_a_failed_one_a_jsonrpc_error() -> None:
    code, doc, stderr = call("gives_up", "--task")
    assert code == 4 and doc["outcome"] == "task_cancelled" and doc["result"] is None and doc["sent"] is True
    assert doc["error"]["message"].endswith("(the server gave up)") and stderr.startswith("task_cancelled: gives_up")
    code, doc, _ = call("fail", "--task", era="modern")
    assert code == 1 and doc["outcome"] == "jsonrpc_error" and doc["error"]["code"] == -32603
    assert said(doc)[-1] == "failed"
