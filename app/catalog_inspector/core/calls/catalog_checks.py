"""A whole catalog's checks as the snapshot document carries them: its lint as one list (the rows of the
document's `lint` key and of `check --lint`), and its cost in tokens (`derived_keys`).

The list is `core.calls.lint.lint_tools` with the metaschema pass, plus the tools a
conforming 2026-07-28 client excludes, in catalog order. The metaschema pass (~1 ms a
schema) runs once per distinct schema: catalogs repeat their schemas (10,000 generated
tools often share a handful), and the result depends on the schema alone.

The derived keys are never stored in a `Snapshot`: `Snapshot.from_json` ignores both
(a reader recounts, so a file cannot vouch for itself), and the app's history files
leave them out. The commands that write a snapshot (`snapshot`, `check --out`, `call
--out`, …) and the app's Export add them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from catalog_inspector.core.calls.host_lint import tool_issues, undocumented_issues
from catalog_inspector.core.calls.lint import (
    LintCode,
    LintIssue,
    LintSeverity,
    exclusion_issues,
    lint_row_lines,
    lint_rows,
    lint_schema,
)
from catalog_inspector.core.catalog import Snapshot, count_snapshot
from catalog_inspector.core.steps import Steps, run_whole
from catalog_inspector.core.text import visible

__all__ = [
    "LINT_LEVELS",
    "LintRow",
    "Linted",
    "catalog_lint",
    "derived_keys",
    "lint_counts",
    "lint_lines",
    "schema_key",
    "tool_lint_steps",
]

LINT_LEVELS = tuple(str(severity) for severity in LintSeverity)  # error, warning, info: the worst first
SHOWN = 200  # rows the text report prints (the worst first); the JSON has them all


@dataclass(frozen=True)
class LintRow:
    """One issue of one tool: the snapshot document's `lint` row."""

    item: str
    code: str
    severity: str
    pointer: str
    message: str

    @property
    def why(self) -> str:
        return LintCode(self.code).why

    def to_json(self) -> dict[str, str]:
        return {
            "item": self.item,
            "code": self.code,
            "severity": self.severity,
            "pointer": self.pointer,
            "message": self.message,
        }


def schema_key(schema: Any) -> str | None:
    """What identifies a schema for its lint: its JSON, keys in their own order (issues come in keyword order)."""
    try:
        return json.dumps(schema, allow_nan=True, default=str)
    except (TypeError, ValueError, RecursionError):
        return None  # not cached: linted on its own


def small(schema: Any, limit: int) -> bool:
    """Whether `schema` has at most `limit` JSON values (counting stops past it)."""
    count, stack = 0, [schema]
    while stack:
        value = stack.pop()
        count += 1
        if count > limit:
            return False
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return True


Linted = dict[str, tuple[LintIssue, ...]]


def tool_lint(tools: Iterable[Mapping[str, Any]], server: str | None = None) -> Linted:
    """`lint_tools(tools, metaschema=True)`, each distinct schema linted once."""
    found, _ = run_whole(tool_lint_steps(tools, server, {}))
    return found


def tool_lint_steps(
    tools: Iterable[Mapping[str, Any]],
    server: str | None,
    cache: dict[str, tuple[LintIssue, ...]],
    metaschema_limit: int | None = None,
    parameters: dict[str | None, tuple[LintIssue, ...]] | None = None,
    key_of: Callable[[Any], str | None] = schema_key,
) -> Steps[tuple[Linted, dict[str, Any]]]:
    """`tool_lint` a tool a step (`core.steps`), with `cache` (schema key → its issues) kept by the caller.

    `metaschema_limit`: the metaschema pass (~0.05 ms a JSON value) only for schemas of at most
    that many values; a bigger one is linted without it, left out of `cache` and returned among the
    deferred (key → schema), for a pass elsewhere: put its whole lint in `cache` and run this again
    (then every schema is a cache hit) for the list `tool_lint` makes. `parameters` (input schema key → its
    undocumented parameters) may be kept by the caller too, for a catalog linted a part at a time; `key_of`
    may give a schema's key from what the caller made of it already (any text its JSON alone decides).
    """
    found: Linted = {}
    deferred: dict[str, Any] = {}
    parameters = parameters if parameters is not None else {}
    for tool in tools:
        issues = tool_issues(tool, server, parameters=False)
        schema = tool.get("inputSchema")
        input_key = key_of(schema) if "inputSchema" in tool else None
        undocumented = parameters.get(input_key) if input_key is not None else None
        if undocumented is None:
            undocumented = tuple(undocumented_issues(schema))
            if input_key is not None:
                parameters[input_key] = undocumented
        issues.extend(undocumented)
        for key in ("inputSchema", "outputSchema"):
            if key not in tool:
                continue
            schema = tool[key]
            cache_key = input_key if key == "inputSchema" else key_of(schema)
            linted = cache.get(cache_key) if cache_key is not None else None
            if linted is None:
                whole = metaschema_limit is None or cache_key is None or small(schema, metaschema_limit)
                linted = lint_schema(schema, whole)
                if cache_key is not None and whole:
                    cache[cache_key] = linted
                elif cache_key is not None:
                    deferred[cache_key] = schema
            if linted:
                issues.extend(LintIssue(i.code, "/" + key + i.pointer, i.message) for i in linted)
        if issues:
            found[str(tool.get("name"))] = tuple(issues)
        yield
    return found, deferred


