"""JUnit XML: the report every CI system shows as tests, one test case per item and check.

The document (Ant's JUnit schema, as Jenkins, GitLab, GitHub's test-report actions
and junitparser read it):

    <testsuites name="mcp-catalog-inspector" tests= failures= errors= skipped= time=>
      <testsuite name=SERVER …>          one per server report, in the order given
        <properties>                       command, status, tokens, the snapshot file
        <testcase classname="SERVER.CHECK" name="(catalog)">   the run itself, and each check's
                                           findings about the catalog as a whole
        <testcase classname="SERVER.CHECK" name="tools/NAME">   one per item and check

The run's own case belongs to the "walk" check (or, when no walk ran, to the
command): it always exists, so a server with an empty catalog is still one
passed test, and a run that did not finish is that case's `<error>`. A case
with error or warning findings has one `<failure>` (type = the worst finding's
code; its body lists them all); a case with notes only passes and lists them
in `<system-out>`. One result element per case: consumers count failed cases,
not findings, from those elements.

Server text is untrusted: ElementTree escapes markup, and `_clean` writes out
what XML 1.0 cannot hold at all (control characters, lone surrogates, U+FFFE/F)
and the characters that could hide or reorder text, as `\\uXXXX`, within caps.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from catalog_inspector.core.reports.model import CATALOG, NOTE, Finding, ServerReport, finding_order
from catalog_inspector.core.text import visible

__all__ = ["MAX_CASE_FINDINGS", "MESSAGE_LIMIT", "write_junit"]

TOOL = "mcp-catalog-inspector"
MAX_CASE_FINDINGS = 100  # findings listed in one case's body; the rest are counted
MESSAGE_LIMIT = 1000  # characters of one message (an attribute, or one line of a body)
NAME_LIMIT = 500  # characters of a server's or an item's name

# What XML 1.0 cannot hold (`visible` already writes out the controls and surrogates; U+FFFE and U+FFFF
# are unassigned, not hidden, so it keeps them).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: str, limit: int, keep_newlines: bool = False) -> str:
    """`text` cut to `limit`, with everything XML cannot hold or a reader cannot see written as `\\uXXXX`."""
    return _NOT_XML.sub(lambda match: f"\\u{ord(match.group()):04x}", visible(text, limit, keep_newlines))


def _line(finding: Finding) -> str:
    where = f" (at {finding.pointer})" if finding.pointer else ""
    return f"[{finding.severity}] {finding.rule_id}: {finding.message}{where}"


def _body(lines: Sequence[str]) -> str:
    shown = [_clean(line, MESSAGE_LIMIT) for line in lines[:MAX_CASE_FINDINGS]]
    if len(lines) > MAX_CASE_FINDINGS:
        shown.append(f"… and {len(lines) - MAX_CASE_FINDINGS} more")
    return "\n".join(shown)


@dataclass
class _Case:
    """One test case being built: where it is, and what was found there."""

    check: str
    name: str
    findings: list[Finding]
    run: bool = False  # the run's own case: carries the duration and the run's error


def _checks(report: ServerReport) -> list[str]:
    """The checks as given (each once), then any a finding names that was not given, sorted."""
    given = list(dict.fromkeys(report.checks))
    extra = sorted({finding.check for finding in report.findings} - set(given))
    return given + extra


def _cases(report: ServerReport) -> list[_Case]:
    """Every test case of a report, grouped by check; within a check the catalog first, then items sorted."""
    found: defaultdict[tuple[str, str], list[Finding]] = defaultdict(list)
    for finding in sorted(report.findings, key=finding_order):
        found[finding.check, finding.item].append(finding)
    checked = set(report.items) - {""}
    checks = _checks(report)
    run_check = "walk" if "walk" in checks else report.command
    cases: list[_Case] = []
    for check in dict.fromkeys([run_check, *checks]):
        if check == run_check or found.get((check, "")):
            cases.append(_Case(check, CATALOG, found.get((check, ""), []), run=check == run_check))
        # An item not among those checked (a removed one) has a case only for the checks that found it.
        items = checked | {item for (found_check, item) in found if found_check == check and item}
        if check in checks:
            cases.extend(_Case(check, item, found.get((check, item), [])) for item in sorted(items))
    return cases


def _case_element(report: ServerReport, case: _Case) -> tuple[ET.Element, str | None]:
    """The `<testcase>` of `case`, and "failure" or "error" when it did not pass."""
    server = _clean(report.server, NAME_LIMIT)
    element = ET.Element(
        "testcase",
        classname=f"{server}.{_clean(case.check, NAME_LIMIT)}",
        name=_clean(case.name, NAME_LIMIT),
        time=f"{report.duration_s if case.run else 0.0:.3f}",
    )
    lines = [_line(finding) for finding in case.findings]
    failing = [finding for finding in case.findings if finding.severity != NOTE]
    outcome: str | None = None
    if case.run and report.failed:
        outcome = "error"
        why = report.error if report.error is not None else f"the walk ended {report.status}"
        result = ET.SubElement(
            element, "error", type=_clean(report.status, NAME_LIMIT), message=_clean(why, MESSAGE_LIMIT)
        )
        result.text = _clean(why, MESSAGE_LIMIT, keep_newlines=True) + ("\n" + _body(lines) if lines else "")
    elif failing:
        outcome = "failure"
        first = failing[0]  # the worst: findings are in `finding_order`
        summary = first.message if len(failing) == 1 else f"{first.message} (and {len(failing) - 1} more)"
        result = ET.SubElement(
            element, "failure", type=_clean(first.code, NAME_LIMIT), message=_clean(summary, MESSAGE_LIMIT)
        )
        result.text = _body(lines)
    elif lines:
        ET.SubElement(element, "system-out").text = _body(lines)
    return element, outcome


def _properties(report: ServerReport) -> ET.Element:
    values = {"command": report.command, "status": report.status}
    tokens = report.tokens or {}
    for key in ("encoding", "total", "first_page", "baseline_total", "delta"):
        if key in tokens:
            values[f"tokens.{key}"] = str(tokens[key])
    if report.snapshot_file is not None:
        values["snapshot_file"] = report.snapshot_file
    element = ET.Element("properties")
    for name, value in values.items():
        ET.SubElement(element, "property", name=name, value=_clean(value, MESSAGE_LIMIT))
    return element


def _suite(report: ServerReport) -> tuple[ET.Element, dict[str, int]]:
    suite = ET.Element("testsuite", name=_clean(report.server, NAME_LIMIT))
    suite.append(_properties(report))
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for case in _cases(report):
        element, outcome = _case_element(report, case)
        suite.append(element)
        counts["tests"] += 1
        if outcome == "failure":
            counts["failures"] += 1
        elif outcome == "error":
            counts["errors"] += 1
    for key, value in counts.items():
        suite.set(key, str(value))
    suite.set("time", f"{report.duration_s:.3f}")
    return suite, counts


def write_junit(reports: Sequence[ServerReport]) -> str:
    """A JUnit XML document: one `<testsuite>` per report, in the order given (see the module's docstring).

    Deterministic: the same reports give the same bytes (no timestamp, no host name; cases sorted).
    """
    root = ET.Element("testsuites", name=TOOL)
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for report in reports:
        suite, counts = _suite(report)
        root.append(suite)
        for key, value in counts.items():
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{sum(report.duration_s for report in reports):.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
