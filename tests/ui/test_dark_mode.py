"""Dark mode: with a dark application palette every text stays readable, and a palette change follows at run time.

Contrast is measured here with WCAG 2's formula written again (`ratio`), not with the
theme's own, on the colours the widgets and models really use: the brush a model
returns, the background a style sheet sets (and the pixel it paints), the text
colour of the palette the widget draws with.
"""

from __future__ import annotations

import colorsys
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QLabel,
    QListView,
    QPlainTextEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.calls import FieldProblem
from catalog_inspector.core.drift import History
from catalog_inspector.ui import theme
from catalog_inspector.ui.dialogs.imports import ImportDialog
from catalog_inspector.ui.dialogs.server import ServerDialog
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.tool_tree import ToolTreeModel
from catalog_inspector.ui.presenters.words import Banner
from catalog_inspector.ui.widgets.call_form import CallForm
from catalog_inspector.ui.widgets.status_banner import COLORS, StatusBanner
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_drift_window import accept_refresh, reported
from tests.ui.test_main_window import tree

TEXT = 4.5  # WCAG 2 AA, normal text
NON_TEXT = 3.0  # WCAG 2.1 1.4.11, marks and swatches
FG, BG = Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.BackgroundRole
# Today's light colours, written out: the light look must not change by accident.
LIGHT = {
    "failure": "#fdecea", "notice": "#fff8e1", "info": "#e8f0fe", "signin": "#e3f0fd", "breaking": "#ffd9d6",
    "warning": "#fff0c2", "related": "#ffe8b0", "confirm": "#fff3e0", "question": "#f3f7ff", "diff": "#ffe0b2",
    "failure-line": "#d0b0b0", "signin-line": "#8fb3de", "notice-line": "#e0d090", "caution-line": "#d8c78f",
    "excluded-line": "#e57373", "confirm-line": "#e0b070", "question-line": "#8fa8d8",
    "changed": "#1565c0", "flagged": "#c62828", "problem": "#b00020", "problem-mark": "#d93025",
    "state-idle": "#9e9e9e", "state-busy": "#1e88e5", "state-ready": "#43a047", "state-stale": "#f9a825",
    "state-failed": "#e53935", "state-lost": "#ef6c00", "asking": "#8e24aa",
}  # fmt: skip
# Inks a light palette moves, just enough to reach 4.5:1 on Window (#efefef) too: today's colour, its ratio there.
MOVED = {"added": "#2e7d32", "unusual": "#b35900", "caution": "#b35c00", "removed": "#9e9e9e"}


