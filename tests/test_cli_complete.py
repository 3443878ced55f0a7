"""`complete`: the server's suggestions for one prompt argument or template variable, as one JSON line; exit 0
answered, 2 usage, 4 when there can be none (a server without `completions`, a walk that failed)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli_runner import run_cli
from tests.helpers import DEMO, forked

USER_NOTE = "demo://users/{user}/notes/{id}"


def complete(*args: str) -> tuple[int, dict[str, Any] | None, str]:
    proc = run_cli("complete", *args, timeout=60)
    return proc.returncode, json.loads(proc.stdout) if proc.stdout.strip() else None, proc.stderr


@pytest.mark.parametrize("era", [(), ("--legacy",)], ids=["2026-07-28", "2025-11-25"])
def test_a_template_variable_is_completed_with_the_context(era: tuple[str, ...]) -> None:
    code, doc, _ = complete("--template", USER_NOTE, "user", "an", "--", *DEMO, "--mode", "normal", *era)
    assert code == 0 and doc == {"values": ["ann", "anton"], "total": 2, "has_more": False}
    code, doc, _ = complete("--template", USER_NOTE, "id", "", "--context", '{"user": "ann"}', "--", *DEMO)
    assert code == 0 and doc is not None and doc["values"] == ["1", "2", "3"]


def test_a_prompt_argument_is_completed_and_capped_at_100() -> None:
    code, doc, _ = complete("--prompt", "summarize", "id", "n-", "--", *DEMO)
    assert code == 0 and doc is not None
    assert len(doc["values"]) == 100 and doc["total"] == 150 and doc["has_more"] is True


def test_a_server_without_completions_is_not_asked_and_exits_4() -> None:
    code, doc, err = complete("--prompt", "x", "a", "", "--", *forked("tests.fixtures.partial_lists_server"))
    assert code == 4 and doc is not None and doc["values"] == []
    assert doc["error"]["message"] == "the server declares no completions capability"
    assert err.strip() == "failed: protocol: the server declares no completions capability"


def test_a_walk_that_failed_exits_4_with_its_summary_line() -> None:
    code, doc, err = complete("--prompt", "summarize", "id", "", "--", *DEMO, "--mode", "crash")
    assert code == 4 and doc is not None and doc["error"]["kind"] == "connection"
    assert err.startswith("failed: connection (tools, page ")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("id", "", "--context", "[1]", "--", *DEMO), "--context must be a JSON object of strings"),
        (("--prompt", "p", "id", "", "--context", "{", "--", *DEMO), "--context is not JSON"),
    ],
)
def test_usage_errors_exit_2(args: tuple[str, ...], said: str) -> None:
    if "--prompt" not in args:
        args = ("--prompt", "p", *args)
    code, doc, err = complete(*args)
    assert code == 2 and doc is None and said in err


def test_neither_prompt_nor_template_is_a_usage_error() -> None:
    code, _, err = complete("id", "", "--", *DEMO)
    assert code == 2 and "one of the arguments --prompt --template is required" in err
