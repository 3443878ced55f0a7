"""The one table of JSON-RPC codes: every code the spec defines has its name and words, -32602 is split by what the
server says (conservatively), the data the spec defines is said, and hostile data stays bounded and visible."""

from __future__ import annotations

import mcp_types as types
import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog_inspector.core import jsonrpc_codes
from catalog_inspector.core.errors import ErrorInfo, ErrorKind, code_words
from catalog_inspector.core.jsonrpc_codes import CODES, Named, capability_words, named, named_code

# Written from the 2026-07-28 schema (schema.ts, basic/index.mdx) and the codes older revisions defined.
SPEC = {
    -32700: ("parse_error", "JSON-RPC -32700 (parse error: what was sent is not valid JSON)"),
    -32600: ("invalid_request", "JSON-RPC -32600 (invalid request)"),
    -32601: ("method_not_found", "JSON-RPC -32601 (method not found)"),
    -32602: ("invalid_params", "JSON-RPC -32602 (invalid params)"),
    -32603: ("internal_error", "JSON-RPC -32603 (internal error)"),
    -32001: ("request_timeout", "JSON-RPC -32001 (request timeout)"),
    -32002: ("resource_not_found", "JSON-RPC -32002 (resource not found)"),
    -32020: ("header_mismatch", "JSON-RPC -32020 (header mismatch: the HTTP headers do not match the request body)"),
    -32021: (
        "missing_required_client_capability",
        "JSON-RPC -32021 (the client lacks a capability the server requires)",
    ),
    -32022: ("unsupported_protocol_version", "JSON-RPC -32022 (unsupported protocol version)"),
    -32042: (
        "url_elicitation_required",
        "JSON-RPC -32042 (URL elicitation required, yet the error names no page to visit)",
    ),
}


@pytest.mark.parametrize("code", sorted(SPEC))
def test_every_code_the_spec_defines_has_its_name_and_words(code: int) -> None:
    said = named_code(code, "whatever the server says")
    assert (said.name, said.text) == SPEC[code]
    assert said.code == code and said.short


def test_the_table_holds_exactly_the_codes_the_spec_defines_with_the_sdks_numbers() -> None:
    assert set(CODES) == set(SPEC)
    sdk = {
        "PARSE_ERROR": types.PARSE_ERROR,
        "INVALID_REQUEST": types.INVALID_REQUEST,
        "METHOD_NOT_FOUND": types.METHOD_NOT_FOUND,
        "INVALID_PARAMS": types.INVALID_PARAMS,
        "INTERNAL_ERROR": types.INTERNAL_ERROR,
        "REQUEST_TIMEOUT": types.REQUEST_TIMEOUT,
        "HEADER_MISMATCH": types.HEADER_MISMATCH,
        "MISSING_REQUIRED_CLIENT_CAPABILITY": types.MISSING_REQUIRED_CLIENT_CAPABILITY,
        "UNSUPPORTED_PROTOCOL_VERSION": types.UNSUPPORTED_PROTOCOL_VERSION,
        "URL_ELICITATION_REQUIRED": types.URL_ELICITATION_REQUIRED,
    }
    assert {name: getattr(jsonrpc_codes, name) for name in sdk} == sdk


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("Unknown tool: invalid_tool_name", "unknown_tool"),  # the spec's own example
        ("unknown tool 'x'", "unknown_tool"),
        ("  No such tool: x", "unknown_tool"),
        ("Tool not found: x", "unknown_tool"),
        ("Tool 'x' not found", "unknown_tool"),
        ("tool x does not exist", "unknown_tool"),
        ("Unknown prompt: invalid_prompt_name", "unknown_prompt"),
        ("Resource not found", "resource_not_found"),
        ("Invalid cursor", "invalid_cursor"),
        ("Invalid arguments for tool calculate: Missing required property 'expression'", "invalid_params"),
        ("Invalid request parameters", "invalid_params"),
        ("the argument 'unknown tool' is not allowed", "invalid_params"),  # only the opening decides
        ("Error: Unknown tool: x", "invalid_params"),
        ("", "invalid_params"),
    ],
)
def test_invalid_params_is_split_by_how_the_servers_message_opens(message: str, name: str) -> None:
    assert named_code(types.INVALID_PARAMS, message).name == name


def test_the_split_needs_a_message_and_applies_to_32602_only() -> None:
    assert named_code(-32602, None).name == "invalid_params"
    assert named_code(-32602, {"not": "text"}).name == "invalid_params"
    assert named_code(-32603, "Unknown tool: x").name == "internal_error"
    assert named(-32602, "Unknown tool: x") == "JSON-RPC -32602 (unknown tool)"


def test_an_unknown_tool_opening_far_into_a_long_message_is_not_looked_for() -> None:
    assert named_code(-32602, " " * 10_000 + "Unknown tool: x").name == "invalid_params"


def test_missing_capability_names_what_the_server_requires() -> None:
    data = {"requiredCapabilities": {"elicitation": {"form": {}}}}
    assert named(-32021, "m", data) == (
        "JSON-RPC -32021 (the client lacks a capability the server requires: form elicitation)"
    )
    assert capability_words({"elicitation": {}}) == "elicitation"
    assert capability_words({"elicitation": {"url": {}}, "sampling": {"tools": {}}, "roots": {}}) == (
        "URL elicitation, sampling with tools, roots"
    )
    assert capability_words({"extensions": {"io.modelcontextprotocol/ui": {}}}) == (
        "the extension io.modelcontextprotocol/ui"
    )
    assert capability_words({"experimental": {"x": {}}, "tasks": {}}) == "the experimental capability x, tasks"
    assert capability_words({"somethingNew": {}}) == "somethingNew"


