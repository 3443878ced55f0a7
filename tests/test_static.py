"""The house rules a checker can see: strict typing of the package, and lint."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_type_checks_strictly() -> None:
    out = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr


def test_lint_is_clean() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "app", "tests"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_code_is_formatted() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "app", "tests", "packaging"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
