"""The `call` document's `logs`: the server's log messages for the call, bounded, plain text; the level asked for."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from catalog_inspector.core.calls import REQUEST_LOGS
from catalog_inspector.core.calls.logs import DATA_LIMIT
from tests.cli_runner import run_cli
from tests.fixtures.log_server import HOSTILE
from tests.helpers import forked, serving
from tests.test_cli_call import DOC_KEYS

SERVER = ["--", *forked("tests.fixtures.log_server")]
LOG_KEYS = {"at", "level", "logger", "data"}


def call(*args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli("call", *args, timeout=90)
    assert proc.stdout.isascii(), "untrusted text reaches stdout escaped"
    document = json.loads(proc.stdout)
    assert set(document) == DOC_KEYS
    for message in document["logs"]:
        assert set(message) == LOG_KEYS and isinstance(message["data"], str)
    return proc.returncode, document


def brief(document: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    return [(m["level"], m["logger"], m["data"]) for m in document["logs"]]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serving([*forked("tests.fixtures.log_server"), "--http"]) as found:
        yield found


def test_the_calls_log_messages_are_in_the_document_at_the_default_level_info() -> None:
    code, doc = call("chatty", "--args", '{"text": "hi"}', *SERVER)
    assert code == 0 and doc["logs_dropped"] == 0
    assert brief(doc) == [
        ("info", "chatty", "info from chatty: hi"),
        ("warning", "chatty", "warning from chatty: hi"),
        ("error", "chatty", "error from chatty: hi"),
    ]


@pytest.mark.parametrize("era", ["modern", "legacy"])
def test_log_level_is_what_the_server_receives_on_either_era(era: str) -> None:
    code, doc = call("chatty", "--args", '{"text": "x"}', "--log-level", "warning", "--protocol-era", era, *SERVER)
    assert code == 0 and [m["level"] for m in doc["logs"]] == ["warning", "error"]
    code, doc = call("received", "--log-level", "debug", "--protocol-era", era, *SERVER)
    seen = doc["result"]["structuredContent"]
    if era == "modern":
        assert seen["set_levels"] == [] and seen["meta_levels"]["tools/call"] == ["debug"]
    else:
        assert seen["set_levels"] == ["debug"] and seen["meta_levels"]["tools/call"] == [None]


def test_over_streamable_http_too(url: str) -> None:
    code, doc = call("chatty", "--args", '{"text": "web"}', "--log-level", "debug", "--url", url)
    assert code == 0 and [m["level"] for m in doc["logs"]] == ["debug", "info", "warning", "error"]


def test_a_flood_keeps_the_latest_messages_and_counts_the_rest() -> None:
    code, doc = call("flood", "--args", '{"count": 1000}', *SERVER)
    assert code == 0 and len(doc["logs"]) == REQUEST_LOGS and doc["logs_dropped"] == 1000 - REQUEST_LOGS
    assert doc["logs"][-1]["data"] == "flood line 999"


def test_hostile_data_is_bounded_plain_text() -> None:
    code, doc = call("hostile", *SERVER)
    assert code == 0
    text, big = doc["logs"]
    assert text["logger"] == HOSTILE and text["data"].startswith(HOSTILE)
    assert len(text["data"]) < DATA_LIMIT + 40 and text["data"].endswith("more characters]")
    assert big["data"].startswith('{"rows":[') and len(big["data"]) < DATA_LIMIT + 40


def test_a_bad_log_level_is_a_usage_error() -> None:
    proc = run_cli("call", "chatty", "--log-level", "loud", *SERVER, timeout=60)
    assert proc.returncode == 2 and "--log-level" in proc.stderr and proc.stdout == ""
