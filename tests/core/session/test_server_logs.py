"""A server's log messages (`notifications/message`), over real SDK servers on both eras, stdio and Streamable HTTP.

The fixture (`tests/fixtures/log_server.py`) says what it received: every
`logging/setLevel` and the logLevel `_meta` of every request, so the level is
checked on the server's side, not ours.
"""

from __future__ import annotations

import contextvars
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import replace
from typing import Any

import anyio
import pytest

from catalog_inspector.core.calls import REQUEST_LOGS, CallOutcome, LogMessage
from catalog_inspector.core.calls.logs import DATA_LIMIT
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.session import SessionWorker, call_tool
from catalog_inspector.core.session.logs import ServerMessages
from catalog_inspector.core.transport import ServerLog
from tests.fixtures.log_server import HOSTILE
from tests.helpers import forked, serving

LIMITS = Limits(request_timeout=10.0, deadline=60.0)
SERVER = forked("tests.fixtures.log_server")
TIME = re.compile(r"^\d\d:\d\d:\d\d\.\d\d\d ")


@contextmanager
def reached(transport: str, era: str, level: str = "info", *extra: str) -> Iterator[ServerSpec]:
    if transport == "http":
        with serving([*SERVER, "--http", *extra]) as url:
            yield ServerSpec(name="logs", transport="http", url=url, protocol_era=era, log_level=level)  # type: ignore[arg-type]
    else:
        yield ServerSpec(name="logs", command=SERVER[0], args=(*SERVER[1:], *extra), protocol_era=era, log_level=level)  # type: ignore[arg-type]


@asynccontextmanager
async def session(spec: ServerSpec) -> AsyncIterator[SessionWorker]:
    walked = anyio.Event()
    worker = SessionWorker(spec, LIMITS)
    async with anyio.create_task_group() as group:
        group.start_soon(worker.run, lambda _snapshot: walked.set())
        with anyio.fail_after(60):
            await walked.wait()
        assert worker.snapshot is not None and worker.snapshot.status == "complete", worker.snapshot
        try:
            yield worker
        finally:
            worker.stop()


async def call(worker: SessionWorker, tool: str, arguments: dict[str, Any] | None = None) -> CallOutcome:
    assert worker.connection is not None and worker.snapshot is not None
    with anyio.fail_after(60):
        return await call_tool(worker.connection, worker.snapshot, tool, arguments or {}, timeout=30)


async def received(worker: SessionWorker) -> dict[str, Any]:
    outcome = await call(worker, "received")
    assert outcome.result is not None
    found: dict[str, Any] = outcome.result["structuredContent"]
    return found


def levels(messages: tuple[LogMessage, ...]) -> list[str]:
    return [message.level for message in messages]


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_on_2026_07_28_the_level_travels_in_every_requests_meta_and_the_calls_logs_come_with_it(
    transport: str,
) -> None:
    with reached(transport, "modern", "info") as spec:
        async with session(spec) as worker:
            outcome = await call(worker, "chatty", {"text": "hi"})
            seen = await received(worker)
            lines = list(worker.log.lines)
    assert outcome.layer == "ok"
    assert levels(outcome.logs) == ["info", "warning", "error"], "debug is below the level asked for"
    assert [(m.logger, m.data) for m in outcome.logs][0] == ("chatty", "info from chatty: hi")
    assert seen["set_levels"] == [], "no logging/setLevel on 2026-07-28"
    for method in ("tools/list", "resources/list", "prompts/list", "tools/call"):
        assert set(seen["meta_levels"][method]) == {"info"}, method
    # Server & log: every message, the walk's too, with its time, level, logger and data.
    logged = [line for line in lines if TIME.match(line)]
    assert [line[13:] for line in logged] == [
        "[notice] lister: listing the tools",
        "[info] chatty: info from chatty: hi",
        "[warning] chatty: warning from chatty: hi",
        "[error] chatty: error from chatty: hi",
    ]


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_before_2026_07_28_the_level_is_set_once_by_set_level_and_no_meta_is_sent(transport: str) -> None:
    with reached(transport, "legacy", "warning") as spec:
        async with session(spec) as worker:
            outcome = await call(worker, "chatty", {"text": "hi"})
            seen = await received(worker)
            lines = list(worker.log.lines)
    assert worker.snapshot is not None and worker.snapshot.server["protocol_version"] == "2025-11-25"
    assert seen["set_levels"] == ["warning"]
    assert all(level is None for found in seen["meta_levels"].values() for level in found), seen
    assert levels(outcome.logs) == ["warning", "error"]
    assert "[mcp-catalog-inspector] logging/setLevel warning: the server was asked for warning and above" in lines
    assert not any("lister" in line for line in lines), "the walk's notice is below the level set"


@pytest.mark.anyio
async def test_a_server_that_does_not_declare_logging_is_never_sent_set_level_and_its_messages_still_show() -> None:
    with reached("stdio", "legacy", "error", "--no-logging") as spec:
        async with session(spec) as worker:
            assert "logging" not in worker.snapshot.capabilities  # type: ignore[union-attr]
            outcome = await call(worker, "chatty", {"text": "hi"})
            seen = await received(worker)
    assert seen["set_levels"] == [] and "logging/setLevel" not in seen["meta_levels"]
    # It sends what it likes (it was asked nothing); an inspector shows what came.
    assert levels(outcome.logs) == ["debug", "info", "warning", "error"]