def ratio(first: QColor, second: QColor) -> float:
    """WCAG 2 contrast ratio, from the definition (sRGB → linear → relative luminance)."""

    def lum(color: QColor) -> float:
        channels = [c / 255 for c in (color.red(), color.green(), color.blue())]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((lum(first), lum(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.fixture
def use_palette(qapp) -> Iterator[Callable[[QPalette], None]]:  # type: ignore[no-untyped-def]
    """Set the application palette; the one before is restored after the test (the app is shared)."""
    saved = QPalette(qapp.palette())
    yield qapp.setPalette
    qapp.setPalette(saved)


@pytest.fixture
def dark(use_palette: Callable[[QPalette], None]) -> QPalette:
    palette = theme.dark_palette()
    use_palette(palette)
    return palette


def role(palette: QPalette, which: QPalette.ColorRole) -> QColor:
    return palette.color(QPalette.ColorGroup.Active, which)


def sheet_color(widget: QWidget, prop: str) -> QColor | None:
    found = re.search(rf"(?<![-\w]){prop}:\s*(?:1px solid\s*)?(#[0-9a-fA-F]{{6}})", widget.styleSheet())
    return QColor(found.group(1)) if found else None


def drawn_on(widget: QWidget) -> QColor:
    """The background a widget's text is drawn on: the nearest style sheet background up the parents, else Window."""
    at: QWidget | None = widget
    while at is not None:
        background = sheet_color(at, "background")
        if background is not None:
            return background
        at = at.parentWidget()
    return role(widget.palette(), QPalette.ColorRole.Window)


def assert_texts_readable(top: QWidget) -> int:
    """Every label and check box under `top` (shown or not) has 4.5:1 against what it is drawn on."""
    checked = 0
    for widget in [top, *top.findChildren(QWidget)]:
        if isinstance(widget, QLabel | QCheckBox) and widget.isEnabled():
            text = widget.palette().color(QPalette.ColorGroup.Active, widget.foregroundRole())
            assert ratio(text, drawn_on(widget)) >= TEXT, (widget.objectName(), text.name(), drawn_on(widget).name())
            checked += 1
    return checked


def check_shade(shade: theme.Shade, palette: QPalette) -> None:
    got = theme.resolve(shade, palette)
    surfaces = [role(palette, r) for r in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase)]
    surfaces.append(role(palette, QPalette.ColorRole.Window))
    if shade.kind is theme.Kind.TINT:
        for text in (role(palette, QPalette.ColorRole.Text), role(palette, QPalette.ColorRole.WindowText)):
            assert ratio(got, text) >= TEXT, (shade, got.name())
    elif shade.kind in (theme.Kind.INK, theme.Kind.MARK):
        least = TEXT if shade.kind is theme.Kind.INK else NON_TEXT
        assert all(ratio(got, surface) >= least for surface in surfaces), (shade, got.name())


def test_every_shade_keeps_its_contrast_in_the_dark_and_the_light_palette(qapp) -> None:  # type: ignore[no-untyped-def]
    dark, light = theme.dark_palette(), qapp.style().standardPalette()
    for shade in theme.SHADES:
        check_shade(shade, dark)
        check_shade(shade, light)
    base = role(dark, QPalette.ColorRole.Base)
    swatches = [theme.resolve(s, dark) for s in theme.SHADES if s.kind is theme.Kind.SWATCH]
    assert all(ratio(s, base) >= NON_TEXT for s in swatches), [s.name() for s in swatches]
    assert len({s.name() for s in swatches}) == len(swatches), "each state keeps a square of its own"
    assert ratio(QColor("black"), QColor("white")) == pytest.approx(theme.contrast(QColor("black"), QColor("white")))
    assert theme.contrast(QColor("#777777"), QColor("white")) == pytest.approx(4.48, abs=0.01)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 0xFFFFFF))
def test_any_palette_gets_readable_tints_and_inks(qapp, background: int) -> None:  # type: ignore[no-untyped-def]
    back = QColor(background >> 16, (background >> 8) & 0xFF, background & 0xFF)
    text = max((QColor("black"), QColor("white")), key=lambda candidate: ratio(candidate, back))
    palette = QPalette()
    for which in (QPalette.ColorRole.Window, QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase):
        palette.setColor(which, back)
    for which in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text):
        palette.setColor(which, text)
    for shade in theme.SHADES:
        check_shade(shade, palette)


def test_the_light_palette_keeps_todays_colours(qapp) -> None:  # type: ignore[no-untyped-def]
    light = qapp.style().standardPalette()
    by_name = {shade.name: shade for shade in theme.SHADES}
    assert {name: theme.resolve(by_name[name], light).name() for name in LIGHT} == LIGHT
    window = role(light, QPalette.ColorRole.Window)
    for name, today in MOVED.items():
        got, was = theme.resolve(by_name[name], light), QColor(today)
        assert str(by_name[name]) == today, "the shade still names today's colour"
        hue = colorsys.rgb_to_hls(got.redF(), got.greenF(), got.blueF())[0]
        assert hue == pytest.approx(colorsys.rgb_to_hls(was.redF(), was.greenF(), was.blueF())[0], abs=0.02)
        assert TEXT <= ratio(got, window) < TEXT + 0.3, "moved the least that passes"


