"""`completion/complete` against the demo server (a real SDK server that declares `completions`), in both eras:
suggestions for a template variable and a prompt argument, the other fields as context, the cap of 100 with its
total and hasMore, and no request at all to a server that declares none."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
import pytest

from catalog_inspector.core.calls import COMPLETION_VALUES, completion_of
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.session import Connection, SessionWorker, complete
from tests.helpers import demo_spec, fixture_spec

FAST = Limits(request_timeout=5.0, deadline=30.0)
USER_NOTE = {"type": "ref/resource", "uri": "demo://users/{user}/notes/{id}"}


@asynccontextmanager
async def connected(spec: ServerSpec) -> AsyncIterator[Connection]:
    worker = SessionWorker(spec, FAST)
    walked = anyio.Event()
    async with anyio.create_task_group() as group:
        group.start_soon(worker.run, lambda _snapshot: walked.set())
        with anyio.fail_after(60):
            await walked.wait()
        assert worker.connection is not None
        try:
            yield worker.connection
        finally:
            worker.stop()


@pytest.mark.anyio
@pytest.mark.parametrize("era", [(), ("--legacy",)], ids=["2026-07-28", "2025-11-25"])
async def test_a_template_variable_is_completed_with_the_other_fields_as_context(era: tuple[str, ...]) -> None:
    async with connected(demo_spec("normal", *era)) as connection:
        users = await complete(connection, USER_NOTE, "user", "an")
        assert users.error is None and users.values == ("ann", "anton") and users.total == 2 and not users.has_more
        ann = await complete(connection, USER_NOTE, "id", "", {"user": "ann"})
        bob = await complete(connection, USER_NOTE, "id", "", {"user": "bob"})
        assert (ann.values, bob.values) == (("1", "2", "3"), ("7",)), "the context reached the server"


@pytest.mark.anyio
async def test_a_prompt_argument_is_completed_and_a_long_answer_says_there_is_more() -> None:
    async with connected(demo_spec("normal")) as connection:
        ids = await complete(connection, {"type": "ref/prompt", "name": "summarize"}, "id", "n-")
        assert len(ids.values) == COMPLETION_VALUES and ids.total == 150 and ids.has_more
        assert ids.to_json() == {"values": list(ids.values), "total": 150, "has_more": True}
        assert ids.words() == "100 suggestions of 150 (more exist: type more to narrow them)"


@pytest.mark.anyio
async def test_a_server_that_declares_no_completions_is_not_asked() -> None:
    async with connected(fixture_spec("partial_lists_server", "sqlite")) as connection:
        answer = await complete(connection, {"type": "ref/prompt", "name": "x"}, "a", "")
        assert answer.values == () and answer.error is not None
        assert answer.error.message == "the server declares no completions capability"


def test_an_answer_is_checked_and_bounded() -> None:
    flood = completion_of({"completion": {"values": ["a", 3, None, *(str(n) for n in range(500))], "total": -1}})
    assert len(flood.values) == COMPLETION_VALUES and flood.values[0] == "a" and flood.has_more
    assert flood.total is None, "a negative total is no total"
    broken = completion_of({"completion": {"values": "abc"}})
    assert broken.error is not None and broken.error.message == "the answer has no completion.values list"
    hostile = completion_of({"completion": {"values": ["\u202eevil" + "x" * 5000]}})
    # Kept as sent (a chosen value is what the server suggested), cut; widgets show it through `visible`.
    assert hostile.values[0].startswith("\u202eevil") and len(hostile.values[0]) == 1000
