"""A local command runs only once the user said yes to that exact command line."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QListView, QPushButton

from catalog_inspector.core.config import LaunchConsent
from catalog_inspector.runtime import ServerState
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, wait_for


def test_a_new_command_asks_first_and_the_answer_is_kept_per_command_line(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    store = tmp_path / "consent.json"
    pidfile = tmp_path / "pids"
    spec = demo_spec("normal", "--pidfile", str(pidfile), name="imported")
    window = harness.window([spec], consent=LaunchConsent(store))
    supervisor = window.app.runtime.supervisors[0]
    assert window.select_server("imported")
    wait_for(qtbot, lambda: window.banner.state == "consent")
    assert supervisor.state is ServerState.NOT_CONNECTED and not pidfile.exists(), "nothing ran before the answer"
    text = window.banner.label.text()
    assert "--pidfile" in text and "Working directory" in text and "Run it?" in text
    sidebar = window.findChild(QListView, "serverList")
    row = sidebar.model().index(0, 0).data()
    assert row.endswith("stdio · needs your OK to run")
    line = row.split("\n")[-1]
    assert sidebar.fontMetrics().horizontalAdvance(line) < sidebar.viewport().width() - 40, "read whole, not cut"

    window.findChild(QPushButton, "retryButton").click()
    wait_for(qtbot, lambda: supervisor.state is ServerState.READY)
    assert window.banner.state == "none"

    assert LaunchConsent(store).approved(spec), "the yes is remembered across runs"
    changed = demo_spec("normal", "--pidfile", str(pidfile), "--delay", "0.1", name="imported")
    assert not LaunchConsent(store).approved(changed), "a changed command line asks again"
    from dataclasses import replace

    with_token = replace(spec, env={"API_TOKEN": "one"})
    consent = LaunchConsent(store)
    consent.approve(with_token)
    assert consent.approved(replace(spec, env={"API_TOKEN": "rotated"})), (
        "a new value of a variable is not a new command"
    )
    assert not consent.approved(replace(spec, env={"API_TOKEN": "one", "EXTRA": "x"}))
    assert LaunchConsent(store).approved(replace(spec, transport="http", url="https://x.test/mcp")), "only commands ask"
