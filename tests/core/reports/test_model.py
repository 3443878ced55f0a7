"""The neutral model: severities checked on construction, core.drift's mapped, one order for every writer."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from catalog_inspector.core.drift import Severity
from catalog_inspector.core.reports import Finding, finding_order, severity_counts, severity_of_drift
from tests.core.reports.samples import failed, ordinary


def test_drift_severities_map_to_sarif_levels() -> None:
    assert severity_of_drift(Severity.BREAKING) == "error"
    assert severity_of_drift(Severity.WARNING) == "warning"
    assert severity_of_drift(Severity.INFO) == "note"
    assert {severity_of_drift(member) for member in Severity} == {"error", "warning", "note"}


def test_an_unknown_drift_severity_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'critical' is not a drift severity"):
        severity_of_drift("critical")


def test_a_finding_with_a_misspelt_severity_cannot_be_made() -> None:
    with pytest.raises(ValueError, match="'err' is not a report severity"):
        Finding("lint", "x", "err", "message")


def test_the_rule_id_is_check_slash_code() -> None:
    assert Finding("lint", "array_without_items", "warning", "m").rule_id == "lint/array_without_items"


def test_a_run_failed_when_it_has_an_error_or_its_walk_failed_or_was_rejected() -> None:
    assert failed().failed
    assert not ordinary().failed
    rejected = ordinary().__class__(**{**ordinary().__dict__, "status": "rejected"})
    assert rejected.failed


def test_findings_sort_worst_first_then_by_check_code_item_pointer_message() -> None:
    findings = [
        Finding("lint", "b", "note", "m", "tools/a"),
        Finding("drift", "removed", "error", "m2", "tools/b"),
        Finding("drift", "removed", "error", "m1", "tools/b"),
        Finding("drift", "changed", "warning", "m", "tools/a", "/tools/0/description"),
        Finding("drift", "added", "warning", "m", "tools/a"),
        Finding("drift", "removed", "error", "m", "tools/a"),
    ]
    expected = [findings[5], findings[2], findings[1], findings[4], findings[3], findings[0]]
    for seed in range(5):
        shuffled = findings[:]
        random.Random(seed).shuffle(shuffled)
        assert sorted(shuffled, key=finding_order) == expected


def test_severity_counts_name_all_three_even_when_none_was_found() -> None:
    assert severity_counts([]) == {"error": 0, "warning": 0, "note": 0}
    assert severity_counts(ordinary().findings) == {"error": 1, "warning": 1, "note": 1}


ROOM_ALONE = """
import sys
for blocked in ("mcp", "mcp_types", "httpx2", "pydantic", "PySide6", "qasync"):
    sys.modules[blocked] = None
from catalog_inspector.core.reports import Finding, ServerReport, render_report
report = ServerReport("s", "check", "complete", ("lint",), ("tools/a",), (Finding("lint", "x", "error", "m", "tools/a"),))
for fmt in ("junit", "markdown", "sarif"):
    assert render_report(fmt, [report], "1") 
rooms = sorted(m for m in sys.modules if m.startswith("catalog_inspector.core.") and m.count(".") >= 2
               and m.split(".")[2] in ("catalog", "drift", "calls", "session", "transport", "config", "oauth"))
assert not rooms, rooms
print("ok")
"""


def test_reports_are_written_without_the_sdk_qt_or_any_other_room() -> None:
    out = subprocess.run([sys.executable, "-c", ROOM_ALONE], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
