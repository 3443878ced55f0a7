"""The core layer never imports Qt: it imports and works with PySide6 made unimportable."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
sys.modules["PySide6"] = None
sys.modules["qasync"] = None
import catalog_inspector.core as core
import catalog_inspector.core.worker, catalog_inspector.core.calls, catalog_inspector.cli
import catalog_inspector.demo.server
assert not any(m.startswith(("PySide6", "qasync", "catalog_inspector.ui", "catalog_inspector.runtime")) for m in sys.modules if sys.modules[m] is not None)
print("ok")
"""


def test_core_and_cli_import_without_qt() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
