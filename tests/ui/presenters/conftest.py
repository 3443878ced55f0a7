"""Presenters over a real runtime and real demo servers, and no widget anywhere: the test plays the widgets'
part (it forwards intents and reads what the presenters say), as the Call and Drift tabs do."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from catalog_inspector.core.calls import CallStore
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.drift import History
from catalog_inspector.runtime import Runtime
from catalog_inspector.ui.presenters import AppPresenter, ServerPresenter
from tests.helpers import recording_registry, spin_until_gone

LIMITS = Limits(request_timeout=5.0, deadline=30.0)
WAIT = 20_000  # ms: a demo server's start, walk or call on a loaded two-core machine


class Rig:
    """Builds app presenters over runtimes whose spawns are recorded; at teardown shuts them down and proves no
    server process is left."""

    def __init__(self, qtbot: Any, tmp_path: Path) -> None:
        self.qtbot = qtbot
        self.tmp_path = tmp_path
        self.apps: list[AppPresenter] = []
        self.pids: list[int] = []

    def app(
        self, specs: list[ServerSpec], history: History | None = None, call_store: CallStore | None = None
    ) -> AppPresenter:
        registry = recording_registry(self.tmp_path / f"sessions-{len(self.apps)}", self.pids)
        app = AppPresenter(Runtime(specs, LIMITS, registry, history=history, call_store=call_store))
        self.apps.append(app)
        return app

    def shown(self, app: AppPresenter, name: str) -> ServerPresenter:
        """Select the server (its first walk starts) and wait until its catalog is published."""
        presenter = app.presenters[name]
        with self.qtbot.waitSignal(presenter.catalog_changed, timeout=WAIT):
            assert app.select(name) is presenter
        assert presenter.catalog is presenter.supervisor.accepted is not None
        return presenter

    def teardown(self) -> None:
        for app in self.apps:
            with self.qtbot.waitSignal(app.shutdown_finished, timeout=WAIT):
                app.shutdown()
        if self.pids:
            spin_until_gone(self.qtbot, self.pids)


@pytest.fixture
def rig(qtbot: Any, qloop: Any, tmp_path: Path) -> Iterator[Rig]:
    made = Rig(qtbot, tmp_path)
    yield made
    made.teardown()
