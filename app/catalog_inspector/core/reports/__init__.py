"""Reports CI systems read: one neutral model of what a command found, written as JUnit, Markdown or SARIF.

Holds `model` (`Finding`, `ServerReport`, the three severities and the drift mapping),
`junit` (a test case per item and check), `markdown` (a pull-request comment, within
GitHub's limit), `sarif` (SARIF 2.1.0 for code scanning) and `output` (the
`--report FORMAT=FILE` option, and writing each file whole or not at all).
No SDK, no Qt. Imports core's shared modules only (`text`, `files`): the CLI turns
drift, lint, pins, tokens and calls into findings, so this room needs none of them.
"""

from __future__ import annotations

from catalog_inspector.core.reports.junit import write_junit
from catalog_inspector.core.reports.markdown import COMMENT_LIMIT, write_markdown
from catalog_inspector.core.reports.model import (
    CATALOG,
    ERROR,
    NOTE,
    SEVERITIES,
    WARNING,
    Finding,
    ServerReport,
    finding_order,
    severity_counts,
    severity_of_drift,
)
from catalog_inspector.core.reports.output import (
    FORMATS,
    STDOUT,
    parse_report_option,
    render_report,
    write_reports,
)
from catalog_inspector.core.reports.sarif import write_sarif

__all__ = [
    "CATALOG",
    "COMMENT_LIMIT",
    "ERROR",
    "FORMATS",
    "NOTE",
    "SEVERITIES",
    "STDOUT",
    "WARNING",
    "Finding",
    "ServerReport",
    "finding_order",
    "parse_report_option",
    "render_report",
    "severity_counts",
    "severity_of_drift",
    "write_junit",
    "write_markdown",
    "write_reports",
    "write_sarif",
]
