"""The JSON-RPC error codes the MCP specification defines, by name: one table, and the words for any code.

Everyone who shows a JSON-RPC error's code (the banner, the Call tab, the call
history, the page timeline, the command line, the server log) says it through
`named`: "JSON-RPC -32021 (the client lacks a capability the server requires:
form elicitation)", never the bare number.

Where the words come from (the 2026-07-28 schema and basic/index, with the
codes older revisions defined):

    code     name                                 defined by
    ───────  ───────────────────────────────────  ──────────────────────────────────
    -32700   parse_error                          JSON-RPC 2.0
    -32600   invalid_request                      JSON-RPC 2.0
    -32601   method_not_found                     JSON-RPC 2.0
    -32602   invalid_params (unknown_tool, …)     JSON-RPC 2.0; MCP's uses of it
    -32603   internal_error                       JSON-RPC 2.0
    -32001   request_timeout                      the SDKs (implementation-defined)
    -32002   resource_not_found                   MCP 2025-11-25 and earlier
    -32020   header_mismatch                      MCP 2026-07-28
    -32021   missing_required_client_capability   MCP 2026-07-28 (data.requiredCapabilities)
    -32022   unsupported_protocol_version         MCP 2026-07-28 (data.supported)
    -32042   url_elicitation_required             MCP 2025-11-25 (data.elicitations)

-32602 covers several of MCP's own failures (an unknown tool or prompt, a
resource not found since 2026-07-28, an invalid cursor, invalid arguments); the
code alone cannot tell them apart, so the server's message decides, and only
when it opens with the words the spec's own examples use ("Unknown tool: …").
Anything else stays "invalid params". Codes outside the table are named by the
range they fall in.

The message and data are the server's: untrusted, so every detail taken from
them is bounded and made visible here. Plain data, no SDK import
(`tests/core/test_jsonrpc_codes.py` checks the numbers against `mcp_types`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

from catalog_inspector.core.text import visible

__all__ = [
    "CODES",
    "INVALID_PARAMS_CASES",
    "CodeMeaning",
    "Named",
    "capability_words",
    "meaning_of",
    "named",
    "named_code",
]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
REQUEST_TIMEOUT = -32001
RESOURCE_NOT_FOUND = -32002
HEADER_MISMATCH = -32020
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
UNSUPPORTED_PROTOCOL_VERSION = -32022
URL_ELICITATION_REQUIRED = -32042


@dataclass(frozen=True)
class CodeMeaning:
    """What one code means: a name for scripts, a few words for a table cell, and the words said in full."""

    name: str
    short: str
    words: str


CODES: dict[int, CodeMeaning] = {
    PARSE_ERROR: CodeMeaning("parse_error", "parse error", "parse error: what was sent is not valid JSON"),
    INVALID_REQUEST: CodeMeaning("invalid_request", "invalid request", "invalid request"),
    METHOD_NOT_FOUND: CodeMeaning("method_not_found", "method not found", "method not found"),
    INVALID_PARAMS: CodeMeaning("invalid_params", "invalid params", "invalid params"),
    INTERNAL_ERROR: CodeMeaning("internal_error", "internal error", "internal error"),
    REQUEST_TIMEOUT: CodeMeaning("request_timeout", "request timeout", "request timeout"),
    # Replaced by -32602 in 2026-07-28; clients should still accept it from older servers.
    RESOURCE_NOT_FOUND: CodeMeaning("resource_not_found", "resource not found", "resource not found"),
    HEADER_MISMATCH: CodeMeaning(
        "header_mismatch", "header mismatch", "header mismatch: the HTTP headers do not match the request body"
    ),
    MISSING_REQUIRED_CLIENT_CAPABILITY: CodeMeaning(
        "missing_required_client_capability",
        "missing client capability",
        "the client lacks a capability the server requires",
    ),
    UNSUPPORTED_PROTOCOL_VERSION: CodeMeaning(
        "unsupported_protocol_version", "unsupported protocol version", "unsupported protocol version"
    ),
    URL_ELICITATION_REQUIRED: CodeMeaning(
        "url_elicitation_required", "URL elicitation required", "URL elicitation required"
    ),
}

# -32602 told apart by how the server's message opens (the spec's examples: "Unknown tool: invalid_tool_name",
# "Unknown prompt: …", "Resource not found", "Invalid cursor"); matched at the start only, case aside, so a
# message that merely mentions a tool somewhere stays "invalid params".
INVALID_PARAMS_CASES: tuple[tuple[re.Pattern[str], CodeMeaning], ...] = (
    (
        re.compile(r"(unknown|no such) tool\b|tool\b(\s+\S+)?\s+(not found|does not exist|is unknown)\b", re.I),
        CodeMeaning("unknown_tool", "unknown tool", "unknown tool"),
    ),
    (
        re.compile(r"(unknown|no such) prompt\b|prompt\b(\s+\S+)?\s+(not found|does not exist|is unknown)\b", re.I),
        CodeMeaning("unknown_prompt", "unknown prompt", "unknown prompt"),
    ),
    (
        re.compile(r"(unknown|no such) resource\b|resource\b(\s+\S+)?\s+(not found|does not exist)\b", re.I),
        CodeMeaning("resource_not_found", "resource not found", "resource not found"),
    ),
    (
        re.compile(r"(invalid|unknown|expired|stale) cursor\b", re.I),
        CodeMeaning("invalid_cursor", "invalid cursor", "invalid params: the cursor is invalid or expired"),
    ),
)

# Codes the table does not hold, by the range they fall in (the 2026-07-28 partition of -32000..-32099).
_IMPLEMENTATION_DEFINED = CodeMeaning(
    "implementation_defined", "implementation-defined", "implementation-defined: the spec gives this code no meaning"
)
_RESERVED_FOR_MCP = CodeMeaning(
    "reserved", "reserved, undefined", "reserved for the MCP specification, which defines no such code"
)
_RESERVED_BY_JSONRPC = CodeMeaning(
    "reserved", "reserved, undefined", "reserved by JSON-RPC, which defines no such code"
)
_SERVER_DEFINED = CodeMeaning("server_defined", "the server's own code", "a code of the server's own")

MESSAGE_SCAN = 200  # characters of the server's message looked at to split -32602
DETAIL_LIMIT = 300  # characters of the detail taken from the error's data
LISTED = 8  # versions or capabilities named from the data; the rest are counted
SCANNED = 256  # entries of a list or an object in the data looked at; the rest are only counted
ITEM_WIDTH = 64  # characters of one version, capability or extension name


@dataclass(frozen=True)
class Named:
    """A code said in words: `text` is "JSON-RPC -32021 (…: form elicitation)", `name` the word scripts read."""

    code: int
    name: str
    short: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "name": self.name, "short": self.short, "text": self.text}

    @classmethod
    def from_json(cls, data: Any) -> Named | None:
        """The words a document kept, as kept (bounded again: a file may have been edited); None if malformed."""
        if not isinstance(data, Mapping) or not isinstance(data.get("code"), int):
            return None
        name, short, text = (data.get(key) for key in ("name", "short", "text"))
        if not (isinstance(name, str) and isinstance(short, str) and isinstance(text, str)):
            return None
        return cls(data["code"], visible(name, ITEM_WIDTH), visible(short, ITEM_WIDTH), visible(text, 2 * DETAIL_LIMIT))


def meaning_of(code: int, message: Any = None) -> CodeMeaning:
    """The table's meaning of `code` (-32602 refined by how `message` opens), or its range's."""
    if code == INVALID_PARAMS and isinstance(message, str):
        opening = message[:MESSAGE_SCAN].lstrip()
        for pattern, meaning in INVALID_PARAMS_CASES:
            if pattern.match(opening):
                return meaning
    known = CODES.get(code)
    if known is not None:
        return known
    if -32019 <= code <= -32000:
        return _IMPLEMENTATION_DEFINED
    if -32099 <= code <= -32020:
        return _RESERVED_FOR_MCP
    if -32768 <= code <= -32100:
        return _RESERVED_BY_JSONRPC
    return _SERVER_DEFINED


def named_code(code: int, message: Any = None, data: Any = None) -> Named:
    """`code` in words, with what the spec lets its `data` say (bounded and made visible)."""
    meaning = meaning_of(code, message)
    detail = _detail(code, meaning, data)
    return Named(code, meaning.name, meaning.short, f"JSON-RPC {code} ({meaning.words}{detail})")


def named(code: int, message: Any = None, data: Any = None) -> str:
    """ "JSON-RPC -32022 (unsupported protocol version; the server supports 2025-11-25)"."""
    return named_code(code, message, data).text


def _detail(code: int, meaning: CodeMeaning, data: Any) -> str:
    fields = data if isinstance(data, Mapping) else {}
    if code == MISSING_REQUIRED_CLIENT_CAPABILITY:
        words = capability_words(fields.get("requiredCapabilities"))
        return f": {words}" if words else ""
    if code == UNSUPPORTED_PROTOCOL_VERSION:
        supported = fields.get("supported")
        if not isinstance(supported, list):
            return ""
        versions = [visible(v, ITEM_WIDTH) for v in supported[:SCANNED] if isinstance(v, str)]
        if not versions:
            return "; the server names no version"
        return f"; the server supports {_listed(versions, len(supported))}"
    if meaning.name == "resource_not_found" and isinstance(fields.get("uri"), str):
        return f": {visible(fields['uri'], DETAIL_LIMIT)}"
    if code == URL_ELICITATION_REQUIRED:
        asked = fields.get("elicitations")
        if not isinstance(asked, list) or not asked:
            return ", yet the error names no page to visit"
    return ""


def _listed(items: list[str], total: int) -> str:
    """`items` joined, as many as fit in `DETAIL_LIMIT` characters (at most `LISTED`); the rest of `total` counted."""
    shown: list[str] = []
    size = 0
    for item in items[:LISTED]:
        if shown and size + len(item) + 2 > DETAIL_LIMIT:
            break
        shown.append(item)
        size += len(item) + 2
    more = total - len(shown)
    return ", ".join(shown) + (f" (and {more} more)" if more > 0 else "")


# How a required client capability is said ("form elicitation"); a sub-key names a refinement of it.
_CAPABILITY_WORDS = {"elicitation": "elicitation", "sampling": "sampling", "roots": "roots", "tasks": "tasks"}
_REFINEMENTS = {
    ("elicitation", "form"): "form elicitation",
    ("elicitation", "url"): "URL elicitation",
    ("sampling", "tools"): "sampling with tools",
    ("sampling", "context"): "sampling with context",
    ("roots", "listChanged"): "roots with list changes",
}


def capability_words(capabilities: Any) -> str:
    """A `ClientCapabilities` object (a -32021 error's `requiredCapabilities`) as words: "form elicitation, roots".

    Keys it does not know are named as sent (made visible); extensions by their identifier. As many
    as fit in `DETAIL_LIMIT` characters are named (at most `LISTED`), the rest counted; anything but an
    object says nothing.
    """
    if not isinstance(capabilities, Mapping):
        return ""
    said: list[str] = []
    total = max(0, len(capabilities) - SCANNED)  # looked at no further: only counted
    for key, value in islice(capabilities.items(), SCANNED):
        key = str(key)
        if key in ("extensions", "experimental") and isinstance(value, Mapping):
            noun = "the extension" if key == "extensions" else "the experimental capability"
            total += len(value)
            said.extend(f"{noun} {visible(str(name), ITEM_WIDTH)}" for name in islice(value, LISTED))
            continue
        subs = islice(value, SCANNED) if isinstance(value, Mapping) else ()
        refined = [_REFINEMENTS[(key, str(sub))] for sub in subs if (key, str(sub)) in _REFINEMENTS]
        words = refined or [_CAPABILITY_WORDS.get(key) or visible(key, ITEM_WIDTH)]
        total += len(words)
        said.extend(words)
    return _listed(said, total) if said else ""
