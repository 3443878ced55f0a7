"""Cache hints (SEP-2549) in the window, from a real SDK server: the TTL and Cache scope columns of every timeline,
the warnings under it, and the catalog header's "cacheable for 5 min (private)"."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableView

from catalog_inspector.core.catalog import PageRecord
from catalog_inspector.core.catalog.caching import sent
from catalog_inspector.core.config import ServerSpec
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.timeline import HINT_BACKGROUND, SCOPE, TTL, TimelineModel
from tests.helpers import forked
from tests.ui.conftest import Harness, shown, wait_for

FIVE_MINUTES = ("--hint", "300000", "private")


CACHE_SERVER = forked("tests.fixtures.cache_server")


def spec(*args: str, era: str = "auto", name: str = "hints") -> ServerSpec:
    return ServerSpec(
        name=name,
        command=CACHE_SERVER[0],
        args=(*CACHE_SERVER[1:], *args),
        protocol_era=era,  # type: ignore[arg-type]
    )


def opened(harness: Harness, qtbot: Any, server: ServerSpec) -> MainWindow:
    window = harness.window([server])
    wait_for(qtbot, lambda: shown(window))
    return window


def header(window: MainWindow) -> str:
    return str(window.findChild(QLabel, "catalogLabel").text())


def column(window: MainWindow, col: int, name: str = "pageTimeline") -> list[str]:
    model = window.findChild(QTableView, name).model()
    return [model.index(row, col).data() for row in range(model.rowCount())]


def hints_label(window: MainWindow, name: str = "pageTimeline") -> QLabel:
    label = window.findChild(QLabel, f"{name}CacheHints")
    assert label.textFormat() == Qt.TextFormat.PlainText
    return label


def test_a_five_minute_private_catalog_says_so_in_the_header_and_every_timeline(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = opened(harness, qtbot, spec(*FIVE_MINUTES))
    assert header(window).endswith(" · cacheable for 5 min (private)")
    model = window.findChild(QTableView, "pageTimeline").model()
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in (TTL, SCOPE)] == ["TTL", "Cache scope"]
    assert column(window, TTL) == ["5 min", "5 min"] and column(window, SCOPE) == ["private", "private"]
    assert model.index(0, TTL).data(Role.FULL_TEXT) == "300000", "a copy gives what the server sent"
    assert "fresh for 5 min" in model.index(0, TTL).data(Qt.ItemDataRole.ToolTipRole)
    assert column(window, TTL, "promptsTimeline") == ["5 min"]
    assert column(window, SCOPE, "promptsTimeline") == ["private"]
    assert not hints_label(window).isVisible()


def test_a_scope_change_mid_walk_is_marked_on_the_page_and_named_with_both_pages(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = opened(harness, qtbot, spec(*FIVE_MINUTES, "--pages", json.dumps([{}, {"cacheScope": "public"}])))
    assert column(window, SCOPE) == ["private", "⚠ 'public'"], "the page is kept and shown, marked"
    model = window.findChild(QTableView, "pageTimeline").model()
    changed = model.index(1, SCOPE)
    assert changed.data(Qt.ItemDataRole.BackgroundRole).color().name() == HINT_BACKGROUND
    assert model.index(0, SCOPE).data(Qt.ItemDataRole.BackgroundRole) is None
    warning = "page 1 has cacheScope 'public' but page 0 had 'private'"
    assert warning in changed.data(Qt.ItemDataRole.ToolTipRole)
    label = hints_label(window)
    assert label.isVisible() and label.text().startswith("Cache hints (1 warning):") and warning in label.text()
    assert header(window).endswith("cacheable for 5 min (scope unclear: see the page timeline)")


def test_hostile_hints_show_as_sent_with_their_warnings_and_no_header_claim(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    pages = [
        {"ttlMs": -5},
        {"ttlMs": 1.5},
        {"cacheScope": "<b>shared</b>\u202e"},
        {"ttlMs": None, "cacheScope": None},
        {"ttlMs": "9" * 500},
        {"ttlMs": 10**30},
        {},
    ]
    window = opened(harness, qtbot, spec(*FIVE_MINUTES, "--pages", json.dumps(pages)))
    ttl = column(window, TTL)
    assert ttl[:4] == ["⚠ -5", "⚠ 1.5", "5 min", "⚠ none"] and ttl[6] == "5 min"
    assert ttl[4].startswith("⚠ '999") and len(ttl[4]) < 80, "text is bounded"
    assert ttl[5] == "⚠ 1000000000000000000000000000000"
    scope = column(window, SCOPE)
    assert scope[2] == "⚠ '<b>shared</b>\\u202e'", "plain text, the hidden character made visible"
    assert scope[3] == "⚠ none"
    text = hints_label(window).text()
    assert text.startswith("Cache hints (7 warnings):") and "… and 2 more" in text
    assert "page 0 has ttlMs -5: below 0" in text
    assert " · cacheable" not in header(window), "clients read a negative ttlMs as 0: nothing is cacheable"


def test_a_handshake_era_server_shows_no_hints_and_nothing_odd(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = opened(harness, qtbot, spec(*FIVE_MINUTES, era="legacy"))
    assert "protocol 2025-11-25" in header(window) and "cacheable" not in header(window)
    assert column(window, TTL) == ["—", "—"] and column(window, SCOPE) == ["—", "—"]
    model = window.findChild(QTableView, "pageTimeline").model()
    assert model.index(0, TTL).data(Qt.ItemDataRole.BackgroundRole) is None
    assert not hints_label(window).isVisible()


class CountingPages(list[PageRecord]):
    """A walk's page sequence that counts how often the model reads a page (the runtime's is a plain list)."""

    reads = 0

    def __getitem__(self, key: Any) -> Any:
        self.reads += 1 if isinstance(key, int) else 0
        return super().__getitem__(key)

    def __iter__(self) -> Iterator[PageRecord]:
        self.reads += len(self)
        return super().__iter__()


def _page(index: int) -> PageRecord:
    scope = "public" if index % 2 else "private"
    return PageRecord(index, None, None, 1, ("t",), 10, 1.0, ttl_ms=sent(300_000), cache_scope=sent(scope))


def test_a_live_walk_checks_each_page_once_as_it_arrives() -> None:
    model = TimelineModel()
    pages = CountingPages()
    model.show(pages, hints_required=True)
    count = 2_000
    for index in range(count):
        pages.append(_page(index))
        model.sync()
    # Constant work per page: an alternating scope is a warning on every page after the first, each found once.
    assert len(model.cache_issues) == count - 1
    assert pages.reads <= 3 * count, f"{pages.reads} page reads for {count} pages"
    assert [i.other_page for i in model.cache_issues[:3]] == [0, 1, 2]
    assert model.index(count - 1, SCOPE).data() == "⚠ 'public'"


def test_the_timeline_with_hint_columns_passes_the_model_tester_while_a_walk_grows(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = TimelineModel()
    pages: list[PageRecord] = []
    model.show(pages, hints_required=True)
    qtmodeltester.check(model, force_py=True)  # stays attached: every insertion is checked too
    for index in range(12):
        pages.append(_page(index))
        model.sync()
    qtmodeltester.check(model, force_py=True)
    assert [model.index(row, SCOPE).data() for row in range(3)] == ["private", "⚠ 'public'", "⚠ 'private'"]
