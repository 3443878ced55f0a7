"""Servers that ask for input, in the real window: the input request panel, the rounds table, the sidebar's mark,
the history's rounds and a re-run's answers, through real widgets against the real "asks" demo server.

One window for the module, with the asks server three ways: over stdio on 2026-07-28 (`asks`), over stdio on the
older era (`asks legacy`, protocolEra legacy: the server sends its own requests mid-call) and over Streamable HTTP
(`asks http`). Each test leaves no call and no question behind.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import QObject, QSettings, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QPushButton, QTableWidget
from pytestqt.qtbot import QtBot

from catalog_inspector.core.calls import CallStore
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.runtime import Runtime, ServerState
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.presenters import AppPresenter
from catalog_inspector.ui.widgets.call_panel import CallPanel
from catalog_inspector.ui.widgets.input_panel import InputRequestPanel
from tests.helpers import demo_spec, http_demo, recording_registry, spin_until_gone
from tests.ui.test_main_window import tree

LIMITS = Limits(request_timeout=5.0, deadline=30.0)
ROOTS = ({"uri": "file:///tmp/demo-project", "name": "demo project"},)
WAIT = 15_000
CONSENT = "https://consent.example.invalid/approve?request=demo-asks"


class Opened(QObject):
    """A URL handler of the test's own: what QDesktopServices was asked to open, per scheme (no browser starts)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url.toString(QUrl.ComponentFormattingOption.FullyEncoded))


class Asks:
    def __init__(self, window: MainWindow, store: CallStore) -> None:
        self.window = window
        self.store = store
        self.confirmed: set[tuple[str, str]] = set()

    @property
    def panel(self) -> CallPanel:
        return self.window.call_panel

    @property
    def question(self) -> InputRequestPanel:
        return self.panel.input_panel

    def select(self, qtbot: QtBot, name: str) -> None:
        assert self.window.select_server(name)
        qtbot.waitUntil(
            lambda: (
                self.window.current is not None
                and self.window.current.name == name
                and self.window.current.catalog is not None
                and not self.window.tools_pane.planning
            ),
            timeout=30_000,
        )

    def send(self, qtbot: QtBot, tool: str, arguments: str = "{}") -> None:
        """Pick `tool` in the tree, type its arguments, send it (saying yes the first time it asks)."""
        model = tree(self.window).model()
        row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == tool)
        tree(self.window).setCurrentIndex(model.index(row, 0))
        self.window.tabs.setCurrentWidget(self.panel)
        self.panel.findChild(QPlainTextEdit, "callArguments").setPlainText(arguments)
        qtbot.waitUntil(lambda: self.panel.presenter is not None and self.panel.presenter.can_send, timeout=WAIT)
        qtbot.mouseClick(self.panel.findChild(QPushButton, "callButton"), Qt.MouseButton.LeftButton)
        assert self.window.current is not None
        if self.panel.confirm_bar.isVisible():
            qtbot.mouseClick(self.panel.findChild(QPushButton, "confirmCallButton"), Qt.MouseButton.LeftButton)
        assert self.panel.presenter is not None and self.panel.presenter.answer.ticket is not None

    def asked(self, qtbot: QtBot, panel: InputRequestPanel | None = None) -> InputRequestPanel:
        panel = panel or self.question
        qtbot.waitUntil(lambda: panel.isVisible() and panel.shown is not None, timeout=WAIT)
        return panel

    def done(self, qtbot: QtBot) -> str:
        """The call's answer, once it came: the result's text."""
        qtbot.waitUntil(
            lambda: self.panel.presenter is not None and self.panel.presenter.answer.ticket is None, timeout=WAIT
        )
        assert not self.question.isVisible(), "no question is left on screen"
        return self.panel.findChild(QPlainTextEdit, "callResult").toPlainText()


@pytest.fixture(scope="module")
def asks(request: pytest.FixtureRequest, module_qloop: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Asks]:
    qtbot = QtBot(request)
    tmp = tmp_path_factory.mktemp("asks-window")
    pids: list[int] = []
    with http_demo("asks") as url:
        base = demo_spec("asks", name="asks")
        specs = [
            replace(base, roots=ROOTS),
            replace(base, name="asks legacy", protocol_era="legacy"),
            ServerSpec(name="asks http", transport="http", url=url),
        ]
        store = CallStore(tmp / "calls")
        runtime = Runtime(specs, LIMITS, recording_registry(tmp / "sessions", pids), call_store=store)
        window = MainWindow(AppPresenter(runtime), QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat))
        window.pages.build_all()  # as the app does after the first frame
        window.show()
        rig = Asks(window, store)
        rig.select(qtbot, "asks")
        yield rig
        with qtbot.waitSignal(window.closed, timeout=20_000):
            window.close()
        window.deleteLater()
    spin_until_gone(qtbot, pids)


