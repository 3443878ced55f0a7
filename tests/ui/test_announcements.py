"""What matters is said once, in the status bar and to assistive technology: a walk accepted, a walk rejected (and
why), a call answered, a server asking for input; a walk's pages are not.

PySide6 has no `QAccessible.installUpdateHandler`: the test stands in for the platform's bridge by recording what the
app hands `QAccessible.updateAccessibility` (the one door every accessibility event goes through), and checks the
status bar shows the same words, which is also the status bar's accessible name.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QAccessibleEvent
from PySide6.QtWidgets import QPushButton

from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for

WAIT = 20_000


@dataclass(frozen=True)
class Said:
    """One announcement as the platform would get it."""

    source: object
    words: str
    urgent: bool


@pytest.fixture
def heard(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Said]]:
    said: list[Said] = []

    def update(event: QAccessibleEvent) -> None:
        if isinstance(event, QAccessibleAnnouncementEvent):
            urgent = event.politeness() == QAccessible.AnnouncementPoliteness.Assertive
            said.append(Said(event.object(), event.message(), urgent))

    monkeypatch.setattr(QAccessible, "updateAccessibility", update)
    yield said


def on_the_status_bar(window: MainWindow, said: Said) -> bool:
    """The words are the status bar's, as shown and as a screen reader reads its name."""
    bar = window.statusBar()
    face = QAccessible.queryAccessibleInterface(bar)
    return said.source is bar and bar.currentMessage() == said.words == face.text(QAccessible.Text.Name)


def settled() -> None:
    """Whatever the last event queued has run (an announcement said a turn later included)."""
    QCoreApplication.processEvents()
    QCoreApplication.processEvents()


def test_a_walk_accepted_is_said_once_not_page_by_page(harness: Harness, qtbot, heard: list[Said]) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="paged"), demo_spec("single", name="other")])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: bool(heard))
    settled()
    catalog = window.current.catalog if window.current is not None else None
    assert catalog is not None and len(catalog.tools.pages) > 1, "a walk of several pages"
    (said,) = heard
    tools = len(catalog.tools.items)
    pages = len(catalog.tools.pages)
    assert said.words == f"paged: Walk finished, catalog accepted: {tools} tools on {pages} pages"
    assert on_the_status_bar(window, said) and not said.urgent
    assert window.select_server("other")
    wait_for(qtbot, lambda: len(heard) == 2)
    assert heard[1].words == "other: Walk finished, catalog accepted: 3 tools on 1 page"
    assert window.select_server("paged")
    settled()
    assert len(heard) == 2 and window.announcer.said == [said.words, heard[1].words], "a server shown again: no news"


def test_a_walk_rejected_is_said_with_why(harness: Harness, qtbot, heard: list[Said], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("refresh-duplicate", "--state", str(tmp_path / "dup.json"), name="dup")])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: len(heard) == 1)
    window.refresh_button.click()
    wait_for(qtbot, lambda: len(heard) == 2, timeout=WAIT)
    settled()
    assert len(heard) == 2
    said = heard[1]
    assert said.words.startswith("dup: Walk finished without a catalog. Rejected: Duplicate name on page ")
    assert "was first seen on page" in said.words, "the banner's own line: why"
    assert said.urgent and on_the_status_bar(window, said)


def test_a_call_answered_is_said(harness: Harness, qtbot, heard: list[Said]) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="calls")])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning and len(heard) == 1)
    tree = window.tools_pane.tree
    model = tree.model()
    tree.setCurrentIndex(next(model.index(r, 0) for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == "echo"))  # fmt: skip
    panel = window.call_panel
    window.tabs.setCurrentWidget(panel)
    panel.editor.set_arguments({"text": "hi"})
    wait_for(qtbot, panel.send_button.isEnabled, timeout=WAIT)
    assert panel.send()
    wait_for(qtbot, lambda: len(heard) == 2, timeout=WAIT)
    settled()
    said = heard[1]
    assert said.words == f"Call answered: {panel.outcome.text()}" and said.words.startswith("Call answered: ")
    assert on_the_status_bar(window, said) and len(heard) == 2


def test_a_server_asking_for_input_is_said_urgently(harness: Harness, qtbot, heard: list[Said]) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("asks", name="asks")])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning and len(heard) == 1)
    tree = window.tools_pane.tree
    model = tree.model()
    tree.setCurrentIndex(
        next(model.index(r, 0) for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == "greet")
    )
    panel = window.call_panel
    window.tabs.setCurrentWidget(panel)
    wait_for(qtbot, lambda: panel.presenter is not None and panel.presenter.can_send, timeout=WAIT)
    panel.send()
    if panel.confirm_bar.isVisible():
        panel.confirm_yes.click()
    wait_for(qtbot, lambda: len(heard) == 2, timeout=WAIT)
    said = heard[1]
    assert said.words == "asks asks for your input: the question is in the Call tab."
    assert said.urgent and on_the_status_bar(window, said)
    cancel = panel.input_panel.findChild(QPushButton, "inputCancelButton")
    qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: len(heard) == 3, timeout=WAIT)  # the call ends: answered (the question was cancelled)
    assert heard[2].words.startswith("Call answered: ")
