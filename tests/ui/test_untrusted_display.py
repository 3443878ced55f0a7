"""Untrusted server text through every display path of the real window: plain, bounded, hidden characters visible.

A fixture server (`tests/fixtures/hostile_display.py`) puts HTML, a bidi override,
zero-width and tag characters, terminal escapes, line breaks and 1 MiB strings in
every field that reaches the screen. The window is driven through a first catalog,
a drifting refresh, a second server offering the same names, test calls (a result
with progress and an output-schema violation, a confirmation, a JSON-RPC error, a
tool error, a crash), a resource read, a prompt, the "Save as" dialog, a failed
refresh and a rejected duplicate; at each stage every widget of every top-level
window, on every tab, is audited (`Audit`), and every item view's rows with it:

- a QLabel holding server text is PlainText; no label is RichText, nor AutoText with markup in it;
- a tooltip (rich text whenever it looks like it) holds no tag but those `Qt.convertFromPlainText` writes;
- text views are QPlainTextEdit (a QTextEdit must be read-only and refuse rich text);
- nothing shows a hidden character raw (format, control, private-use, surrogate, line and paragraph
  separators: what `core.text.visible` escapes), and one-line texts hold no line break;
- everything is bounded (see SHORT, TEXT and VIEW).

It also checks that hostile text did reach each display path (`expected`), so none passes by being empty.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractListModel,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import Qt as GuiQt  # mightBeRichText lives in QtGui's Qt namespace
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QStatusBar,
    QTabBar,
    QTableView,
    QTextEdit,
    QWidget,
)

from catalog_inspector.core.calls import CallStore
from catalog_inspector.core.config import ServerSpec
from catalog_inspector.core.drift import History
from catalog_inspector.core.text import visible_json
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import TOOLTIP_LIMIT, Role
from catalog_inspector.ui.widgets.panes import DISPLAY_CAP
from tests.fixtures.hostile_display import DUPLICATED, hostile
from tests.helpers import ROOT, forked
from tests.ui.conftest import Harness, wait_for
from tests.ui.test_main_window import tree

# -- what "safe" means --------------------------------------------------------------------
HIDDEN = frozenset({"Cf", "Cc", "Co", "Cs", "Zl", "Zp"})  # as core.text.visible: shown as \uXXXX, never raw
# Bounds. The app cuts server text before it escapes it (a tooltip at TOOLTIP_LIMIT, 2,000 characters; a label
# at 4,000 at most), and one escape is at most ten characters (`\U000e0041`). SHORT bounds one line (a cell, a
# combo item, a button, a line edit, a title; measured: under 500), TEXT a label or a tooltip (measured: about
# 2,000), VIEW a text view (DISPLAY_CAP and its "truncated" notice). The fixture's 1 MiB strings prove the cuts.
SHORT = 3_000
TEXT = 10 * TOOLTIP_LIMIT + 5_000
VIEW = DISPLAY_CAP + 500
ROWS = 200  # rows of one parent audited in an item view
DEPTH = 8  # levels of a tree audited
CELLS = 20_000  # cells audited per model
TOOLTIP_TAGS = frozenset({"p", "br"})  # what Qt.convertFromPlainText writes: any other tag is server markup
TAG = re.compile(r"<\s*/?\s*([A-Za-z][A-Za-z0-9]*)")
# Signs that hostile text reached a widget (shown literally, escaped or HTML-escaped).
SIGNS = ("bold</b>", "\\u202e", "&lt;b&gt;bold")


def hidden_in(text: str, lines: bool) -> str:
    """The hidden characters `text` shows raw (newlines and tabs allowed where `lines`)."""
    probe = text.replace("\n", "").replace("\t", "") if lines else text
    if probe.isprintable():  # fast path: every hidden category is non-printable
        return ""
    return "".join(sorted({c for c in probe if unicodedata.category(c) in HIDDEN}))


def columns(model: QAbstractItemModel, parent: QModelIndex) -> int:
    # A QAbstractListModel makes columnCount private: it has the one column.
    return 1 if isinstance(model, QAbstractListModel) else model.columnCount(parent)


def name_of(widget: QWidget) -> str:
    """The nearest object name (the widget's own, else an ancestor's): which display path this is."""
    node: QWidget | None = widget
    while node is not None:
        if node.objectName() and not node.objectName().startswith("qt_"):
            return node.objectName()
        node = node.parentWidget()
    return type(widget).__name__


@dataclass
class Audit:
    """Violations found and the display paths (object names) where hostile text was seen."""

    violations: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    _models: set[int] = field(default_factory=set)

    def note(self, where: str, text: str) -> None:
        if any(sign in text for sign in SIGNS):
            self.seen.add(where)

    def fail(self, where: str, problem: str, text: str) -> None:
        violation = f"{where}: {problem}: {text[:160]!r}"
        if violation not in self.violations:  # the same widget is audited once per tab and stage
            self.violations.append(violation)

    def check_text(self, where: str, text: str, bound: int, lines: bool) -> None:
        """Text shown as it is (a plain label, a cell, a text view …)."""
        if not text:
            return
        self.note(where, text)
        raw = hidden_in(text, lines)
        if raw:
            self.fail(where, f"raw hidden characters {raw!r}", text)
        if len(text) > bound:
            self.fail(where, f"{len(text):,} characters, over {bound:,}", text)

    def check_tooltip(self, where: str, tip: str) -> None:
        """A tooltip is rich text whenever it looks like it: only convertFromPlainText's own tags may be in it."""
        if not tip:
            return
        self.note(where, tip)
        tags = {tag.lower() for tag in TAG.findall(tip)} - TOOLTIP_TAGS
        if tags:
            self.fail(where, f"tooltip with markup {sorted(tags)}", tip)
        shown = QTextDocumentFragment.fromHtml(tip).toPlainText() if GuiQt.mightBeRichText(tip) else tip
        self.check_text(where + " (tooltip)", shown, TEXT, lines=True)
        raw = hidden_in(tip, lines=True)
        if raw:
            self.fail(where, f"tooltip with raw hidden characters {raw!r}", tip)

    def check_label(self, label: QLabel) -> None:
        where, text = name_of(label), label.text()
        if not text:
            return
        fmt = label.textFormat()
        if fmt != Qt.TextFormat.PlainText and any(sign in text for sign in SIGNS):
            self.fail(where, f"server text in a label that is not PlainText ({fmt.name})", text)
        elif fmt == Qt.TextFormat.RichText or (fmt != Qt.TextFormat.PlainText and GuiQt.mightBeRichText(text)):
            self.fail(where, f"label rendered as rich text ({fmt.name})", text)
        elif fmt != Qt.TextFormat.PlainText and TAG.search(text):
            # Auto-detection reads the first line only: markup further down is one edit away from rendering.
            self.fail(where, "label in AutoText holding markup", text)
        self.check_text(where, text, TEXT, lines=True)

    def check_model(self, where: str, model: QAbstractItemModel) -> None:
        if id(model) in self._models:
            return
        self._models.add(id(model))
        for section in range(columns(model, QModelIndex())):
            header = model.headerData(section, Qt.Orientation.Horizontal)
            self.check_text(where + " (header)", str(header or ""), SHORT, lines=False)
        # The server list is two or three lines per row by design (name, state, alarm): all the app's words.
        lines = where == "serverList"
        budget = [CELLS]
        self._walk(where, model, QModelIndex(), 0, budget, lines)

    def _walk(
        self, where: str, model: QAbstractItemModel, parent: QModelIndex, depth: int, budget: list[int], lines: bool
    ) -> None:
        for row in range(min(model.rowCount(parent), ROWS)):
            for column in range(columns(model, parent)):
                budget[0] -= 1
                if budget[0] < 0:
                    return
                index = model.index(row, column, parent)
                display = index.data(Qt.ItemDataRole.DisplayRole)
                if display is not None:
                    self.check_text(where, str(display), SHORT, lines)
                tip = index.data(Qt.ItemDataRole.ToolTipRole)
                if tip:
                    self.check_tooltip(where, str(tip))
            first = model.index(row, 0, parent)
            flat = isinstance(model, QAbstractListModel | QAbstractTableModel)  # their child methods are private
            if depth < DEPTH and not flat and model.rowCount(first) > 0:
                self._walk(where, model, first, depth + 1, budget, lines)

    def check_widget(self, widget: QWidget) -> None:
        where = name_of(widget)
        self.check_tooltip(where, widget.toolTip())
        if widget.isWindow():
            self.check_text(where + " (window title)", widget.windowTitle(), SHORT, lines=False)
        if isinstance(widget, QLabel):
            self.check_label(widget)
        elif isinstance(widget, QTextEdit):  # QTextBrowser too
            if widget.acceptRichText() or not widget.isReadOnly():
                self.fail(where, "a QTextEdit that takes rich text: server text belongs in a QPlainTextEdit", "")
            self.check_text(where, widget.toPlainText(), VIEW, lines=True)
        elif isinstance(widget, QPlainTextEdit):
            self.check_text(where, widget.toPlainText(), VIEW, lines=True)
            self.check_text(where + " (placeholder)", widget.placeholderText(), SHORT, lines=False)
        elif isinstance(widget, QLineEdit):
            self.check_text(where, widget.text(), SHORT, lines=False)
            self.check_text(where + " (placeholder)", widget.placeholderText(), SHORT, lines=False)
        elif isinstance(widget, QAbstractButton):
            self.check_text(where, widget.text(), SHORT, lines=False)
        elif isinstance(widget, QComboBox):
            self.check_model(where, widget.model())
        elif isinstance(widget, QTabBar):
            for tab in range(widget.count()):
                self.check_text(where + " (tab)", widget.tabText(tab), SHORT, lines=False)
                self.check_tooltip(where + " (tab)", widget.tabToolTip(tab))
        elif isinstance(widget, QStatusBar):
            self.check_text(where, widget.currentMessage(), TEXT, lines=False)
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            self.check_model(where, widget.model())

    def walk(self, roots: Iterable[QWidget]) -> None:
        """Every widget under these roots, shown or not."""
        self._models.clear()  # models change between stages
        for root in roots:
            for widget in [root, *root.findChildren(QWidget)]:
                self.check_widget(widget)


