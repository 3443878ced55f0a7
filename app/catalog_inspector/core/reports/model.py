"""The neutral model every report format is written from: findings, and one report per server.

A `Finding` is one thing a check found (a lint issue, a drift change, a changed
pin, a token budget passed, a call outcome); a `ServerReport` is what one
command did with one server: which checks ran over which items, and what they
found. The writers (`junit`, `markdown`, `sarif`) read nothing else, so the CLI
builds these once and every `--report` format says the same thing.

Severities are SARIF's three levels, the strictest vocabulary of the three
formats (JUnit has only pass and fail, Markdown has none):

    error    a CI run should fail: a breaking drift change, a failed call, a lint error
    warning  worth a look, fails a JUnit test case, but a run need not stop for it
    note     for the record: shown, never a failure

Text in a finding may come from the server (tool names, descriptions, error
messages): the model holds it as it came, and each writer escapes it for its format.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CATALOG",
    "ERROR",
    "FAILED_STATUSES",
    "NOTE",
    "SEVERITIES",
    "WARNING",
    "Finding",
    "ServerReport",
    "finding_order",
    "severity_counts",
    "severity_of_drift",
]

ERROR = "error"  # a CI run should fail on it
WARNING = "warning"  # worth a look; fails its JUnit test case
NOTE = "note"  # for the record only
SEVERITIES = (ERROR, WARNING, NOTE)  # worst first: the order every writer lists them in
_RANK = {severity: rank for rank, severity in enumerate(SEVERITIES)}

# A walk that ended so (core.catalog's statuses) did not produce a catalog: the report's run failed.
FAILED_STATUSES = frozenset({"failed", "rejected"})

# How the catalog as a whole (a finding with item "") is named where a name is needed (a JUnit test case).
# Not a valid item name ("tools/NAME" …), so it never collides with one.
CATALOG = "(catalog)"

# core.drift's severities (`Severity` is a StrEnum, so its members are these strings) → SARIF's levels.
_DRIFT_LEVELS = {"breaking": ERROR, "warning": WARNING, "info": NOTE}


def severity_of_drift(severity: str) -> str:
    """The report severity of a drift severity: breaking → error, warning → warning, info → note.

    Raises:
        ValueError: `severity` is not one of core.drift's three.
    """
    try:
        return _DRIFT_LEVELS[str(severity)]
    except KeyError:
        raise ValueError(f"{severity!r} is not a drift severity (breaking, warning, info)") from None


@dataclass(frozen=True)
class Finding:
    """One thing a check found.

    Attributes:
        check: which check found it: "walk", "drift", "pins", "lint", "tokens", "call".
        code: a stable code within the check: a lint code ("array_without_items"), a drift kind
            ("removed", "changed", "added", "moved"), "renamed", "pin_changed", "max_tokens",
            "token_growth", a walk error kind, a call outcome. `check/code` is the SARIF rule id.
        severity: "error", "warning" or "note" (`severity_of_drift` maps core.drift's).
        message: one line for people; may hold untrusted server text (the writers escape it).
        item: "tools/NAME", "prompts/NAME", "resources/URI", "resource_templates/URI", or "" for the
            catalog as a whole.
        pointer: an RFC 6901 JSON pointer into the snapshot document, "" if none.
        rule_help: the code's one-line why (the SARIF rule's description).

    Raises:
        ValueError: (on construction) a severity other than the three.
    """

    check: str
    code: str
    severity: str
    message: str
    item: str = ""
    pointer: str = ""
    rule_help: str = ""

    def __post_init__(self) -> None:
        # Checked here, once: a misspelt severity would otherwise be a passing JUnit case and an invalid SARIF log.
        if self.severity not in _RANK:
            raise ValueError(f"{self.severity!r} is not a report severity (error, warning, note)")

    @property
    def rule_id(self) -> str:
        """`check/code`, e.g. "lint/array_without_items": the SARIF rule id."""
        return f"{self.check}/{self.code}"


@dataclass(frozen=True)
class ServerReport:
    """What one command did with one server.

    Attributes:
        server: the configured name, or the URL or command when there is none.
        command: "check", "diff", "call" or "sweep".
        status: the walk's status ("complete", "failed", "rejected") or the call's outcome.
        checks: the checks that ran, so a check that found nothing still shows (a passed JUnit case).
        items: every item checked ("tools/NAME" …): JUnit has a test case per item and check.
        findings: what the checks found, in any order (the writers sort).
        tokens: the snapshot's token block: {"encoding", "total", "first_page", "tools": {name: n}},
            with "baseline_total" and "delta" when compared with a baseline; None when not counted.
        snapshot_file: where the snapshot document was written, if it was (SARIF's artifact).
        error: why the walk or the command did not finish, if it did not.
        duration_s: how long the command took with this server, in seconds.
    """

    server: str
    command: str
    status: str
    checks: tuple[str, ...]
    items: tuple[str, ...]
    findings: tuple[Finding, ...]
    tokens: Mapping[str, Any] | None = None
    snapshot_file: str | None = None
    error: str | None = None
    duration_s: float = 0.0

    @property
    def failed(self) -> bool:
        """True when the run itself did not finish: an error, or a walk that failed or was rejected."""
        return self.error is not None or self.status in FAILED_STATUSES


def finding_order(finding: Finding) -> tuple[int, str, str, str, str, str]:
    """The sort key every writer uses: worst first, then check, code, item, pointer, message.

    Sorting (rather than keeping the order the checks produced) keeps two runs over the same
    catalog byte-identical, so a diff between two reports shows what changed and nothing else.
    """
    return (_RANK[finding.severity], finding.check, finding.code, finding.item, finding.pointer, finding.message)


def severity_counts(findings: Iterable[Finding]) -> dict[str, int]:
    """How many findings of each severity: {"error": n, "warning": n, "note": n}, all three present."""
    counts = dict.fromkeys(SEVERITIES, 0)
    for finding in findings:
        counts[finding.severity] += 1
    return counts
