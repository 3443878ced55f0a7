"""Real widgets over real demo servers, offscreen, on a qasync loop inside pytest-qt's event loops."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSettings
from PySide6.QtWidgets import QWidget

from catalog_inspector.core.calls import CallStore
from catalog_inspector.core.config import LaunchConsent, Limits, ServerSpec
from catalog_inspector.core.drift import History
from catalog_inspector.runtime import Runtime, ServerState
from catalog_inspector.runtime.engine import EngineGate
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.presenters import AppPresenter
from tests.helpers import recording_registry, spin_until_gone

LIMITS = Limits(request_timeout=5.0, deadline=30.0)


class Harness:
    """Builds windows; at teardown closes them and proves no server process is left."""

    def __init__(self, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
        self.qtbot = qtbot
        self.tmp_path = tmp_path
        self.windows: list[MainWindow] = []
        self.pids: list[int] = []

    def window(
        self,
        specs: list[ServerSpec],
        settings: QSettings | None = None,
        limits: Limits = LIMITS,
        history: History | None = None,
        call_store: CallStore | None = None,
        consent: LaunchConsent | None = None,
        build_pages: bool = True,
        engine: EngineGate | None = None,
    ) -> MainWindow:
        registry = recording_registry(self.tmp_path / "sessions", self.pids)
        runtime = Runtime(
            specs, limits, registry, history=history, call_store=call_store, consent=consent, engine=engine
        )
        settings = settings or QSettings(str(self.tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(AppPresenter(runtime), settings)
        if build_pages:
            window.pages.build_all()  # as the app does after the first frame
        window.show()  # not qtbot.addWidget: pytest-qt would destroy it before our shutdown check
        self.windows.append(window)
        return window

    def close(self, window: MainWindow) -> None:
        if window in self.windows:
            self.windows.remove(window)
            with self.qtbot.waitSignal(window.closed, timeout=20_000):
                window.close()
            window.deleteLater()
            # Deleted now, with this test: what the window held goes with it (see the `_collected` fixture).
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)

    def assert_gone(self, pids: list[int]) -> None:
        spin_until_gone(self.qtbot, pids)

    def teardown(self) -> None:
        for window in list(self.windows):
            self.close(window)
        if self.pids:
            self.assert_gone(self.pids)


@pytest.fixture
def harness(qtbot, qloop, tmp_path: Path) -> Iterator[Harness]:  # type: ignore[no-untyped-def]
    h = Harness(qtbot, tmp_path)
    yield h
    h.teardown()


def shown(window: MainWindow, state: ServerState = ServerState.READY) -> bool:
    """The selected server is in `state` and the window shows its accepted catalog (published with its report),
    on the tree and on the pages behind it (they follow a frame later)."""
    presenter = window.current
    return (
        presenter is not None
        and presenter.supervisor.state is state
        and presenter.catalog is not None
        and presenter.catalog is presenter.supervisor.accepted
        and not window.pages.following
    )


class Events(QObject):
    """The events of `types` the watched widgets get, in order: (widget, type, the paint's rect as x, y, w, h)."""

    def __init__(self, widgets: list[QWidget], *types: QEvent.Type) -> None:
        super().__init__()
        self.types = frozenset(types)
        self.seen: list[tuple[QObject, QEvent.Type, tuple[int, int, int, int] | None]] = []
        for widget in widgets:
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in self.types:
            rect = event.rect() if event.type() == QEvent.Type.Paint else None  # type: ignore[attr-defined]
            self.seen.append((watched, event.type(), rect.getRect() if rect is not None else None))
        return False

    def of(self, widget: QObject) -> list[QEvent.Type]:
        return [kind for watched, kind, _ in self.seen if watched is widget]


def wait_for(qtbot, condition: Callable[[], bool], timeout: int = 20_000) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(condition, timeout=timeout)
