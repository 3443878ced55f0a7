"""A Markdown summary fit for a pull-request comment (GitHub Flavored Markdown).

    ## MCP catalog inspector
    **❌ 2 errors, 1 warning** in 2 servers          (or ✅ All checks passed)
    | Server | Command | Status | Errors | Warnings | Notes | Tokens | Δ tokens |
    ### ❌ Errors (2)          runs that did not finish first, then error findings
    ### ⚠️ Warnings (1)
    <details> Notes (3)        collapsed
    ### Tokens                 per server: total, first page, baseline, delta

Server text is untrusted and must stay text. `_text` writes it on one line (line
breaks and invisible characters as `\\uXXXX`), backslash-escapes every ASCII
punctuation character (CommonMark's escapes: no emphasis, link, image, raw HTML,
entity or table pipe survives), and follows each `@` and `#` with an empty HTML
comment of ours, which splits the text where GitHub would make a mention, an
issue reference or an e-mail link (escapes do not stop those: they are found in the
rendered text). Names (items, rule ids, pointers) go in code spans whose fence is
longer than any backtick run they hold. No HTML comes from a server: the only tags
are our own `<details>`, `<summary>` and the empty comments.

The whole stays under a limit (GitHub refuses a comment over 65,536 characters,
counted in UTF-16 units): lines are added while they fit, and each list that did
not fit ends with "… and N more".
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from catalog_inspector.core.reports.model import (
    ERROR,
    NOTE,
    WARNING,
    Finding,
    ServerReport,
    finding_order,
    severity_counts,
)
from catalog_inspector.core.text import visible

__all__ = ["COMMENT_LIMIT", "DEFAULT_LIMIT", "MIN_LIMIT", "write_markdown"]

COMMENT_LIMIT = 65_536  # GitHub's limit on a comment's body, in characters (UTF-16 units)
DEFAULT_LIMIT = 60_000  # ours: room for a line or two a CI step adds around the report
MESSAGE_LIMIT = 500  # characters of one message, before escaping
NAME_LIMIT = 200  # characters of a server's or an item's name, before escaping
# The forced lines (headings, "… and N more", closing tags; none holds server text) fit in this.
_RESERVE = 3_000
MIN_LIMIT = 2 * _RESERVE  # a smaller limit could not hold the headings

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character: CommonMark escapes each
_BREAK_AFTER = re.compile(r"([@#])")  # mentions, issue references, e-mail links: found in rendered text
_BACKTICKS = re.compile(r"`+")
_HEADINGS = {ERROR: "❌ Errors", WARNING: "⚠️ Warnings", NOTE: "Notes"}


def _text(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Untrusted `text` as inline Markdown that renders as exactly that text, on one line."""
    escaped = _PUNCTUATION.sub(r"\\\1", visible(text, limit))
    return _BREAK_AFTER.sub(r"\1<!-- -->", escaped)


def _code(text: str, limit: int = NAME_LIMIT) -> str:
    """Untrusted `text` as a code span (not for table cells: a pipe would still end the cell)."""
    shown = visible(text, limit)
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(shown)), default=0) + 1)
    # A span that starts or ends with a backtick (or a space) is padded: CommonMark strips one space each side.
    pad = " " if shown[:1] in ("`", " ") or shown[-1:] in ("`", " ") else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def _units(text: str) -> int:
    """The length of `text` as GitHub counts it: UTF-16 code units."""
    return len(text) if text.isascii() else len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


class _Budget:
    """The lines of the document, within a limit in UTF-16 units.

    `take` adds a line only if it leaves the reserve untouched; `force` always adds (headings, closing
    tags, "… and N more": short, and never server text), living off the reserve.
    """

    def __init__(self, limit: int) -> None:
        self.lines: list[str] = []
        self._left = limit
        self.full = False  # once a line did not fit, no later optional line is tried (the order stays readable)

    def take(self, line: str) -> bool:
        cost = _units(line) + 1  # and its line break
        if self.full or cost > self._left - _RESERVE:
            self.full = True
            return False
        self.lines.append(line)
        self._left -= cost
        return True

    def force(self, line: str) -> None:
        self.lines.append(line)
        self._left -= _units(line) + 1


def _number(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else _text(str(value), 40)


def _delta(value: Any) -> str:
    if not isinstance(value, int) or isinstance(value, bool):
        return _text(str(value), 40)
    return ("+" if value > 0 else "−" if value < 0 else "±") + f"{abs(value):,}"


def _more(left_out: int, shown: int) -> str:
    """`… and 12 more` after a list that showed some, `… 12 more` in place of one that showed none."""
    return f"… and {left_out:,} more" if shown else f"… {left_out:,} more"


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}" + ("" if count == 1 else "s")


def _headline(reports: Sequence[ServerReport]) -> str:
    counts = severity_counts(finding for report in reports for finding in report.findings)
    failed = sum(1 for report in reports if report.failed)
    servers = _plural(len(reports), "server")
    notes = f" ({_plural(counts[NOTE], 'note')})" if counts[NOTE] else ""
    if failed or counts[ERROR]:
        parts = [f"{_plural(failed, 'server')} did not finish"] if failed else []
        parts += [_plural(counts[ERROR], "error"), _plural(counts[WARNING], "warning")]
        return f"**❌ {', '.join(parts)}** in {servers}{notes}"
    if counts[WARNING]:
        return f"**⚠️ {_plural(counts[WARNING], 'warning')}** in {servers}{notes}"
    return f"**✅ All checks passed** in {servers}{notes}"


