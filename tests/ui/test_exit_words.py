"""The README's claim: when a stdio server exits, the banner quotes its last stderr lines, in the words the CLI
uses (one builder, `core.errors.last_words`). Also for a server that dies once it is talking: after the handshake,
or at its first tools/list, closing its pipes a moment before its exit code comes (an SDK server's teardown)."""

from __future__ import annotations

import pytest

from catalog_inspector.runtime import ServerState
from tests.cli_runner import ROOT, run_cli
from tests.fixtures.exiting_server import EXIT_CODE, LAST_WORDS
from tests.helpers import fixture_spec
from tests.ui.conftest import Harness, wait_for
from tests.ui.test_main_window import banner_text

EXITED = f"the server process exited (exit code {EXIT_CODE})"


@pytest.mark.parametrize("when", ["handshake", "tools/list"])
def test_the_banner_says_what_the_cli_says_of_a_server_that_exits(harness: Harness, qtbot, when: str) -> None:  # type: ignore[no-untyped-def]
    spec = fixture_spec("exiting_server", "exits", "--when", when)
    proc = run_cli("snapshot", "--", spec.command, *spec.args, cwd=ROOT, timeout=60)
    assert proc.returncode == 4
    (line,) = proc.stderr.strip().splitlines()
    assert line.endswith(f": {EXITED}; the server's last stderr lines: starting the server… | {LAST_WORDS}"), line

    window = harness.window([spec])
    wait_for(
        qtbot,
        lambda: (
            window.current is not None
            and window.current.supervisor.state is ServerState.FAILED
            and not window.current.supervisor.busy
        ),
    )
    said = f"{EXITED}\nThe server's last stderr lines:\nstarting the server…\n{LAST_WORDS}"
    assert said in banner_text(window), "the banner says what the CLI says, a line each"
