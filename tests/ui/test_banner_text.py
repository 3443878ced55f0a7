"""What the banner and the window's subtitle say: a title and one detail line, no echo, cut to the
width with the whole text on demand; the subtitle a shell-quoted command, cut before the buttons."""

from __future__ import annotations

import shlex
import socket
from pathlib import Path

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QGuiApplication, QTextDocumentFragment
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QVBoxLayout, QWidget

from catalog_inspector.core.config import ServerSpec
from catalog_inspector.core.text import visible
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.presenters import Banner
from catalog_inspector.ui.widgets.labels import ElidedLabel
from catalog_inspector.ui.widgets.status_banner import StatusBanner
from tests.helpers import ROOT, demo_spec, forked, http_demo
from tests.ui.conftest import Events, Harness, wait_for

TITLE = "Failed: The server answered with an error on page 1 of tools — JSON-RPC -32603 (internal error)"
HOSTILE = "upstream <b>bold</b> said \u202e" + "x" * 300 + " the end"


def parts(window: MainWindow) -> tuple[ElidedLabel, ElidedLabel, QLabel, QPushButton]:
    return (
        window.findChild(ElidedLabel, "statusBannerTitle"),
        window.findChild(ElidedLabel, "statusBannerDetail"),
        window.findChild(QLabel, "statusBannerText"),
        window.findChild(QPushButton, "statusBannerDetails"),
    )


def failed(window: MainWindow) -> bool:
    return window.current is not None and window.current.supervisor.state is ServerState.FAILED


def fits(label: ElidedLabel) -> bool:
    """What the label paints fits in its width (a cut shows `…`)."""
    shown = label.shown_text()
    width = label.fontMetrics().horizontalAdvance(shown)
    return width <= label.contentsRect().width() and (shown == label.text() or shown.endswith("…"))


def plain_tooltip(tip: str) -> str:
    return QTextDocumentFragment.fromHtml(tip).toPlainText()


def test_a_servers_error_reads_as_one_title_and_its_own_words_once(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("flaky", "--state", str(tmp_path / "flaky.json"), name="flaky")])
    wait_for(qtbot, lambda: failed(window))
    title, detail, whole, more = parts(window)
    assert title.text() == TITLE and title.isVisible()
    assert detail.text() == "flaky backend: upstream timed out (walk 0)" and detail.isVisible()
    assert whole.text().lower().count("answered with an error") == 1, "the heading is not said again"
    assert whole.text().endswith("\nNo catalog has been accepted from this server yet.")
    assert not whole.isVisible(), "the whole message waits until it is asked for"
    line = detail.fontMetrics().height()
    assert detail.height() < 2 * line and title.height() < 2 * line, "one line each, never wrapped"
    assert more.isVisible(), "a line beyond the detail is there to be seen"
    assert {label.textFormat() for label in (title, detail, whole)} == {Qt.TextFormat.PlainText}


