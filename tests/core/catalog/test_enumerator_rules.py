"""The enumerator's rules one by one: the exact error (kind, words, page, details) and the exact timeline.

The page source is a script of responses, and the enumerator's clock is a fake
that moves a fixed step per reading, so every latency is known to the bit.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from catalog_inspector.core.catalog import LIST_KINDS, Fetched, Offence, PageRecord, Timeline, enumerator, walk_list
from catalog_inspector.core.config import Limits
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind, WalkFailed, WalkRejected, make_error
from catalog_inspector.core.jsonrpc_codes import Named

pytestmark = pytest.mark.anyio

TOOLS = LIST_KINDS["tools"]
TEMPLATES = LIST_KINDS["resource_templates"]  # a list whose result key and key field differ from "tools"/"name"
STEP_MS = 125.0  # every latency: one clock step (exact in binary floating point)


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The enumerator reads a clock that advances STEP_MS on every reading."""
    readings = iter(range(1, 10_000))
    monkeypatch.setattr(enumerator, "time", SimpleNamespace(perf_counter=lambda: next(readings) * STEP_MS / 1000))


def tools(*names: str) -> list[dict[str, Any]]:
    return [{"name": name, "inputSchema": {"type": "object"}} for name in names]


class Script:
    """Answers the n-th request with the n-th response, and records the cursors it was sent."""

    def __init__(
        self, *responses: dict[str, Any] | CatalogError, size: int = 100, last_size: int | None = None
    ) -> None:
        self.responses: Iterator[dict[str, Any] | CatalogError] = iter(responses)
        self.sizes = [size] * (len(responses) - 1) + [size if last_size is None else last_size]
        self.cursors: list[str | None] = []

    async def fetch(self, cursor: str | None) -> Fetched:
        self.cursors.append(cursor)
        response = next(self.responses)
        if isinstance(response, CatalogError):
            raise response
        return Fetched(response, self.sizes[len(self.cursors) - 1])


def page(*names: str, next_cursor: str | None = None, key: str = "tools") -> dict[str, Any]:
    result: dict[str, Any] = {key: tools(*names)}
    if next_cursor is not None:
        result["nextCursor"] = next_cursor
    return result


async def rejected(script: Script, limits: Limits | None = None, kind: Any = TOOLS) -> tuple[CatalogError, Timeline]:
    timeline = Timeline()
    with pytest.raises(CatalogError) as caught:
        await walk_list(kind, script.fetch, limits or Limits(), timeline)
    return caught.value, timeline


def record(index: int, cursor: str | None, next_cursor: str | None, names: tuple[str, ...], outcome: str = "ok",
           size: int = 100, offence: Offence | None = None) -> PageRecord:  # fmt: skip
    return PageRecord(index, cursor, next_cursor, len(names), names, size, STEP_MS, outcome, offence)


# --- a walk that completes ----------------------------------------------------------------------


async def test_a_complete_walk_returns_every_item_as_sent_and_records_each_page_exactly() -> None:
    first, second = page("a", "b", next_cursor="c1"), page("c")
    script = Script(first, second, size=321)
    shown: list[PageRecord] = []
    timeline = Timeline(on_page=shown.append)
    items = await walk_list(TOOLS, script.fetch, Limits(), timeline)
    assert items == [*first["tools"], *second["tools"]]
    assert all(got is sent for got, sent in zip(items, [*first["tools"], *second["tools"]], strict=True))
    assert script.cursors == [None, "c1"]
    assert timeline.pages == [
        record(0, None, "c1", ("a", "b"), size=321),
        record(1, "c1", None, ("c",), size=321),
    ]
    assert shown == timeline.pages
    assert timeline.in_flight is None


async def test_a_list_is_read_from_its_own_result_key_and_keyed_by_its_own_field() -> None:
    templates = [{"uriTemplate": "file:///{a}", "name": "n"}, {"uriTemplate": "file:///{b}", "name": "n"}]
    timeline = Timeline()
    items = await walk_list(TEMPLATES, Script({"resourceTemplates": templates}).fetch, Limits(), timeline)
    assert items == templates
    assert timeline.pages[0].names == ("file:///{a}", "file:///{b}")


async def test_a_page_exactly_at_the_byte_cap_and_the_item_budget_is_accepted() -> None:
    timeline = Timeline()
    limits = Limits(max_items=2, max_page_bytes=100)
    assert len(await walk_list(TOOLS, Script(page("a", "b")).fetch, limits, timeline)) == 2
    assert timeline.pages[0].outcome == "ok"


async def test_the_last_page_allowed_by_the_page_budget_may_end_the_walk() -> None:
    timeline = Timeline()
    script = Script(page("a", next_cursor="c1"), page("b"))
    assert len(await walk_list(TOOLS, script.fetch, Limits(max_pages=2), timeline)) == 2


# --- rejections: each rule's words, page and details --------------------------------------------


