"""`--report FORMAT=FILE`: the option read strictly, and the files written whole or not at all."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from catalog_inspector.core.reports import STDOUT, parse_report_option, render_report, write_reports
from tests.core.reports.samples import failed, ordinary


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("junit=out/report.xml", ("junit", Path("out/report.xml"))),
        ("SARIF=-", ("sarif", STDOUT)),
        ("markdown=a=b.md", ("markdown", Path("a=b.md"))),
        (" markdown =comment.md", ("markdown", Path("comment.md"))),
    ],
)
def test_a_report_option_is_a_format_and_a_file(text: str, expected: tuple[str, Path]) -> None:
    assert parse_report_option(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("junit", r"--report takes FORMAT=FILE \(FORMAT one of junit, markdown, sarif\), not 'junit'"),
        ("report.xml", r"--report takes FORMAT=FILE"),
        ("html=out.html", r"--report: unknown format 'html' \(known: junit, markdown, sarif\)"),
        ("=out.xml", r"unknown format ''"),
        ("junit=", r"--report junit= needs a file after '=' \('-' for standard output\)"),
    ],
)
def test_a_malformed_report_option_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_report_option(text)


def test_each_requested_report_is_written_to_its_file(tmp_path: Path) -> None:
    reports = [ordinary(), failed()]
    options = [parse_report_option(f"{fmt}={tmp_path / 'out' / fmt}") for fmt in ("junit", "markdown", "sarif")]
    write_reports(options, reports, "0.1.0")
    for fmt in ("junit", "markdown", "sarif"):
        assert (tmp_path / "out" / fmt).read_text(encoding="utf-8") == render_report(fmt, reports, "0.1.0")
    assert json.loads((tmp_path / "out" / "sarif").read_text(encoding="utf-8"))["version"] == "2.1.0"
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == ["junit", "markdown", "sarif"]  # no temp left


def test_a_dash_writes_the_report_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    write_reports([parse_report_option("markdown=-")], [ordinary()], "0.1.0")
    assert capsys.readouterr().out == render_report("markdown", [ordinary()], "0.1.0")


def test_a_report_that_cannot_be_made_leaves_every_file_as_it_was(tmp_path: Path) -> None:
    junit, sarif = tmp_path / "report.xml", tmp_path / "report.sarif"
    junit.write_text("old", encoding="utf-8")
    # NaN is not JSON: the SARIF log cannot be written, so the JUnit file listed before it is not replaced either.
    broken = dataclasses.replace(ordinary(), tokens={"encoding": "o200k_base", "total": float("nan")})
    with pytest.raises(ValueError, match="JSON"):
        write_reports([("junit", junit), ("sarif", sarif)], [broken], "0.1.0")
    assert junit.read_text(encoding="utf-8") == "old"
    assert not sarif.exists()


def test_one_file_named_twice_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    out = tmp_path / "report"
    with pytest.raises(ValueError, match="names .*report twice"):
        write_reports([("junit", out), ("sarif", out)], [ordinary()], "0.1.0")
    assert not out.exists()
    with pytest.raises(ValueError, match="names standard output twice"):
        write_reports([("junit", STDOUT), ("sarif", STDOUT)], [ordinary()], "0.1.0")


def test_a_file_that_cannot_be_written_is_an_os_error_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.mkdir()
    with pytest.raises(OSError):
        write_reports([("junit", target)], [ordinary()], "0.1.0")
    assert list(tmp_path.iterdir()) == [target]
    assert list(target.iterdir()) == []


def test_an_unknown_format_is_refused_when_rendering() -> None:
    with pytest.raises(ValueError, match="unknown report format 'html'"):
        render_report("html", [ordinary()], "0.1.0")
