"""The one table of call outcomes: every outcome has its words and exit code, every layer folds into one."""

from __future__ import annotations

import re
import typing

from catalog_inspector.core.calls import OUTCOMES, CallOutcome, CallRecord, Outcome, layer_of
from catalog_inspector.core.calls.outcome import Layer, outcome_of
from catalog_inspector.core.calls.validation import ResultVerdict
from catalog_inspector.core.errors import ErrorInfo, ErrorKind
from tests.helpers import ROOT


def test_every_outcome_has_a_heading_a_sent_flag_and_an_exit_code() -> None:
    assert set(OUTCOMES) == set(Outcome)
    for outcome, words in OUTCOMES.items():
        assert words.heading and outcome.exit_code in (0, 1, 3, 4, 5, 6), outcome
    assert [o for o in Outcome if o.exit_code == 0] == [Outcome.OK]
    assert {o for o in Outcome if not OUTCOMES[o].sent} == {
        Outcome.INVALID_ARGUMENTS,
        Outcome.UNKNOWN_TOOL,
        Outcome.EXCLUDED_TOOL,
        Outcome.CATALOG_FAILED,
    }


def test_every_layer_folds_into_an_outcome_the_cli_and_the_app_both_say() -> None:
    layers = typing.get_args(Layer)
    folded = {layer: outcome_of(layer, None) for layer in layers}
    assert folded["server_error"] is Outcome.JSONRPC_ERROR and folded["protocol"] is Outcome.OUTPUT_INVALID
    assert all(
        outcome is Outcome(layer) for layer, outcome in folded.items() if layer not in ("server_error", "protocol")
    )


def test_an_answer_whose_verdict_is_not_clean_is_output_invalid_whatever_the_layer_said() -> None:
    for verdict in ("invalid", "missing_structured_content", "bad_schema", "too_large", "over_budget", "crashed"):
        assert CallOutcome("ok", {}, ResultVerdict(verdict)).outcome is Outcome.OUTPUT_INVALID
    for verdict in ("valid", "no_schema"):
        assert CallOutcome("ok", {}, ResultVerdict(verdict)).outcome is Outcome.OK


def test_errors_stop_at_the_layer_of_their_kind_size_auth_and_bugs_are_not_connection() -> None:
    assert outcome_of(layer_of(ErrorKind.SIZE_LIMIT), None) is Outcome.SIZE_LIMIT
    assert outcome_of(layer_of(ErrorKind.AUTH), None) is Outcome.AUTH and Outcome.AUTH.exit_code == 5
    assert outcome_of(layer_of(ErrorKind.INTERNAL), None) is Outcome.INTERNAL
    assert outcome_of(layer_of(ErrorKind.CANCELLED), None) is Outcome.CANCELLED
    assert outcome_of(layer_of(ErrorKind.CONNECTION), None) is Outcome.CONNECTION


def test_a_summary_line_starts_with_the_outcomes_heading_and_names_the_json_rpc_code() -> None:
    error = ErrorInfo(ErrorKind.SERVER_ERROR, "nope", code=-32042)
    line = CallOutcome("server_error", error=error).summary()
    assert line.startswith(Outcome.JSONRPC_ERROR.heading)
    assert " — JSON-RPC -32042 (URL elicitation required, yet the error names no page to visit): nope" in line


def test_a_summary_line_names_the_code_with_its_data_and_says_the_servers_own_message_once() -> None:
    data = {"requiredCapabilities": {"elicitation": {"form": {}}}}
    details = {"code": -32021, "message": "Client did not declare form", "data": data}
    error = ErrorInfo(
        ErrorKind.SERVER_ERROR,
        "the server answered with an error: Client did not declare form",
        code=-32021,
        details=details,
    )
    line = CallOutcome("server_error", error=error).summary()
    assert line == (
        f"{Outcome.JSONRPC_ERROR.heading} — JSON-RPC -32021 (the client lacks a capability the server requires: "
        "form elicitation): Client did not declare form"
    )


def test_histories_written_with_layer_words_are_read_as_the_outcomes_they_mean() -> None:
    record = CallRecord.from_json(
        {"at": "", "kind": "tool", "name": "echo", "outcome": "server_error", "duration_ms": 1}
    )
    assert record.outcome == "jsonrpc_error"
    assert CallRecord.from_json({"outcome": "protocol"}).outcome == "output_invalid"
    assert CallRecord.from_json({"outcome": "cut_off"}).outcome == "cut_off"


def test_the_readme_table_says_every_outcome_the_command_can_print_with_its_exit_code() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| (\d) \|", readme, flags=re.MULTILINE))
    printed = {o for o in Outcome if o is not Outcome.CUT_OFF}  # cut_off: the app only (a refresh swaps sessions)
    assert {str(o): str(o.exit_code) for o in printed} == {
        k: v for k, v in rows.items() if k in {str(o) for o in printed}
    }
    assert {str(o) for o in printed} <= set(rows)
