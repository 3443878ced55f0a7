"""The pull-request comment, rendered by GitHub's own Markdown engine (cmark-gfm): server text stays text.

Each test renders with cmarkgfm's GitHub extensions (tables, autolinks, the tag filter) and raw
HTML let through, so anything the server could smuggle in would show up as a tag, a link or a
cell in the HTML.
"""

from __future__ import annotations

import dataclasses
import re
from html.parser import HTMLParser

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_inspector.core.reports import COMMENT_LIMIT, Finding, ServerReport, write_markdown
from catalog_inspector.core.reports.markdown import DEFAULT_LIMIT, MESSAGE_LIMIT, MIN_LIMIT, NAME_LIMIT, _code, _text
from catalog_inspector.core.text import visible
from tests.core.reports.samples import HOSTILE, HOSTILE_TEXT, failed, hostile, ordinary, shuffled_pairs

# The only tags the report may render to: GFM's own for what we write, and our <details>.
OURS = {
    "h2",
    "h3",
    "p",
    "strong",
    "code",
    "ul",
    "li",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "details",
    "summary",
}


class _Html(HTMLParser):
    """The tags, attributes and text of rendered HTML: text per cell and per list item, and every text run."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: set[str] = set()
        self.rows: list[list[str]] = []
        self.items: list[str] = []
        self.runs: list[str] = []  # text between two tags or comments
        self.prose: list[str] = []  # the runs outside code spans: where GitHub looks for mentions and references
        self._code = 0
        self.comments: list[str] = []
        self._open: list[str] = []
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes |= {name for name, _ in attrs}
        self._code += tag == "code"
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th", "li"):
            self._open.append(tag)
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        self._code -= tag == "code"
        if tag in ("td", "th") and self._open:
            self._open.pop()
            self.rows[-1].append("".join(self._text))
        elif tag == "li" and self._open:
            self._open.pop()
            self.items.append("".join(self._text).strip())

    def handle_data(self, data: str) -> None:
        self._text.append(data)
        self.runs.append(data)
        if not self._code:
            self.prose.append(data)

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)


def _render(markdown: str) -> _Html:
    html = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    parsed = _Html()
    parsed.feed(html)
    parsed.close()
    return parsed


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_the_headline_says_all_passed_when_nothing_failed() -> None:
    clean = dataclasses.replace(ordinary(), findings=(Finding("tokens", "x", "note", "noted"),))
    assert "**✅ All checks passed** in 1 server (1 note)" in write_markdown([clean])


def test_the_headline_counts_runs_that_did_not_finish_errors_and_warnings() -> None:
    text = write_markdown([ordinary(), failed()])
    assert "**❌ 1 server did not finish, 1 error, 1 warning** in 2 servers (1 note)" in text
    warned = dataclasses.replace(ordinary(), findings=ordinary().findings[2:])
    assert "**⚠️ 1 warning** in 1 server" in write_markdown([warned])


def test_a_row_per_server_with_status_counts_and_tokens() -> None:
    [_header, *rows] = _render(write_markdown([ordinary(), failed()])).rows[:3]
    assert rows == [
        ["files", "check", "complete", "1", "1", "1", "1,240", "+12"],
        ["remote", "check", "failed", "0", "0", "0", "", ""],
    ]


def test_errors_come_first_then_warnings_then_notes_collapsed() -> None:
    text = write_markdown([ordinary(), failed()])
    errors, warnings, notes = text.index("### ❌ Errors (2)"), text.index("### ⚠️ Warnings (1)"), text.index("Notes (1)")
    assert errors < warnings < notes
    assert text[notes - len("<details><summary>") : notes] == "<details><summary>"
    items = _render(text).items
    assert items[:2] == [
        "remote did not finish (failed): connection refused by 127.0.0.1:9",
        "files tools/delete drift/removed: tools/delete was removed (at /tools/2)",
    ]
    assert items[3] == "files tokens/token_growth: the tools grew by 12 tokens"


def test_the_token_table_shows_total_first_page_baseline_and_delta() -> None:
    rows = _render(write_markdown([ordinary(), failed()])).rows
    assert ["Server", "Encoding", "Total", "First page", "Baseline", "Δ"] in rows
    assert ["files", "o200k_base", "1,240", "1,000", "1,228", "+12"] in rows


def test_hostile_server_text_makes_no_tag_link_image_or_cell() -> None:
    html = _render(write_markdown([hostile()]))
    assert set(html.tags) <= OURS, set(html.tags) - OURS
    assert html.attributes <= {"align"}
    assert all(comment == " " for comment in html.comments)  # only our empty ones
    header, row = html.rows[0], html.rows[1]
    assert len(header) == len(row) == 8
    assert row[0] == visible(hostile().server, NAME_LIMIT)


def test_hostile_findings_render_as_exactly_their_visible_text() -> None:
    report = hostile()
    items = _render(write_markdown([report])).items
    server = visible(report.server, NAME_LIMIT)
    for at, text in enumerate(HOSTILE):
        expected = f"{server} {visible(f'tools/{text}')} lint/bad_schema: {visible(f'message {text}')} (at {visible(f'/tools/{at}/{text}')})"
        assert expected in items


def test_no_rendered_text_run_holds_a_mention_an_issue_reference_or_an_address() -> None:
    # GitHub finds @user, #123 and user@host in rendered text outside code: each @ and # must end its text run.
    runs = _render(write_markdown([hostile()])).prose
    assert not [run for run in runs if re.search(r"[@#]\w", run)]
    assert any(run.endswith("@") for run in runs)  # the server's @ is there, as text


@pytest.mark.parametrize("text", HOSTILE)
def test_a_code_span_holds_any_backticks_and_renders_as_the_text(text: str) -> None:
    html = _render(f"x {_code(text)} y")
    assert set(html.tags) == {"p", "code"}
    assert "".join(html.runs).strip("\n") == f"x {visible(text, NAME_LIMIT)} y"


@settings(deadline=None, max_examples=300)
@given(st.text(st.characters(codec=None, exclude_categories=()), max_size=60))
def test_any_text_renders_as_its_visible_form_and_nothing_else(text: str) -> None:
    html = _render(f"«{_text(text)}»")
    assert set(html.tags) == {"p"}
    assert "".join(html.runs).strip("\n") == f"«{visible(text, MESSAGE_LIMIT)}»"


def _many(servers: int, findings: int, text: str) -> list[ServerReport]:
    return [
        ServerReport(
            f"server {at} {text}",
            "sweep",
            "complete",
            ("lint",),
            (),
            tuple(
                Finding("lint", "x", ("error", "warning", "note")[n % 3], f"{n} {text}", f"tools/{n}{text}")
                for n in range(findings)
            ),
            tokens={"encoding": "o200k_base", "total": 10 * at, "first_page": at},
        )
        for at in range(servers)
    ]


@pytest.mark.parametrize("text", [HOSTILE_TEXT, "😀" * 400, "@#|<`" * 100], ids=["hostile", "astral", "expanding"])
def test_a_huge_report_stays_under_the_limit_and_says_how_many_more(text: str) -> None:
    markdown = write_markdown(_many(300, 30, text))
    assert _utf16(markdown) <= DEFAULT_LIMIT < COMMENT_LIMIT
    assert re.search(r"^\| … and [\d,]+ more servers \|", markdown, re.M)
    assert re.search(r"^- … (and )?[\d,]+ more \(the JUnit and SARIF reports list them all\)$", markdown, re.M)
    html = _render(markdown)
    assert set(html.tags) <= OURS
    assert markdown.count("<details>") == markdown.count("</details>")
    assert "### ❌ Errors (3,000)" in markdown and "### ⚠️ Warnings (3,000)" in markdown and "Notes (3,000)" in markdown


@pytest.mark.parametrize("limit", [MIN_LIMIT, 10_000, 30_000])
def test_any_limit_from_the_least_holds(limit: int) -> None:
    assert _utf16(write_markdown(_many(200, 50, HOSTILE_TEXT), limit=limit)) <= limit


def test_a_limit_too_small_for_the_headings_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 6,000"):
        write_markdown([ordinary()], limit=MIN_LIMIT - 1)


def test_the_same_reports_in_any_order_of_findings_give_the_same_text() -> None:
    first = write_markdown([ordinary(), hostile()])
    for shuffled in shuffled_pairs():
        assert write_markdown(shuffled) == first


def test_what_is_shown_and_what_is_counted_add_up_to_every_finding() -> None:
    markdown = write_markdown(_many(40, 30, "x"), limit=20_000)
    sections = re.split(r"^(?:### |<details><summary>)", markdown, flags=re.M)[1:]
    totals = {}
    for section in sections:
        if section.startswith("Tokens"):
            continue
        heading = re.match(r"(.*?) \(([\d,]+)\)", section)
        assert heading is not None
        shown = len(re.findall(r"^- \*\*", section, re.M))
        more = re.search(r"^- … (?:and )?([\d,]+) more", section, re.M)
        totals[heading.group(1)] = (
            int(heading.group(2).replace(",", "")),
            shown + (int(more.group(1).replace(",", "")) if more else 0),
        )
    assert totals["❌ Errors"] == (400, 400)
    assert totals["⚠️ Warnings"] == (400, 400)
    assert totals["Notes"] == (400, 400)
    assert len(re.findall(r"^- \*\*", markdown, re.M)) > 50  # some were shown before the limit was met
