"""`call`, `prompt` and `read` answer a server's questions from a script: the answers file, its outcomes, the rounds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli_runner import run_cli
from tests.helpers import DEMO
from tests.test_cli_call import DOC_KEYS

ASKS = ["--", *DEMO, "--mode", "asks"]
ROUND_KEYS = {"index", "era", "requests", "responses", "request_state_bytes", "latency_ms"}
ANSWERS = {
    "elicitation": [
        {"match": "NAME", "action": "accept", "content": {"name": "Ada"}},
        {"match": "plan", "content": {"email": "ada@example.org"}},
        {"match": "calendar", "action": "decline"},
    ],
    "sampling": [{"match": "summarise", "text": "A short summary", "model": "human", "stopReason": "endTurn"}],
    "roots": [{"uri": "file:///home/ada/project", "name": "project"}],
}


def run(command: str, *args: str, answers: Any = None, tmp: Path | None = None) -> tuple[int, dict[str, Any], str]:
    extra: list[str] = []
    if answers is not None:
        assert tmp is not None
        path = tmp / "answers.json"
        path.write_text(json.dumps(answers))
        extra = ["--answers", str(path)]
    proc = run_cli(command, *args, *extra, *ASKS, timeout=60)
    document = json.loads(proc.stdout) if proc.stdout.strip() else {}
    if document:
        assert proc.stdout.isascii()
        for entry in document["rounds"]:
            assert set(entry) == ROUND_KEYS
            for request in entry["requests"]:
                assert set(request) == {"key", "method", "mode", "message", "url"}
            for response in entry["responses"]:
                assert set(response) == {"key", "action", "error"}
    return proc.returncode, document, proc.stderr


def test_an_answers_file_answers_every_round_and_the_document_keeps_them(tmp_path: Path) -> None:
    code, doc, _ = run("call", "signup", answers=ANSWERS, tmp=tmp_path)
    assert code == 0 and doc["outcome"] == "ok" and set(doc) == DOC_KEYS
    assert doc["result"]["content"][0]["text"] == "Signed up Ada on free (1 seats), mail to ada@example.org."
    first, second = doc["rounds"]
    assert first["era"] == "modern" and first["index"] == 1 and second["index"] == 2
    assert first["requests"] == [
        {"key": "name", "method": "elicitation/create", "mode": "form", "message": "What is your name?", "url": None}
    ]
    assert first["responses"] == [{"key": "name", "action": "accept", "error": None}]
    assert isinstance(first["request_state_bytes"], int) and first["latency_ms"] >= 0


def test_a_question_no_rule_covers_is_closed_and_the_call_ends_input_unanswered(tmp_path: Path) -> None:
    code, doc, stderr = run("call", "summarise", answers={"elicitation": [{"action": "decline"}]}, tmp=tmp_path)
    assert code == 6 and doc["outcome"] == "input_unanswered"
    assert doc["rounds"][0]["responses"][0]["action"] == "reject"
    assert doc["error"]["message"].startswith(
        "the server asked for input that no answer covered (round 1, key 'summary'"
    )
    assert stderr.startswith("input_unanswered: summarise:")
    code, doc, _ = run("call", "greet")  # no answers at all: closed as a person closing the dialog would
    assert code == 6 and doc["rounds"][0]["responses"][0]["action"] == "cancel"
    assert doc["result"]["content"][0]["text"] == "You closed the question about your name without answering."


def test_decline_all_rounds_cap_and_an_invalid_answer(tmp_path: Path) -> None:
    code, doc, _ = run("call", "greet", "--decline-all", "--protocol-era", "legacy")
    assert code == 0 and doc["result"]["content"][0]["text"] == "You declined to give your name."
    assert doc["rounds"][0]["era"] == "legacy" and doc["rounds"][0]["requests"][0]["key"] is None
    code, doc, stderr = run("call", "insist", "--max-rounds", "2", answers={"elicitation": [{}]}, tmp=tmp_path)
    assert code == 6 and doc["outcome"] == "rounds_exceeded" and len(doc["rounds"]) == 3
    assert "still asking after 2 rounds" in stderr
    code, doc, _ = run("call", "greet", answers={"elicitation": [{"content": {"name": ""}}]}, tmp=tmp_path)
    assert code == 3 and doc["outcome"] == "input_invalid" and "/name" in doc["error"]["message"]


def test_a_url_elicitation_required_error_names_the_page_to_open() -> None:
    code, doc, _ = run("call", "authorize")
    assert code == 1 and doc["outcome"] == "jsonrpc_error"
    assert doc["error"] == {
        "message": "URL elicitation required (the page to open: https://authorize.example.invalid/connect?request=demo-asks)",
        "code": -32042,
        "code_name": "url_elicitation_required",
        "code_text": "JSON-RPC -32042 (URL elicitation required)",
    }


def test_roots_from_the_file_and_the_flag_are_given(tmp_path: Path) -> None:
    code, doc, _ = run("call", "roots", "--roots", "file:///srv/data", answers=ANSWERS, tmp=tmp_path)
    assert code == 0
    assert doc["result"]["content"][0]["text"] == "Roots: file:///home/ada/project, file:///srv/data"


def test_prompt_and_read_answer_the_same_way(tmp_path: Path) -> None:
    answers = {"elicitation": [{"content": {"name": "Grace"}}]}
    code, doc, _ = run("prompt", "welcome", answers=answers, tmp=tmp_path)
    assert code == 0 and doc["method"] == "prompts/get" and doc["prompt"] == "welcome" and doc["tool"] is None
    assert doc["result"]["messages"][0]["content"]["text"] == "Please welcome Grace warmly."
    code, doc, _ = run("read", "demo://asks/secret/x", answers=answers, tmp=tmp_path)
    assert code == 0 and doc["method"] == "resources/read" and doc["uri"] == "demo://asks/secret/x"
    assert "for Grace" in doc["result"]["contents"][0]["text"] and len(doc["rounds"]) == 1
    code, doc, _ = run("prompt", "nope")
    assert code == 3 and doc["outcome"] == "unknown_tool" and doc["prompt"] == "nope"


def test_a_malformed_answers_file_is_a_usage_error_and_starts_no_server(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    for text, said in (
        ('{"elicitation": [{"action": "maybe"}]}', "elicitation[0].action must be one of accept, decline, cancel"),
        ('{"sampling": [{"match": "x"}]}', 'sampling[0] needs a "text" string'),
        ('{"roots": [{"uri": "https://x.invalid/"}]}', "roots[0].uri must be a file:// URI"),
        ("[1]", "must hold a JSON object"),
    ):
        bad.write_text(text)
        proc = run_cli("call", "greet", "--answers", str(bad), "--", "/nonexistent/server")
        assert proc.returncode == 2 and said in proc.stderr and proc.stdout == ""
    proc = run_cli("call", "greet", "--answers", str(bad), "--decline-all", "--", "/nonexistent/server")
    assert proc.returncode == 2 and "not allowed with argument" in proc.stderr
    proc = run_cli("call", "greet", "--roots", "/home/ada", "--", "/nonexistent/server")
    assert proc.returncode == 2 and "--roots takes file:// URIs" in proc.stderr


def test_protocol_era_chooses_the_handshake_for_snapshot_too() -> None:
    demo = ["--", *DEMO, "--mode", "normal"]
    legacy = run_cli("snapshot", "--protocol-era", "legacy", *demo)
    assert legacy.returncode == 0 and json.loads(legacy.stdout)["server"]["protocol_version"] == "2025-11-25"
    modern = run_cli("snapshot", "--protocol-era", "modern", *demo)
    assert modern.returncode == 0 and json.loads(modern.stdout)["server"]["protocol_version"] == "2026-07-28"
    # A server of the older era only (it refuses server/discover): `modern` does not fall back.
    refused = run_cli("snapshot", "--protocol-era", "modern", *demo, "--legacy")
    assert refused.returncode == 4 and json.loads(refused.stdout)["status"] == "failed"
    bad = run_cli("snapshot", "--protocol-era", "2026", *demo)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
