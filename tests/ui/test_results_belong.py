"""Each pane shows only what belongs to what is selected: a tool's result goes when another tool is chosen (and
comes back empty, not stale, when the first is chosen again); the same tool picked again after a refresh keeps it.
A list tab's item and answer (a resource read, a template read, a prompt got) belong to their server: another
server, or an entry that could not be used, never shows them."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from catalog_inspector.core.config import EntryProblem
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_call_panel import pick, ready_window, send_and_wait, type_arguments


def test_another_tools_result_is_not_shown(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot)
    panel = pick(window, qtbot, "echo")
    type_arguments(panel, qtbot, '{"text": "hi"}')
    send_and_wait(panel, qtbot)
    verdict, outcome = panel.findChild(QLabel, "outputVerdict"), panel.findChild(QLabel, "callOutcome")
    assert panel.result.text.toPlainText().startswith("hi") and verdict.text().startswith("Output: valid")
    panel = pick(window, qtbot, "count_items")
    assert panel.result.text.toPlainText() == "" and verdict.text() == "" and outcome.text() == ""
    assert panel.result.raw.toPlainText() == "" and panel.result.image_count() == 0


def test_the_same_tool_chosen_again_keeps_its_result(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot)
    panel = pick(window, qtbot, "echo")
    type_arguments(panel, qtbot, '{"text": "hi"}')
    send_and_wait(panel, qtbot)
    panel.presenter.set_tool(dict(panel.tool or {}))  # as a new catalog gives the same tool again
    assert panel.result.text.toPlainText().startswith("hi"), "the answer is still this tool's"


# -- the list tabs: a read resource, a filled-in template, a got prompt belong to their server ------------------
LISTS = ("resources", "resource_templates", "prompts")


def list_state(window: MainWindow, name: str) -> dict[str, object]:
    """What a list tab shows: the row chosen, the detail, the answer's words and text, whether it can be sent."""
    pane = window.list_panes[name]
    current = pane.table.currentIndex()
    box = pane.request
    return {
        "chosen": current.data(Role.KEY) if current.isValid() else None,
        "detail": pane.detail.toPlainText(),
        "outcome": box.outcome.text(),
        "answer": box.result.text.toPlainText(),
        "raw": box.result.raw.toPlainText(),
        "sendable": box.button.isEnabled(),
    }


NOTHING = {"chosen": None, "detail": "", "outcome": "", "answer": "", "raw": "", "sendable": False}


def ask_each_list(window: MainWindow, qtbot) -> dict[str, dict[str, object]]:  # type: ignore[no-untyped-def]
    """On the selected server: read its first resource, read its first template with id 7, get its `greet` prompt."""
    for name in LISTS:
        pane = window.list_panes[name]
        window.tabs.setCurrentWidget(pane)
        wait_for(qtbot, lambda pane=pane: pane.model.rowCount() > 0)
        row = pane.model.row_of("greet") if name == "prompts" else 0
        assert row is not None
        pane.table.setCurrentIndex(pane.model.index(row, 0))
        if name == "resource_templates":
            pane.request.fields["id"].setText("7")
        assert window.current is not None
        with qtbot.waitSignal(window.current.supervisor.call_finished, timeout=20_000):
            assert pane.request.send()
        wait_for(qtbot, lambda pane=pane: "The server answered" in pane.request.outcome.text())
    return {name: list_state(window, name) for name in LISTS}


def test_a_list_tabs_answer_stays_with_its_server(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Read, filled in and got on one server: a broken entry selected next shows none of it (and cannot send it
    anywhere); another server shows only its own (nothing asked yet); the first server chosen again shows its own
    items and answers again."""
    specs = [demo_spec("normal", name="notes"), demo_spec("apps", name="apps")]
    window = harness.window(specs)
    wait_for(qtbot, lambda: shown(window))
    with qtbot.waitSignal(window.app.servers_changed, timeout=5_000):
        window.app.runtime.apply(specs, [EntryProblem("broken", "mcpServers.broken: command cannot be empty")])
    wait_for(qtbot, lambda: window.current is not None and window.current.name == "notes" and shown(window))
    asked = ask_each_list(window, qtbot)
    assert asked["resources"]["answer"].endswith("a demo note") and asked["prompts"]["chosen"] == "greet"
    assert all(state["chosen"] is not None and state["answer"] for state in asked.values())

    row = next(r for r in range(window.servers.rowCount()) if window.servers.problem_at(r) is not None)
    window.server_list.setCurrentIndex(window.servers.index(row))
    assert window.current is None and window.title.text() == "broken"
    for name in LISTS:
        assert list_state(window, name) == NOTHING, f"{name}: the last server's item or answer is still shown"
        assert window.list_panes[name].model.rowCount() == 0 and window.list_panes[name].timeline.model.rowCount() == 0
    assert window.tools_pane.model.rowCount() == 0 and window.call_panel.result.text.toPlainText() == ""

    window.select_server("apps")
    wait_for(qtbot, lambda: window.current is not None and window.current.name == "apps" and shown(window))
    wait_for(qtbot, lambda: window.list_panes["resources"].model.rowCount() > 0)
    for name in LISTS:
        state = list_state(window, name)
        assert (state["chosen"], state["outcome"], state["answer"], state["raw"]) == (None, "", "", ""), name

    window.select_server("notes")
    wait_for(qtbot, lambda: window.current is not None and window.current.name == "notes")
    for name in LISTS:
        assert list_state(window, name) == asked[name], f"{name}: not the server's own item and answer"
