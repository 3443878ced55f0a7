"""JUnit XML as a real consumer (junitparser) reads it: counts, cases, failures, and server text kept as text."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from junitparser import Error, Failure, JUnitXml, TestCase, TestSuite

from catalog_inspector.core.reports import CATALOG, Finding, ServerReport, write_junit
from catalog_inspector.core.reports.junit import MAX_CASE_FINDINGS, MESSAGE_LIMIT
from catalog_inspector.core.text import visible
from tests.core.reports.samples import HOSTILE, failed, hostile, ordinary


def _shown(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """What the document should hold for `text`: its visible form, and XML's two non-characters written out."""
    return "".join(f"\\u{ord(c):04x}" if c in "\ufffe\uffff" else c for c in visible(text, limit))


def _parse(reports: list[ServerReport]) -> JUnitXml:
    return JUnitXml.fromstring(write_junit(reports).encode("utf-8"))


def _cases(suite: TestSuite) -> dict[tuple[str, str], TestCase]:
    return {(case.classname, case.name): case for case in suite}


def test_one_suite_per_server_in_the_order_given_with_counts_a_consumer_agrees_with() -> None:
    xml = _parse([ordinary(), failed()])
    suites = list(xml)
    assert [suite.name for suite in suites] == ["files", "remote"]
    files, remote = suites
    # walk, lint, tokens: (catalog) for the walk and the tokens note, 3 items each; drift: 3 items + the removed one
    assert (files.tests, files.failures, files.errors, files.skipped) == (15, 2, 0, 0)
    assert (remote.tests, remote.failures, remote.errors, remote.skipped) == (1, 0, 1, 0)
    assert (xml.tests, xml.failures, xml.errors, xml.skipped) == (16, 2, 1, 0)
    assert (files.time, remote.time, xml.time) == (1.25, 0.5, 1.75)
    for suite in suites:  # what we wrote is what a consumer counts from the cases themselves
        written = (suite.tests, suite.failures, suite.errors, suite.skipped, suite.time)
        suite.update_statistics()
        assert (suite.tests, suite.failures, suite.errors, suite.skipped, suite.time) == written


def test_there_is_a_case_per_item_and_check_a_passing_check_passes_and_a_removed_item_only_where_found() -> None:
    cases = _cases(next(iter(_parse([ordinary()]))))
    items = ["prompts/greet", "tools/read", "tools/write"]
    expected = {("files.walk", CATALOG)} | {("files.tokens", CATALOG)}
    expected |= {(f"files.{check}", item) for check in ("walk", "lint", "drift", "tokens") for item in items}
    expected |= {("files.drift", "tools/delete")}
    assert set(cases) == expected
    assert cases["files.walk", "tools/read"].is_passed
    assert cases["files.lint", "tools/read"].is_passed


def test_cases_are_grouped_by_check_in_the_order_run_the_catalog_first_then_items_sorted() -> None:
    names = [(case.classname, case.name) for case in next(iter(_parse([ordinary()])))]
    assert names[:4] == [
        ("files.walk", CATALOG),
        ("files.walk", "prompts/greet"),
        ("files.walk", "tools/read"),
        ("files.walk", "tools/write"),
    ]
    assert [classname for classname, _ in names] == sorted(
        (classname for classname, _ in names), key=["files.walk", "files.lint", "files.drift", "files.tokens"].index
    )
    drift = [name for classname, name in names if classname == "files.drift"]
    assert drift == ["prompts/greet", "tools/delete", "tools/read", "tools/write"]


def test_errors_and_warnings_fail_their_case_with_the_code_as_type_and_the_details_in_the_body() -> None:
    cases = _cases(next(iter(_parse([ordinary()]))))
    removed = cases["files.drift", "tools/delete"]
    [result] = removed.result
    assert isinstance(result, Failure)
    assert (result.type, result.message) == ("removed", "tools/delete was removed")
    assert result.text == "[error] drift/removed: tools/delete was removed (at /tools/2)"
    [lint] = cases["files.lint", "tools/write"].result
    assert isinstance(lint, Failure) and lint.type == "array_without_items"


def test_a_note_alone_passes_and_says_what_it_noted_on_system_out() -> None:
    case = _cases(next(iter(_parse([ordinary()]))))["files.tokens", CATALOG]
    assert case.is_passed
    assert case.system_out == "[note] tokens/token_growth: the tools grew by 12 tokens"


def test_a_walk_that_did_not_finish_is_an_error_of_the_catalog_case_with_the_reason() -> None:
    [case] = list(next(iter(_parse([failed()]))))
    assert (case.classname, case.name) == ("remote.walk", CATALOG)
    [result] = case.result
    assert isinstance(result, Error)
    assert (result.type, result.message) == ("failed", "connection refused by 127.0.0.1:9")