def text(widget: Any, name: str) -> str:
    found = widget.findChild(QLabel, name) or widget.findChild(QPlainTextEdit, name)
    return str(found.text() if isinstance(found, QLabel) else found.toPlainText())


def button(widget: Any, name: str) -> QPushButton:
    found = widget.findChild(QPushButton, name)
    assert found is not None, name
    return found


def rounds(table: QTableWidget) -> list[tuple[str, ...]]:
    return [tuple(table.item(r, c).text() for c in range(table.columnCount())) for r in range(table.rowCount())]


def click(qtbot: QtBot, widget: QPushButton) -> None:
    assert widget.isVisible() and widget.isEnabled(), widget.objectName()
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def test_a_form_question_shows_in_place_of_the_result_and_accept_waits_for_a_valid_answer(
    asks: Asks, qtbot: QtBot
) -> None:
    asks.select(qtbot, "asks")
    asks.send(qtbot, "greet")
    panel = asks.asked(qtbot)
    assert not asks.panel.result.isVisible(), "in place of the result"
    assert "“asks” asks for input: elicitation (form), round 1" in text(panel, "inputRequestServer")
    assert text(panel, "inputRequestMessage") == "What is your name?"
    accept = button(panel, "inputAcceptButton")
    qtbot.waitUntil(
        lambda: "minLength" in text(panel, "inputValidationSummary") or panel.form.editor.invalid, timeout=WAIT
    )
    assert not accept.isEnabled(), "an empty name breaks minLength 1: Accept waits"
    name = panel.form.editor.form.field_at("/name")
    assert isinstance(name, QLineEdit)
    qtbot.keyClicks(name, "Ada")
    qtbot.waitUntil(accept.isEnabled, timeout=WAIT)
    assert "valid against the requested schema" in text(panel, "inputValidationSummary")
    click(qtbot, accept)
    assert "Hello, Ada!" in asks.done(qtbot)
    (row,) = rounds(asks.panel.findChild(QTableWidget, "callRounds"))
    assert row[:5] == ("1", "elicitation (form)", "name", "What is your name?", "accept")
    assert row[5].endswith(" B") and row[6].endswith(" ms"), "the requestState's size and the latency"


def test_decline_and_cancel_on_the_older_era_are_said_back_by_the_server(asks: Asks, qtbot: QtBot) -> None:
    asks.select(qtbot, "asks legacy")
    asks.send(qtbot, "greet")
    panel = asks.asked(qtbot)
    assert "the server's own request while the call runs" in text(panel, "inputRequestServer")
    click(qtbot, button(panel, "inputDeclineButton"))
    assert "You declined to give your name." in asks.done(qtbot)
    asks.send(qtbot, "greet")
    click(qtbot, button(asks.asked(qtbot), "inputCancelButton"))
    assert "You closed the question about your name without answering." in asks.done(qtbot)
    (row,) = rounds(asks.panel.findChild(QTableWidget, "callRounds"))
    assert row[:5] == ("1", "elicitation (form)", "—", "What is your name?", "cancel"), "no key on the older era"


