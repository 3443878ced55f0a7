"""Starting the desktop app: display check, configuration, the qasync loop, the main window, the engine behind it.

The main window is built from the configuration alone and shown at once; the
engine is imported behind it and the walks asked for meanwhile start then
(`ui.startup`). Nothing the first frame needs imports the MCP SDK: this module
imports only the standard library at the top, Qt once a display is known to exist.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the window and Qt are imported once a display is known to exist
    import asyncio
    from collections.abc import Callable

    import qasync
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from catalog_inspector.core.config import EntryProblem, Loaded, ServerSpec
    from catalog_inspector.ui.config_watch import ConfigWatcher
    from catalog_inspector.ui.main_window import MainWindow
    from catalog_inspector.ui.presenters import AppPresenter

__all__ = [
    "app_icon",
    "app_parser",
    "display_problem",
    "freeze_startup_objects",
    "load_servers",
    "prefer_the_gui_thread",
    "read_servers",
    "run_app",
]


def freeze_startup_objects() -> None:
    """Move everything alive after start-up (Qt, pydantic, the SDK) out of the collector's sight.

    A full collection otherwise rescans those hundreds of thousands of long-lived
    objects and stalled the event loop for 60–100 ms during a 10,000-tool walk.
    """
    import gc

    gc.collect()
    gc.freeze()


# Seconds a thread may hold the GIL while another waits for it (Python's default is 5 ms).
GIL_SWITCH_S = 0.0002


def prefer_the_gui_thread() -> None:
    """Let the GUI thread have the GIL back within 0.2 ms while an offload thread computes.

    Every time the GUI thread lets go of the GIL (a read of /proc, a socket write, Qt painting),
    a busy offload thread keeps it for up to the switch interval: with the default 5 ms, a dozen
    small reads while a 100,000-tool diff ran on a thread stalled the window for 330 ms.
    """
    import sys

    sys.setswitchinterval(GIL_SWITCH_S)


def app_icon() -> QIcon:
    """The window icon: the SVG shipped inside the package (package data, so wheels and bundles have it too)."""
    from PySide6.QtGui import QIcon

    import catalog_inspector

    return QIcon(str(Path(catalog_inspector.__file__).with_name("icons") / "mcp-catalog-inspector.svg"))


def keep_setting(value: object, default: int) -> int:
    """The stored history size (QSettings gives strings from INI files), or `default`."""
    try:
        keep = int(str(value))
    except ValueError:
        return default
    return keep if keep >= 1 else default


def display_problem() -> str | None:
    """One line explaining why no window can open here, or None."""
    if sys.platform != "linux" or os.environ.get("QT_QPA_PLATFORM"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return (
        "mcp-catalog-inspector: no display found (DISPLAY and WAYLAND_DISPLAY are unset); "
        "run it in a desktop session, under xvfb-run, or with QT_QPA_PLATFORM=offscreen"
    )


def load_servers(config: Path | None, demo_state: Path):  # type: ignore[no-untyped-def]
    """The servers to show and a notice for the user (empty when there is nothing to say).

    `--config FILE` is used as given; otherwise the user's config file; with no
    user config, the bundled demo servers. The file is only ever read.
    """
    specs, _problems, notice = read_servers(config, demo_state)
    return specs, notice


def read_servers(config: Path | None, demo_state: Path) -> tuple[list[ServerSpec], list[EntryProblem], str]:
    """`load_servers` with the entries that could not be used (the sidebar lists them too)."""
    from catalog_inspector.core.config import ConfigError, demo_servers, load_config
    from catalog_inspector.core.paths import user_config_file

    path = config or user_config_file()
    if config is None and not path.exists():
        return demo_servers(demo_state), [], f"No configuration at {path}: showing the bundled demo servers."
    try:
        loaded = load_config(path)
    except ConfigError as exc:
        return [], [], f"Configuration not loaded: {exc}"
    return loaded.specs, loaded.problems, problems_notice(path, loaded)


def problems_notice(path: Path, loaded: Loaded) -> str:
    """What the sidebar says about a config's entries that could not be used ("" when all could)."""
    if not loaded.problems:
        return ""
    count = len(loaded.problems)
    reasons = "; ".join(problem.message for problem in loaded.problems)
    return f"{count} {'entry' if count == 1 else 'entries'} of {path} not loaded: {reasons}"


