"""Resource subscriptions against the demo's apps server (a real SDK server), in both eras: `resources/subscribe`
before 2026-07-28, a `subscriptions/listen` stream naming the resource on it; the server's updates are heard and
counted, a flood stays a number, and after unsubscribing nothing more is heard."""

from __future__ import annotations

import anyio
import pytest

from catalog_inspector.core.session import call_tool
from catalog_inspector.demo.apps import CLOCK
from tests.core.session.test_completions import connected
from tests.helpers import demo_spec

ERAS = pytest.mark.parametrize("era", [(), ("--legacy",)], ids=["2026-07-28", "2025-11-25"])


@pytest.mark.anyio
@ERAS
async def test_a_subscribed_resources_updates_are_heard_until_it_is_unsubscribed(era: tuple[str, ...]) -> None:
    async with connected(demo_spec("apps", *era)) as connection:
        assert connection.capabilities["resources"]["subscribe"] is True
        watches = connection.watches
        assert watches is not None
        heard: list[str] = []
        three = anyio.Event()

        def updated(uri: str) -> None:
            heard.append(uri)
            if len(heard) == 3:
                three.set()

        watches.on_updated = updated
        assert await watches.subscribe(CLOCK, 10) is None
        assert watches.watched == [CLOCK]
        snapshot = await _catalog(connection)
        outcome = await call_tool(connection, snapshot, "tick", {"count": 3})
        assert outcome.layer == "ok"
        with anyio.fail_after(20):
            await three.wait()
        assert heard == [CLOCK] * 3 and watches.updates[CLOCK] == 3
        assert await watches.unsubscribe(CLOCK, 10) is None
        assert watches.watched == [] and CLOCK not in watches.updates
        await call_tool(connection, snapshot, "tick", {"count": 2})
        # Then one more round trip: anything the server would still send for the clock came before its answer.
        await call_tool(connection, snapshot, "rich_result", {})
        assert len(heard) == 3, "nothing is heard of a resource no longer watched"


@pytest.mark.anyio
async def test_a_flood_of_updates_is_a_count() -> None:
    # Pushed (2025-11-25): the 2026-07-28 server ends a listen stream whose backlog passes its own cap instead.
    async with connected(demo_spec("apps", "--legacy")) as connection:
        watches = connection.watches
        assert watches is not None
        assert await watches.subscribe(CLOCK, 10) is None
        snapshot = await _catalog(connection)
        done = anyio.Event()
        watches.on_updated = lambda _uri: done.set() if watches.updates[CLOCK] >= 2000 else None
        await call_tool(connection, snapshot, "tick", {"count": 2000}, timeout=60)
        with anyio.fail_after(30):
            await done.wait()
        assert watches.updates == {CLOCK: 2000}


async def _catalog(connection):  # type: ignore[no-untyped-def]
    from catalog_inspector.core.catalog import LIST_NAMES, ListResult, Snapshot

    fetched = await connection.request(__import__("mcp_types").ListToolsRequest(params=None))
    lists = {name: ListResult("not_offered") for name in LIST_NAMES}
    lists["tools"] = ListResult("complete", tuple(fetched.result["tools"]))
    return Snapshot("complete", None, {}, connection.capabilities, None, lists)
