"""SARIF 2.1.0: the report code-scanning services read (GitHub code scanning, Azure DevOps, IDE viewers).

One run for all the server reports, its driver "mcp-catalog-inspector":

    rules      one per distinct `check/code` ("lint/array_without_items", "drift/removed"), sorted by id
    results    one per finding, in server order, then `finding_order` (worst first); each with
               a physical location (the snapshot file, when one was written) and a logical one
               (the item, with the JSON pointer in its properties), the pointer also in
               `result.properties.pointer`
    invocation one, `executionSuccessful` false when any server's run did not finish; each such
               run is a tool execution notification (a failure of the tool, not a finding)

Deterministic: no time or duration is written and everything is sorted, so two runs over
the same catalogs give the same document and a diff of two shows what changed.

Server text is untrusted. JSON escaping keeps it from breaking the document; messages
go in `message.text` (plain text, which viewers do not render as Markdown) with
invisible and direction-changing characters written out as `\\uXXXX`, within a cap.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from catalog_inspector.core.reports.model import ERROR, SEVERITIES, WARNING, Finding, ServerReport, finding_order
from catalog_inspector.core.text import visible

__all__ = ["MAX_RESULTS", "SCHEMA_URI", "artifact_uri", "write_sarif"]

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL = "mcp-catalog-inspector"
MAX_RESULTS = 25_000  # GitHub code scanning refuses an upload with more results in a run
MESSAGE_LIMIT = 2000  # characters of one message
_TOKEN_KEYS = ("encoding", "total", "first_page", "baseline_total", "delta")  # not the per-tool map: it can be huge


def _text(text: str) -> str:
    return visible(text, MESSAGE_LIMIT)


def artifact_uri(path: str) -> str:
    """`path` as a SARIF artifact URI: a `file://` URI when absolute, else a relative reference, percent-encoded.

    SARIF wants URI references (`uri-reference`), not paths: a space or `#` in a file name would
    otherwise be read as something else, and a Windows path's backslashes are not separators in a URI.
    """
    pure = PurePath(path)
    if pure.is_absolute():
        return pure.as_uri()
    return quote(pure.as_posix(), safe="/")


def _rules(findings: Sequence[Finding]) -> tuple[list[str], list[dict[str, Any]]]:
    """The rule ids, sorted, and one rule per `check/code`: its help the first given, its level the worst seen."""
    helps: dict[str, str] = {}
    levels: dict[str, str] = {}
    parts: dict[str, tuple[str, str]] = {}  # not split back from the id: a check or code may hold a "/"
    for finding in findings:
        rule = finding.rule_id
        parts[rule] = (finding.check, finding.code)
        if finding.rule_help and not helps.get(rule):
            helps[rule] = finding.rule_help
        if rule not in levels or SEVERITIES.index(finding.severity) < SEVERITIES.index(levels[rule]):
            levels[rule] = finding.severity
    rules = []
    for rule in sorted(levels):
        check, code = parts[rule]
        help_text = _text(helps.get(rule) or f"{check}: {code}")
        entry: dict[str, Any] = {"id": _text(rule), "shortDescription": {"text": help_text}}
        if rule in helps:
            entry["fullDescription"] = {"text": help_text}
        entry["defaultConfiguration"] = {"level": levels[rule]}
        entry["properties"] = {"check": _text(check), "code": _text(code)}
        rules.append(entry)
    return sorted(levels), rules


def _locations(report: ServerReport, finding: Finding) -> list[dict[str, Any]]:
    location: dict[str, Any] = {}
    if report.snapshot_file is not None:
        location["physicalLocation"] = {"artifactLocation": {"uri": artifact_uri(report.snapshot_file)}}
    logical: dict[str, Any] = {}
    if finding.item:
        logical["fullyQualifiedName"] = _text(finding.item)
    if finding.pointer:
        logical["properties"] = {"pointer": finding.pointer}
    if logical:
        location["logicalLocations"] = [logical]
    return [location] if location else []


def _result(report: ServerReport, finding: Finding, index: dict[str, int]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": _text(finding.rule_id),
        "ruleIndex": index[finding.rule_id],
        "level": finding.severity,
        "message": {"text": _text(finding.message)},
    }
    locations = _locations(report, finding)
    if locations:
        result["locations"] = locations
    # The pointer is not cut or escaped: it is the key a reader follows into the snapshot, and JSON holds it whole.
    result["properties"] = {"server": _text(report.server), "item": _text(finding.item), "pointer": finding.pointer}
    return result


def _server(report: ServerReport) -> dict[str, Any]:
    """What a run was, for `run.properties.servers` (no duration: the document stays the same run to run)."""
    entry: dict[str, Any] = {"server": _text(report.server), "command": report.command, "status": _text(report.status)}
    if report.tokens is not None:
        entry["tokens"] = {key: report.tokens[key] for key in _TOKEN_KEYS if key in report.tokens}
    if report.snapshot_file is not None:
        entry["snapshotFile"] = artifact_uri(report.snapshot_file)
    if report.error is not None:
        entry["error"] = _text(report.error)
    return entry


def _invocation(reports: Sequence[ServerReport], left_out: int) -> dict[str, Any]:
    notes = [
        {
            "level": ERROR,
            "message": {"text": _text(f"{report.server}: {report.error or f'the walk ended {report.status}'}")},
        }
        for report in reports
        if report.failed
    ]
    if left_out:
        notes.append({"level": WARNING, "message": {"text": f"{left_out} more results were left out"}})
    invocation: dict[str, Any] = {"executionSuccessful": not any(report.failed for report in reports)}
    if notes:
        invocation["toolExecutionNotifications"] = notes
    return invocation


def _kept(reports: Sequence[ServerReport]) -> tuple[list[tuple[ServerReport, Finding]], int]:
    """The findings to write, in server order and `finding_order` within each, and how many were left out.

    Over `MAX_RESULTS`, the worst are kept across all servers (errors before warnings before notes).
    """
    ordered = [(report, finding) for report in reports for finding in sorted(report.findings, key=finding_order)]
    if len(ordered) <= MAX_RESULTS:
        return ordered, 0
    worst_first = sorted(range(len(ordered)), key=lambda at: (finding_order(ordered[at][1])[0], at))
    return [ordered[at] for at in sorted(worst_first[:MAX_RESULTS])], len(ordered) - MAX_RESULTS


def write_sarif(reports: Sequence[ServerReport], tool_version: str) -> dict[str, Any]:
    """A SARIF 2.1.0 log of `reports` (see the module's docstring), as a JSON-ready dict.

    At most `MAX_RESULTS` results; the count of those left out (the least severe) is a tool
    execution notification.
    """
    kept, left_out = _kept(reports)
    ids, rules = _rules(sorted((finding for _, finding in kept), key=finding_order))
    index = {rule_id: at for at, rule_id in enumerate(ids)}
    run: dict[str, Any] = {
        "tool": {"driver": {"name": TOOL, "version": tool_version, "rules": rules}},
        "invocations": [_invocation(reports, left_out)],
        "results": [_result(report, finding, index) for report, finding in kept],
        "properties": {"servers": [_server(report) for report in reports]},
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
