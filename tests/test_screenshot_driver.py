"""packaging/screenshot_driver.py still drives the real app to the README's pictures (offscreen here)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parents[1]
PICTURES = ("screenshot.png", "screenshot-drift.png", "screenshot-call.png")
DARK = "screenshot-dark.png"


def run_driver(tmp_path: Path, *options: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("XDG_")}
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[name] = str(tmp_path / name.lower())  # a new user: no servers.json, so the bundled demo servers
    env["QT_QPA_PLATFORM"] = "offscreen"
    out = tmp_path / "pictures"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "screenshot_driver.py"), *options, str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=110,
    )
    return proc, out


@pytest.mark.long
def test_the_driver_takes_the_three_pictures_of_the_bundled_demo_set(tmp_path: Path) -> None:
    proc, out = run_driver(tmp_path)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "Traceback" not in proc.stderr and "Exception in callback" not in proc.stderr, proc.stderr[-4000:]
    for name in PICTURES:
        image = QImage(str(out / name))
        assert (image.width(), image.height()) == (1400, 860), name
    assert not (out / DARK).exists()


@pytest.mark.long
def test_the_driver_takes_the_dark_picture_in_a_dark_palette(tmp_path: Path) -> None:
    proc, out = run_driver(tmp_path, "--dark")
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "Traceback" not in proc.stderr and "Exception in callback" not in proc.stderr, proc.stderr[-4000:]
    assert sorted(path.name for path in out.iterdir()) == [DARK]
    image = QImage(str(out / DARK))
    assert (image.width(), image.height()) == (1400, 860)
    assert image.pixelColor(700, 500).lightness() < 80, "the window is dark"


def test_every_picture_the_readme_shows_is_there() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in (*PICTURES, DARK):
        assert f"](resources/{name})" in readme, f"the README does not show {name}"
        image = QImage(str(ROOT / "resources" / name))
        assert (image.width(), image.height()) == (1400, 860), name