async def test_a_page_over_the_byte_cap_is_rejected_with_both_sizes() -> None:
    error, timeline = await rejected(Script(page("a"), size=2049), Limits(max_page_bytes=2048))
    assert isinstance(error, WalkRejected)
    assert error.info == ErrorInfo(
        ErrorKind.SIZE_LIMIT, "page 0 is 2,049 bytes, over the 2,048-byte cap", 0,
        details={"budget": 2048, "value": 2049},
    )  # fmt: skip
    assert timeline.pages == [record(0, None, None, ("a",), "size_limit", size=2049)]


async def test_a_name_repeated_on_one_page_names_both_definitions() -> None:
    first, again = {"name": "a", "v": 1}, {"name": "a", "v": 2}
    error, timeline = await rejected(Script({"tools": [first, again]}))
    assert error.info == ErrorInfo(
        ErrorKind.DUPLICATE_NAME, "tool name 'a' appears again on page 0 (first seen earlier on the same page)", 0,
        details={"name": "a", "pages": [0, 0], "definitions": [first, again]},
    )  # fmt: skip
    # The offence is worked out once, here, and carried on the page: the timeline never scans for it.
    assert timeline.pages == [record(0, None, None, ("a", "a"), "duplicate_name", offence=Offence("a", 0))]


async def test_a_name_repeated_on_a_later_page_names_the_page_it_was_first_seen_on() -> None:
    script = Script(page("a", next_cursor="c1"), page("b", next_cursor="c2"), page("c", "a", next_cursor="c3"))
    error, timeline = await rejected(script)
    assert error.info == ErrorInfo(
        ErrorKind.DUPLICATE_NAME, "tool name 'a' appears again on page 2 (first seen on page 0)", 2,
        details={"name": "a", "pages": [0, 2], "definitions": tools("a", "a")},
    )  # fmt: skip
    assert timeline.pages[-1] == record(2, "c2", "c3", ("c", "a"), "duplicate_name", offence=Offence("a", 0))
    assert [p.outcome for p in timeline.pages] == ["ok", "ok", "duplicate_name"]


async def test_the_item_budget_counts_every_page_so_far() -> None:
    names = [f"t{i}" for i in range(1500)]
    script = Script(page(*names[:1000], next_cursor="c1"), page(*names[1000:]))
    error, timeline = await rejected(script, Limits(max_items=1499))
    assert error.info == ErrorInfo(
        ErrorKind.ITEM_LIMIT, "the item budget of 1,499 ran out on page 1 (1,500 items by the end of that page)", 1,
        details={"budget": 1499, "value": 1500},
    )  # fmt: skip
    assert timeline.pages[-1] == record(1, "c1", None, tuple(names[1000:]), "item_limit")


async def test_a_next_cursor_already_sent_is_rejected_before_the_walk_loops() -> None:
    script = Script(page("a", next_cursor="A"), page("b", next_cursor="B"), page("c", next_cursor="A"))
    error, timeline = await rejected(script)
    assert error.info == ErrorInfo(
        ErrorKind.CURSOR_REPEATED,
        "page 2 returned next cursor 'A', already sent for page 1: the walk would loop", 2,
        details={"cursor": "A", "pages": [0, 2], "requested_page": 1},
    )  # fmt: skip
    assert script.cursors == [None, "A", "B"]
    assert timeline.pages[-1] == record(2, "B", "A", ("c",), "cursor_repeated", offence=Offence(first_page=1))


async def test_a_page_returning_its_own_cursor_is_the_shortest_loop() -> None:
    error, _ = await rejected(Script(page("a", next_cursor="A"), page("b", next_cursor="A")))
    assert (error.kind, error.info.page, error.info.details["pages"]) == (ErrorKind.CURSOR_REPEATED, 1, [0, 1])


@pytest.mark.parametrize(
    ("cursor", "shown"),
    [("x" * 40, "'" + "x" * 40 + "'"), ("x" * 41, "'" + "x" * 40 + "…'")],
)
async def test_a_repeated_cursor_longer_than_forty_characters_is_cut_in_the_message(cursor: str, shown: str) -> None:
    error, _ = await rejected(Script(page("a", next_cursor=cursor), page("b", next_cursor=cursor)))
    assert error.info.message == f"page 1 returned next cursor {shown}, already sent for page 1: the walk would loop"
    assert error.info.details["cursor"] == cursor


async def test_a_next_cursor_on_the_last_budgeted_page_is_rejected_with_the_page_it_would_need() -> None:
    script = Script(page("a", next_cursor="c1"), page("b", next_cursor="c2"))
    error, timeline = await rejected(script, Limits(max_pages=2))
    assert error.info == ErrorInfo(
        ErrorKind.PAGE_LIMIT, "the page budget of 2 ran out: page 1 still has a next cursor", 1,
        details={"budget": 2, "value": 3},
    )  # fmt: skip
    assert timeline.pages[-1] == record(1, "c1", "c2", ("b",), "page_limit")
    assert script.cursors == [None, "c1"]