def test_every_banner_kind_is_readable_on_a_dark_palette_and_follows_a_switch(
    qtbot, dark: QPalette, use_palette: Callable[[QPalette], None]
) -> None:  # type: ignore[no-untyped-def]
    host = QWidget()
    qtbot.addWidget(host)
    banner = StatusBanner(host)
    QVBoxLayout(host).addWidget(banner)
    host.resize(700, 120)
    host.show()
    qtbot.waitExposed(host)
    for kind in COLORS:
        banner.show_banner(Banner(kind=kind, text=f"{kind}: what happened\nand why", button="Retry"))
        background = sheet_color(banner, "background")
        assert background is not None and background == theme.color(COLORS[kind])
        assert background.lightness() < 128, f"{kind}: a dark tint, not a light one"
        for label in (banner.title, banner.detail):
            assert ratio(label.palette().color(QPalette.ColorRole.WindowText), background) >= TEXT, kind
        assert banner.grab().toImage().pixelColor(3, 3) == background, "the tint is what is painted"
    assert_texts_readable(host)
    # The palette changes while the banner is shown: it is set again, at once.
    use_palette(QApplication.style().standardPalette())
    assert sheet_color(banner, "background") == QColor(LIGHT["signin"])
    assert banner.grab().toImage().pixelColor(3, 3) == QColor(LIGHT["signin"])
    use_palette(dark)
    assert sheet_color(banner, "background") == theme.color(theme.SIGNIN)
    assert_texts_readable(host)


def test_setting_the_same_colours_again_changes_nothing(qapp, dark: QPalette, qtbot) -> None:  # type: ignore[no-untyped-def]
    with qtbot.assertNotEmitted(theme.theme().changed):
        qapp.setPalette(QPalette(dark))
    assert theme.theme().dark


def test_tree_marks_drift_rows_and_sidebar_squares_are_readable_and_follow_a_switch(
    harness: Harness, qtbot, tmp_path: Path, dark: QPalette, use_palette: Callable[[QPalette], None]
) -> None:  # type: ignore[no-untyped-def]
    spec = demo_spec("drift", "--state", str(tmp_path / "walks.json"), name="drifting")
    window = harness.window([spec], history=History(tmp_path / "history"))
    wait_for(qtbot, lambda: reported(window))
    accept_refresh(window, qtbot)
    view = tree(window)
    model = view.model()
    marks = {model.index(r, 0).data(Role.DRIFT): model.index(r, 0) for r in range(model.rowCount())}
    assert {"added", "changed", "removed"} <= set(marks)
    base = [role(view.palette(), r) for r in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase)]
    for mark in ("added", "changed", "removed"):
        ink = marks[mark].data(FG).color()
        assert all(ratio(ink, surface) >= TEXT for surface in base), (mark, ink.name())
    drift_view = window.findChild(QTableView, "driftView")
    drift = drift_view.model()
    text = role(drift_view.palette(), QPalette.ColorRole.Text)
    severities = set()
    for row in range(drift.rowCount()):
        cell = drift.index(row, 0)
        assert cell.data(FG) is None, "the palette's own text"
        assert ratio(cell.data(BG).color(), text) >= TEXT, cell.data()
        severities.add(cell.data())
    assert {"breaking", "warning"} <= severities
    sidebar = window.findChild(QListView, "serverList")
    square = sidebar.model().index(0, 0).data(Qt.ItemDataRole.DecorationRole)
    assert ratio(square, role(sidebar.palette(), QPalette.ColorRole.Base)) >= NON_TEXT
    assert assert_texts_readable(window) > 20

    # Switched to light at run time: the models announce it (the drift table, the sidebar), the tree repaints.
    painted = Painted(view.viewport())
    with (
        qtbot.waitSignal(drift.dataChanged, check_params_cb=lambda *args: int(BG) in [int(r) for r in args[2]]),
        qtbot.waitSignal(sidebar.model().dataChanged),
        qtbot.assertNotEmitted(model.dataChanged),
    ):
        use_palette(QApplication.style().standardPalette())
    breaking = next(r for r in range(drift.rowCount()) if drift.index(r, 0).data() == "breaking")
    assert drift.index(breaking, 0).data(BG).color() == QColor(LIGHT["breaking"])
    assert marks["changed"].data(FG).color() == QColor(LIGHT["changed"])
    wait_for(qtbot, lambda: painted.count > 0)


