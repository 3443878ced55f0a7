"""A real SDK server's JSON-RPC errors, by name: a -32022 answer to discovery falls back to `initialize` and the log
says why; a page that fails with a code carries the code's name to the timeline and the snapshot."""

from __future__ import annotations

import anyio
import pytest

from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.session import SessionWorker
from tests import helpers
from tests.helpers import demo_spec

FAST = Limits(request_timeout=5.0, deadline=30.0)
FALLBACK = (
    "[mcp-catalog-inspector] server/discover was answered JSON-RPC -32022 "
    "(unsupported protocol version; the server supports 2025-11-25): fell back to initialize"
)


def fixture_spec(*extra: str, era: str = "auto") -> ServerSpec:
    return helpers.fixture_spec("named_errors_server", "named-errors", *extra, era=era)


async def walked(spec: ServerSpec) -> tuple[Snapshot, list[str]]:
    worker = SessionWorker(spec, FAST)
    with anyio.fail_after(60):
        snapshot = await worker.walk_once()
    return snapshot, list(worker.log.lines)


@pytest.mark.anyio
async def test_a_32022_answer_to_discovery_falls_back_to_initialize_and_the_log_says_so() -> None:
    snapshot, log = await walked(fixture_spec("--refuse-discover"))
    assert snapshot.status == "complete", snapshot.error
    assert snapshot.server["protocol_version"] == "2025-11-25"
    assert [tool["name"] for tool in snapshot.tools.items][:1] == ["needs_form"]
    assert log.count(FALLBACK) == 1


@pytest.mark.anyio
async def test_a_server_that_answers_discovery_says_nothing_of_a_fallback() -> None:
    snapshot, log = await walked(fixture_spec())
    assert snapshot.server["protocol_version"] == "2026-07-28"
    assert not [line for line in log if "server/discover" in line]


@pytest.mark.anyio
async def test_an_older_server_refusing_discovery_with_another_code_is_not_said_to_speak_of_versions() -> None:
    snapshot, log = await walked(demo_spec("normal", "--legacy"))  # -32601, as servers before 2026 answer
    assert snapshot.server["protocol_version"] == "2025-11-25"
    assert not [line for line in log if "-32022" in line]


@pytest.mark.anyio
async def test_a_page_answered_with_a_code_carries_its_name_to_the_timeline_and_the_snapshot() -> None:
    snapshot, _ = await walked(fixture_spec("--list-error", "-32022"))
    assert snapshot.status == "failed" and snapshot.error is not None and snapshot.error.code == -32022
    page = snapshot.tools.pages[0]
    assert page.outcome == "server_error" and page.offence is not None and page.offence.jsonrpc is not None
    said = page.offence.jsonrpc
    assert (said.code, said.name) == (-32022, "unsupported_protocol_version")
    assert said.text == "JSON-RPC -32022 (unsupported protocol version; the server supports 2025-11-25)"
    again = Snapshot.from_json(snapshot.to_json())
    assert again.tools.pages[0].offence == page.offence
