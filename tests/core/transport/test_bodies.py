"""HTTP bodies are counted once decoded: a compressed page is measured (and capped) as what it is.

Against `tests/fixtures/hostile_http.py` on 127.0.0.1, through `connect()` and a walk, as the app
and the CLI run them; the bombs themselves (a gigabyte of gzip) are in `tests/test_faults.py`.
"""

from __future__ import annotations

from collections.abc import Iterator

import anyio
import pytest

from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.session.connection import connect
from catalog_inspector.core.session.walk import take_snapshot
from tests.helpers import hostile_http

pytestmark = pytest.mark.anyio

LIMITS = Limits(request_timeout=10, deadline=60, max_page_bytes=2 * 1024 * 1024)
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    with hostile_http("none", "--mb", "1.5") as url:  # a bomb of 1 MiB of blanks: under the 2 MiB cap
        yield url.removesuffix("/mcp")


async def _walk(url: str, limits: Limits = LIMITS) -> Snapshot:
    with anyio.fail_after(60):
        async with connect(ServerSpec(name="hostile", transport="http", url=url), limits) as live:
            return await take_snapshot(live, limits)


@pytest.mark.parametrize("fault", ["gzip-json", "gzip-sse"])
async def test_a_compressed_page_under_the_cap_is_read_and_its_size_is_the_decoded_size(
    origin: str, fault: str
) -> None:
    tools = (await _walk(f"{origin}/f/{fault}/mcp")).tools
    assert tools.status == "complete", tools.error
    (page,) = tools.pages
    assert MIB < page.bytes < MIB + 200, "the decoded page (a MiB of blanks and its JSON), not ~1 kB of gzip"


async def test_a_compressed_body_that_does_not_decode_is_a_protocol_error_on_its_page(origin: str) -> None:
    error = (await _walk(f"{origin}/f/gzip-garbage/mcp")).error
    assert error is not None and (error.kind, error.page) == ("protocol", 0)
    assert "its gzip compression does not decode" in error.message


async def test_an_answer_reached_through_a_redirect_within_the_origin_is_metered_and_capped(origin: str) -> None:
    url = f"{origin}/f/redirect-huge/mcp"  # a 307 within the origin, then 1.5 MB of JSON
    measured = (await _walk(url)).tools.pages[0]
    assert measured.bytes > MIB and measured.outcome != "connection", "followed, and the answer's bytes counted"
    error = (await _walk(url, Limits(request_timeout=10, deadline=60, max_page_bytes=MIB))).error
    assert error is not None and (error.kind, error.page) == ("size_limit", 0), error
    assert "cut off after" in error.message, "cut off as it arrived, not read whole and measured afterwards"
