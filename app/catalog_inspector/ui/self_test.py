"""`--self-test`: the installed app proves it works where it is, offscreen, in a throwaway home.

It runs the real start-up (window, runtime, the bundled demo servers as this
Python or this bundle starts them), walks the clean demo server, makes one test
call whose result is judged in the sandbox worker, closes everything and exits
0 when every step passed. The build script runs it on the frozen bundle, where
each of those steps has its own way to break (a module left out, a helper
process that starts the app instead of itself, a missing Qt plugin).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from catalog_inspector.runtime import ServerSupervisor
    from catalog_inspector.ui.main_window import MainWindow

__all__ = ["isolated_home", "process_age_ms", "run_self_test"]

STEP_TIMEOUT = 60.0  # seconds per step: a cold bundle on a slow disk, not a hang
CALL_TEXT = "self-test"


@contextmanager
def isolated_home() -> Iterator[str]:
    """Offscreen, with config, cache and data in a temporary home: the user's files are never read or written."""
    home = tempfile.mkdtemp(prefix="mcp-catalog-inspector-self-test-")
    saved = {
        key: os.environ.get(key)
        for key in ("QT_QPA_PLATFORM", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
    }
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    for key in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        os.environ[key] = os.path.join(home, key.removeprefix("XDG_").removesuffix("_HOME").lower())
    try:
        yield home
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        shutil.rmtree(home, ignore_errors=True)


def process_age_ms() -> float | None:
    """Milliseconds since this process started (Linux: from /proc), or None where that cannot be read."""
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
            now = float(uptime.read().split()[0])
        return (now - started_ticks / os.sysconf("SC_CLK_TCK")) * 1000
    except (OSError, ValueError, IndexError):
        return None


async def _until(signal: Any, condition: Callable[[], bool], what: str) -> None:
    """Wait until `condition()` holds, checked whenever `signal` fires, for at most STEP_TIMEOUT."""
    if condition():
        return
    done = asyncio.get_running_loop().create_future()

    def check(*_: object) -> None:
        if condition() and not done.done():
            done.set_result(None)

    signal.connect(check)
    try:
        await asyncio.wait_for(done, STEP_TIMEOUT)
    except TimeoutError:
        raise AssertionError(f"{what}: nothing after {STEP_TIMEOUT:g} s") from None
    finally:
        signal.disconnect(check)


async def run_self_test(window: MainWindow, shown_ms: float | None, say: Callable[[str], None] = print) -> bool:
    """The steps after the window is shown; each says `ok:` or `FAILED:`. True if every one passed."""
    from catalog_inspector.core.config import DEMO_MODES

    try:
        say(
            f"ok: window shown {shown_ms:.0f} ms after the process started"
            if shown_ms is not None
            else "ok: window shown"
        )
        name = DEMO_MODES[0][0]
        if not window.select_server(name):
            raise AssertionError(f"the demo server {name!r} is not in the sidebar")
        presenter = window.current
        assert presenter is not None
        supervisor = presenter.supervisor  # the self-test drives the engine itself, as a script would
        await _walk(supervisor)
        tools = [tool.get("name") for tool in supervisor.accepted.tools.items] if supervisor.accepted else []
        say(f"ok: walked {name!r}: {len(tools)} tools {tools}")
        await _call(supervisor, say)
    except AssertionError as exc:
        say(f"FAILED: {exc}")
        return False
    return True


async def _walk(supervisor: ServerSupervisor) -> None:
    from catalog_inspector.runtime.supervisor import ServerState

    def settled() -> bool:
        return supervisor.accepted is not None or supervisor.state is ServerState.FAILED

    await _until(supervisor.state_changed, settled, "walking the demo server")
    if supervisor.accepted is None:
        error = supervisor.attempt.snapshot.error if supervisor.attempt and supervisor.attempt.snapshot else None
        raise AssertionError(f"the demo server's walk failed: {error.message if error else 'no catalog'}")


async def _call(supervisor: ServerSupervisor, say: Callable[[str], None]) -> None:
    outcomes: list[Any] = []
    ticket = supervisor.call_tool("echo", {"text": CALL_TEXT})
    if ticket is None:
        raise AssertionError("no live session to call echo on")

    def finished(done: object, outcome: object) -> None:
        if done is ticket:
            outcomes.append(outcome)

    supervisor.call_finished.connect(finished)
    try:
        await _until(supervisor.call_finished, lambda: bool(outcomes), "calling echo")
    finally:
        supervisor.call_finished.disconnect(finished)
    outcome = outcomes[0]
    structured = (outcome.result or {}).get("structuredContent")
    if outcome.layer != "ok" or not isinstance(structured, dict) or structured.get("text") != CALL_TEXT:
        raise AssertionError(f"echo answered {outcome.layer}: {structured!r}")
    verdict = outcome.verdict
    if verdict is None or verdict.verdict != "valid":
        raise AssertionError(f"echo's result was not judged valid against its output schema: {verdict!r}")
    say(f"ok: called echo in {outcome.latency_ms:.0f} ms: {structured}; the result matches its output schema")
