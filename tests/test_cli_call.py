"""The `call` command's contract: one mcp-call-result/1 document, an outcome per layer, its exit code, no leftovers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from catalog_inspector.demo.server import CALL_CRASH_EXIT, CALL_ERROR_CODE, CALL_ERROR_MESSAGE
from tests.cli_runner import run_cli
from tests.helpers import ROOT, assert_all_gone, forked, http_demo, pids_in
from tests.test_cli import demo

DOC_KEYS = {
    "format",
    "tool",
    "arguments",
    "argument_errors",
    "sent",
    "outcome",
    "result",
    "output_errors",
    "error",
    "duration_ms",
    "rounds",
    "task",
    "logs",
    "logs_dropped",
}
PROBLEM_KEYS = {"path", "message", "keyword"}


def call(*args: str, stdin: str | None = None, timeout: float = 60) -> tuple[int, dict[str, Any] | None, str]:
    """Run `call ARGS…`; the exit code, the document (None when stdout is empty) and stderr."""
    proc = run_cli("call", *args, timeout=timeout, stdin=None if stdin is None else stdin.encode(), cwd=ROOT)
    document = json.loads(proc.stdout) if proc.stdout.strip() else None
    if document is not None:
        assert set(document) == DOC_KEYS, "exactly the documented keys, whatever the outcome"
        assert document["format"] == "mcp-call-result/1"
        for problem in (*document["argument_errors"], *document["output_errors"]):
            assert set(problem) == PROBLEM_KEYS
        assert (document["error"] is None) == (document["outcome"] == "ok"), "error is null exactly when ok"
        assert proc.stdout.isascii(), "untrusted text reaches stdout escaped"
    return proc.returncode, document, proc.stderr


@pytest.fixture
def pidfile(tmp_path: Path) -> Path:
    return tmp_path / "pids"


def server(pidfile: Path, mode: str = "normal", *extra: str) -> list[str]:
    return demo(mode, "--pidfile", str(pidfile), *extra)


def paths(problems: list[dict[str, str]]) -> list[tuple[str, str]]:
    return [(p["path"], p["keyword"]) for p in problems]


def test_a_valid_call_exits_0_with_the_result_as_sent(pidfile: Path) -> None:
    code, doc, stderr = call("echo", "--args", '{"text": "hi", "repeat": 2}', *server(pidfile))
    assert code == 0 and doc is not None
    assert doc["outcome"] == "ok" and doc["sent"] is True and doc["tool"] == "echo"
    assert doc["arguments"] == {"text": "hi", "repeat": 2}
    assert doc["result"]["structuredContent"] == {"text": "hihi", "length": 4}
    assert doc["result"]["content"] == [{"type": "text", "text": "hihi"}]
    assert doc["argument_errors"] == [] and doc["output_errors"] == [] and doc["error"] is None
    assert isinstance(doc["duration_ms"], float) and doc["duration_ms"] > 0
    assert stderr == "", "no summary line when the call is ok"
    assert_all_gone(pids_in(pidfile))


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"repeat": 2}, [("", "required")]),
        ({"text": "a", "repeat": "x"}, [("/repeat", "type")]),
        ({"repeat": 9}, [("", "required"), ("/repeat", "maximum")]),
    ],
)
def test_invalid_arguments_are_not_sent_and_exit_3(
    pidfile: Path, arguments: dict[str, Any], expected: list[tuple[str, str]]
) -> None:
    code, doc, stderr = call("echo", "--args", json.dumps(arguments), *server(pidfile))
    assert code == 3 and doc is not None
    assert doc["outcome"] == "invalid_arguments" and doc["sent"] is False
    assert paths(doc["argument_errors"]) == expected
    assert doc["result"] is None and doc["duration_ms"] is None and doc["output_errors"] == []
    assert "nothing was sent" in doc["error"]["message"] and doc["error"]["code"] is None
    assert stderr.startswith("invalid_arguments: echo: nothing was sent: ") and len(stderr.splitlines()) == 1
    assert_all_gone(pids_in(pidfile))


def test_a_missing_required_argument_names_the_property() -> None:
    code, doc, _ = call("echo", *demo("normal"))
    assert code == 3 and doc is not None and doc["arguments"] == {}, "--args defaults to {}"
    assert doc["argument_errors"] == [{"path": "", "message": "'text' is a required property", "keyword": "required"}]


def test_send_invalid_sends_anyway_and_reports_both() -> None:
    code, doc, _ = call("echo", "--send-invalid", "--args", '{"text": ""}', *demo("normal"))
    assert code == 0 and doc is not None
    assert doc["sent"] is True and doc["outcome"] == "ok"
    assert paths(doc["argument_errors"]) == [("/text", "minLength")]
    assert doc["result"]["structuredContent"] == {"text": "", "length": 0}


def test_an_unknown_tool_is_not_sent_and_exits_3(pidfile: Path) -> None:
    code, doc, stderr = call("not_a_tool", *server(pidfile))
    assert code == 3 and doc is not None
    assert doc["outcome"] == "unknown_tool" and doc["sent"] is False and doc["result"] is None
    assert "not among the 3 tools" in doc["error"]["message"]
    assert stderr.startswith("unknown_tool: not_a_tool: ")
    assert_all_gone(pids_in(pidfile))


def test_is_error_is_a_tool_error_with_its_payload_and_exits_1() -> None:
    code, doc, stderr = call("delete_everything", "--args", '{"confirm": true}', *demo("normal"))
    assert code == 1 and doc is not None
    assert doc["outcome"] == "tool_error" and doc["sent"] is True
    assert doc["result"]["isError"] is True
    assert doc["error"] == {
        "message": "the tool reported isError: true: refusing: this demo deletes nothing",
        "code": None,
    }
    assert doc["output_errors"] == []
    assert (
        stderr.strip()
        == "tool_error: delete_everything: the tool reported isError: true: refusing: this demo deletes nothing"
    )


def test_output_that_breaks_its_schema_is_output_invalid_with_the_payload_and_exits_1() -> None:
    code, doc, stderr = call("count_items", "--args", '{"items": ["a"]}', *demo("normal"))
    assert code == 1 and doc is not None
    assert doc["outcome"] == "output_invalid" and doc["sent"] is True
    assert doc["result"]["structuredContent"] == {"count": "many"}, "the payload is shown although it is invalid"
    assert doc["output_errors"] == [{"path": "/count", "message": "'many' is not of type 'integer'", "keyword": "type"}]
    assert "/count: 'many' is not of type 'integer' [type]" in stderr


def test_a_jsonrpc_error_keeps_the_servers_code_and_message_and_exits_1(pidfile: Path) -> None:
    code, doc, stderr = call("echo", "--args", '{"text": "a"}', *server(pidfile, "normal", "--call-fail", "jsonrpc"))
    assert code == 1 and doc is not None
    assert doc["outcome"] == "jsonrpc_error" and doc["sent"] is True and doc["result"] is None
    named = "JSON-RPC 1001 (a code of the server's own)"
    assert doc["error"] == {
        "message": CALL_ERROR_MESSAGE,
        "code": CALL_ERROR_CODE,
        "code_name": "server_defined",
        "code_text": named,
    }
    assert stderr.strip() == f"jsonrpc_error: echo: {named}: {CALL_ERROR_MESSAGE}"
    assert_all_gone(pids_in(pidfile))


NAMED_ERRORS = ["--", *forked("tests.fixtures.named_errors_server")]


@pytest.mark.parametrize(
    ("tool", "name", "text"),
    [
        (
            "needs_form",
            "missing_required_client_capability",
            "JSON-RPC -32021 (the client lacks a capability the server requires: form elicitation)",
        ),
        ("vanished", "unknown_tool", "JSON-RPC -32602 (unknown tool)"),
        ("bad_args", "invalid_params", "JSON-RPC -32602 (invalid params)"),
    ],
)
def test_a_jsonrpc_error_names_its_code_in_the_document_and_the_summary_line(tool: str, name: str, text: str) -> None:
    code, doc, stderr = call(tool, "--", *NAMED_ERRORS[1:], "--refuse-discover")
    assert code == 1 and doc is not None and doc["outcome"] == "jsonrpc_error"
    error = doc["error"]
    assert (error["code_name"], error["code_text"]) == (name, text)
    assert error["code"] == int(text.split()[1]), "the number stays where scripts read it"
    assert stderr.strip() == f"jsonrpc_error: {tool}: {text}: {error['message']}"


def test_hostile_capability_data_is_named_bounded_and_visible() -> None:
    code, doc, stderr = call("hostile_capability", *NAMED_ERRORS)
    assert code == 1 and doc is not None
    text = doc["error"]["code_text"]
    assert text.startswith("JSON-RPC -32021 (the client lacks a capability the server requires: \\u202eevil")
    assert text.endswith("more))") and len(text) < 1000
    assert "\u202e" not in stderr and "\\u202eevil" in stderr, "hidden characters are written out"
    assert len(stderr) < 2000


def test_a_catalog_refused_with_a_code_names_it_on_the_snapshots_line() -> None:
    proc = run_cli("snapshot", *NAMED_ERRORS, "--list-error", "-32022", cwd=ROOT)
    assert proc.returncode != 0
    line = proc.stderr.strip()
    assert line.startswith(
        "failed: server_error (tools, page 0): "
        "JSON-RPC -32022 (unsupported protocol version; the server supports 2025-11-25): "
    )
    document = json.loads(proc.stdout)
    assert document["pages"][0]["offence"]["jsonrpc"]["name"] == "unsupported_protocol_version"


def test_a_call_without_an_answer_times_out_and_exits_4(pidfile: Path) -> None:
    code, doc, stderr = call(
        "echo", "--args", '{"text": "a"}', "--call-timeout", "0.5",
        *server(pidfile, "normal", "--call-delay", "60", "--stubborn"),
        timeout=30,
    )  # fmt: skip
    assert code == 4 and doc is not None
    assert doc["outcome"] == "timeout" and doc["sent"] is True and doc["result"] is None
    assert doc["error"] == {"message": "no answer within the call timeout of 0.5 s", "code": None}
    assert 500 <= doc["duration_ms"] < 30_000
    assert stderr.startswith("timeout: echo: no answer within the call timeout of 0.5 s")
    assert_all_gone(pids_in(pidfile))


def test_call_timeout_defaults_to_the_request_timeout() -> None:
    code, doc, _ = call(
        "echo", "--args", '{"text": "a"}', "--timeout", "3", *demo("normal", "--call-delay", "60"), timeout=60
    )  # 3 s: the walk before the call runs under the same request timeout, also on a loaded machine
    assert code == 4 and doc is not None and doc["error"]["message"] == "no answer within the call timeout of 3 s"


def test_a_server_that_dies_mid_call_is_a_connection_failure_and_exits_4(pidfile: Path) -> None:
    code, doc, stderr = call("echo", "--args", '{"text": "a"}', *server(pidfile, "normal", "--call-fail", "crash"))
    assert code == 4 and doc is not None
    assert doc["outcome"] == "connection" and doc["sent"] is True and doc["result"] is None
    assert doc["error"]["message"] == f"the server process exited (exit code {CALL_CRASH_EXIT})"
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("connection: echo: the server process exited")
    assert lines[0].endswith("| [demo] crashing mid-call on purpose (tools/call echo)"), "with the server's last words"
    assert_all_gone(pids_in(pidfile))


@pytest.mark.parametrize(
    ("mode", "words"), [("duplicate", "rejected: duplicate_name"), ("crash", "failed: connection")]
)
def test_a_walk_that_is_not_accepted_is_catalog_failed_and_exits_4(pidfile: Path, mode: str, words: str) -> None:
    code, doc, stderr = call("echo", "--args", '{"text": "a"}', *server(pidfile, mode))
    assert code == 4 and doc is not None
    assert doc["outcome"] == "catalog_failed" and doc["sent"] is False and doc["result"] is None
    assert doc["argument_errors"] == [], "a catalog that was not accepted checks nothing"
    assert words in doc["error"]["message"] and "on tools page" in doc["error"]["message"]
    assert stderr.startswith(f"catalog_failed: echo: the catalog walk was not accepted ({words}")
    assert_all_gone(pids_in(pidfile))


def test_args_file_and_stdin(tmp_path: Path) -> None:
    args = tmp_path / "args.json"
    args.write_text('{"text": "from a file"}', encoding="utf-8")
    code, doc, _ = call("echo", "--args-file", str(args), *demo("normal"))
    assert code == 0 and doc is not None and doc["result"]["structuredContent"]["text"] == "from a file"
    code, doc, _ = call("echo", "--args-file", "-", *demo("normal"), stdin='{"text": "from stdin"}')
    assert code == 0 and doc is not None and doc["result"]["structuredContent"]["text"] == "from stdin"


def test_out_also_writes_the_walks_snapshot(tmp_path: Path) -> None:
    out = tmp_path / "snapshot.json"
    code, doc, _ = call("echo", "--args", '{"text": "a"}', "--out", str(out), *demo("normal"))
    assert code == 0 and doc is not None and doc["outcome"] == "ok"
    assert json.loads(out.read_text())["status"] == "complete"


def test_over_streamable_http() -> None:
    with http_demo("normal") as url:
        code, doc, _ = call("count_items", "--args", '{"items": []}', "--url", url)
    assert code == 1 and doc is not None and paths(doc["output_errors"]) == [("/count", "type")]


def test_untrusted_names_are_shown_visibly_on_stderr() -> None:
    code, doc, stderr = call("echo\u202e\u200b", *demo("normal"))
    assert code == 3 and doc is not None and doc["tool"] == "echo\u202e\u200b"
    assert "\u202e" not in stderr and "\u200b" not in stderr
    assert stderr.startswith("unknown_tool: echo\\u202e\\u200b: ")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["echo", "--args", "{not json"], "--args is not valid JSON"),
        (["echo", "--args", "[1, 2]"], "--args must be a JSON object of arguments, not an array"),
        (["echo", "--args", '"text"'], "not a string"),
        (["echo", "--args", '{"n": NaN}'], "--args is not valid JSON: NaN is not a number in JSON"),
        (["echo", "--args", "{}", "--args-file", "x.json"], "not allowed with argument"),
        (["echo", "--args-file", "/nonexistent/args.json"], "cannot read --args-file"),
        (["echo", "--out", "-"], "give --out a file"),
        (["echo"], "give exactly one server"),
        ([], "the following arguments are required: TOOL"),
        (["echo", "--call-timeout", "0"], "must be greater than 0"),
    ],
)
def test_usage_errors_exit_2_print_no_document_and_leave_no_server(pidfile: Path, args: list[str], says: str) -> None:
    # The server after `--` is started before the arguments are read (`cli.head_start`: its start-up overlaps the
    # inspector's), so a usage error may find it started: it is ended with the command, its whole group.
    target = server(pidfile) if args != ["echo"] else []
    code, doc, stderr = call(*args, *target)
    assert code == 2 and doc is None
    assert "usage" in stderr.lower() and says in stderr
    if pidfile.exists():
        assert_all_gone(pids_in(pidfile))


def test_a_file_that_is_not_a_json_object_says_so(tmp_path: Path) -> None:
    args = tmp_path / "args.json"
    args.write_text("null", encoding="utf-8")
    code, doc, stderr = call("echo", "--args-file", str(args), *demo("normal"))
    assert code == 2 and doc is None and f"--args-file {args} must be a JSON object of arguments, not null" in stderr