def test_two_rounds_fill_in_defaults_the_history_keeps_them_and_a_re_run_gives_the_same_answers(
    asks: Asks, qtbot: QtBot
) -> None:
    asks.select(qtbot, "asks")
    asks.send(qtbot, "signup")
    panel = asks.asked(qtbot)
    qtbot.keyClicks(panel.form.editor.form.field_at("/name"), "Ada")
    qtbot.waitUntil(button(panel, "inputAcceptButton").isEnabled, timeout=WAIT)
    click(qtbot, button(panel, "inputAcceptButton"))
    qtbot.waitUntil(lambda: panel.shown is not None and panel.shown.message.startswith("Thanks, Ada."), timeout=WAIT)
    assert panel.form.editor.parsed == {"plan": "free", "newsletter": True, "seats": 1, "email": ""}, "defaults"
    assert "round 2" in text(panel, "inputRequestServer")
    qtbot.keyClicks(panel.form.editor.form.field_at("/email"), "ada@example.org")
    qtbot.waitUntil(button(panel, "inputAcceptButton").isEnabled, timeout=WAIT)
    click(qtbot, button(panel, "inputAcceptButton"))
    assert "Signed up Ada on free (1 seats), mail to ada@example.org." in asks.done(qtbot)
    table = asks.panel.findChild(QTableWidget, "callRounds")
    assert [row[:3] + row[4:5] for row in rounds(table)] == [
        ("1", "elicitation (form)", "name", "accept"),
        ("2", "elicitation (form)", "plan", "accept"),
    ]
    history = asks.panel.findChild(QTableWidget, "callHistory")
    qtbot.waitUntil(lambda: history.rowCount() > 0 and "2 rounds" in history.item(0, 3).text(), timeout=WAIT)
    spec = asks.window.app.runtime.supervisor("asks").spec  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: any(r.name == "signup" for r in asks.store.history(spec)), timeout=WAIT)
    kept = next(r for r in reversed(asks.store.history(spec)) if r.name == "signup")
    assert kept.rounds_total == 2 and kept.answers is not None
    assert kept.answers["elicitation"][1]["content"] == {"plan": "free", "newsletter": True, "seats": 1,
                                                          "email": "ada@example.org"}  # fmt: skip

    history.selectRow(0)
    click(qtbot, button(asks.panel, "copyCallCommand"))
    command = QGuiApplication.clipboard().text()
    assert command.startswith("cat > answers.json <<'MCP_ANSWERS'\n{")
    assert "mcp-catalog-inspector call signup --args '{}' --answers answers.json --" in command
    count = history.rowCount()
    assert asks.window.current is not None
    with qtbot.waitSignal(asks.window.current.supervisor.call_finished, timeout=WAIT):
        click(qtbot, button(asks.panel, "rerunCallButton"))
    assert "Signed up Ada on free (1 seats)" in asks.done(qtbot), "the re-run gave the answers again, unasked"
    assert history.rowCount() == count + 1 and len(rounds(table)) == 2


def test_a_url_question_opens_only_https_and_never_a_script_or_a_file(asks: Asks, qtbot: QtBot) -> None:
    handlers = {scheme: Opened() for scheme in ("https", "javascript", "file")}
    for scheme, handler in handlers.items():
        QDesktopServices.setUrlHandler(scheme, handler, "open")
    try:
        asks.select(qtbot, "asks")
        asks.send(qtbot, "consent")
        panel = asks.asked(qtbot)
        assert text(panel, "inputRequestUrl") == CONSENT
        assert text(panel, "inputRequestHost") == "Host: consent.example.invalid"
        click(qtbot, button(panel, "inputOpenUrlButton"))
        assert handlers["https"].urls == [CONSENT], "handed to the system browser, and to nothing else"
        assert "Consent opened" in asks.done(qtbot)

        for url, scheme in (("javascript:alert(document.cookie)", "javascript"), ("file:///etc/passwd", "file")):
            asks.send(qtbot, "consent", f'{{"url": "{url}"}}')
            panel = asks.asked(qtbot)
            assert text(panel, "inputRequestUrl") == url
            opener = button(panel, "inputOpenUrlButton")
            assert not opener.isEnabled() and not panel.open_url(), "never opened, even when asked to"
            assert f"its scheme is {scheme}:" in text(panel, "inputRequestUrlWarning")
            click(qtbot, button(panel, "inputDeclineButton"))
            assert "You declined to give consent." in asks.done(qtbot)
        assert handlers["javascript"].urls == [] and handlers["file"].urls == []

        asks.send(qtbot, "consent", '{"url": "https://аррӏе.com/login"}')
        panel = asks.asked(qtbot)
        assert text(panel, "inputRequestHost") == "Host: xn--80ak6aa92e.com  (decoded: аррӏе.com)"
        assert text(panel, "inputRequestUrl") == "https://xn--80ak6aa92e.com/login", "shown as it would be opened"
        assert "international name" in text(panel, "inputRequestUrlWarning")
        (row,) = rounds(asks.panel.findChild(QTableWidget, "callRounds"))
        assert row[3] == "https://xn--80ak6aa92e.com/login", "the rounds show the host a browser would reach, too"
        click(qtbot, button(panel, "inputCancelButton"))
        assert "without answering" in asks.done(qtbot)
        assert handlers["https"].urls == [CONSENT]
    finally:
        for scheme in handlers:
            QDesktopServices.unsetUrlHandler(scheme)


