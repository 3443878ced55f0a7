"""The document's tokens and lint made as the pages come (`PageWork`) are what `derived_keys` makes after the walk.

Real servers over stdio in both eras, walked as `snapshot` walks them (`walk_until_signalled` with a PageWork).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import anyio
import pytest

from catalog_inspector.cli.snapshot import walk_until_signalled
from catalog_inspector.core.calls import PageWork, derived_keys
from catalog_inspector.core.catalog import Snapshot, write_json
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.json_encode import JsonLines
from tests.helpers import demo_spec, fixture_spec

FAST = Limits(request_timeout=10.0, deadline=60.0)

SERVERS = {
    "many, 2026-07-28": lambda: demo_spec("many", "--tools", "700", "--page-size", "64"),
    "many, 2025-11-25": lambda: demo_spec("many", "--tools", "300", "--page-size", "64", "--legacy"),
    "apps (output schemas)": lambda: demo_spec("apps"),
    "lint issues": lambda: fixture_spec("lint_server", "lint"),
    "excluded tools": lambda: fixture_spec("annotations_server", "annotations"),
}


async def walked(spec: ServerSpec, work: PageWork | None) -> Snapshot:
    with anyio.fail_after(60):
        return await walk_until_signalled(spec, FAST, work)


@pytest.mark.anyio
@pytest.mark.parametrize("server", SERVERS)
async def test_what_is_made_as_the_pages_come_is_what_is_made_after_the_walk(server: str) -> None:
    spec = SERVERS[server]()
    work = PageWork(spec.name)
    snapshot = await walked(spec, work)
    assert snapshot.status == "complete", snapshot.error
    assert work.covers(snapshot) and work.counted == len(snapshot.tools.items) > 0
    made = work.keys(snapshot)
    assert made == derived_keys(snapshot)
    assert made["tokens"]["total"] > 0
    if server == "lint issues":
        assert {row["code"] for row in made["lint"]} >= {"invalid_schema", "undocumented_parameter"}
    # The keys as `snapshot` writes them (the lint rows as their texts): the same document, byte for byte.
    assert written(snapshot, work.keys(snapshot, lines=True)) == written(snapshot, made)
    assert written(snapshot, derived_keys(snapshot, lines=True)) == written(snapshot, made)
    if made["lint"]:
        assert isinstance(work.keys(snapshot, lines=True)["lint"], JsonLines)


def written(snapshot: Snapshot, extra: dict[str, object]) -> str:
    out = io.StringIO()
    write_json(snapshot, out, extra)
    return out.getvalue()


@pytest.mark.anyio
async def test_a_catalog_other_than_the_pages_seen_is_worked_out_whole() -> None:
    spec = demo_spec("many", "--tools", "200", "--page-size", "50")
    work = PageWork(spec.name)
    snapshot = await walked(spec, work)
    copy = Snapshot.from_json(json.loads(json.dumps(snapshot.to_json())))  # the same catalog in other objects
    assert work.covers(snapshot) and not work.covers(copy)
    assert work.keys(copy) == derived_keys(snapshot)


@pytest.mark.anyio
async def test_a_rejected_walk_leaves_its_pages_and_derives_nothing() -> None:
    spec = demo_spec("duplicate")
    work = PageWork(spec.name)
    snapshot = await walked(spec, work)
    assert snapshot.status == "rejected"
    assert work.keys(snapshot) == {"tokens": None, "lint": []} == derived_keys(snapshot)
    assert work.counted < 10  # the pages before the offence were let go, not worked through


PREPARED = """
import json, sys, anyio
from catalog_inspector.core.calls import PageWork
from catalog_inspector.core.catalog import encoding_ready
before = ["jsonschema.validators" in sys.modules, encoding_ready()]
work = PageWork("demo")

async def main():
    async with anyio.create_task_group() as group:
        group.start_soon(work.follow)
        # No page comes: follow readies what the first page needs, then sees the walk is over and returns.
        work.walked()

anyio.run(main)
print(json.dumps({"before": before, "after": ["jsonschema.validators" in sys.modules, encoding_ready()]}))
"""


def test_the_token_table_and_the_lints_validator_are_ready_before_the_first_page() -> None:
    # A fresh interpreter: this one imported jsonschema and loaded the table long ago.
    out = subprocess.run([sys.executable, "-c", PREPARED], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"before": [False, False], "after": [True, True]}