def test_a_run_without_a_walk_check_is_a_case_of_the_command() -> None:
    call = ServerReport(
        "api",
        "call",
        "timeout",
        ("call",),
        ("tools/slow",),
        (Finding("call", "timeout", "error", "no answer in 30 s", "tools/slow"),),
    )
    cases = _cases(next(iter(_parse([call]))))
    assert set(cases) == {("api.call", CATALOG), ("api.call", "tools/slow")}
    assert cases["api.call", CATALOG].is_passed
    assert cases["api.call", "tools/slow"].is_failure


def test_several_findings_in_one_case_are_one_failure_of_the_worst_listing_them_all() -> None:
    findings = tuple(  # given warnings first: the case still leads with its worst
        Finding("lint", f"code{at}", "warning" if at else "error", f"problem {at}", "tools/a") for at in (2, 1, 0)
    )
    report = ServerReport("s", "check", "complete", ("lint",), ("tools/a",), findings)
    suite = next(iter(_parse([report])))
    case = _cases(suite)["s.lint", "tools/a"]
    [result] = case.result
    assert (result.type, result.message) == ("code0", "problem 0 (and 2 more)")
    assert result.text.splitlines() == [
        "[error] lint/code0: problem 0",
        "[warning] lint/code1: problem 1",
        "[warning] lint/code2: problem 2",
    ]
    assert suite.failures == 1


def test_a_case_lists_at_most_a_hundred_findings_and_counts_the_rest() -> None:
    findings = tuple(Finding("lint", "x", "warning", f"problem {at:03}", "tools/a") for at in range(250))
    report = ServerReport("s", "check", "complete", ("lint",), ("tools/a",), findings)
    [result] = _cases(next(iter(_parse([report]))))["s.lint", "tools/a"].result
    lines = result.text.splitlines()
    assert len(lines) == MAX_CASE_FINDINGS + 1
    assert lines[-2] == "[warning] lint/x: problem 099"
    assert lines[-1] == "… and 150 more"


def test_hostile_server_text_parses_and_comes_back_as_the_same_visible_text() -> None:
    report = hostile()
    suite = next(iter(_parse([report])))
    assert suite.name == _shown(report.server, 500)
    cases = _cases(suite)
    assert len(cases) == len(HOSTILE) + 1
    for at, text in enumerate(HOSTILE):
        [result] = cases[f"{_shown(report.server, 500)}.lint", _shown(f"tools/{text}", 500)].result
        assert result.message == _shown(f"message {text}")
        assert f"(at /tools/{at}/" in result.text
    raw = write_junit([report])
    assert "<script>" not in raw and "]]>" not in raw  # escaped in the document ...
    messages = [case.result[0].message or "" for case in cases.values() if case.result]
    assert any("]]> <script>alert(1)</script>" in message for message in messages)  # ... and text once read


def test_a_ten_megabyte_message_is_cut_and_the_document_stays_small() -> None:
    huge = "<x>]]>&" * (10 * 1024 * 1024 // 7)
    report = ServerReport(
        "s", "check", "complete", ("lint",), ("tools/a",), (Finding("lint", "x", "error", huge, "tools/a"),)
    )
    text = write_junit([report])
    assert len(text) < 20_000
    [result] = _cases(next(iter(JUnitXml.fromstring(text.encode()))))["s.lint", "tools/a"].result
    assert result.message == huge[:MESSAGE_LIMIT] + "…"


def test_the_same_reports_in_any_order_of_findings_and_items_give_the_same_bytes() -> None:
    report = ordinary()
    first = write_junit([report, failed()])
    for seed in range(5):
        rng = random.Random(seed)
        findings, items = list(report.findings), list(report.items)
        rng.shuffle(findings)
        rng.shuffle(items)
        shuffled = dataclasses.replace(report, findings=tuple(findings), items=tuple(items))
        assert write_junit([shuffled, failed()]) == first


def test_no_reports_is_an_empty_but_valid_document() -> None:
    xml = _parse([])
    assert (len(xml), xml.tests, xml.failures, xml.errors) == (0, 0, 0, 0)


@settings(deadline=None, max_examples=300)
@given(st.text(st.characters(codec=None, exclude_categories=()), max_size=60))
def test_any_message_round_trips_through_xml_as_its_visible_text(message: str) -> None:
    report = ServerReport(
        "s", "check", "complete", ("lint",), ("tools/a",), (Finding("lint", "x", "error", message, "tools/a"),)
    )
    [result] = _cases(next(iter(_parse([report]))))["s.lint", "tools/a"].result
    assert (result.message or "") == _shown(message)
