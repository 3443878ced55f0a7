"""The layers hold: core never imports Qt, and the data modules import no SDK or network stack."""

from __future__ import annotations

import subprocess
import sys

QT_FREE = """
import sys
sys.modules["PySide6"] = None
sys.modules["qasync"] = None
import catalog_inspector.core as core
import catalog_inspector.core.worker, catalog_inspector.core.calls, catalog_inspector.cli
import catalog_inspector.demo.server
assert not any(m.startswith(("PySide6", "qasync", "catalog_inspector.ui", "catalog_inspector.runtime")) for m in sys.modules if sys.modules[m] is not None)
print("ok")
"""

SDK_FREE = """
import sys
for blocked in ("mcp", "mcp_types", "anyio", "httpx2", "pydantic", "PySide6", "qasync"):
    sys.modules[blocked] = None
import catalog_inspector.core as core
from catalog_inspector.core import errors, lists, snapshot, text
doc = snapshot.Snapshot.from_json({"format": snapshot.FORMAT, "status": "complete", "resources": {"status": "not_offered"},
    "resource_templates": {"status": "not_offered"}, "prompts": {"status": "not_offered"}})
assert doc.tools.status == "complete"
print("ok")
"""


def _run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)


def test_core_and_cli_import_without_qt() -> None:
    out = _run(QT_FREE)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_snapshots_lists_and_errors_import_without_the_sdk_or_the_network_stack() -> None:
    out = _run(SDK_FREE)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
