"""Usage errors the CLI catches before any server runs, and its own edges (issue 20, points 8 and 10).

A field no process or HTTP client could take (a NUL in a command line or the
environment, `=` in a variable's name, a header value that is not printable ASCII,
a URL with a broken host or port) used to be found only once the server was
started, and reported as the server's `protocol` fault, an `internal` ValueError or
"ExceptionGroup: unhandled errors in a TaskGroup". Each is now a usage error
(exit 2) naming the field, and no server is started.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli_runner import run_cli
from tests.helpers import DEMO, wait_until
from tests.test_cli import CLI


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, timeout=timeout)


def config_with(tmp_path: Path, entry: dict[str, Any]) -> Path:
    path = tmp_path / "servers.json"
    path.write_text(json.dumps({"mcpServers": {"bad": entry}}))
    return path


def stdio_entry(pidfile: Path, **fields: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"command": DEMO[0], "args": [*DEMO[1:], "--pidfile", str(pidfile)]}
    entry.update(fields)
    return entry


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"env": {"A=B": "x"}}, "mcpServers.bad.env: 'A=B' cannot be a variable's name"),
        ({"env": {"": "x"}}, "mcpServers.bad.env: '' cannot be a variable's name"),
        ({"env": {"TOKEN": "se\0cret"}}, "mcpServers.bad.env: the value of 'TOKEN' contains a NUL character"),
        ({"args": ["-m", "x\0y"]}, "mcpServers.bad.args[1] contains a NUL character"),
        ({"command": "python\0"}, "mcpServers.bad.command contains a NUL character"),
        ({"cwd": "/tmp\0"}, "mcpServers.bad.cwd contains a NUL character"),
    ],
    ids=["equals-in-env-name", "empty-env-name", "nul-in-env-value", "nul-in-arg", "nul-in-command", "nul-in-cwd"],
)
def test_a_stdio_field_no_process_can_take_is_a_usage_error_naming_it(
    tmp_path: Path, fields: dict[str, Any], words: str
) -> None:
    pidfile = tmp_path / "pids"
    entry = stdio_entry(pidfile, **fields)
    if "args" in fields:
        entry["args"] = [*DEMO[1:], "--pidfile", str(pidfile), *fields["args"]]
        words = words.replace("args[1]", f"args[{len(entry['args']) - 1}]")
    proc = run("snapshot", "--server", "bad", "--config", str(config_with(tmp_path, entry)))
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert words in proc.stderr.splitlines()[-1]
    assert "se\0cret" not in proc.stderr and "se\\u0000cret" not in proc.stderr, "never the value"
    assert not pidfile.exists(), "no server was started"


@pytest.mark.parametrize(
    ("url", "words", "shown"),
    [
        ("http://u:hunter2@[::1/mcp", "(Invalid IPv6 URL)", "http://[::1/mcp"),
        ("http://u:hunter2@127.0.0.1:99999/mcp", "(Port out of range 0-65535)", "http://127.0.0.1:99999/mcp"),
        ("http://127.0.0.1:1:2/mcp?token=hunter2", "(Port could not be cast", "http://127.0.0.1:1:2/mcp?…"),
        ("http://127.0.0.1:0/mcp", "(port 0 is not 1 to 65535)", "http://127.0.0.1:0/mcp"),
        ("http:///mcp", "(it has no host)", "http:///mcp"),
        ("http://127.0.0.1:9/m\0cp", "(a control character at position 21)", "http://127.0.0.1:9/m\\u0000cp"),
    ],
    ids=["broken-ipv6", "port-99999", "port-1-2", "port-0", "no-host", "nul"],
)
def test_a_url_no_client_can_connect_to_is_a_usage_error_naming_it_redacted(
    tmp_path: Path, url: str, words: str, shown: str
) -> None:
    config = config_with(tmp_path, {"type": "http", "url": url})
    ways = [(["--server", "bad", "--config", str(config)], "mcpServers.bad.url")]
    if "\0" not in url:  # no command line can hold one
        ways.append((["--url", url], "--url"))
    for args, field in ways:
        proc = run("snapshot", *args)
        assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
        line = proc.stderr.splitlines()[-1]
        assert f"{field} is not a usable URL {words}" in line and line.endswith(f": {shown}"), line
        assert "hunter2" not in proc.stderr


@pytest.mark.parametrize(("value", "position"), [("caf\u00e9", 4), ("a\u0001b", 2), ("x\u202e", 2)])
def test_a_header_value_http_cannot_send_is_a_usage_error_naming_the_header(
    tmp_path: Path, value: str, position: int
) -> None:
    message = f"the value of header 'X-Key' has a character HTTP cannot send at position {position}"
    proc = run("snapshot", "--url", "http://127.0.0.1:9/mcp", "--header", f"X-Key: {value}")
    assert proc.returncode == 2 and message in proc.stderr.splitlines()[-1]
    config = config_with(tmp_path, {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"X-Key": value}})
    proc = run("snapshot", "--server", "bad", "--config", str(config))
    assert proc.returncode == 2 and f"mcpServers.bad.headers: {message}" in proc.stderr.splitlines()[-1]
    assert value not in proc.stderr


# -- point 10: the CLI's own edges ------------------------------------------------------------------


@pytest.mark.parametrize(
    "command", [["diff", "{snap}", "{snap}"], ["snapshot", "--", *DEMO], ["call", "echo", "--", *DEMO]]
)
def test_a_reader_that_went_away_ends_the_command_quietly(tmp_path: Path, command: list[str]) -> None:
    """`… | head`: no traceback, no "cannot write None", exit 141 as a shell says of a writer SIGPIPE stopped."""
    snap = tmp_path / "snap.json"
    assert run("snapshot", "--out", str(snap), "--", *DEMO).returncode == 0
    read, write = os.pipe()
    os.close(read)  # before the command writes anything: its first write meets a closed pipe
    try:
        proc = subprocess.run(
            [*CLI, *(part.format(snap=snap) for part in command)],
            stdout=write, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, timeout=60,
        )  # fmt: skip
    finally:
        os.close(write)
    assert proc.returncode == 141 and proc.stderr == ""


def blocked_in_open(pid: int) -> bool:
    """`pid` waits in open() for a FIFO's other end."""
    try:
        return Path(f"/proc/{pid}/wchan").read_text() in ("wait_for_partner", "fifo_open")
    except OSError:
        return False


