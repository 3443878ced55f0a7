"""What the window shows across servers, and the one place where the window reaches the runtime.

The window and its widgets bind to this presenter and to the server presenters it
keeps; none of them holds a runtime object. It follows the configuration (a
presenter per supervisor, made and dropped with them), says which server is
selected, and carries the window's intents that are about no one server (export,
consent, how many snapshots are kept, quitting) to the runtime.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import ConfigError, EntryProblem, Loaded, ServerSpec
from catalog_inspector.core.drift import DEFAULT_KEEP
from catalog_inspector.runtime import Runtime, ServerSupervisor
from catalog_inspector.runtime.messages import MessageBridge
from catalog_inspector.ui.presenters.checks import Checks
from catalog_inspector.ui.presenters.server import ServerPresenter

if TYPE_CHECKING:
    from catalog_inspector.core.oauth import SignIn

__all__ = ["AppPresenter"]

T = TypeVar("T")


class AppPresenter(QObject):
    """Every server's presenter, the selection, and the intents that are the whole window's.

    Attributes:
        runtime: the runtime (for the app's wiring and for tests; widgets never use it).
        messages: the message bridge every desk and presenter speaks through.
        checks: the arguments editor's validation and lint.
        presenters: one per configured server, by name, in config order.
        current: the selected server's presenter, or None.

    Signals:
        servers_changed(): the configuration changed the servers (`presenters`, `problems`).
        collisions_changed(): `collisions` changed.
        exported(object, object): an export ended (Path, None or the OSError).
        sign_in_started(str): this server began waiting for a person to sign in.
        shutdown_finished(): every session is closed and no server process remains.
    """

    servers_changed = Signal()
    collisions_changed = Signal()
    exported = Signal(object, object)
    sign_in_started = Signal(str)
    shutdown_finished = Signal()

    def __init__(self, runtime: Runtime, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runtime = runtime
        self.messages: MessageBridge = runtime.messages
        self.checks = Checks(runtime.calls, self)
        self.presenters: dict[str, ServerPresenter] = {}
        self.current: ServerPresenter | None = None
        # The bundled demo servers, listed beside the configuration's: by default only while it has none
        # (`show_demo` None), else as the person chose (Servers › Show the bundled demo servers).
        self.demo: list[ServerSpec] = []
        self.show_demo: bool | None = None
        self._loaded: Loaded | None = None
        self._follow_servers()
        runtime.servers_changed.connect(self._on_runtime_servers_changed)
        runtime.exported.connect(self.exported)
        runtime.shutdown_finished.connect(self.shutdown_finished)
        runtime.tracker.collisions_changed.connect(self.collisions_changed)
        runtime.signins.sign_in_started.connect(self.sign_in_started)
        runtime.engine_ready.connect(self._on_runtime_engine_ready)

    def _presenter_of(self, supervisor: ServerSupervisor) -> ServerPresenter:
        runtime = self.runtime
        return ServerPresenter(supervisor, self, runtime.tracker, runtime.signins, runtime.calls, self.messages)

    def _follow_servers(self) -> None:
        alive = {s.spec.name: s for s in self.runtime.supervisors}
        for name, presenter in list(self.presenters.items()):
            if alive.get(name) is not presenter.supervisor:
                if presenter is self.current:
                    self.current = None
                del self.presenters[name]
                presenter.deleteLater()
        self.presenters = {
            name: self.presenters.get(name) or self._presenter_of(supervisor) for name, supervisor in alive.items()
        }

    def _on_runtime_engine_ready(self) -> None:
        for presenter in self.presenters.values():
            presenter.details_changed.emit()  # what the engine knows (the environment a server gets) can be said now

    def _on_runtime_servers_changed(self) -> None:
        self._follow_servers()
        self.servers_changed.emit()

    # -- what the sidebar shows --------------------------------------------------
    @property
    def supervisors(self) -> list[ServerSupervisor]:
        return list(self.runtime.supervisors)

    @property
    def problems(self) -> list[EntryProblem]:
        """The configuration's entries that could not be used (shown after the servers, with why)."""
        return list(self.runtime.problems)

    @property
    def collisions(self) -> dict[str, tuple[str, ...]]:
        return self.runtime.tracker.collisions

    def select(self, name: str | None) -> ServerPresenter | None:
        """Show this server (None: none); a server never attempted starts its walk when first selected."""
        if self.current is not None:
            self.current.selected = False
        self.current = self.presenters.get(name) if name is not None else None
        if self.current is not None:
            self.current.selected = True
            self.current.supervisor.ensure_started()
        return self.current

    def rows_planned(self, count: int) -> None:
        """The tool tree planned this many rows' worth of objects: kept out of the cycle collector's sight."""
        self.runtime.collector.items_arrived(count)

    def sign_in_of(self, name: str) -> SignIn | None:
        supervisor = self.runtime.supervisor(name)
        return supervisor.sign_in if supervisor is not None else None

    # -- what the window asks ------------------------------------------------------
    def approve_launch(self, name: str) -> None:
        """The person said "Run it" on the consent banner: remember it (off the GUI thread) and walk."""
        presenter = self.presenters.get(name)
        if presenter is not None:
            self.runtime.approve_launch(presenter.supervisor.spec)
            presenter.refresh()

    def save_config(self, change: Callable[[], T], done: Callable[[T], None] | None = None, what: str = "") -> None:
        """Change the app's own config file (or the keyring) off the GUI thread; `done` gets the result. A failure
        is said on the message bridge and changes nothing."""
        self.runtime.config.write(change, done, what)

    def apply_config(self, loaded: Loaded) -> bool:
        """Follow a configuration read again: unchanged servers keep their sessions (`Runtime.apply`).

        Returns whether this hid the demo servers by itself: they were listed because there was
        no configuration, and now it has servers of its own (the window says where they went).
        """
        was_shown = self.demo_shown
        self._loaded = loaded
        self.runtime.apply(self._with_demo(loaded.specs), loaded.problems)
        return was_shown and self.show_demo is None and not self.demo_shown

    @property
    def demo_shown(self) -> bool:
        """Whether the bundled demo servers are listed now."""
        shown = [supervisor.spec for supervisor in self.runtime.supervisors]
        return bool(self.demo) and all(spec in shown for spec in self.demo)

    def set_show_demo(self, show: bool) -> None:
        """List the bundled demo servers beside the configuration's, or not (the configuration is left alone)."""
        self.show_demo = show
        specs = self._loaded.specs if self._loaded is not None else []
        problems = self._loaded.problems if self._loaded is not None else []
        self.runtime.apply(self._with_demo(specs), problems)

    def _with_demo(self, specs: list[ServerSpec]) -> list[ServerSpec]:
        shown = self.show_demo if self.show_demo is not None else not specs
        if not shown:
            return list(specs)
        taken = {spec.name for spec in specs}
        return [*specs, *(spec for spec in self.demo if spec.name not in taken)]

    def load_config(self, path: Path, done: Callable[[Loaded | ConfigError], None]) -> None:
        """Read a config file off the GUI thread (its `${keyring:…}` values too)."""
        self.runtime.config.load(path, done)

    @property
    def keyring(self) -> tuple[bool, str] | None:
        """Whether values can go to a keyring, and where, in words (None: not known yet)."""
        return self.runtime.config.keyring

    def export(self, snapshot: Snapshot, path: Path, extra: dict[str, Any] | None = None) -> None:
        self.runtime.export(snapshot, path, extra)

    @property
    def keep(self) -> int:
        history = self.runtime.tracker.history
        return history.keep if history is not None else DEFAULT_KEEP

    def set_keep(self, keep: int) -> None:
        self.runtime.tracker.set_keep(keep)

    def shutdown(self) -> None:
        self.runtime.shutdown()