def catalog_lint(snapshot: Snapshot) -> list[LintRow]:
    """Every issue of the catalog's tools, in catalog order (an excluded tool's exclusion first)."""
    return [LintRow(**row) for row in catalog_lint_rows(snapshot)]


def catalog_lint_rows(snapshot: Snapshot, linted: Linted | None = None) -> list[dict[str, str]]:
    """`catalog_lint` as the document's rows (made once: 200,000 rows are not built twice).

    `linted`: `tool_lint` of the catalog's tools, made beforehand (as the pages came: `PageWork`).
    """
    return lint_rows(_catalog_found(snapshot, linted))


def _catalog_found(snapshot: Snapshot, linted: Linted | None) -> Linted:
    if snapshot.status != "complete":
        return {}
    found = dict(linted) if linted is not None else tool_lint(snapshot.tools.items, snapshot.source.get("name"))
    for name, issues in exclusion_issues(snapshot.excluded_tools).items():
        found[name] = (*issues, *found.get(name, ()))
    return found


def lint_counts(rows: Sequence[LintRow]) -> dict[str, int]:
    """Rows per severity, every severity present (0 when none)."""
    counts = dict.fromkeys(LINT_LEVELS, 0)
    for row in rows:
        counts[row.severity] = counts.get(row.severity, 0) + 1
    return counts


def lint_lines(rows: Sequence[LintRow]) -> list[str]:
    """The text report's lint section: a count per severity, then each issue, the worst first."""
    if not rows:
        return ["Lint: no issues."]
    counts = lint_counts(rows)
    said = ", ".join(f"{counts[level]:,} {level}" for level in LINT_LEVELS if counts[level])
    lines = [f"Lint ({said}):"]
    ordered = sorted(rows, key=lambda row: LINT_LEVELS.index(row.severity))
    for row in ordered[:SHOWN]:
        lines.append(
            f"  {row.severity}: tools: {visible(row.item, 200)}: {visible(row.pointer or '(root)', 300)}: "
            f"{visible(row.message, 300)} ({row.code})"
        )
    if len(rows) > SHOWN:
        lines.append(f"  … and {len(rows) - SHOWN:,} more (--json lists them all)")
    return lines


def derived_keys(
    snapshot: Snapshot, tool_counts: Sequence[int] | None = None, linted: Linted | None = None, lines: bool = False
) -> dict[str, Any]:
    """`tokens` (null without an accepted catalog) and `lint` (`[{item, code, severity, pointer, message}]`,
    empty without one) for the end of the snapshot document. (The count on a thread beside the lint gained
    nothing: a tool's JSON, most of the count, holds the GIL.)

    `tool_counts` and `linted`: the tools' counts and lint, made beforehand (`PageWork`), in catalog order.
    `lines`: `lint` as its rows' JSON texts (`lint_row_lines`), for a document that is only written.
    """
    count = count_snapshot(snapshot, tool_counts)
    found = _catalog_found(snapshot, linted)
    return {
        "tokens": count.to_json() if count is not None else None,
        "lint": (lint_row_lines if lines else lint_rows)(found),
    }