@pytest.mark.parametrize(
    "command",
    [
        ["call", "echo", "--args-file", "{fifo}", "--", *DEMO],
        ["snapshot", "--server", "x", "--config", "{fifo}"],
        ["diff", "{fifo}", "{fifo}"],
    ],
    ids=["args-file", "config", "diff"],
)
def test_sigint_while_blocked_opening_a_fifo_is_one_line_and_exit_130(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [*CLI, *(part.format(fifo=fifo) for part in command)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        wait_until(lambda: blocked_in_open(proc.pid), timeout=30, what="the command to block opening the FIFO")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130 and out == ""
    assert err == f"mcp-catalog-inspector {command[0]}: stopped by SIGINT\n"


def test_an_unknown_server_among_10000_names_the_count_and_the_closest(tmp_path: Path) -> None:
    config = tmp_path / "servers.json"
    servers = {f"server-{n:05d}": {"command": "srv"} for n in range(10_000)}
    config.write_text(json.dumps({"mcpServers": servers}))
    proc = run("snapshot", "--server", "server-00042x", "--config", str(config))
    line = proc.stderr.splitlines()[-1]
    assert proc.returncode == 2 and len(line) < 500, f"{len(line)} characters"
    assert f"no server named 'server-00042x' in {config} (10,000 servers; did you mean 'server-00042' or " in line
    assert line.endswith("?)") and line.count("'server-") == 1 + 5, "the name asked for and the five closest"
    proc = run("snapshot", "--server", "zzz", "--config", str(config))
    line = proc.stderr.splitlines()[-1]
    assert line.endswith("(10,000 servers: server-00000, server-00001, server-00002, server-00003, server-00004, …)")


@pytest.mark.parametrize(
    ("word", "guess"), [("snapshto", "; did you mean snapshot?"), ("chek", "; did you mean check?"), ("frob", "")]
)
def test_a_mistyped_command_names_the_commands_and_the_one_meant(word: str, guess: str) -> None:
    proc = run(word, "--", *DEMO)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines()[-1] == (
        f"mcp-catalog-inspector: error: {word!r} is not a command{guess} "
        "(commands: snapshot, diff, check, approve, sweep, call, prompt, read, complete, signout; "
        "mcp-catalog-inspector --help lists them)"
    )


# A command's process would otherwise spend 0.6-1.0 s after its last word in the interpreter's
# teardown collections over the SDK's objects (issue 20, point 11; timed in bench_quit.py).
EXIT_PROBE = """
import atexit, gc, sys
from catalog_inspector.main import main
atexit.register(lambda: print("frozen", gc.get_freeze_count(), flush=True))
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("command", [["diff", "missing.json", "missing.json"], ["snapshto"]])
def test_a_command_leaves_its_objects_out_of_the_last_collections(command: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", EXIT_PROBE, *command], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    frozen = int(done.stdout.split()[-1])
    assert frozen > 10_000, "the interpreter's teardown would rescan every object the command made"