def everything() -> list[QWidget]:
    return list(QApplication.topLevelWidgets())


def audit_every_tab(audit: Audit, window: MainWindow) -> None:
    """Show each tab in turn (some build their content when shown) and audit it as shown, then every window
    with all of them built (what is outside the tabs does not change with the tab shown)."""
    current = window.tabs.currentIndex()
    for tab in range(window.tabs.count()):
        window.tabs.setCurrentIndex(tab)
        QCoreApplication.processEvents()
        audit.walk([window.tabs.currentWidget()])
    window.tabs.setCurrentIndex(current)
    QCoreApplication.processEvents()
    audit.walk(everything())


def assert_clean(audit: Audit, stage: str) -> None:
    paths = sorted({violation.split(": ", 1)[0] for violation in audit.violations})
    shown = f"in {paths}:\n" + "\n".join(audit.violations[:40])
    assert not audit.violations, f"{stage}: {len(audit.violations)} violation(s):\n{shown}"


# -- driving the window -------------------------------------------------------------------
HOSTILE = forked("tests.fixtures.hostile_display")


def hostile_spec(name: str, state: Path) -> ServerSpec:
    return ServerSpec(
        name=name,
        command=HOSTILE[0],
        args=(*HOSTILE[1:], "--state", str(state)),
        cwd=str(ROOT),
    )


