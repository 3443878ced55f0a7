"""The cache-hint rules of list pages (SEP-2549): each page checked on its own, a scope change named by both pages,
what the header says, and stored documents with and without the hints."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from catalog_inspector.core.catalog import (
    CacheCheck,
    CacheCode,
    ListResult,
    PageRecord,
    Snapshot,
    cache_issues,
    cacheable_words,
    duration_words,
    hints_required,
)
from catalog_inspector.core.catalog.caching import TEXT_LIMIT, sent


def page(index: int, ttl: object = 300_000, scope: object = "private") -> PageRecord:
    return PageRecord(index, None, None, 1, (f"t{index}",), 10, 1.0, ttl_ms=sent(ttl), cache_scope=sent(scope))


def codes(pages: list[PageRecord], required: bool = True) -> list[tuple[int, CacheCode]]:
    return [(issue.page, issue.code) for issue in cache_issues(pages, required)]


def test_valid_hints_on_every_page_give_no_warning() -> None:
    assert codes([page(0), page(1, 0), page(2, 86_400_000)]) == []


@pytest.mark.parametrize(
    ("ttl", "code"),
    [
        (-5, CacheCode.TTL_NEGATIVE),
        (-0.5, CacheCode.TTL_NEGATIVE),
        (1.5, CacheCode.TTL_NOT_INTEGER),
        ("300000", CacheCode.TTL_NOT_INTEGER),
        (True, CacheCode.TTL_NOT_INTEGER),
        ({"ms": 5}, CacheCode.TTL_NOT_INTEGER),
        (float("nan"), CacheCode.TTL_NOT_INTEGER),
        (float("inf"), CacheCode.TTL_NOT_INTEGER),
        (2**53, CacheCode.TTL_HUGE),
        (10**4000, CacheCode.TTL_HUGE),
        (None, CacheCode.TTL_MISSING),
    ],
)
def test_a_ttl_that_is_not_an_integer_of_zero_or_more_is_warned_about_with_what_was_sent(
    ttl: object, code: CacheCode
) -> None:
    [issue] = cache_issues([page(0, ttl)], required=True)
    assert (issue.page, issue.code, issue.code.column) == (0, code, "ttl")
    assert issue.message.startswith("page 0 ")
    if code is CacheCode.TTL_NEGATIVE:
        assert f"ttlMs {ttl}" in issue.message, "the value as sent, not the 0 a client reads"
    assert len(issue.message) < 300, "bounded, even for a 4,000-digit number"


def test_an_integral_float_is_an_integer_as_json_schema_says() -> None:
    assert codes([page(0, 300000.0)]) == []
    assert cacheable_words([page(0, 300000.0)]) == "cacheable for 5 min (private)"


@pytest.mark.parametrize("scope", ["shared", "Private", "", 1, False, ["public"]])
def test_a_scope_other_than_public_or_private_is_warned_about(scope: object) -> None:
    [issue] = cache_issues([page(0, scope=scope)], required=True)
    assert (issue.code, issue.code.column) == (CacheCode.SCOPE_INVALID, "scope")
    assert "neither" in issue.message


def test_a_scope_change_is_one_warning_naming_both_pages() -> None:
    pages = [page(0), page(1), page(2, scope="public"), page(3, scope="public"), page(4)]
    issues = cache_issues(pages)
    assert [(i.code, i.page, i.other_page) for i in issues] == [
        (CacheCode.SCOPE_CHANGED, 2, 1),
        (CacheCode.SCOPE_CHANGED, 4, 3),
    ]
    assert issues[0].message == (
        "page 2 has cacheScope 'public' but page 1 had 'private': "
        "a server must use the same scope on every page of one list"
    )


def test_an_invalid_scope_between_two_equal_ones_is_no_change() -> None:
    assert codes([page(0), page(1, scope="shared"), page(2)]) == [(1, CacheCode.SCOPE_INVALID)]


def test_a_page_the_server_answered_with_an_error_has_no_hints_to_check() -> None:
    errored = PageRecord(0, None, None, 0, (), 0, 1.0, "server_error")  # no result: nothing to hint
    rejected = PageRecord(1, "c", None, 1, ("t",), 40, 1.0, "duplicate_name")  # a result, judged and refused
    assert codes([errored]) == []
    assert codes([page(0), rejected]) == [(1, CacheCode.TTL_MISSING), (1, CacheCode.SCOPE_MISSING)]


def test_missing_hints_are_warned_about_only_where_the_revision_asks_for_them() -> None:
    legacy = [page(0, None, None), page(1, None, None)]
    assert codes(legacy, required=False) == []
    assert codes(legacy, required=True) == [
        (0, CacheCode.TTL_MISSING),
        (0, CacheCode.SCOPE_MISSING),
        (1, CacheCode.TTL_MISSING),
        (1, CacheCode.SCOPE_MISSING),
    ]


@given(st.lists(st.sampled_from(["public", "private", "shared", None]), max_size=30))
def test_the_check_page_by_page_finds_what_an_independent_reading_finds(scopes: list[str | None]) -> None:
    pages = [page(i, scope=scope) for i, scope in enumerate(scopes)]
    check = CacheCheck()
    found = [issue for p in pages for issue in check.add(p)]
    assert found == check.issues == cache_issues(pages)
    # The oracle: a change is a valid scope that differs from the last valid one before it.
    valid = [(i, s) for i, s in enumerate(scopes) if s in ("public", "private")]
    changes = [(b[0], a[0]) for a, b in zip(valid, valid[1:], strict=False) if a[1] != b[1]]
    assert [(i.page, i.other_page) for i in found if i.code is CacheCode.SCOPE_CHANGED] == changes


@pytest.mark.parametrize(
    ("ms", "words"),
    [
        (450, "450 ms"),
        (1000, "1 s"),
        (30_000, "30 s"),
        (300_000, "5 min"),
        (90_000, "1.5 min"),
        (3_600_000, "1 h"),
        (86_400_000, "1 day"),
        (172_800_000, "2 days"),
    ],
)
def test_durations_read_as_people_say_them(ms: int, words: str) -> None:
    assert duration_words(ms) == words


def test_the_header_words_say_what_every_page_allows() -> None:
    assert cacheable_words([page(0), page(1)]) == "cacheable for 5 min (private)"
    assert cacheable_words([page(0, 60_000, "public"), page(1, 300_000, "public")]) == (
        "cacheable for 1 min to 5 min, by page (public)"
    )
    assert cacheable_words([page(0), page(1, scope="public")]) == (
        "cacheable for 5 min (scope unclear: see the page timeline)"
    )


@pytest.mark.parametrize(
    "pages",
    [
        [],
        [page(0, None, None)],  # a handshake-era server: no hints at all
        [page(0, 0)],  # stale at once: nothing to say
        [page(0), page(1, 0)],  # one page that may not be cached: the catalog may not be either
        [page(0), page(1, -5)],  # clients read a negative ttlMs as 0
        [page(0, "300000")],
    ],
)
def test_the_header_says_nothing_when_the_catalog_may_not_be_cached(pages: list[PageRecord]) -> None:
    assert cacheable_words(pages) == ""


def test_hints_are_required_from_exactly_the_sdks_modern_revisions() -> None:
    assert [v for v in KNOWN_PROTOCOL_VERSIONS if hints_required(v)] == sorted(MODERN_PROTOCOL_VERSIONS)
    assert not hints_required(None) and not hints_required("")


def test_a_page_keeps_hints_bounded_and_as_json() -> None:
    long = "x" * 10_000
    assert sent(long) == "x" * TEXT_LIMIT + "…"
    assert sent({"a": [1]}) == '{"a":[1]}'
    assert sent(float("nan")) == "NaN" and sent(float("-inf")) == "-Infinity"
    assert sent(-5) == -5 and sent(True) is True and sent(None) is None


def _snapshot(pages: tuple[PageRecord, ...]) -> Snapshot:
    lists = {name: ListResult("complete", (), pages) for name in ("tools", "resources", "resource_templates")}
    lists["prompts"] = ListResult("complete", (), pages)
    server = {"name": "s", "version": "1", "protocol_version": "2026-07-28"}
    return Snapshot("complete", None, server, {}, None, lists)


def test_the_snapshot_keeps_each_pages_hints_under_every_list() -> None:
    pages = (page(0), page(1, -5, "shared"))
    document = json.loads(json.dumps(_snapshot(pages).to_json()))
    assert [(p["ttl_ms"], p["cache_scope"]) for p in document["pages"]] == [(300_000, "private"), (-5, "shared")]
    for name in ("resources", "resource_templates", "prompts"):
        assert [(p["ttl_ms"], p["cache_scope"]) for p in document[name]["pages"]] == [
            (300_000, "private"),
            (-5, "shared"),
        ]
    assert Snapshot.from_json(document).tools.pages == pages


def test_a_document_stored_before_hints_were_kept_loads_without_them() -> None:
    document = json.loads(json.dumps(_snapshot((page(0), page(1))).to_json()))
    for listed in [document["pages"], *(document[n]["pages"] for n in ("resources", "resource_templates", "prompts"))]:
        for stored in listed:
            del stored["ttl_ms"], stored["cache_scope"]
    loaded = Snapshot.from_json(document)
    for result in loaded.lists.values():
        assert [(p.ttl_ms, p.cache_scope) for p in result.pages] == [(None, None), (None, None)]
        assert cache_issues(result.pages) == [] and cacheable_words(result.pages) == ""