def test_a_sampling_request_shows_what_was_sent_and_the_persons_reply_is_the_models(asks: Asks, qtbot: QtBot) -> None:
    asks.select(qtbot, "asks")
    asks.send(qtbot, "summarise")
    panel = asks.asked(qtbot)
    request = text(panel, "samplingRequest")
    assert "The inspector has no model" in request and "You are a concise assistant." in request
    assert "Max tokens: 60" in request and '"speedPriority": 0.8' in request and "Tools offered: none" in request
    assert panel.findChild(QLineEdit, "samplingModel").text() == "human"
    assert not button(panel, "inputAcceptButton").isVisible()
    qtbot.keyClicks(panel.findChild(QPlainTextEdit, "samplingReply"), "Servers may ask.")
    click(qtbot, button(panel, "samplingSendButton"))
    assert "Summary by human: Servers may ask." in asks.done(qtbot)
    (row,) = rounds(asks.panel.findChild(QTableWidget, "callRounds"))
    assert row[1:5] == ("sampling", "summary", "Summarise in one line: MCP servers can ask their clients for input.",
                        "reply")  # fmt: skip


def test_rejecting_a_sampling_request_sends_the_server_an_error(asks: Asks, qtbot: QtBot) -> None:
    asks.select(qtbot, "asks legacy")
    asks.send(qtbot, "summarise")
    click(qtbot, button(asks.asked(qtbot), "samplingRejectButton"))
    asks.done(qtbot)
    assert asks.panel.findChild(QLabel, "callOutcome").property("layer") in ("tool_error", "server_error")
    (row,) = rounds(asks.panel.findChild(QTableWidget, "callRounds"))
    assert row[4].startswith("reject: the person rejected the sampling request")


def test_cancelling_the_call_mid_round_withdraws_the_question_and_says_so(asks: Asks, qtbot: QtBot) -> None:
    asks.select(qtbot, "asks legacy")
    asks.send(qtbot, "signup")
    asks.asked(qtbot)
    click(qtbot, button(asks.panel, "cancelCallButton"))
    asks.done(qtbot)
    outcome = asks.panel.findChild(QLabel, "callOutcome")
    assert outcome.property("layer") == "cancelled"
    assert "while the server waited for an answer (round 1)" in outcome.text()
    (row,) = rounds(asks.panel.findChild(QTableWidget, "callRounds"))
    assert row[4] == "cancel (nobody answered)"


def test_a_question_for_a_server_not_selected_marks_it_in_the_sidebar_one_click_away(asks: Asks, qtbot: QtBot) -> None:
    asks.select(qtbot, "asks http")
    asks.send(qtbot, "greet")
    asks.asked(qtbot)
    asks.select(qtbot, "asks")
    servers = asks.window.servers
    row = servers.index(servers.row_of("asks http") or 0)
    assert row.data(Role.ASKING) == 1 and "✎ asks for your input (1)" in row.data()
    assert servers.index(servers.row_of("asks") or 0).data(Role.ASKING) == 0
    asks.window.tabs.setCurrentIndex(0)  # the Tools tab
    asks.window.server_list.setCurrentIndex(row)  # the one click
    qtbot.waitUntil(lambda: asks.window.tabs.currentWidget() is asks.panel, timeout=WAIT)
    panel = asks.asked(qtbot)
    assert "“asks http” asks for input" in text(panel, "inputRequestServer")
    qtbot.keyClicks(panel.form.editor.form.field_at("/name"), "Lin")
    qtbot.waitUntil(button(panel, "inputAcceptButton").isEnabled, timeout=WAIT)
    click(qtbot, button(panel, "inputAcceptButton"))
    assert "Hello, Lin!" in asks.done(qtbot), "over Streamable HTTP"
    assert row.data(Role.ASKING) == 0 and "asks for your input" not in row.data()


