"""The headless CLI contract: commands, JSON keys, exit codes, no leftover processes."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli_runner import run_cli
from tests.helpers import DEMO, assert_all_gone, http_demo, pids_in, wait_until

CLI = (sys.executable, "-m", "catalog_inspector")
PAGE_KEYS = {"index", "cursor", "next_cursor", "items", "names", "bytes", "latency_ms"}


def run(*args: str, timeout: float = 60) -> tuple[int, dict[str, Any] | None, str]:
    proc = run_cli(*args, timeout=timeout)
    document = json.loads(proc.stdout) if proc.stdout.strip() else None
    return proc.returncode, document, proc.stderr


def demo(mode: str, *extra: str) -> list[str]:
    return ["--", *DEMO, "--mode", mode, *extra]


def test_complete_snapshot_exits_0_with_the_documented_keys() -> None:
    code, doc, _ = run("snapshot", "--timeout", "5", *demo("normal"))
    assert code == 0 and doc is not None
    assert doc["format"] == "mcp-catalog-snapshot/1"
    assert doc["status"] == "complete" and doc["error"] is None
    assert doc["server"]["name"] == "demo-normal" and doc["server"]["version"] == "1.0.0"
    assert doc["server"]["protocol_version"] == "2026-07-28"
    assert [t["name"] for t in doc["tools"]] == ["echo", "count_items", "delete_everything"]
    assert len(doc["pages"]) == 3 and all(PAGE_KEYS <= set(p) for p in doc["pages"])
    assert doc["pages"][1]["items"] == 0 and doc["pages"][1]["names"] == []
    for name in ("resources", "resource_templates", "prompts"):
        assert doc[name]["status"] == "complete" and {"status", "items", "pages"} <= set(doc[name])


def test_rejected_walk_exits_3_and_still_writes_the_snapshot() -> None:
    code, doc, stderr = run("snapshot", *demo("duplicate"))
    assert code == 3 and doc is not None
    assert doc["status"] == "rejected" and doc["tools"] == []
    assert doc["error"]["kind"] == "duplicate_name" and doc["error"]["page"] == 2
    assert {"kind", "message", "page", "code"} <= set(doc["error"]) and doc["error"]["list"] == "tools"
    assert "duplicate_name" in stderr


@pytest.mark.parametrize(("mode", "kind"), [("crash", "connection"), ("generation", "server_error")])
def test_failed_walk_exits_4(mode: str, kind: str) -> None:
    code, doc, _ = run("snapshot", "--timeout", "5", *demo(mode))
    assert code == 4 and doc is not None and doc["status"] == "failed" and doc["error"]["kind"] == kind


def test_budgets_are_flags() -> None:
    code, doc, _ = run("snapshot", "--max-pages", "4", *demo("endless"))
    assert code == 3 and doc is not None and doc["error"]["kind"] == "page_limit" and len(doc["pages"]) == 4
    code, doc, _ = run("snapshot", "--max-items", "1", *demo("normal"))
    assert code == 3 and doc is not None and doc["error"]["kind"] == "item_limit"


def test_a_hung_server_cannot_hold_the_cli_past_its_deadline(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    code, doc, _ = run(
        "snapshot",
        "--timeout",
        "60",
        "--deadline",
        "5",
        *demo("hang", "--spawn-child", "--stubborn", "--pidfile", str(pidfile)),
        timeout=30,
    )
    assert code == 4 and doc is not None and doc["error"]["kind"] == "timeout"
    assert_all_gone(pids_in(pidfile))


def test_out_writes_a_file_and_nothing_to_stdout(tmp_path: Path) -> None:
    out = tmp_path / "nested" / "snap.json"
    code, doc, _ = run("snapshot", "--out", str(out), *demo("normal"))
    assert code == 0 and doc is None
    assert json.loads(out.read_text())["status"] == "complete"


def test_server_from_a_config_file(tmp_path: Path) -> None:
    config = tmp_path / "servers.json"
    config.write_text(
        json.dumps({"mcpServers": {"mine": {"command": DEMO[0], "args": [*DEMO[1:], "--mode", "single"]}}})
    )
    code, doc, _ = run("snapshot", "--server", "mine", "--config", str(config))
    assert code == 0 and doc is not None and len(doc["pages"]) == 1
    code, _, stderr = run("snapshot", "--server", "other", "--config", str(config))
    assert code == 2 and "no server named 'other'" in stderr and "mine" in stderr


def test_url_with_headers() -> None:
    with http_demo("normal") as url:
        code, doc, _ = run("snapshot", "--url", url, "--header", "X-Test: yes")
    assert code == 0 and doc is not None and len(doc["tools"]) == 3


@pytest.mark.parametrize(
    "args",
    [
        ["snapshot"],
        ["snapshot", "--url", "http://127.0.0.1:9/mcp", "--", "x"],
        ["snapshot", "--max-pages", "0", "--", "x"],
        ["snapshot", "--url", "ftp://x"],
        ["snapshot", "--header", "nocolon", "--url", "http://127.0.0.1:9/mcp"],
        ["snapshot", "--bogus"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    code, doc, stderr = run(*args)
    assert code == 2 and doc is None and "usage" in stderr.lower()


def test_the_summary_line_carries_the_servers_last_words() -> None:
    code, doc, stderr = run("snapshot", "--timeout", "5", *demo("crash"))
    assert code == 4 and doc is not None
    assert doc["error"]["details"]["exit_code"] == 3
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, "one line, whatever the server said"
    assert lines[0].startswith("failed: connection (tools, page 1): the server process exited (exit code 3)")
    assert "; the server's last stderr lines: [demo] tools walk 0 page 0 (1 items) | " in lines[0]
    assert lines[0].endswith(" | [demo] crashing on purpose")


def test_the_error_object_carries_structured_details() -> None:
    code, doc, _ = run("snapshot", *demo("duplicate"))
    assert code == 3 and doc is not None
    details = doc["error"]["details"]
    assert details["name"] == "echo" and details["pages"] == [0, 2] and len(details["definitions"]) == 2
    assert doc["tools_error"]["details"] == details


def test_out_writes_through_a_fifo(tmp_path: Path) -> None:
    import os
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    try:
        code, doc, _ = run("snapshot", "--out", str(fifo), *demo("normal"))
    finally:
        reader.join(timeout=30)
    assert code == 0 and doc is None
    assert json.loads(received[0])["status"] == "complete"
    assert fifo.is_fifo(), "the FIFO is still a FIFO"


def test_out_through_a_symlink_replaces_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    target = tmp_path / "real" / "snapshot.json"
    target.parent.mkdir()
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "latest.json"
    link.symlink_to(target)
    code, _, _ = run("snapshot", "--out", str(link), *demo("normal"))
    assert code == 0
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert json.loads(target.read_text())["status"] == "complete"
    assert target.stat().st_mode & 0o777 == 0o640, "a replaced file keeps its permissions"


def test_out_dash_is_stdout(tmp_path: Path) -> None:
    code, doc, _ = run("snapshot", "--out", "-", *demo("normal"))
    assert code == 0 and doc is not None and doc["status"] == "complete"
    assert not (Path.cwd() / "-").exists()


def test_url_credentials_never_reach_the_snapshot(tmp_path: Path) -> None:
    """Issue 9, point 7: user:password and query values are redacted wherever the URL is written."""
    with http_demo("normal") as url:
        secret_url = url.replace("http://", "http://alice:pw-SECRET@") + "?api_key=QUERY-SECRET"
        code, doc, stderr = run("snapshot", "--url", secret_url)
    assert doc is not None
    text = json.dumps(doc) + stderr
    assert "pw-SECRET" not in text and "QUERY-SECRET" not in text and "alice" not in text
    assert doc["source"]["target"].endswith("/mcp?api_key=…")


def test_names_and_messages_on_stderr_cannot_drive_the_terminal(tmp_path: Path) -> None:
    """Issue 9, points 6 and 10: control, escape and bidi characters are written out, one line per message."""
    config = tmp_path / "servers.json"
    hostile = "evil\u202e\x1b]0;pwned\x07\nfake: complete"
    config.write_text(json.dumps({"mcpServers": {hostile: {"command": "true"}}}))
    code, _, stderr = run("snapshot", "--server", "other", "--config", str(config))
    assert code == 2
    assert "\x1b" not in stderr and "\u202e" not in stderr and "\x07" not in stderr
    assert "evil\\u202e\\u001b]0;pwned\\u0007\\u000afake: complete" in stderr
    assert not any(line.startswith("fake: complete") for line in stderr.splitlines())


def test_a_header_with_a_line_break_is_a_usage_error_naming_it(tmp_path: Path) -> None:
    """Issue 9, point 9: checked on the command line and when the config is read, value never echoed."""
    code, doc, stderr = run("snapshot", "--url", "http://127.0.0.1:9/mcp", "--header", "X-Token: abc\r\nEvil: 1")
    assert code == 2 and doc is None and "'X-Token'" in stderr and "line break" in stderr and "abc" not in stderr
    config = tmp_path / "servers.json"
    entry = {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer s3cret\n"}}
    config.write_text(json.dumps({"mcpServers": {"remote": entry}}))
    code, doc, stderr = run("snapshot", "--server", "remote", "--config", str(config))
    assert code == 2 and doc is None
    assert "mcpServers.remote.headers" in stderr and "'Authorization'" in stderr and "s3cret" not in stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_stops_the_walk_kills_the_server_and_still_writes_the_json(tmp_path: Path, signum: int) -> None:
    """Issue 9, point 4: `timeout 3 mcp-catalog-inspector snapshot …` in CI must not orphan the server."""
    pidfile, busy = tmp_path / "pids", tmp_path / "busy"
    proc = subprocess.Popen(
        [*CLI, "snapshot", "--timeout", "60",
         *demo("hang", "--spawn-child", "--stubborn", "--pidfile", str(pidfile), "--busy-file", str(busy))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        # The server starts while the CLI loads (its head start): the walk has begun once a page hangs.
        wait_until(lambda: len(pids_in(pidfile)) == 2 and busy.exists(), timeout=30, what="the walk to hang")
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 4, err
    doc = json.loads(out)
    assert doc["status"] == "failed" and doc["error"]["kind"] == "cancelled"
    assert signal.Signals(signum).name in doc["error"]["message"]
    assert "Traceback" not in err and err.strip().startswith("failed: cancelled")
    assert_all_gone(pids_in(pidfile))


@pytest.mark.parametrize(
    ("content", "words"),
    [(b'{"mcpServers": {"a\xff": {}}}', "is not UTF-8"), (b"[" * 100_000 + b"]" * 100_000, "too deeply")],
    ids=["invalid UTF-8", "nested 100,000 deep"],
)
def test_a_broken_config_file_is_one_line_and_exit_2(tmp_path: Path, content: bytes, words: str) -> None:
    """Issue 9, point 8 (the CLI); the app shows the same words in its sidebar notice."""
    config = tmp_path / "servers.json"
    config.write_bytes(content)
    code, doc, stderr = run("snapshot", "--server", "x", "--config", str(config))
    assert code == 2 and doc is None and "Traceback" not in stderr
    assert words in stderr.splitlines()[-1] and str(config) in stderr.splitlines()[-1]
    from catalog_inspector.ui.app import load_servers

    specs, notice = load_servers(config, tmp_path / "demo")
    assert words in notice


def test_one_bad_entry_does_not_stop_the_good_ones_in_the_cli_nor_the_app(tmp_path: Path) -> None:
    """Issue 10: the good entries load; the bad one says what is wrong when it is asked for."""
    config = tmp_path / "servers.json"
    good = {"command": DEMO[0], "args": [*DEMO[1:], "--mode", "normal"]}
    config.write_text(json.dumps({"mcpServers": {"good": good, "ws": {"type": "websocket", "url": "wss://x.test"}}}))
    code, doc, _ = run("snapshot", "--timeout", "5", "--server", "good", "--config", str(config))
    assert code == 0 and doc is not None and doc["status"] == "complete"
    code, doc, stderr = run("snapshot", "--server", "ws", "--config", str(config))
    assert code == 2 and doc is None
    assert "type 'websocket' is not supported" in stderr.splitlines()[-1]
    from catalog_inspector.ui.app import load_servers

    specs, notice = load_servers(config, tmp_path / "demo")
    assert [s.name for s in specs] == ["good"]
    assert "1 entry" in notice and "type 'websocket' is not supported" in notice


def test_a_servers_error_message_cannot_drive_the_terminal_or_forge_a_line(tmp_path: Path) -> None:
    """Issue 9, point 6: title sequence, clear screen, colour, U+202E and a newline forging a line."""
    hostile = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\u202e\nfake: complete"
    code, doc, stderr = run("snapshot", *demo("flaky", "--state", str(tmp_path / "s.json"), "--error-text", hostile))
    assert code == 4 and doc is not None and doc["error"]["details"]["message"] == hostile, (
        "the JSON keeps what was sent"
    )
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("failed: server_error")
    assert not any(char in stderr for char in "\x1b\x07\u202e")
    assert "\\u001b]0;owned\\u0007" in lines[0] and "\\u000afake: complete" in lines[0]


def test_a_signal_stops_a_call_too_and_its_document_is_still_printed(tmp_path: Path) -> None:
    """Like `snapshot`: the server (and its child) go at once, one mcp-call-result/1 document, exit 4."""
    pidfile, busy = tmp_path / "pids", tmp_path / "busy"
    server = demo("normal", "--call-delay", "60", "--spawn-child", "--pidfile", str(pidfile), "--busy-file", str(busy))
    proc = subprocess.Popen(
        [*CLI, "call", "echo", "--args", '{"text": "hi"}', "--call-timeout", "120", *server],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        wait_until(lambda: len(pids_in(pidfile)) == 2 and busy.exists(), timeout=30, what="the call to be under way")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 4, err
    report = json.loads(out)
    assert report["format"] == "mcp-call-result/1" and report["outcome"] == "cancelled"
    assert "SIGTERM" in report["error"]["message"] and "Traceback" not in err
    assert_all_gone(pids_in(pidfile))


def test_a_servers_budgets_apply_in_the_cli_unless_a_flag_says_otherwise(tmp_path: Path) -> None:
    config = tmp_path / "servers.json"
    endless = {"command": DEMO[0], "args": [*DEMO[1:], "--mode", "endless"], "budgets": {"maxPages": 3}}
    config.write_text(json.dumps({"mcpServers": {"endless": endless}}))
    code, doc, _ = run("snapshot", "--timeout", "5", "--server", "endless", "--config", str(config))
    assert code == 3 and doc is not None and (doc["error"]["kind"], doc["error"]["page"]) == ("page_limit", 2)
    code, doc, _ = run("snapshot", "--timeout", "5", "--max-pages", "5", "--server", "endless", "--config", str(config))
    assert code == 3 and doc is not None and doc["error"]["page"] == 4