def settled(window: MainWindow) -> bool:
    """The selected server's catalog is on screen with its drift report."""
    presenter = window.presenter
    return (
        presenter is not None
        and presenter.supervisor.state is ServerState.READY
        and presenter.report is not None
        and not window.tools_pane.planning
    )


def refresh(window: MainWindow, qtbot, outcome: str) -> None:  # type: ignore[no-untyped-def]
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    signal = supervisor.catalog_accepted if outcome == "accepted" else supervisor.refresh_failed
    with qtbot.waitSignal(signal, timeout=30_000):
        window.refresh()
    wait_for(qtbot, lambda: not supervisor.busy and (outcome != "accepted" or settled(window)))


def select_tool(window: MainWindow, name: str) -> None:
    model = tree(window).model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == name)
    tree(window).setCurrentIndex(model.index(row, 0))


CHECKED: dict[str, object] = {}  # each tool's last argument check in `call`: said if a display path was missed


def call(window: MainWindow, qtbot, name: str, audit: Audit) -> None:  # type: ignore[no-untyped-def]
    """Pick the tool, check its form, send it (even if invalid; confirming if asked) and wait for the answer."""
    select_tool(window, name)
    panel = window.call_panel
    window.tabs.setCurrentWidget(panel)
    assert panel.tool is not None and panel.tool["name"] == name
    wait_for(qtbot, lambda: panel.validation is not None)
    for _ in range(2):  # a check the loaded machine ran past its budget says so, not the problems: check again
        validation = panel.validation
        if validation is None or validation.failure is None or validation.failure.value != "over_budget":
            break
        panel.editor.validate_now()
        wait_for(qtbot, lambda: panel.validation is not None)
    checked = panel.validation
    CHECKED[name[:40]] = (
        (checked.failure.value if checked.failure else None, len(checked.problems)) if checked else None
    )
    audit.walk([panel])  # the problems as they are listed now: a later check (after the call) may list none
    panel.editor.send_anyway.setChecked(True)
    assert panel.presenter.supervisor is not None
    with qtbot.waitSignal(panel.presenter.supervisor.call_finished, timeout=30_000):
        qtbot.mouseClick(panel.findChild(QPushButton, "callButton"), Qt.MouseButton.LeftButton)
        if panel.confirm_bar.isVisible():
            audit.walk(everything())  # the question, with the tool's name in it
            qtbot.mouseClick(panel.findChild(QPushButton, "confirmCallButton"), Qt.MouseButton.LeftButton)