@pytest.mark.parametrize(
    ("size", "second", "max_items", "expected"),
    [
        (101, ("b", "b"), 1, ErrorKind.SIZE_LIMIT),
        (100, ("b", "b"), 1, ErrorKind.DUPLICATE_NAME),
        (100, ("b", "c"), 1, ErrorKind.ITEM_LIMIT),
        (100, ("b", "c"), 3, ErrorKind.CURSOR_REPEATED),
    ],
)
async def test_a_page_breaking_several_rules_reports_the_first_in_a_fixed_order(
    size: int, second: tuple[str, ...], max_items: int, expected: ErrorKind
) -> None:
    # Page 1 may break, in this order: the byte cap, unique names, the item budget, the cursor rule, the page budget.
    script = Script(page("a", next_cursor="A"), page(*second, next_cursor="A"), last_size=size)
    error, _ = await rejected(script, Limits(max_pages=2, max_items=max_items, max_page_bytes=100))
    assert (error.kind, error.info.page) == (expected, 1)


# --- malformed pages ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({}, "page 1: 'tools' is not a list of objects"),
        ({"tools": {"name": "a"}}, "page 1: 'tools' is not a list of objects"),
        ({"tools": [{"name": "a"}, "b"]}, "page 1: 'tools' is not a list of objects"),
        ({"tools": [{"name": "a"}, {"title": "b"}]}, "page 1: an item has no string 'name'"),
        ({"tools": [{"name": 7}]}, "page 1: an item has no string 'name'"),
        ({"tools": [], "nextCursor": 3}, "page 1: nextCursor is not a string"),
    ],
)
async def test_a_malformed_page_is_a_protocol_error_on_its_page(result: dict[str, Any], message: str) -> None:
    error, timeline = await rejected(Script(page("a", next_cursor=""), result, size=77))
    assert isinstance(error, WalkFailed)
    assert error.info == ErrorInfo(ErrorKind.PROTOCOL, message, 1)
    assert timeline.pages[-1] == PageRecord(1, "", None, 0, (), 77, STEP_MS, "protocol")


async def test_a_malformed_page_of_another_list_names_that_lists_key() -> None:
    error, _ = await rejected(Script({"resourceTemplates": [{"uri": "u"}]}), kind=TEMPLATES)
    assert error.info.message == "page 0: an item has no string 'uriTemplate'"
    error, _ = await rejected(Script({"tools": []}), kind=TEMPLATES)
    assert error.info.message == "page 0: 'resourceTemplates' is not a list of objects"


# --- failed requests ----------------------------------------------------------------------------


async def test_a_failed_request_keeps_its_kind_and_type_and_gains_the_page_it_was_for() -> None:
    details = {"code": -32602, "message": "Invalid cursor"}
    cause = make_error(ErrorKind.SERVER_ERROR, "bad cursor", None, -32602, details)
    error, timeline = await rejected(Script(page("a", next_cursor="c1"), cause))
    assert type(error) is WalkFailed and error.__cause__ is cause
    assert error.info == ErrorInfo(ErrorKind.SERVER_ERROR, "bad cursor", 1, -32602, details=details)
    named = Named(
        -32602, "invalid_cursor", "invalid cursor", "JSON-RPC -32602 (invalid params: the cursor is invalid or expired)"
    )
    offence = Offence(jsonrpc=named)  # the code by name, for the timeline
    assert timeline.pages[-1] == PageRecord(1, "c1", None, 0, (), 0, STEP_MS, "server_error", offence)
    assert timeline.in_flight is None


async def test_a_request_that_fails_without_a_code_carries_no_offence() -> None:
    cause = make_error(ErrorKind.TIMEOUT, "late", None)
    _, timeline = await rejected(Script(page("a", next_cursor="c1"), cause))
    assert timeline.pages[-1] == PageRecord(1, "c1", None, 0, (), 0, STEP_MS, "timeout")


async def test_a_request_cut_off_from_outside_stays_in_flight_until_the_timeline_records_it() -> None:
    async def fetch(cursor: str | None) -> Fetched:
        if cursor is None:
            return Fetched(page("a", next_cursor="c1"), 10)
        raise TimeoutError  # what a deadline around the walk raises into it

    timeline = Timeline()
    with pytest.raises(TimeoutError):
        await walk_list(TOOLS, fetch, Limits(), timeline)
    assert timeline.in_flight is not None and timeline.in_flight[:2] == (1, "c1")
    assert timeline.fail_in_flight(ErrorKind.TIMEOUT) == 1
    assert timeline.pages[-1] == PageRecord(1, "c1", None, 0, (), 0, STEP_MS, "timeout")
    assert timeline.in_flight is None


async def test_with_nothing_in_flight_the_timeline_records_nothing_and_answers_the_next_index() -> None:
    shown: list[PageRecord] = []
    timeline = Timeline(on_page=shown.append)
    await walk_list(TOOLS, Script(page("a", next_cursor="c1"), page("b")).fetch, Limits(), timeline)
    assert timeline.fail_in_flight(ErrorKind.TIMEOUT) == 2
    assert len(timeline.pages) == len(shown) == 2
