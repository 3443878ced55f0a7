"""An HTTP connection that fails says where and how: host and port; refused, name not found, timed out;
the other transport when the server speaks it; never httpx's own text, its documentation link or a credential.

Real sockets and real servers on 127.0.0.1: a port nobody listens on (bound, then closed), a `.invalid`
host name, a listener whose accept queue is full (the kernel drops the handshake, so connecting times out).
"""

from __future__ import annotations

import json
import select
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import anyio
import pytest

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import ErrorInfo, ErrorKind, reason, transport_hint
from catalog_inspector.core.session import SessionWorker
from tests import cli_runner
from tests.helpers import http_demo

LIMITS = Limits(request_timeout=5.0, deadline=30.0)
QUICK = Limits(request_timeout=1.0, deadline=20.0)  # where waiting out the connect timeout is the point
HTTPX_WORDS = ("All connection attempts failed", "For more information", "developer.mozilla.org", "Client error")
CLI = (sys.executable, "-m", "catalog_inspector")


async def error_of(url: str, transport: str = "http", limits: Limits = LIMITS) -> ErrorInfo:
    worker = SessionWorker(ServerSpec(name="remote", transport=transport, url=url), limits)  # type: ignore[arg-type]
    with anyio.fail_after(30):
        snapshot = await worker.walk_once()
    assert snapshot.status == "failed" and snapshot.error is not None
    return snapshot.error


