"""The handshake under a client profile, over real stdio: what is declared, what is proposed, what is refused."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest

from catalog_inspector.core.config import MCP_APPS, PRESETS, Limits, ServerSpec, changed
from catalog_inspector.core.errors import ErrorKind
from catalog_inspector.core.session import SessionWorker
from catalog_inspector.core.session.connection import connect
from catalog_inspector.core.transport import handshake_capabilities
from tests.helpers import assert_all_gone, forked

FAST = Limits(request_timeout=5.0, deadline=30.0)
SERVER = forked("tests.fixtures.profile_server")

# Answers `initialize` with a version no handshake speaks, then waits for stdin to end.
ODD_VERSION = """
import json, sys
request = json.loads(sys.stdin.readline())
answer = {"protocolVersion": "1999-01-01", "capabilities": {}, "serverInfo": {"name": "odd", "version": "1"}}
print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": answer}), flush=True)
sys.stdin.read()
"""


def spec(record: Path, **fields: object) -> ServerSpec:
    return ServerSpec(name="profiles", command=SERVER[0], args=(*SERVER[1:], "--record", str(record)), **fields)  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_a_pinned_version_is_proposed_in_an_initialize_of_our_own_with_the_sessions_capabilities(
    tmp_path: Path,
) -> None:
    record = tmp_path / "seen.jsonl"
    pids: list[int] = []
    with anyio.fail_after(30):
        async with connect(spec(record, client=PRESETS["vscode"]), FAST, on_spawn=pids.append) as connection:
            assert connection.protocol_version == "2025-11-25"
            declared = handshake_capabilities(connection.session, "2025-11-25")
            assert declared.extensions == {MCP_APPS: {"mimeTypes": ["text/html;profile=mcp-app"]}}
            assert connection.server_info["name"] == "profiles"
    assert_all_gone(pids)


@pytest.mark.anyio
async def test_a_walk_records_the_profile_it_was_walked_as(tmp_path: Path) -> None:
    record = tmp_path / "seen.jsonl"
    older = changed(PRESETS["claude-desktop"], protocol_version="2024-11-05")
    snapshot = await SessionWorker(spec(record, client=older), FAST).walk_once()
    assert snapshot.status == "complete" and snapshot.server["protocol_version"] == "2024-11-05"
    assert snapshot.source["client"] == {"name": "claude-ai", "version": "0.1.0", "protocol_version": "2024-11-05"}
    (seen,) = [json.loads(line) for line in record.read_text().splitlines()]
    assert (seen["client"], seen["proposed"]) == ("claude-ai", "2024-11-05")


@pytest.mark.anyio
async def test_an_answer_in_a_version_no_handshake_speaks_fails_the_handshake_as_a_protocol_error() -> None:
    odd = ServerSpec(name="odd", command=sys.executable, args=("-c", ODD_VERSION), client=PRESETS["cursor"])
    snapshot = await SessionWorker(odd, FAST).walk_once()
    assert snapshot.status == "failed" and snapshot.error is not None
    assert snapshot.error.kind is ErrorKind.PROTOCOL
    assert "answered an initialize at 2025-11-25 with protocol version '1999-01-01'" in snapshot.error.message