def request(window: MainWindow, qtbot, list_name: str, table: str, button: str) -> None:  # type: ignore[no-untyped-def]
    view = window.findChild(QTableView, table)
    window.tabs.setCurrentWidget(window.list_panes[list_name])
    view.setCurrentIndex(view.model().index(0, 0))
    box = window.list_panes[list_name].request
    assert box is not None and box.item is not None
    for field_edit in box.fields.values():
        field_edit.setText("x")
    assert window.current is not None
    with qtbot.waitSignal(window.current.supervisor.call_finished, timeout=30_000):
        qtbot.mouseClick(window.findChild(QPushButton, button), Qt.MouseButton.LeftButton)


def audit_open_dialog(audit: Audit, window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Open the call panel's "Save as…" dialog and audit every window while it is up."""
    opened: list[QWidget] = []
    tries = [250]  # about five seconds of looking for it

    def inspect() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            tries[0] -= 1
            if tries[0] > 0:  # not shown yet: look again on a later turn of its event loop
                QTimer.singleShot(20, inspect)
            return
        opened.append(dialog)
        try:
            audit.walk(everything())
        finally:
            dialog.reject()  # whatever happened: the modal loop must end

    button = window.findChild(QPushButton, "saveArgumentSet")
    assert button.isEnabled()
    QTimer.singleShot(0, inspect)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert len(opened) == 1 and isinstance(opened[0], QInputDialog), "the dialog opened and was audited"


@pytest.mark.long
def test_hostile_server_text_is_plain_bounded_and_visible_in_every_widget(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    audit = Audit()
    # A name from an imported config is not the server's, but no more trusted: the second one is hostile too.
    second = hostile("config")
    specs = [hostile_spec("hostile", tmp_path / "walks.json"), hostile_spec(second, tmp_path / "second.json")]
    window = harness.window(specs, history=History(tmp_path / "history"), call_store=CallStore(tmp_path / "calls"))
    wait_for(qtbot, lambda: settled(window), timeout=30_000)
    select_tool(window, hostile("tool"))  # its 1 MiB description in the detail pane
    audit_every_tab(audit, window)
    assert_clean(audit, "first catalog")

    # A refresh that changes every field drift looks at; a second server offering the same names.
    refresh(window, qtbot, "accepted")
    assert window.select_server(second)
    audit_every_tab(audit, window)  # its name in the title, the sidebar, the server tab
    wait_for(qtbot, lambda: settled(window), timeout=30_000)
    assert window.select_server("hostile")
    wait_for(qtbot, lambda: settled(window) and window.checks_pane.collisions_view.rowCount() > 0)

    # Test calls: a result (with progress, an output-schema violation and a confirmation), errors of both layers.
    for name in (hostile("tool"), "fails", "tool_error"):
        call(window, qtbot, name, audit)
        audit.walk(everything())
    request(window, qtbot, "resources", "resourceList", "readResourceButton")
    request(window, qtbot, "prompts", "promptList", "getPromptButton")
    select_tool(window, hostile("tool"))
    window.tabs.setCurrentWidget(window.call_panel)
    audit_open_dialog(audit, window, qtbot)
    audit_every_tab(audit, window)
    # A server that dies mid-call: the lost-session banner quotes its last words.
    call(window, qtbot, "crash", audit)
    wait_for(qtbot, lambda: window.banner.state == "lost")
    audit_every_tab(audit, window)
    # Every change of the drift, selected in turn: its reason and old and new values below the table.
    view = window.drift_pane.view
    for row in range(window.drift_pane.model.rowCount()):
        view.selectRow(row)
        audit.walk([window.drift_pane])
    assert_clean(audit, "drift and calls")

    # A failed refresh (a JSON-RPC error of 1 MiB), then a rejected one (a duplicated hostile name).
    refresh(window, qtbot, "failed")
    audit_every_tab(audit, window)
    refresh(window, qtbot, "failed")
    duplicates = window.duplicates_pane
    assert [d.key for d in duplicates.duplicates] == [DUPLICATED]
    audit_every_tab(audit, window)
    assert_clean(audit, "failed and rejected refreshes")

    expected = {
        # catalog and server
        "toolTree", "toolDetail", "pageTimeline", "resourceList", "resourceTemplateList", "promptList",
        "promptsTimeline", "serverInfo", "serverLog", "firstPageView", "collisionsView", "statusBannerText",
        "serverList", "serverTitle",
        # drift and duplicates
        "driftView", "driftReason", "driftOld", "driftNew",
        "duplicatesView", "duplicateFirst", "duplicateSecond", "duplicateChanges",
        # the call form and the calls
        "callToolName", "callFormScroll", "callFormHelp", "callFormJson", "callArguments", "validationMessages", "callConfirmationText",
        "callResult", "callRaw", "callOutcome", "outputVerdict", "callProgress", "callHistory",
        "resourceResult", "promptResult",
        # the detail panes of the other lists
        "resourceDetail", "promptDetail",
    }  # fmt: skip
    missing = expected - audit.seen
    assert not missing, (
        f"hostile text never reached these display paths, so they were not tested: {sorted(missing)} "
        f"(the calls' checks: {CHECKED!r})"
    )


# -- the editors' escaper ----------------------------------------------------------------------
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    )
)
def test_json_shown_in_an_editor_hides_no_character_and_parses_to_the_same_value(value: object) -> None:
    text = visible_json(value, 2)
    assert json.loads(text) == value
    assert not hidden_in(text, lines=True) and "\t" not in text