def follow_config(path: Path, app: AppPresenter, window: MainWindow, read_now: bool = True) -> ConfigWatcher:
    """Apply the config file whenever it changes outside the app (or the Servers menu saved it); a broken save
    keeps the servers shown. Read on the offload threads, `${keyring:…}` values included. `read_now`: read it
    once now too (False when the runtime was made from the start-up's own read of it: it is not read twice)."""
    from catalog_inspector.core.config import ConfigError, ConfigStore, known_locations
    from catalog_inspector.ui.config_watch import ConfigWatcher

    def reload(then: Callable[[], object] | None = None) -> None:
        def apply(result: Loaded | ConfigError) -> None:
            if isinstance(result, ConfigError):
                if app.runtime.supervisors:
                    window.set_notice(f"Configuration not reloaded (the servers shown stay): {result}")
                else:  # nothing was loaded from it yet: nothing "stays"
                    window.set_notice(f"Configuration not loaded: {result}")
                return
            hid_demo = app.apply_config(result)
            notice = problems_notice(path, result)
            if hid_demo:  # they were there a moment ago: say where they went, and how to have them back
                gone = (
                    f"The bundled demo servers are hidden now that {path} has servers of its own: "
                    "Servers › Show the bundled demo servers lists them again."
                )
                notice = f"{notice}\n{gone}" if notice else gone
            window.set_notice(notice)
            if then is not None:
                then()

        if path.exists():  # else deleted or being replaced: what is shown stays
            app.load_config(path, apply)

    watcher = ConfigWatcher(path, window)
    watcher.changed.connect(reload)
    others = {location.path.resolve() for location in known_locations()}
    if path.resolve() not in others:  # another client's file is read, never written
        window.manage_config(ConfigStore(path), reload)
    if read_now:
        reload()  # the entries that could not be used get their rows in the sidebar
    return watcher


def app_parser() -> argparse.ArgumentParser:
    """The app's own options (`mcp-catalog-inspector --help` lists them with the commands; a test keeps both in step)."""
    parser = argparse.ArgumentParser(prog="mcp-catalog-inspector", description="MCP Catalog Inspector (desktop app)")
    parser.add_argument("--config", type=Path, help="an mcpServers JSON file to use instead of the user's")
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="start offscreen in a throwaway home, walk a bundled demo server, make one test call, "
        "exit 0 if every step passed (the bundle's smoke test)",
    )
    return parser


def _parse(argv: list[str]) -> argparse.Namespace:
    return app_parser().parse_args(argv)


def _install_sigterm(app: object, on_term: object) -> object:
    """Route SIGTERM/SIGINT/SIGHUP into the Qt loop (Python handlers only run when Python code runs)."""
    from PySide6.QtCore import QSocketNotifier

    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    signal.set_wakeup_fd(writer.fileno())
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, lambda *_: None)
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)

    def drain() -> None:
        try:
            reader.recv(64)
        except OSError:
            return
        on_term()  # type: ignore[operator]

    notifier.activated.connect(drain)
    return (notifier, reader, writer)


def _demo_state() -> Path:
    """A fixed place, emptied at each start: the demo servers keep one identity (and history) across runs."""
    from catalog_inspector.core.paths import cache_dir

    return cache_dir() / "demo-state"


def _run_until_closed(loop: qasync.QEventLoop, window: MainWindow, closed: asyncio.Future[None]) -> None:
    """Run the loop until the window has closed and its shutdown is done, whatever stops the loop first.

    Every way of quitting (QApplication.quit(), the Dock's Quit, a session
    ending) is Qt's Quit event: QApplication closes every window (ours then
    starts the shutdown, every session closed and every server gone, and hides
    itself) and stops the loop under it. The loop runs on until the shutdown is
    done. (An application event filter swallowing the Quit event did this before,
    at the price of a Python call for every event of every widget for the whole
    run, and ~8 ms of Qt type set-up before the first frame.)
    """
    closed.add_done_callback(lambda _: loop.stop())
    while True:
        loop.run_forever()
        if closed.done():
            return
        window.close()  # starts the shutdown if Qt did not close the window; a no-op once it is under way


def run_app(argv: list[str]) -> int:
    """The app: the main window at once, built without the engine; the engine imported behind it (`ui.startup`)."""
    args = _parse(argv)
    if args.self_test:
        from catalog_inspector.ui.self_test import isolated_home

        if args.config is not None:
            print("mcp-catalog-inspector: --self-test uses the bundled demo servers, not --config", file=sys.stderr)
            return 2
        with isolated_home():
            return _run(args)
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    problem = display_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    from contextlib import ExitStack

    from catalog_inspector.core.gc_pause import collector_paused

    # No cyclic collection until start-up is done (`freeze_startup_objects`): it only adds objects that stay
    # (modules, classes, widgets), and the ~110 collections that rescanned them took 25-50 ms of the first frame
    # on the 2-core machine. Turned on at the first paint, the young generation held all of them: one 20 ms pass.
    with ExitStack() as starting:
        starting.enter_context(collector_paused())
        return _run_qt(args, started=starting.close)


def _run_qt(args: argparse.Namespace, started: Callable[[], None]) -> int:
    from catalog_inspector.ui.preload import import_before_qt, without_pyside_reading_ours  # Qt-free

    import_before_qt()
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    without_pyside_reading_ours()  # before the window's modules are imported

    from catalog_inspector.core.paths import APP_NAME

    app = QApplication.instance() or QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)
    app.setApplicationName("MCP Catalog Inspector")
    app.setOrganizationName(APP_NAME)
    app.setDesktopFileName(APP_NAME)  # Wayland: names the installed .desktop entry, where the shell takes the icon
    app.setQuitOnLastWindowClosed(False)  # we quit once every session is closed
    demo_state = _demo_state()
    shutil.rmtree(demo_state, ignore_errors=True)
    demo_state.mkdir(parents=True, exist_ok=True)
    specs, problems, notice = read_servers(args.config, demo_state)
    return _run_main_window(app, args, specs, problems, notice, QSettings(APP_NAME, "app"), started)