def free_port() -> int:
    """A port nobody listens on: bound, then closed."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@contextmanager
def full_backlog() -> Iterator[int]:
    """A listener that never accepts, its one-connection queue taken: further handshakes go unanswered."""
    with ExitStack() as stack:
        listener = stack.enter_context(socket.socket())
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port: int = listener.getsockname()[1]
        first = stack.enter_context(socket.socket())
        first.setblocking(False)
        first.connect_ex(("127.0.0.1", port))
        _, writable, _ = select.select([], [first], [], 10)  # established: the queue is now full
        assert writable and first.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
        yield port


def assert_no_httpx_words(info: ErrorInfo) -> None:
    shown = json.dumps(info.to_json())
    assert not [words for words in HTTPX_WORDS if words in shown], shown


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["http", "sse"])
async def test_a_refused_connection_names_host_and_port_and_says_refused(transport: str) -> None:
    port = free_port()
    error = await error_of(f"http://127.0.0.1:{port}/mcp", transport)
    assert error.kind is ErrorKind.CONNECTION
    assert error.message.startswith(f"127.0.0.1:{port}: connection refused")
    assert error.details == {"host": "127.0.0.1", "port": port, "cause": "refused", "errno": 111}
    assert_no_httpx_words(error)


@pytest.mark.anyio
async def test_a_host_name_that_does_not_resolve_says_name_not_found() -> None:
    error = await error_of("http://catalog-inspector-test.invalid:8123/mcp")
    assert error.kind is ErrorKind.CONNECTION
    assert error.message.startswith("catalog-inspector-test.invalid:8123: host name not found (")
    assert error.details["cause"] == "name_not_found" and error.details["port"] == 8123
    assert_no_httpx_words(error)


@pytest.mark.anyio
async def test_a_host_that_never_completes_the_handshake_says_timed_out_after_the_connect_timeout() -> None:
    with full_backlog() as port:
        error = await error_of(f"http://127.0.0.1:{port}/mcp", limits=QUICK)
    assert error.kind is ErrorKind.CONNECTION
    assert error.message.startswith(f"127.0.0.1:{port}: connecting timed out after 1 s"), error.message
    assert error.details["cause"] == "timed_out"
    assert "ExceptionGroup" not in error.message and "ConnectTimeout" not in error.message


@pytest.mark.anyio
async def test_the_default_port_is_named_when_the_url_gives_none() -> None:
    error = await error_of("https://catalog-inspector-test.invalid/mcp")
    assert error.message.startswith("catalog-inspector-test.invalid:443: ")


@pytest.mark.anyio
async def test_credentials_in_the_url_stay_out_of_every_connection_message() -> None:
    port = free_port()
    error = await error_of(f"http://alice:s3cret@127.0.0.1:{port}/mcp?token=t0ken")
    assert error.message.startswith(f"127.0.0.1:{port}: connection refused")
    with http_demo("normal") as url:
        status = await error_of(url.replace("http://", "http://alice:s3cret@") + "?token=t0ken", "sse")
    for info in (error, status):
        shown = json.dumps(info.to_json())
        assert "s3cret" not in shown and "t0ken" not in shown and "alice" not in shown, shown
    assert status.details["url"].endswith("/mcp?token=…"), status


@pytest.mark.anyio
async def test_legacy_sse_at_a_streamable_http_endpoint_says_so_and_suggests_the_other_transport() -> None:
    with http_demo("normal") as url:
        error = await error_of(url, "sse")
    assert error.kind is ErrorKind.CONNECTION
    assert error.message == (
        "this endpoint does not speak legacy SSE (GET answered HTTP 400 Bad Request, as Streamable HTTP endpoints do)"
    )
    assert error.details["url"] == url
    assert error.details["try_transport"] == "http" and error.details["status"] == 400
    assert transport_hint(error, app=False).startswith("drop --sse")
    assert transport_hint(error, app=True) == "Edit the server to use Streamable HTTP"
    assert_no_httpx_words(error)


@pytest.mark.anyio
async def test_streamable_http_at_a_legacy_sse_endpoint_says_so_and_suggests_the_other_transport() -> None:
    with http_demo("normal", sse=True) as url:
        error = await error_of(url, "http")
    assert error.kind is ErrorKind.CONNECTION
    assert error.message == (
        "this endpoint does not take Streamable HTTP requests (POST answered HTTP 405 Method Not Allowed, "
        "as legacy SSE endpoints do)"
    )
    assert error.details["try_transport"] == "sse" and error.details["url"] == url
    assert transport_hint(error, app=False).startswith("add --sse")


@pytest.mark.anyio
async def test_an_http_error_status_names_the_status_instead_of_the_sdks_stand_in() -> None:
    with http_demo("normal", sse=True) as url:
        error = await error_of(url.rsplit("/", 1)[0] + "/messages/", "http")
    assert error.message == f"POST {url.rsplit('/', 1)[0]}/messages/ answered HTTP 400 Bad Request"
    assert "try_transport" not in error.details and transport_hint(error, app=True) == ""


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [*CLI, "snapshot", "--timeout", "2", "--deadline", "20", *args]
    return cli_runner.run_cli(*command[len(CLI) :], timeout=60)


def test_the_cli_summary_says_refused_with_host_and_port() -> None:
    port = free_port()
    proc = run_cli("--url", f"http://127.0.0.1:{port}/mcp")
    assert proc.returncode == 4
    assert f"failed: connection: 127.0.0.1:{port}: connection refused" in proc.stderr, proc.stderr
    assert "All connection attempts failed" not in proc.stderr


def test_the_cli_summary_suggests_dropping_sse_for_a_streamable_http_endpoint() -> None:
    with http_demo("normal") as url:
        proc = run_cli("--url", url, "--sse")
    assert proc.returncode == 4
    line = proc.stderr.strip().splitlines()[-1]
    assert "does not speak legacy SSE" in line and line.endswith(
        '; drop --sse (for a configured server: "type": "http")'
    )
    assert "mozilla" not in proc.stderr and "For more information" not in proc.stderr


# -- the words under a heading never say the heading again ---------------------------------------
@pytest.mark.parametrize(
    ("info", "words"),
    [
        (ErrorInfo(ErrorKind.SERVER_ERROR, "the server answered with an error: boom", 1, -32603,
                   details={"code": -32603, "message": "flaky backend: upstream timed out", "data": None}),
         "flaky backend: upstream timed out"),
        (ErrorInfo(ErrorKind.SERVER_ERROR, "the server answered with an error: boom", 1, -32603), "boom"),
        (ErrorInfo(ErrorKind.CONNECTION, "connection failed: [Errno 32] Broken pipe", 2), "[Errno 32] Broken pipe"),
        (ErrorInfo(ErrorKind.PROTOCOL, "malformed response: tools.1.name: Field required", 1),
         "tools.1.name: Field required"),
        (ErrorInfo(ErrorKind.PROTOCOL, "page 3: nextCursor is not a string", 3), "nextCursor is not a string"),
        (ErrorInfo(ErrorKind.DUPLICATE_NAME, "tool name 'echo' appears again on page 2 (first seen on page 0)", 2,
                   details={"name": "echo", "pages": [0, 2]}), "'echo' was first seen on page 0"),
        (ErrorInfo(ErrorKind.CURSOR_REPEATED, "page 2 returned next cursor 'a', already sent for page 1: the walk would loop",
                   2, details={"cursor": "a", "pages": [0, 2], "requested_page": 1}),
         "its next cursor 'a' was already sent for page 1"),
        (ErrorInfo(ErrorKind.PAGE_LIMIT, "the page budget of 5 ran out: page 4 still has a next cursor", 4,
                   details={"budget": 5, "value": 6}), "5 pages allowed, and this one still has a next cursor"),
        (ErrorInfo(ErrorKind.TIMEOUT, "the overall deadline ran out"), "the overall deadline ran out"),
    ],
)  # fmt: skip
def test_the_reason_under_a_heading_leaves_out_what_the_heading_and_page_say(info: ErrorInfo, words: str) -> None:
    assert reason(info) == words
    heading = info.kind.heading.lower()
    assert heading not in reason(info).lower()
    if info.page is not None:
        assert f"page {info.page}" not in reason(info)
