"""Cache hints (SEP-2549) walked from a real SDK server on stdio and Streamable HTTP, on both protocol eras:
each page's ttlMs and cacheScope kept as sent, valid or not, in the snapshot and its document."""

from __future__ import annotations

import io
import json

import anyio
import pytest

from catalog_inspector.core.catalog import CacheCode, Snapshot, cache_issues, cacheable_words, write_json
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.session import SessionWorker
from tests.helpers import forked, serving

LIMITS = Limits(request_timeout=5.0, deadline=30.0)
SERVER = forked("tests.fixtures.cache_server")
FIVE_MINUTES = ("--hint", "300000", "private")


async def walk(*args: str, transport: str = "stdio", era: str = "auto") -> Snapshot:
    if transport == "stdio":
        spec = ServerSpec(name="hints", command=SERVER[0], args=(*SERVER[1:], *args), protocol_era=era)  # type: ignore[arg-type]
        return await _walk(spec)
    with serving([*SERVER, "--http", *args]) as url:
        return await _walk(ServerSpec(name="hints", transport="http", url=url, protocol_era=era))  # type: ignore[arg-type]


async def _walk(spec: ServerSpec) -> Snapshot:
    with anyio.fail_after(60):
        return await SessionWorker(spec, LIMITS).walk_once()


def hints(snapshot: Snapshot, name: str = "tools") -> list[tuple[object, object]]:
    return [(p.ttl_ms, p.cache_scope) for p in snapshot.lists[name].pages]


def document(snapshot: Snapshot) -> dict[str, object]:
    out = io.StringIO()
    write_json(snapshot, out)
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_every_pages_hints_are_kept_in_the_snapshot_and_its_document(transport: str) -> None:
    snapshot = await walk(*FIVE_MINUTES, transport=transport)
    assert snapshot.status == "complete" and snapshot.server["protocol_version"] == "2026-07-28"
    assert hints(snapshot) == [(300_000, "private"), (300_000, "private")]
    assert hints(snapshot, "prompts") == [(300_000, "private")]
    assert cache_issues(snapshot.tools.pages, required=True) == []
    assert cacheable_words(snapshot.tools.pages) == "cacheable for 5 min (private)"
    written = document(snapshot)
    assert [(p["ttl_ms"], p["cache_scope"]) for p in written["pages"]] == [(300_000, "private")] * 2  # type: ignore[attr-defined, index]
    assert [(p["ttl_ms"], p["cache_scope"]) for p in written["prompts"]["pages"]] == [(300_000, "private")]  # type: ignore[index]
    assert Snapshot.from_json(written).tools.pages == snapshot.tools.pages


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_handshake_era_walk_has_no_hints_and_nothing_to_warn_about(transport: str) -> None:
    # The same server, told to send hints: the SDK leaves them out of a 2025-11-25 result.
    snapshot = await walk(*FIVE_MINUTES, transport=transport, era="legacy")
    assert snapshot.status == "complete" and snapshot.server["protocol_version"] == "2025-11-25"
    assert hints(snapshot) == [(None, None), (None, None)] and hints(snapshot, "prompts") == [(None, None)]
    assert cache_issues(snapshot.tools.pages) == [] and cacheable_words(snapshot.tools.pages) == ""
    assert {(p["ttl_ms"], p["cache_scope"]) for p in document(snapshot)["pages"]} == {(None, None)}  # type: ignore[attr-defined]


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_scope_that_changes_mid_walk_is_kept_and_warned_about_naming_both_pages(transport: str) -> None:
    pages = json.dumps([{}, {"cacheScope": "public"}, {}])
    snapshot = await walk(*FIVE_MINUTES, "--pages", pages, transport=transport)
    assert snapshot.status == "complete", "a warning, never a rejection"
    assert [p["name"] for p in snapshot.tools.items] == ["tool_0", "tool_1", "tool_2"]
    assert hints(snapshot) == [(300_000, "private"), (300_000, "public"), (300_000, "private")]
    issues = cache_issues(snapshot.tools.pages, required=True)
    assert [(i.code, i.page, i.other_page) for i in issues] == [
        (CacheCode.SCOPE_CHANGED, 1, 0),
        (CacheCode.SCOPE_CHANGED, 2, 1),
    ]
    assert "page 1 has cacheScope 'public' but page 0 had 'private'" in issues[0].message


HOSTILE = [
    {"ttlMs": -5},
    {"ttlMs": 1.5},
    {"ttlMs": "300000"},
    {"ttlMs": 10**23},
    {"cacheScope": "shared"},
    {"ttlMs": None, "cacheScope": None},  # taken out: a 2026-07-28 page without hints
    {"ttlMs": {"ms": 1}, "cacheScope": ["public"]},
]


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_hostile_hints_are_kept_as_sent_and_classified_never_hiding_a_page(transport: str) -> None:
    snapshot = await walk(*FIVE_MINUTES, "--pages", json.dumps(HOSTILE), transport=transport)
    # The SDK alone would floor -5 to 0 and refuse the other pages' results outright.
    assert snapshot.status == "complete", snapshot.error
    assert len(snapshot.tools.items) == len(HOSTILE)
    assert hints(snapshot) == [
        (-5, "private"),
        (1.5, "private"),
        ("300000", "private"),
        (10**23, "private"),
        (300_000, "shared"),
        (None, None),
        ('{"ms":1}', '["public"]'),
    ]
    assert [(i.page, i.code) for i in cache_issues(snapshot.tools.pages, required=True)] == [
        (0, CacheCode.TTL_NEGATIVE),
        (1, CacheCode.TTL_NOT_INTEGER),
        (2, CacheCode.TTL_NOT_INTEGER),
        (3, CacheCode.TTL_HUGE),
        (4, CacheCode.SCOPE_INVALID),
        (5, CacheCode.TTL_MISSING),
        (5, CacheCode.SCOPE_MISSING),
        (6, CacheCode.TTL_NOT_INTEGER),
        (6, CacheCode.SCOPE_INVALID),
    ]
    assert cacheable_words(snapshot.tools.pages) == ""
    assert [p["ttl_ms"] for p in document(snapshot)["pages"]][:4] == [-5, 1.5, "300000", 10**23]  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_hints_the_sdk_takes_are_left_exactly_as_sent() -> None:
    # Integers within the SDK's range and the two scopes pass its check untouched: nothing is set aside.
    pages = json.dumps([{"ttlMs": 0, "cacheScope": "public"}, {"ttlMs": 2**53 - 1}])
    snapshot = await walk("--pages", pages)
    assert hints(snapshot) == [(0, "public"), (2**53 - 1, "private")]  # page 1's scope: the SDK's default
    issues = cache_issues(snapshot.tools.pages, required=True)
    assert [(i.code, i.page, i.other_page) for i in issues] == [(CacheCode.SCOPE_CHANGED, 1, 0)]