async def paired_calls(spec: ServerSpec) -> dict[str, list[str]]:
    """Two `paired` calls at once: each one's messages, by its text."""
    found: dict[str, list[str]] = {}
    async with session(spec) as worker:

        async def one(text: str) -> None:
            outcome = await call(worker, "paired", {"text": text})
            assert outcome.layer == "ok", outcome
            found[text] = [message.data for message in outcome.logs]

        async with anyio.create_task_group() as group:
            for text in ("left", "right"):
                group.start_soon(one, text)
    return found


@pytest.mark.anyio
async def test_a_refused_set_level_keeps_the_session_and_the_log_says_so_by_the_codes_name() -> None:
    with reached("stdio", "legacy", "warning", "--refuse-level") as spec:
        async with session(spec) as worker:
            outcome = await call(worker, "chatty", {"text": "hi"})
            seen = await received(worker)
            lines = list(worker.log.lines)
    assert seen["set_levels"] == ["warning"] and outcome.layer == "ok"
    refused = [line for line in lines if "logging/setLevel warning was refused" in line]
    assert len(refused) == 1 and "-32603" in refused[0] and "levels are not for you" in refused[0], lines
    assert refused[0].endswith("the server logs as it likes")
    assert levels(outcome.logs) == ["debug", "info", "warning", "error"], "it was never told a level"


@pytest.mark.anyio
async def test_over_streamable_http_each_call_gets_only_the_messages_of_its_own_stream() -> None:
    with reached("http", "modern") as spec:
        found = await paired_calls(spec)
    assert found == {"left": ["before: left", "after: left"], "right": ["before: right", "after: right"]}


@pytest.mark.anyio
async def test_over_stdio_a_message_goes_under_every_call_in_flight_when_it_arrives() -> None:
    # The wire says nothing of the relation: what arrives while both calls run goes under both.
    with reached("stdio", "modern") as spec:
        found = await paired_calls(spec)
    for text, data in found.items():
        assert {f"before: {text}", f"after: {text}"} <= set(data)
    assert {"after: left", "after: right"} <= set(found["left"]) & set(found["right"])


@pytest.mark.anyio
async def test_a_calls_messages_are_bounded_the_latest_kept_and_the_rest_counted() -> None:
    with reached("stdio", "modern") as spec:
        async with session(spec) as worker:
            heard: list[LogMessage] = []
            assert worker.connection is not None and worker.snapshot is not None
            with anyio.fail_after(60):
                outcome = await call_tool(
                    worker.connection, worker.snapshot, "flood", {"count": 500}, timeout=30, on_log=heard.append
                )
            log = worker.log
    assert outcome.result is not None and outcome.result["content"][0]["text"] == "sent 500"
    assert len(heard) == 500, "each message is heard as it comes"
    assert len(outcome.logs) == REQUEST_LOGS and outcome.logs_dropped == 500 - REQUEST_LOGS
    assert outcome.logs[-1].data == "flood line 499" and outcome.logs[0].data == f"flood line {500 - REQUEST_LOGS}"
    assert log.total >= 500 and sum(len(line) + 1 for line in log.lines) <= log.max_bytes


@pytest.mark.anyio
async def test_hostile_data_and_loggers_are_kept_as_bounded_plain_text() -> None:
    with reached("stdio", "modern") as spec:
        async with session(spec) as worker:
            outcome = await call(worker, "hostile")
            lines = [line for line in worker.log.lines if TIME.match(line)]
    text, big = outcome.logs
    assert text.logger == HOSTILE, "kept as sent (it is made visible where it is shown)"
    assert text.data.startswith(HOSTILE) and len(text.data) < DATA_LIMIT + 40
    assert text.data.endswith(f"… [{len(HOSTILE) + 50_000 - DATA_LIMIT:,} more characters]")
    assert big.data.startswith('{"rows":[{"n":0,"text":"yyy') and "more characters]" in big.data
    assert all("\n" not in line for line in lines)


@pytest.mark.anyio
async def test_the_level_is_the_entrys_choice_and_defaults_to_info() -> None:
    with reached("stdio", "modern") as spec:
        assert spec.log_level == "info"
        async with session(replace(spec, log_level="error")) as worker:
            outcome = await call(worker, "chatty", {"text": "x"})
            seen = await received(worker)
    assert levels(outcome.logs) == ["error"]
    assert set(seen["meta_levels"]["tools/call"]) == {"error"}


def test_by_stream_a_message_belongs_only_to_the_request_whose_context_it_is_heard_in() -> None:
    # Streamable HTTP: the SDK runs the handler in the context of the task that sent the request.
    messages = ServerMessages(ServerLog(), by_stream=True)
    elsewhere = contextvars.copy_context()  # a stream read outside the request (the standalone GET)
    with messages.collecting() as logs:
        messages.heard("info", None, "on its stream")
        elsewhere.run(messages.heard, "info", None, "on another stream")
    assert [m.data for m in logs.kept()] == ["on its stream"]


def test_without_streams_a_message_goes_to_every_request_in_flight_and_to_the_server_log() -> None:
    log = ServerLog()
    messages = ServerMessages(log, by_stream=False)
    elsewhere = contextvars.copy_context()  # stdio: the reader's context, never the request's
    with messages.collecting() as first, messages.collecting() as second:
        elsewhere.run(messages.heard, "info", "x", "while both ran")
    elsewhere.run(messages.heard, "info", "x", "after both")
    assert [m.data for m in first.kept()] == [m.data for m in second.kept()] == ["while both ran"]
    assert [line[13:] for line in log.lines] == ["[info] x: while both ran", "[info] x: after both"]