class Painted(QObject):
    """Counts paint events of a widget."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def test_the_duplicate_diff_and_the_offending_page_are_readable_and_follow_a_switch(
    harness: Harness, qtbot, tmp_path: Path, dark: QPalette, use_palette: Callable[[QPalette], None]
) -> None:  # type: ignore[no-untyped-def]
    spec = demo_spec("refresh-duplicate", "--state", str(tmp_path / "dup.json"), name="dup")
    window = harness.window([spec])
    wait_for(qtbot, lambda: shown(window))
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    with qtbot.waitSignal(supervisor.refresh_failed, timeout=20_000):
        window.refresh()
    first = window.findChild(QPlainTextEdit, "duplicateFirst")
    selections = first.extraSelections()
    assert selections, "differing lines are marked"
    text = role(first.palette(), QPalette.ColorRole.Text)
    assert all(ratio(s.format.background().color(), text) >= TEXT for s in selections)
    pages = window.findChild(QTableView, "pageTimeline")
    for row in range(pages.model().rowCount()):
        background = pages.model().index(row, 0).data(BG)
        if background is not None:
            assert ratio(background.color(), role(pages.palette(), QPalette.ColorRole.Text)) >= TEXT
    assert pages.model().index(2, 0).data(BG).color() == theme.color(theme.BREAKING)
    assert window.banner.state == "failure" and assert_texts_readable(window.banner)

    use_palette(QApplication.style().standardPalette())
    assert {s.format.background().color().name() for s in first.extraSelections()} == {LIGHT["diff"]}
    assert pages.model().index(2, 0).data(BG).color() == QColor(LIGHT["breaking"])
    assert sheet_color(window.banner, "background") == QColor(LIGHT["failure"])


def test_flags_unusual_names_and_problem_marks_are_readable_in_the_dark(qtbot, dark: QPalette) -> None:  # type: ignore[no-untyped-def]
    model = ToolTreeModel()
    model.set_tools([{"name": "plain", "inputSchema": {}}, {"name": "odd\u200bname", "inputSchema": {}}])
    model.set_marks({}, flagged=frozenset({"plain"}))
    surfaces = [role(dark, r) for r in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase)]
    for row in (0, 1):
        ink = model.index(row, 0).data(FG).color()
        assert all(ratio(ink, surface) >= TEXT for surface in surfaces), ink.name()
    form = CallForm()
    qtbot.addWidget(form)
    form.set_schema({"type": "object", "properties": {"n": {"type": "integer"}}})
    form.mark_problems([FieldProblem("/n", "must be an integer")])
    [marked] = form.marked()
    border = sheet_color(marked, "border")
    assert border is not None and ratio(border, role(dark, QPalette.ColorRole.Base)) >= NON_TEXT
    QApplication.instance().setPalette(QApplication.style().standardPalette())  # type: ignore[union-attr]
    assert sheet_color(marked, "border") == QColor(LIGHT["problem-mark"])


def test_the_dialogs_problem_lines_are_readable_in_the_dark(qtbot, dark: QPalette) -> None:  # type: ignore[no-untyped-def]
    server = ServerDialog(None, taken=frozenset())
    qtbot.addWidget(server)
    assert server.findChild(QLabel, "serverError:name").isVisibleTo(server), "the empty name's problem is shown"
    assert assert_texts_readable(server) > 5
    imports = ImportDialog(None, [])
    qtbot.addWidget(imports)
    imports.pasted.setPlainText("{ not json")
    assert imports.problem.text()
    assert assert_texts_readable(imports) > 1


def test_a_hidden_styled_frame_is_restyled_when_next_shown_not_at_once(
    qtbot, use_palette: Callable[[QPalette], None]
) -> None:  # type: ignore[no-untyped-def]
    frame = QWidget()
    frame.setObjectName("frame")
    qtbot.addWidget(frame)
    QLabel("inside", frame)
    theme.themed_style(frame, lambda: theme.frame_style("QWidget#frame", theme.CONFIRM, theme.CONFIRM_LINE))
    assert sheet_color(frame, "background") == QColor(LIGHT["confirm"])
    use_palette(theme.dark_palette())
    assert sheet_color(frame, "background") == QColor(LIGHT["confirm"]), "hidden: nothing repolished yet"
    frame.show()
    qtbot.waitExposed(frame)
    dark_tint = sheet_color(frame, "background")
    assert dark_tint == theme.color(theme.CONFIRM) and dark_tint != QColor(LIGHT["confirm"])
    assert_texts_readable(frame)
    use_palette(QApplication.style().standardPalette())  # shown: at once
    assert sheet_color(frame, "background") == QColor(LIGHT["confirm"])