@pytest.mark.parametrize("data", [None, "text", [1], {"requiredCapabilities": "all"}, {"requiredCapabilities": {}}])
def test_missing_capability_without_usable_data_says_only_the_meaning(data: object) -> None:
    assert named(-32021, "m", data) == "JSON-RPC -32021 (the client lacks a capability the server requires)"


def test_unsupported_version_names_the_versions_the_server_supports() -> None:
    data = {"supported": ["2025-11-25"], "requested": "2026-07-28"}
    assert named(-32022, "Unsupported protocol version", data) == (
        "JSON-RPC -32022 (unsupported protocol version; the server supports 2025-11-25)"
    )
    two = named(-32022, "", {"supported": ["2026-07-28", "2025-11-25"]})
    assert two.endswith("the server supports 2026-07-28, 2025-11-25)")
    assert named(-32022, "", {"supported": []}).endswith("; the server names no version)")
    assert named(-32022, "", {"supported": [1, None]}).endswith("; the server names no version)")
    assert named(-32022, "", {"supported": "2025-11-25"}) == "JSON-RPC -32022 (unsupported protocol version)"


def test_resource_not_found_names_the_uri_both_codes() -> None:
    assert named(-32002, "gone", {"uri": "file:///x.txt"}) == "JSON-RPC -32002 (resource not found: file:///x.txt)"
    assert named(-32602, "Resource not found", {"uri": "file:///x.txt"}) == (
        "JSON-RPC -32602 (resource not found: file:///x.txt)"
    )


def test_url_elicitation_with_pages_says_nothing_more() -> None:
    data = {"elicitations": [{"mode": "url", "url": "https://example.com", "elicitationId": "1", "message": "go"}]}
    assert named(-32042, "m", data) == "JSON-RPC -32042 (URL elicitation required)"


@pytest.mark.parametrize(
    ("code", "name"),
    [
        (-32000, "implementation_defined"),
        (-32010, "implementation_defined"),
        (-32019, "implementation_defined"),
        (-32023, "reserved"),
        (-32099, "reserved"),
        (-32100, "reserved"),
        (-32768, "reserved"),
        (-32769, "server_defined"),
        (-1, "server_defined"),
        (0, "server_defined"),
        (42, "server_defined"),
    ],
)
def test_codes_outside_the_table_are_named_by_their_range(code: int, name: str) -> None:
    said = named_code(code, "m")
    assert said.name == name and said.text.startswith(f"JSON-RPC {code} (")


HOSTILE = "\u202eevil\u200b\U000e0041" + "x" * 5_000


@pytest.mark.parametrize(
    "data",
    [
        {"requiredCapabilities": {f"{HOSTILE}{n}": {HOSTILE: {}} for n in range(1000)}},
        {"requiredCapabilities": {"extensions": {f"{HOSTILE}{n}": {} for n in range(1000)}}},
        {"requiredCapabilities": {"elicitation": {f"{HOSTILE}{n}": {} for n in range(1000)}}},
        {"supported": [HOSTILE] * 100_000},
        {"uri": HOSTILE},
    ],
    ids=["capability names", "extension names", "sub-capabilities", "versions", "uri"],
)
@pytest.mark.parametrize("code", [-32021, -32022, -32002])
def test_hostile_data_is_said_bounded_and_visible(data: dict[str, object], code: int) -> None:
    text = named(code, HOSTILE, data)
    assert len(text) < 1000
    assert "\u202e" not in text and "\u200b" not in text and "\U000e0041" not in text


def test_hostile_data_keeps_its_count_of_what_was_left_out() -> None:
    text = named(-32021, "m", {"requiredCapabilities": {f"{HOSTILE}{n}": {} for n in range(1000)}})
    assert "\\u202eevil\\u200b" in text and text.endswith("more))")


@given(
    code=st.integers(),
    message=st.one_of(st.none(), st.text()),
    data=st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text()),
        lambda inner: st.one_of(st.lists(inner), st.dictionaries(st.text(), inner)),
        max_leaves=30,
    ),
)
def test_any_answer_is_named_in_one_bounded_line(code: int, message: str | None, data: object) -> None:
    for wrapped in (data, {"requiredCapabilities": data}, {"supported": data}, {"uri": data}):
        said = named_code(code, message, wrapped)
        assert said.text.startswith(f"JSON-RPC {code} (") and said.text.endswith(")")
        assert "\n" not in said.text and len(said.text) < 1000


def test_an_error_says_its_code_through_the_table_and_none_without_one() -> None:
    data = {"requiredCapabilities": {"elicitation": {"form": {}}}}
    info = ErrorInfo(ErrorKind.SERVER_ERROR, "x", 0, -32021, details={"code": -32021, "message": "m", "data": data})
    said = code_words(info)
    assert said is not None and said.text.endswith("requires: form elicitation)")
    assert code_words(ErrorInfo(ErrorKind.TIMEOUT, "late")) is None


def test_named_words_survive_a_document_and_a_tampered_one_is_bounded_or_dropped() -> None:
    said = named_code(-32602, "Unknown tool: x")
    assert Named.from_json(said.to_json()) == said
    assert Named.from_json({"code": "1", "name": "a", "short": "b", "text": "c"}) is None
    assert Named.from_json(None) is None
    tampered = Named.from_json({"code": 1, "name": HOSTILE, "short": HOSTILE, "text": HOSTILE})
    assert tampered is not None and len(tampered.text) < 1000 and "\u202e" not in tampered.text