def test_a_prompt_that_asks_shows_its_question_in_the_prompts_tab(asks: Asks, qtbot: QtBot) -> None:
    asks.select(qtbot, "asks")
    pane = asks.window.list_panes["prompts"]
    asks.window.tabs.setCurrentWidget(pane)
    pane.table.setCurrentIndex(pane.model.index(0, 0))
    box = pane.request
    assert box is not None and box.input is not None
    assert not box.input.built, "a tab's question panel is made when its first question comes, not before"
    click(qtbot, button(box, "getPromptButton"))
    qtbot.waitUntil(lambda: box.input.built, timeout=WAIT)  # type: ignore[union-attr]
    assert box.input_panel is not None
    panel = asks.asked(qtbot, box.input_panel)
    assert text(panel, "inputRequestMessage") == "Whom shall the prompt welcome?"
    qtbot.keyClicks(panel.form.editor.form.field_at("/name"), "Kim")
    qtbot.waitUntil(button(panel, "inputAcceptButton").isEnabled, timeout=WAIT)
    click(qtbot, button(panel, "inputAcceptButton"))
    qtbot.waitUntil(lambda: "Please welcome Kim warmly." in text(box, "promptResult"), timeout=WAIT)
    assert len(rounds(box.findChild(QTableWidget, "promptRounds"))) == 1


def test_a_form_outside_the_specs_subset_is_linted_and_still_answered_as_json(asks: Asks, qtbot: QtBot) -> None:
    asks.select(qtbot, "asks")
    asks.send(qtbot, "survey")
    panel = asks.asked(qtbot)
    qtbot.waitUntil(lambda: "strict client would refuse" in text(panel, "inputSchemaLint"), timeout=WAIT)
    lint = text(panel, "inputSchemaLint")
    assert "'address' has type \"object\"" in lint and "'pets' is an array that is not a multi-select" in lint
    answer = panel.findChild(QPlainTextEdit, "inputRequestJson")
    answer.setPlainText('{"address": {"city": "Oslo"}, "nickname": "x"}')
    qtbot.waitUntil(lambda: panel.form.editor.validation is not None, timeout=WAIT)
    assert panel.form.editor.validation is not None and not panel.form.editor.validation.problems
    assert not button(panel, "inputAcceptButton").isEnabled(), "valid for the schema, but no answer may hold an object"
    assert "'address' holds an object" in text(panel, "inputContentProblem")
    answer.setPlainText('{"nickname": "x", "pets": []}')
    qtbot.waitUntil(button(panel, "inputAcceptButton").isEnabled, timeout=WAIT)
    click(qtbot, button(panel, "inputAcceptButton"))
    result = asks.done(qtbot)
    assert 'Survey: {"nickname": "x", "pets": []}' in result, text(asks.panel, "callOutcome")


def test_a_url_elicitation_required_error_shows_the_same_panel_with_nothing_to_answer(asks: Asks, qtbot: QtBot) -> None:
    opened = Opened()
    QDesktopServices.setUrlHandler("https", opened, "open")
    try:
        asks.select(qtbot, "asks legacy")
        asks.send(qtbot, "authorize")
        panel = asks.asked(qtbot)
        assert asks.panel.findChild(QLabel, "callOutcome").property("outcome") == "jsonrpc_error"
        assert text(panel, "inputRequestUrl") == "https://authorize.example.invalid/connect?request=demo-asks"
        assert "-32042" in text(panel, "inputRequestNote")
        assert (
            not button(panel, "inputAcceptButton").isVisible() and not button(panel, "inputDeclineButton").isVisible()
        )
        click(qtbot, button(panel, "inputOpenUrlButton"))
        assert opened.urls == ["https://authorize.example.invalid/connect?request=demo-asks"]
        click(qtbot, button(panel, "inputDismissButton"))
        qtbot.waitUntil(lambda: not panel.isVisible() and asks.panel.result.isVisible(), timeout=WAIT)
    finally:
        QDesktopServices.unsetUrlHandler("https")


def test_roots_are_given_unasked_from_the_entry_and_server_and_log_says_what(asks: Asks, qtbot: QtBot) -> None:
    asks.select(qtbot, "asks")
    asks.send(qtbot, "roots")
    assert "Roots: file:///tmp/demo-project" in asks.done(qtbot)
    (row,) = rounds(asks.panel.findChild(QTableWidget, "callRounds"))
    assert row[1] == "roots" and row[4] == "roots"
    window = asks.window
    qtbot.waitUntil(
        lambda: (
            "Roots given when the server asks (roots/list): 1 root: file:///tmp/demo-project (demo project)"
            in text(window, "serverInfo")
        ),
        timeout=WAIT,
    )
    qtbot.waitUntil(lambda: "roots/list answered with 1 root" in text(window, "serverLog"), timeout=WAIT)
    assert window.current is not None and window.current.supervisor.state is ServerState.READY
