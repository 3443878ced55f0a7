"""What the window shows, checked on the presenter alone: no window, real supervisors over real demo servers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.runtime import Runtime, ServerState
from catalog_inspector.ui.presenters import ServerPresenter
from tests.helpers import demo_spec

LIMITS = Limits(request_timeout=5.0, deadline=30.0)


@pytest.fixture
def present(qtbot, qloop) -> Iterator:  # type: ignore[no-untyped-def,type-arg]
    runtimes: list[Runtime] = []

    def make(spec: ServerSpec) -> ServerPresenter:
        runtime = Runtime([spec], LIMITS)
        runtimes.append(runtime)
        return ServerPresenter(runtime.supervisors[0])

    yield make
    for runtime in runtimes:
        with qtbot.waitSignal(runtime.shutdown_finished, timeout=20_000):
            runtime.shutdown()


def test_a_rejected_refresh_is_explained_and_offers_both_walks(present, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    presenter = present(demo_spec("refresh-duplicate", "--state", str(tmp_path / "s.json"), name="dup"))
    supervisor = presenter.supervisor
    with qtbot.waitSignal(presenter.catalog_changed, timeout=20_000):
        presenter.refresh()
    assert presenter.banner().kind == "none" and presenter.subtitle.startswith("Catalog: 3 tools, taken at")
    assert [w.label.split(" (")[0] for w in presenter.walks("tools")] == ["Accepted catalog"]
    with qtbot.waitSignal(presenter.walks_changed, timeout=20_000):
        presenter.refresh()  # the live walk is offered at once
    assert presenter.walks("tools")[0].live and not presenter.can_refresh and presenter.can_cancel
    with qtbot.waitSignal(supervisor.refresh_failed, timeout=20_000):
        pass
    banner = presenter.banner()
    assert banner.kind == "failure" and banner.button == "Retry" and banner.button_enabled
    assert banner.text.startswith("Rejected: Duplicate name on page 2 of tools\n'echo' was first seen on page 0\n")
    assert "The last good catalog, taken at" in banner.text
    failed, accepted = presenter.walks("tools")
    assert failed.label.startswith("Failed attempt at") and failed.label.endswith(": Duplicate name")
    assert [p.outcome for p in failed.pages][-1] == "duplicate_name"
    assert accepted.pages is supervisor.accepted.tools.pages, "the walk is the runtime's own page sequence"  # type: ignore[union-attr]
    assert presenter.subtitle.startswith("Last good catalog: 3 tools")


def test_a_crash_shows_the_servers_last_words(present, qtbot) -> None:  # type: ignore[no-untyped-def]
    presenter = present(demo_spec("crash", name="crashy"))
    with qtbot.waitSignal(presenter.supervisor.refresh_failed, timeout=20_000):
        presenter.refresh()
    text = presenter.banner().text
    assert text.startswith("Failed: Connection failed on page 1 of tools\nthe server process exited (exit code 3)\n")
    assert "The server's last stderr lines:\n[demo] tools walk 0 page 0 (1 items)" in text
    assert text.splitlines()[-2] == "[demo] crashing on purpose"
    assert text.endswith("No catalog has been accepted from this server yet.")


def test_a_live_walk_grows_in_place_and_cancel_withdraws_it(present, qtbot) -> None:  # type: ignore[no-untyped-def]
    presenter = present(demo_spec("slow", "--delay", "0.5", name="slow"))
    with qtbot.waitSignal(presenter.pages_added, timeout=20_000):
        presenter.refresh()
    live = presenter.walks("tools")[0]
    assert live.live and len(live.pages) == 1
    with qtbot.waitSignal(presenter.pages_added, timeout=20_000):
        pass
    assert len(live.pages) == 2, "the offered sequence is the one the runtime appends to"
    messages: list[str] = []
    presenter.messages.shown.connect(lambda message: messages.append(message.text))
    assert presenter.cancel()
    assert presenter.walks("tools") == [] and presenter.supervisor.state is ServerState.NOT_CONNECTED
    assert "slow: Walk cancelled; the shown catalog is unchanged." in messages, "on the message bridge, named"


def test_a_stale_catalog_offers_a_refresh(present, qtbot) -> None:  # type: ignore[no-untyped-def]
    presenter = present(demo_spec("notify", name="notify"))
    presenter.refresh()
    qtbot.waitUntil(lambda: presenter.supervisor.state is ServerState.STALE, timeout=20_000)
    banner = presenter.banner()
    assert (
        banner.kind == "stale" and banner.button == "Refresh" and "changed since this catalog was taken" in banner.text
    )


def test_server_details_name_the_variables_a_server_gets_never_their_values(present) -> None:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    spec = replace(demo_spec("normal", name="env"), env={"API_TOKEN": "s3cret", "PATH": "/opt/bin"})
    text = present(spec).server_text()
    assert "Environment configured (values not shown): API_TOKEN, PATH" in text
    passed = next(line for line in text.splitlines() if line.startswith("Environment passed on:"))
    assert "HOME" in passed and "PATH" not in passed, "a configured variable replaces the one passed on"
    assert "s3cret" not in text and "/opt/bin" not in text
    remote = ServerSpec(name="r", transport="http", url="https://x.test/mcp", headers={"Authorization": "Bearer t"})
    assert "Headers sent (values not shown): Authorization" in present(remote).server_text()
