"""A server that refuses the credentials the entry sends says so: the status, its reason and what to do, whatever
body it sends with it (an API gateway answers 401 with JSON that is not JSON-RPC: the SDK calls that only "Server
returned an error response")."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.cli_runner import run_cli
from tests.helpers import hostile_http


@pytest.fixture(scope="module")
def hostile() -> Iterator[str]:
    with hostile_http("none") as url:
        yield url.rsplit("/mcp", 1)[0]


@pytest.mark.parametrize(
    ("fault", "status"), [("status-401-json", "401 Unauthorized"), ("status-403-json", "403 Forbidden")]
)
def test_refused_credentials_sent_in_authorization_are_named_with_the_status(
    hostile: str, fault: str, status: str
) -> None:
    url = f"{hostile}/f/{fault}/mcp"
    proc = run_cli("snapshot", "--timeout", "5", "--url", url, "--header", "Authorization: Bearer wrong", timeout=60)
    assert proc.returncode == 4
    error = json.loads(proc.stdout)["error"]
    assert error["kind"] == "connection" and error["details"]["status"] == int(status[:3])
    assert error["message"] == (
        f"the server refused the credentials you sent in Authorization (POST answered HTTP {status}, "
        "check the header's value; without it, a server that offers OAuth is signed in to)"
    )
    assert "Bearer wrong" not in proc.stdout + proc.stderr, "the header's value is never repeated"