def _row(report: ServerReport) -> str:
    counts = severity_counts(report.findings)
    tokens = report.tokens or {}
    cells = [
        _text(report.server, NAME_LIMIT) or "(unnamed)",
        _text(report.command, NAME_LIMIT),
        _text(report.status, NAME_LIMIT),
        *(str(counts[severity]) for severity in (ERROR, WARNING, NOTE)),
        _number(tokens["total"]) if "total" in tokens else "",
        _delta(tokens["delta"]) if "delta" in tokens else "",
    ]
    return "| " + " | ".join(cells) + " |"


def _table(budget: _Budget, reports: Sequence[ServerReport]) -> None:
    budget.force("| Server | Command | Status | Errors | Warnings | Notes | Tokens | Δ tokens |")
    budget.force("|---|---|---|--:|--:|--:|--:|--:|")
    shown = 0
    for report in reports:
        if not budget.take(_row(report)):
            break
        shown += 1
    if shown < len(reports):
        budget.force(f"| {_more(len(reports) - shown, shown)} servers | | | | | | | |")


def _finding_line(report: ServerReport, finding: Finding) -> str:
    where = [_code(finding.item)] if finding.item else []
    at = f" (at {_code(finding.pointer)})" if finding.pointer else ""
    head = " ".join([f"**{_text(report.server, NAME_LIMIT) or '(unnamed)'}**", *where, _code(finding.rule_id)])
    return f"- {head}: {_text(finding.message)}{at}"


def _run_line(report: ServerReport) -> str:
    why = report.error if report.error is not None else f"the walk ended {report.status}"
    return (
        f"- **{_text(report.server, NAME_LIMIT) or '(unnamed)'}** did not finish ({_text(report.status)}): {_text(why)}"
    )


def _lines(reports: Sequence[ServerReport], severity: str) -> Iterator[str]:
    if severity == ERROR:
        yield from (_run_line(report) for report in reports if report.failed)
    for report in reports:
        for finding in sorted(report.findings, key=finding_order):
            if finding.severity == severity:
                yield _finding_line(report, finding)


def _section(budget: _Budget, reports: Sequence[ServerReport], severity: str) -> None:
    total = sum(1 for report in reports for finding in report.findings if finding.severity == severity)
    if severity == ERROR:
        total += sum(1 for report in reports if report.failed)
    if not total:
        return
    heading = f"{_HEADINGS[severity]} ({total:,})"
    if severity == NOTE:  # collapsed: notes are for the record, and would push the rest down
        budget.force(f"<details><summary>{heading}</summary>")
    else:
        budget.force(f"### {heading}")
    budget.force("")
    shown = 0
    for line in _lines(reports, severity):
        if not budget.take(line):
            break
        shown += 1
    if shown < total:
        budget.force(f"- {_more(total - shown, shown)} (the JUnit and SARIF reports list them all)")
    budget.force("")
    if severity == NOTE:
        budget.force("</details>")
        budget.force("")


def _tokens(budget: _Budget, reports: Sequence[ServerReport]) -> None:
    counted = [report for report in reports if report.tokens and "total" in report.tokens]
    if not counted:
        return
    budget.force("### Tokens")
    budget.force("")
    budget.force("| Server | Encoding | Total | First page | Baseline | Δ |")
    budget.force("|---|---|--:|--:|--:|--:|")
    shown = 0
    for report in counted:
        tokens = report.tokens or {}
        cells = [
            _text(report.server, NAME_LIMIT) or "(unnamed)",
            _text(str(tokens.get("encoding", "")), 40),
            *(_number(tokens[key]) if key in tokens else "" for key in ("total", "first_page", "baseline_total")),
            _delta(tokens["delta"]) if "delta" in tokens else "",
        ]
        if not budget.take("| " + " | ".join(cells) + " |"):
            break
        shown += 1
    if shown < len(counted):
        budget.force(f"| {_more(len(counted) - shown, shown)} servers | | | | | |")
    budget.force("")


def write_markdown(reports: Sequence[ServerReport], limit: int = DEFAULT_LIMIT) -> str:
    """A pull-request comment summarising `reports` (see the module's docstring).

    Args:
        reports: the server reports, in the order their rows and findings are listed.
        limit: the most UTF-16 units the text may have (`DEFAULT_LIMIT` is under GitHub's `COMMENT_LIMIT`).

    Raises:
        ValueError: `limit` is under `MIN_LIMIT`.
    """
    if limit < MIN_LIMIT:
        raise ValueError(f"a Markdown report needs a limit of at least {MIN_LIMIT:,} characters, not {limit:,}")
    budget = _Budget(limit)
    budget.force("## MCP catalog inspector")
    budget.force("")
    budget.force(_headline(reports))
    budget.force("")
    if reports:
        _table(budget, reports)
        budget.force("")
    for severity in (ERROR, WARNING, NOTE):
        _section(budget, reports, severity)
    _tokens(budget, reports)
    return "\n".join(budget.lines).rstrip("\n") + "\n"
