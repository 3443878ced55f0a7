"""The same server gives the same snapshot, byte for byte, whatever the walk's inside is made of.

The goldens in tests/fixtures/golden/ were written by the code before the performance work of
issue 24 (commit 0642e9b): a faster walk must not change one byte of what it reports. Only
what differs from one run to the next is masked (times, durations, the demo's random cursors,
the interpreter's path in the source); everything else is compared as the CLI wrote it.

    REGENERATE_GOLDEN=1 pytest tests/test_snapshot_golden.py   # after a deliberate change of format
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli_runner import run_cli
from tests.helpers import REAL_DEMO as DEMO  # the golden files hold the real command line

GOLDEN = Path(__file__).parent / "fixtures" / "golden"
FIXTURES = [sys.executable, "-m"]
SERVERS = {
    "demo-normal": [*DEMO, "--mode", "normal"],
    "demo-many": [*DEMO, "--mode", "many", "--tools", "250", "--page-size", "100"],
    "demo-legacy": [*DEMO, "--mode", "normal", "--legacy"],
    "annotations": [*FIXTURES, "tests.fixtures.annotations_server"],
}
VOLATILE = {"taken_at", "duration_ms", "latency_ms"}
CURSORS = {"cursor", "next_cursor"}


def _masked(value: Any, cursors: dict[str, str]) -> Any:
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in VOLATILE and item is not None:
                out[key] = "<volatile>"
            elif key in CURSORS and isinstance(item, str):
                out[key] = cursors.setdefault(item, f"<cursor {len(cursors)}>")
            else:
                out[key] = _masked(item, cursors)
        return out
    if isinstance(value, list):
        return [_masked(item, cursors) for item in value]
    if isinstance(value, str):
        return value.replace(sys.executable, "<python>")
    return value


def _text(document: str) -> str:
    return json.dumps(_masked(json.loads(document), {}), indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("name", SERVERS)
def test_the_snapshot_of_a_known_server_is_what_it_always_was(name: str, tmp_path: Path) -> None:
    out = tmp_path / "snapshot.json"
    proc = run_cli("snapshot", "--out", str(out), "--", *SERVERS[name], timeout=60)
    assert proc.returncode in (0, 3), proc.stderr
    text = _text(out.read_text())
    golden = GOLDEN / f"{name}.json"
    if os.environ.get("REGENERATE_GOLDEN"):
        golden.write_text(text)
    assert text == golden.read_text(), f"the snapshot of {name} changed"