def _run_main_window(
    app: QApplication,
    args: argparse.Namespace,
    specs: list[ServerSpec],
    problems: list[EntryProblem],
    notice: str,
    settings: QSettings,
    started: Callable[[], None],
) -> int:
    """Build the runtime and the main window without the engine, show it, import the engine behind it; run until
    the window has closed (`ui.startup`). `started` is called once start-up is done and its objects frozen."""
    import asyncio
    import gc

    import qasync

    from catalog_inspector.core.calls import CallStore
    from catalog_inspector.core.config import LaunchConsent, Limits, demo_servers
    from catalog_inspector.core.drift import DEFAULT_KEEP, History
    from catalog_inspector.core.paths import cache_dir, calls_dir, consent_file, history_dir, user_config_file
    from catalog_inspector.core.processes import ProcessRegistry
    from catalog_inspector.runtime import Offload, Runtime
    from catalog_inspector.runtime.engine import EngineGate
    from catalog_inspector.ui.loop import adopt_asyncgen_hooks, use_thread_pool
    from catalog_inspector.ui.main_window import MainWindow
    from catalog_inspector.ui.preload import late_imported, pyside_reads_ours
    from catalog_inspector.ui.presenters import AppPresenter
    from catalog_inspector.ui.startup import (
        engine_imported,
        engine_unloaded,
        first_paint,
        load_engine,
        probe,
        probe_states,
        sdk_bodies,
    )

    offload = Offload()
    registry = ProcessRegistry(cache_dir() / "sessions", submit=offload.submit)
    swept = registry.sweep()
    if swept:
        notice = (notice + "\n" if notice else "") + f"Stopped {len(swept)} server process(es) left by an earlier run."
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    adopt_asyncgen_hooks(loop)
    use_thread_pool(loop)
    history = History(history_dir(), keep_setting(settings.value("history/keep"), DEFAULT_KEEP))
    consent = LaunchConsent(consent_file())
    for spec in demo_servers(_demo_state()):
        consent.trust(spec)  # the bundled demo servers are this app's own code
    engine = EngineGate(loaded=False)
    runtime = Runtime(specs, Limits(), registry, offload, history, CallStore(calls_dir()), consent, problems, engine)
    presenter = AppPresenter(runtime)
    presenter.demo = demo_servers(_demo_state())
    window = MainWindow(presenter, settings, notice)
    follow_config(args.config or user_config_file(), presenter, window, read_now=False)
    closed = loop.create_future()
    window.closed.connect(lambda: closed.done() or closed.set_result(None))
    keep = _install_sigterm(app, window.close)
    probe_states(runtime)
    passed: list[bool] = []

    async def start() -> None:
        await first_paint(window.server_list.viewport())
        rows = window.servers.rowCount()
        probe(
            "window",
            engine=engine_imported(),
            late=late_imported(),
            pyside_reads_ours=pyside_reads_ours(),
            rows=rows,
            visible=window.isVisible(),
            collecting=gc.isenabled(),
        )
        from catalog_inspector.ui.self_test import process_age_ms  # not before the first frame: it needs none of it

        painted = process_age_ms()
        # The icon once the window is there: the SVG renderer's first use took ~10 ms of the first frame.
        app.setWindowIcon(app_icon())
        await load_engine(runtime)  # the walks asked for meanwhile start now; their servers start up meanwhile
        probe("engine", sdk=sdk_bodies(), unloaded=engine_unloaded())
        while window.pages.build_next():  # the other pages, one per turn: each is a frame's work or less
            await asyncio.sleep(0)
        probe("pages")
        # Reads on the offload threads, once the window is there: they would compete with building it.
        runtime.calls.load_all()
        runtime.config.probe_keyring()
        freeze_startup_objects()
        started()
        probe("started", collecting=gc.isenabled())
        prefer_the_gui_thread()
        if args.self_test:
            from catalog_inspector.ui.self_test import run_self_test

            passed.append(await run_self_test(window, painted))
            window.close()

    window.fit_screen()  # never larger than the screen (a 1280×800 laptop's, say)
    window.show()
    starting = loop.create_task(start())
    try:
        with loop:
            _run_until_closed(loop, window, closed)
            if not starting.done():  # quit while the engine loaded: the import thread finishes on its own
                starting.cancel()
            loop.run_until_complete(asyncio.gather(starting, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
    finally:
        registry.kill_all()
        del keep
    if args.self_test:
        print("self-test passed" if passed == [True] else "self-test FAILED", flush=True)
        return 0 if passed == [True] else 1
    return 0
