"""The band under the header: the banner when there is something to say, else the verdict on the catalog shown; its
height the same either way, so a banner that comes or goes moves nothing below it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent

from catalog_inspector.core.drift import History
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.presenters.words import Banner
from catalog_inspector.ui.widgets.status_band import StatusBand
from catalog_inspector.ui.widgets.status_banner import StatusBanner
from tests.helpers import demo_spec
from tests.ui.conftest import Events, Harness, wait_for
from tests.ui.test_drift_window import accept_refresh, reported


def verdict(window: MainWindow) -> tuple[str, str]:
    return window.band.text.text(), window.band.detail.text()


def test_a_refresh_that_brings_a_drift_banner_moves_nothing_below_it(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = demo_spec("drift", "--state", str(tmp_path / "walks.json"), name="drifting")
    window = harness.window([spec], history=History(tmp_path / "history"))
    wait_for(qtbot, lambda: reported(window))
    assert window.banner.isHidden() and window.band.verdict.isVisible()
    assert verdict(window)[0].startswith("First catalog kept for this server: nothing to compare with yet.")
    tabs = Events([window.tabs], QEvent.Type.Move, QEvent.Type.Resize)
    band_height = window.band.height()

    accept_refresh(window, qtbot)
    assert window.banner.state == "drift" and window.banner.isVisible() and window.band.verdict.isHidden()
    assert window.band.height() == band_height
    assert tabs.of(window.tabs) == [], "the tabs kept their place and size"
    # The verdict is the report's headline; it shows again once there is no banner.
    assert verdict(window)[0].startswith("Changed since the catalog taken at")
    window.banner.show_banner(Banner())
    assert window.band.verdict.isVisible() and window.band.height() == band_height


def test_a_banner_of_two_lines_fits_the_band_and_a_taller_one_widens_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    banner = StatusBanner()
    band = StatusBand(banner)
    qtbot.addWidget(band)
    band.resize(900, band.sizeHint().height())
    band.show()
    qtbot.waitExposed(band)
    band.set_verdict("Nothing changed since the catalog taken at 12:00.", "Approved: the catalog matches.")
    empty = band.sizeHint().height()
    for kind, text, button in (
        ("drift", "Changed since the catalog taken at 12:00: 2 breaking.", "Show drift"),
        ("failure", "Rejected: Duplicate name on page 2 of tools\n'echo' was first seen on page 0", "Retry"),
        ("stale", "The server says its catalog changed\nRefresh to walk it again.", "Refresh"),
        ("lost", "Connection lost\nThe server exited\nIts last words\nThe catalog stays on screen.", "Reconnect"),
    ):
        banner.show_banner(Banner(kind, text, button, True))
        assert band.sizeHint().height() == empty, kind
        assert band.verdict.isHidden()
    banner.set_expanded(True)  # the whole message, opened by the person: the band grows while it is open
    assert band.sizeHint().height() > empty
    banner.set_expanded(False)
    banner.show_banner(Banner())
    assert band.verdict.isVisible() and band.sizeHint().height() == empty


def test_the_verdict_says_a_walk_is_under_way_and_no_catalog_yet(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("slow", "--delay", "0.3", name="slow")])
    wait_for(qtbot, lambda: window.current is not None and window.current.supervisor.busy)
    assert verdict(window) == ("Walking the catalog: its pages show on the timeline as they arrive.", "")
    wait_for(qtbot, lambda: reported(window))
    window.refresh()
    wait_for(qtbot, lambda: window.current is not None and window.current.supervisor.busy)
    text, detail = verdict(window)
    assert text.startswith("First catalog kept") and detail.startswith("A new walk is under way")


def test_a_banner_shown_again_in_its_colours_is_not_styled_anew(qtbot) -> None:  # type: ignore[no-untyped-def]
    # Setting the same style sheet again polishes the banner and its children anew (a millisecond of the event
    # that brought the report); the colours of a kind are set once, and again when the kind or the palette changes.
    banner = StatusBanner()
    qtbot.addWidget(banner)
    banner.show_banner(Banner("drift", "Changed since the catalog taken at 12:00: 2 breaking.", "Show drift", True))
    restyled = Events([banner], QEvent.Type.StyleChange)
    banner.show_banner(Banner("drift", "Changed since the catalog taken at 12:01: 1 warning.", "Show drift", True))
    assert restyled.seen == []
    banner.show_banner(Banner("failure", "Rejected: Duplicate name\n'echo' was first seen on page 0", "Retry", True))
    assert restyled.seen, "another kind, other colours"
