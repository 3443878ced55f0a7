"""2026-07-28 mirrored parameter headers (SEP-2243): calls carry Mcp-Param-*, invalid annotations exclude a tool."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.cli_runner import run_cli
from tests.helpers import forked, serving


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serving([*forked("tests.fixtures.header_server")]) as found:
        yield found


def run(*args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli(*args, timeout=60)
    return proc.returncode, json.loads(proc.stdout)


def test_an_annotated_argument_travels_in_its_header_and_the_server_accepts_the_call(url: str) -> None:
    # The SDK's server answers -32020 when Mcp-Param-Region is missing or differs from the body.
    code, doc = run("call", "forecast", "--args", '{"region": "eu-west", "days": 2}', "--url", url)
    assert code == 0 and doc["outcome"] == "ok", doc["error"]
    assert doc["result"]["content"][0]["text"] == "sunny in eu-west for 2 days"
    # A value that may not go raw into a header (CR/LF, non-ASCII) is carried encoded, and decoded to the same.
    code, doc = run("call", "forecast", "--args", json.dumps({"region": "eu\r\nX-Evil: 1 ünï"}), "--url", url)
    assert code == 0 and doc["result"]["content"][0]["text"] == "sunny in eu\r\nX-Evil: 1 ünï for 1 days"


def test_a_tool_with_an_invalid_annotation_is_listed_as_excluded_and_called_only_on_purpose(url: str) -> None:
    code, doc = run("snapshot", "--url", url)
    assert code == 0 and {t["name"] for t in doc["tools"]} == {"forecast", "broken"}  # kept, not hidden
    assert doc["excluded_tools"] == [
        {"name": "broken", "reason": "property 'city': x-mcp-header 'Bad Name' is not an RFC 9110 token"}
    ]
    code, doc = run("call", "broken", "--args", '{"city": "Oslo"}', "--url", url)
    assert code == 3 and doc["outcome"] == "excluded_tool" and doc["sent"] is False
    assert "conforming 2026-07-28 clients exclude 'broken'" in doc["error"]["message"]
    code, doc = run("call", "broken", "--send-excluded", "--args", '{"city": "Oslo"}', "--url", url)
    assert code == 0 and doc["result"]["content"][0]["text"] == "Oslo"


def test_the_older_era_has_no_parameter_headers_and_excludes_nothing(url: str) -> None:
    code, doc = run("snapshot", "--protocol-era", "legacy", "--url", url)
    assert code == 0 and doc["excluded_tools"] == []
    code, doc = run("call", "forecast", "--protocol-era", "legacy", "--args", '{"region": "eu-west"}', "--url", url)
    assert code == 0 and doc["outcome"] == "ok"


def test_a_value_too_long_for_a_header_line_is_refused_before_sending(url: str) -> None:
    region = "r" * 9_000  # an 8 KiB header line is what servers and proxies commonly take
    code, doc = run("call", "forecast", "--args", json.dumps({"region": region}), "--url", url)
    assert code == 3 and doc["outcome"] == "invalid_arguments" and doc["sent"] is False
    assert "Mcp-Param-Region would make a 9,018-byte header line, over the 8,192 bytes" in doc["error"]["message"]
    # Just under the line's bound it travels, and the server (which checks the header) takes it.
    region = "r" * (8_192 - len("Mcp-Param-Region: "))
    code, doc = run("call", "forecast", "--args", json.dumps({"region": region}), "--url", url)
    assert code == 0 and doc["outcome"] == "ok", doc["error"]


def test_every_kind_of_invalid_annotation_excludes_its_tool_and_a_valid_nested_one_does_not() -> None:
    # The spec's rules, one broken per tool; over stdio too: exclusion is the era's rule, not the transport's.
    code, doc = run("snapshot", "--", *forked("tests.fixtures.annotations_server"))
    assert code == 0 and len(doc["tools"]) == 7, "every tool kept and shown"
    reasons = {entry["name"]: entry["reason"] for entry in doc["excluded_tools"]}
    assert set(reasons) == {"off_chain", "not_string", "not_token", "no_type", "object_typed", "duplicate"}
    assert "not reachable via a pure `properties` chain" in reasons["off_chain"]
    assert "must be a string, not int" in reasons["not_string"]
    assert "'Bad Name' is not an RFC 9110 token" in reasons["not_token"]
    assert "the type keyword is NoneType" in reasons["no_type"]
    assert "(got 'object')" in reasons["object_typed"]
    # Zone and zone: one header, case-insensitively (which of the two is named first is the SDK's walk order).
    assert "duplicates property" in reasons["duplicate"] and "'zone'" in reasons["duplicate"].lower()
