"""Errors carry their facts in `details` (nobody parses messages), and page sizes are measured on the wire."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import pytest

from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import ErrorKind
from catalog_inspector.core.session import SessionWorker
from tests.helpers import ROOT, demo_spec, forked, http_demo

LIMITS = Limits(request_timeout=3.0, deadline=30.0, max_pages=50)


async def walk(spec: ServerSpec, limits: Limits = LIMITS) -> Snapshot:
    with anyio.fail_after(60):
        return await SessionWorker(spec, limits).walk_once()


@pytest.mark.anyio
async def test_a_duplicate_names_its_pages_and_carries_both_definitions_as_sent() -> None:
    snapshot = await walk(demo_spec("duplicate"))
    error = snapshot.error
    assert error is not None and error.kind is ErrorKind.DUPLICATE_NAME
    details = error.details
    assert details["name"] == "echo" and details["pages"] == [0, 2]
    first, second = details["definitions"]
    assert first["description"] == "Returns the text it was given, with its length."
    assert second["description"] == "A second tool with the same name and a different output schema."
    assert first["outputSchema"]["properties"]["text"] == {"type": "string"}
    assert second["outputSchema"]["properties"]["text"] == {"type": "integer"}


@pytest.mark.anyio
@pytest.mark.parametrize(("mode", "pages", "requested"), [("repeat", [0, 1], 1), ("cycle", [0, 2], 1)])
async def test_a_repeated_cursor_names_the_cursor_and_the_pages_that_sent_it(
    mode: str, pages: list[int], requested: int
) -> None:
    snapshot = await walk(demo_spec(mode))
    error = snapshot.error
    assert error is not None and error.kind is ErrorKind.CURSOR_REPEATED
    assert error.details["pages"] == pages and error.details["requested_page"] == requested
    assert error.details["cursor"] == snapshot.tools.pages[requested].cursor


@pytest.mark.anyio
async def test_budgets_say_which_budget_and_what_exceeded_it() -> None:
    pages = await walk(demo_spec("endless"), Limits(request_timeout=3.0, deadline=30.0, max_pages=4))
    assert pages.error is not None and pages.error.details == {"budget": 4, "value": 5}
    items = await walk(demo_spec("normal"), Limits(request_timeout=3.0, deadline=30.0, max_items=2))
    assert items.error is not None and items.error.details == {"budget": 2, "value": 3}
    size = await walk(demo_spec("normal"), Limits(request_timeout=3.0, deadline=30.0, max_page_bytes=200))
    assert size.error is not None and size.error.kind is ErrorKind.SIZE_LIMIT
    assert size.error.details["budget"] == 200 and size.error.details["value"] > 200


@pytest.mark.anyio
async def test_a_server_error_keeps_its_code_message_and_data(tmp_path: Path) -> None:
    snapshot = await walk(demo_spec("flaky", "--state", str(tmp_path / "flaky.json")))
    error = snapshot.error
    assert error is not None and error.kind is ErrorKind.SERVER_ERROR
    assert error.details == {"code": -32603, "message": "flaky backend: upstream timed out (walk 0)", "data": None}


@pytest.mark.anyio
async def test_a_server_that_exits_leaves_its_exit_code_and_its_last_words() -> None:
    snapshot = await walk(demo_spec("crash"))
    error = snapshot.error
    assert error is not None and error.kind is ErrorKind.CONNECTION
    assert error.details["exit_code"] == 3
    assert error.details["stderr"][-1] == "[demo] crashing on purpose"


@pytest.mark.anyio
async def test_a_server_that_dies_at_start_says_why() -> None:
    spec = ServerSpec(
        name="no-key",
        command=sys.executable,
        args=("-c", "import sys; print('Error: MY_API_KEY is not set', file=sys.stderr); sys.exit(1)"),
    )
    snapshot = await walk(spec)
    error = snapshot.error
    assert error is not None and error.kind is ErrorKind.CONNECTION
    assert error.details == {"exit_code": 1, "stderr": ["Error: MY_API_KEY is not set"]}


@pytest.mark.anyio
async def test_page_bytes_are_the_bytes_on_the_wire_not_a_re_serialisation() -> None:
    spec = ServerSpec(
        name="padded", command=sys.executable, args=forked("tests.fixtures.padded_server")[1:], cwd=str(ROOT)
    )
    worker = SessionWorker(spec, LIMITS)
    with anyio.fail_after(60):
        snapshot = await worker.walk_once()
    assert snapshot.status == "complete"
    written = [int(line.split()[1]) for line in worker.log.lines if line.startswith("wrote")]
    # The first response answers initialize; the next two are the pages, each padded with 1,000 spaces.
    assert [p.bytes for p in snapshot.tools.pages] == written[1:3]
    assert all(p.bytes > 1000 for p in snapshot.tools.pages)


@pytest.mark.anyio
@pytest.mark.parametrize("sse", [False, True])
async def test_http_page_bytes_are_counted_as_they_arrive(sse: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    import catalog_inspector.core.session.connection as connection

    class NoDumps:
        @staticmethod
        def dumps(*_args: object, **_kwargs: object) -> str:
            raise AssertionError("a page was re-serialised to learn its size")

    monkeypatch.setattr(connection, "json", NoDumps)
    with http_demo("normal", sse=sse) as url:
        snapshot = await walk(ServerSpec(name="remote", transport="sse" if sse else "http", url=url))
    assert snapshot.status == "complete"
    for page, items in zip(
        snapshot.tools.pages, ([snapshot.tools.items[0]], [], list(snapshot.tools.items[1:])), strict=True
    ):
        compact = len(json.dumps({"tools": items}, separators=(",", ":")).encode())
        assert compact < page.bytes < compact + 400, (page.bytes, compact)


@pytest.mark.anyio
async def test_a_schema_nested_past_the_parsers_limit_is_called_too_deep_not_garbage() -> None:
    args = (*forked("tests.fixtures.padded_server")[1:], "--nest", "99")  # 198 levels in the schema, 204 in the line
    snapshot = await walk(ServerSpec(name="deep", command=sys.executable, args=args, cwd=str(ROOT)))
    error = snapshot.error
    assert error is not None and (error.kind, error.page) == (ErrorKind.PROTOCOL, 0)
    assert "nested more than 200 levels deep" in error.message
    assert "not JSON-RPC" not in error.message
