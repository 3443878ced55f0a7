"""Each list is judged on its own, against a real SDK server that offers resources without
`resources/templates/list` (as mcp-server-sqlite, an mcp 1.x server, does): the tools decide whether there is a
catalog, a -32601 to a declared list is a finding, and a list that truly failed never hides the others."""

from __future__ import annotations

import anyio
import pytest

from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.drift import build_report, diff_snapshots
from catalog_inspector.core.session import SessionWorker
from tests.helpers import fixture_spec

FAST = Limits(request_timeout=5.0, deadline=30.0)
ERAS = pytest.mark.parametrize("era", ["legacy", "modern"])


def sqlite_like(*extra: str, era: str = "auto") -> ServerSpec:
    return fixture_spec("partial_lists_server", "sqlite", *extra, era=era)


async def walked(spec: ServerSpec) -> Snapshot:
    with anyio.fail_after(60):
        return await SessionWorker(spec, FAST).walk_once()


@pytest.mark.anyio
@ERAS
async def test_a_declared_list_the_server_does_not_implement_is_a_finding_not_a_failed_catalog(era: str) -> None:
    snapshot = await walked(sqlite_like(era=era))
    assert snapshot.server["protocol_version"] == ("2025-11-25" if era == "legacy" else "2026-07-28")
    assert snapshot.status == "complete" and snapshot.error is None
    assert len(snapshot.tools.items) == 6 and snapshot.lists["resources"].status == "complete"
    templates = snapshot.lists["resource_templates"]
    assert templates.status == "unimplemented" and templates.items == ()
    assert templates.error is not None and templates.error.code == -32601 and templates.error.page == 0
    assert snapshot.unimplemented == ("resource_templates",) and snapshot.partial == ()
    document = snapshot.to_json()
    assert document["lists_status"] == {
        "tools": "complete",
        "resources": "complete",
        "resource_templates": "unimplemented",
        "prompts": "not_offered",
    }
    again = Snapshot.from_json(document)
    assert again.lists["resource_templates"].status == "unimplemented" and again.unimplemented == snapshot.unimplemented


@pytest.mark.anyio
@ERAS
async def test_a_list_that_fails_on_its_own_keeps_the_tools_and_says_why_itself(era: str) -> None:
    snapshot = await walked(sqlite_like("--resources-error", era=era))
    assert snapshot.status == "complete" and snapshot.error is None, "the tools were walked without a fault"
    assert [tool["name"] for tool in snapshot.tools.items][:2] == ["read_query", "write_query"]
    resources = snapshot.lists["resources"]
    assert resources.status == "failed" and resources.error is not None
    assert resources.error.code == -32603 and "insights memo" in str(resources.error.details.get("message"))
    assert snapshot.partial == ("resources",)
    assert snapshot.to_json()["lists_status"]["resources"] == "failed"


@pytest.mark.anyio
async def test_the_tools_list_decides_whether_there_is_a_catalog() -> None:
    snapshot = await walked(sqlite_like("--tools-error"))
    assert snapshot.status == "failed" and snapshot.error is not None and snapshot.error.list_name == "tools"
    assert snapshot.lists["resources"].status == "complete", "each list keeps its own status"
    assert snapshot.partial == (), "no catalog was accepted: nothing is partial about it"


@pytest.mark.anyio
async def test_drift_leaves_out_a_list_a_walk_did_not_judge_instead_of_reading_it_as_emptied() -> None:
    base = await walked(sqlite_like())
    failed = await walked(sqlite_like("--resources-error"))
    diff = diff_snapshots(base, failed)
    assert diff.not_compared == ("resources",)
    assert diff.empty and diff.worst() is None, "the memo was not removed: nothing is known of it"
    assert diff.to_json()["not_compared"] == ["resources"]
    headline = build_report(base, failed).headline()
    assert "Not compared: resources (a walk did not list them whole)." in headline
    # An unimplemented list is known to hold nothing, on both sides: it is compared (and unchanged).
    assert diff_snapshots(base, base).not_compared == ()