def test_a_refusal_with_a_code_the_spec_defines_is_named_in_the_title_with_its_data(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    server = (*forked("tests.fixtures.named_errors_server"), "--list-error", "-32022")
    window = harness.window([ServerSpec(name="named", command=server[0], args=server[1:], cwd=str(ROOT))])
    wait_for(qtbot, lambda: failed(window))
    title, detail, _whole, _more = parts(window)
    assert title.text() == (
        "Failed: The server answered with an error on page 0 of tools — "
        "JSON-RPC -32022 (unsupported protocol version; the server supports 2025-11-25)"
    )
    assert detail.text() == "the catalog is not available", "the server's own words under it"


def test_a_long_detail_is_cut_to_the_width_and_cut_again_on_resize(qtbot) -> None:  # type: ignore[no-untyped-def]
    banner = StatusBanner()
    qtbot.addWidget(banner)
    text = f"{TITLE}\n{HOSTILE}"
    banner.show_banner(Banner("failure", text, "Retry", True, "server_error"))
    banner.resize(420, 80)
    qtbot.waitExposed(banner)
    wait_for(qtbot, lambda: banner.detail.elided)
    assert banner.detail.text() == HOSTILE and fits(banner.detail) and banner.detail.shown_text().endswith("…")
    assert banner.details.isVisible()
    narrow = banner.detail.shown_text()
    banner.resize(800, 80)
    wait_for(qtbot, lambda: banner.detail.shown_text() != narrow)
    assert len(banner.detail.shown_text()) > len(narrow) and fits(banner.detail)
    banner.resize(4000, 80)
    wait_for(qtbot, lambda: not banner.detail.elided and not banner.title.elided)
    assert banner.detail.shown_text() == HOSTILE
    assert not banner.details.isVisible() and banner.toolTip() == "", "nothing hidden: nothing more to offer"


def test_the_whole_message_is_in_the_tooltip_escaped_and_behind_details_and_copy(qtbot) -> None:  # type: ignore[no-untyped-def]
    banner = StatusBanner()
    qtbot.addWidget(banner)
    text = f"{TITLE}\n{HOSTILE}\nThe server's last stderr lines:\n<img src=/dev/zero>"
    banner.show_banner(Banner("failure", text, "Retry", True, "server_error"))
    banner.resize(420, 80)
    qtbot.waitExposed(banner)
    wait_for(qtbot, lambda: banner.detail.elided)
    tip = banner.toolTip()
    assert "<b>" not in tip and "<img" not in tip, "the tooltip renders rich text: server text is escaped"
    assert "\\u202e" in tip and "\u202e" not in tip, "hidden characters are written out"
    assert plain_tooltip(tip).replace("\n", " ") == visible(text, keep_newlines=True).replace("\n", " ")
    assert banner.details.text() == "Details…"
    qtbot.mouseClick(banner.details, Qt.MouseButton.LeftButton)
    assert banner.expanded and banner.label.isVisible() and banner.label.text() == text
    assert not banner.title.isVisible() and not banner.detail.isVisible(), "the whole message, not the lines again"
    assert banner.label.wordWrap() and banner.label.textFormat() == Qt.TextFormat.PlainText
    assert banner.label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    assert banner.details.text() == "Less" and banner.toolTip() == ""
    qtbot.mouseClick(banner.details, Qt.MouseButton.LeftButton)
    assert not banner.expanded and banner.detail.isVisible() and not banner.label.isVisible()
    qtbot.mouseClick(banner.detail, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    assert banner.expanded, "a click on the cut line opens the whole message"
    assert banner.copy in banner.actions() and banner.contextMenuPolicy() == Qt.ContextMenuPolicy.ActionsContextMenu
    banner.copy.trigger()
    assert QGuiApplication.clipboard().text() == text
    banner.show_banner(Banner("stale", "Another message\nwith its detail", "Refresh", True))
    assert not banner.expanded and banner.title.isVisible(), "a new message starts with its two lines"


def test_an_http_server_that_refuses_is_named_in_the_banner(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    window = harness.window([ServerSpec(name="closed", transport="http", url=f"http://127.0.0.1:{port}/mcp")])
    wait_for(qtbot, lambda: failed(window))
    title, detail, whole, _ = parts(window)
    assert title.text() == "Failed: Connection failed"
    assert detail.text() == f"127.0.0.1:{port}: connection refused (is the server running, on that port?)"
    assert "All connection attempts failed" not in whole.text()


def test_legacy_sse_at_a_streamable_http_endpoint_suggests_streamable_http(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    with http_demo("normal") as url:
        window = harness.window([ServerSpec(name="wrong-transport", transport="sse", url=url)])
        wait_for(qtbot, lambda: failed(window))
    _, detail, whole, _ = parts(window)
    assert detail.text() == (
        "Edit the server to use Streamable HTTP: this endpoint does not speak legacy SSE "
        "(GET answered HTTP 400 Bad Request, as Streamable HTTP endpoints do)"
    )
    assert "mozilla" not in whole.text() and "For more information" not in whole.text()


def test_the_subtitle_of_a_failed_server_is_its_quoted_command_cut_before_the_buttons(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    script = "echo 'not an MCP server' >&2; exit 3 # " + "padding " * 40
    window = harness.window([ServerSpec(name="quoted", command="sh", args=("-c", script))])
    wait_for(qtbot, lambda: failed(window))
    label = window.findChild(ElidedLabel, "catalogLabel")
    command = shlex.join(["sh", "-c", script])
    assert label.text() == f"Failed, no catalog accepted yet · stdio: {command}"
    window.resize(640, 480)
    wait_for(qtbot, lambda: label.elided and label.width() <= 640)
    assert fits(label)
    refresh = window.findChild(QPushButton, "refreshButton")
    right = label.mapTo(window, QPoint(label.width(), 0)).x()
    assert right <= refresh.mapTo(window, QPoint(0, 0)).x(), "the subtitle ends before the Refresh button"
    assert command in plain_tooltip(label.toolTip()), "the whole command on hover"
    title = window.findChild(ElidedLabel, "serverTitle")
    assert title.text() == "quoted" and not title.elided and title.toolTip() == ""


def test_a_label_given_its_own_text_again_is_neither_laid_out_nor_painted_again(qtbot) -> None:  # type: ignore[no-untyped-def]
    # The window sets its header's and verdict's lines on every change of the server's state, mostly to the same.
    parent = QWidget()
    qtbot.addWidget(parent)
    label = ElidedLabel("catalogLabel", parent)
    QVBoxLayout(parent).addWidget(label)
    label.setText(HOSTILE)
    parent.resize(300, 60)
    parent.show()
    qtbot.waitExposed(parent)
    QApplication.processEvents()
    events = Events([parent, label], QEvent.Type.LayoutRequest, QEvent.Type.Paint)
    label.setText(HOSTILE)
    QApplication.processEvents()
    assert events.seen == [], "the same text: nothing to measure, cut or paint"
    label.setText(TITLE)
    wait_for(qtbot, lambda: QEvent.Type.Paint in events.of(label))
    assert label.text() == TITLE
    bigger = label.font()
    bigger.setPointSize(bigger.pointSize() * 3)
    width = label.sizeHint().width()
    label.setFont(bigger)
    assert label.sizeHint().width() > width, "a font change still measures the text again"
