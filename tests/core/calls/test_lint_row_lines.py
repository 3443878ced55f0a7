"""The lint rows as the document writes them (`lint_row_lines`): the same bytes as the rows through the encoder."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog_inspector.core.calls.lint import LintCode, LintIssue, lint_row_lines, lint_rows
from catalog_inspector.core.catalog import LIST_NAMES, ListResult, Snapshot, write_json
from catalog_inspector.core.catalog.snapshot import LINES

TEXT = st.text(st.characters(), max_size=12)  # any character: quotes, controls, U+2028, surrogates' neighbours
ISSUES = st.builds(LintIssue, st.sampled_from(list(LintCode)), TEXT, TEXT)


def document(lint: object) -> str:
    snapshot = Snapshot("complete", None, {}, {}, None, {n: ListResult("not_offered") for n in LIST_NAMES})
    out = io.StringIO()
    write_json(snapshot, out, {"tokens": None, "lint": lint})
    return out.getvalue()


@given(st.lists(ISSUES, min_size=1, max_size=4), st.dictionaries(TEXT, st.lists(st.integers(0, 3), max_size=3)))
def test_rows_written_as_texts_are_the_rows_the_encoder_writes(
    shared: list[LintIssue], tools: dict[str, list[int]]
) -> None:
    # Tools share issue objects, as a catalog's tools sharing a schema do: each row still names its own tool.
    found = {name: tuple(shared[i % len(shared)] for i in picks) for name, picks in tools.items()}
    assert lint_row_lines(found) == _encoded(lint_rows(found))
    assert document(lint_row_lines(found)) == document(lint_rows(found))


@pytest.mark.parametrize("tools", [LINES // 2, LINES, LINES + 7, 2 * LINES])
def test_more_rows_than_a_write_takes_are_all_written_in_order(tools: int) -> None:
    # Two rows a tool: a write's worth of rows ends a batch exactly when `tools` is a multiple of LINES / 2.
    issue = LintIssue(
        LintCode.UNDOCUMENTED_PARAMETER, "/inputSchema/properties/a", "the parameter 'a' has no description"
    )
    found = {f"tool_{n}": (issue, issue) for n in range(tools)}
    text = document(lint_row_lines(found))
    assert text == document(lint_rows(found))
    assert text.count('"item": "tool_') == 2 * tools
    assert json.loads(text)["lint"] == lint_rows(found)
    # The token counts of as many tools, one member a line, written in the same batches.
    counts = {f"tool_{n}": n for n in range(2 * tools)}
    snapshot = Snapshot("complete", None, {}, {}, None, {n: ListResult("not_offered") for n in LIST_NAMES})
    out = io.StringIO()
    write_json(snapshot, out, {"tokens": {"tools": counts}, "lint": []})
    assert json.loads(out.getvalue())["tokens"]["tools"] == counts


def _encoded(rows: list[dict[str, str]]) -> list[str]:
    encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
    return [encode(row) for row in rows]
