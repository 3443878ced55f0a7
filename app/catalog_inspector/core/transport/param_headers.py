"""Mirrored parameter headers (2026-07-28, SEP-2243): `Mcp-Param-{Name}` on every HTTP `tools/call`.

A tool's input schema may mark an argument with `x-mcp-header`; a 2026-07-28 client then
mirrors that argument's value into an HTTP header so that gateways can route on it, and a
server that checks answers -32020 when it is missing. The SDK learns the headers from
its own `list_tools`; our walk sends `tools/list` raw, so the accepted catalog's
annotations are learned here (`learn`) and the HTTP transport asks `headers_for` for
each POST. The codec and the validity rules are the SDK's (`mcp.shared.inbound`), so
what is sent is what its servers check. A tool whose annotation is invalid is one a
conforming client must drop: it is kept, and `excluded` says why.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from mcp.shared.inbound import X_MCP_HEADER_KEY, find_invalid_x_mcp_header, mcp_param_headers, x_mcp_header_map

from catalog_inspector.core.text import visible

if TYPE_CHECKING:
    import httpx2

__all__ = ["HeaderScreen", "ParamHeaders"]

REASON_LIMIT = 300  # characters of the SDK's reason kept (it quotes the server's annotation)
# Bytes one header line may take (name, ": ", value). The spec sets none; nginx's default buffer is 8 KiB a
# line and Node's and h11's whole header block 16 KiB, so a longer value would be refused on the way, as an
# opaque 431 or a closed connection: it is refused here first, with the argument named.
HEADER_LINE_LIMIT = 8_192
# How the annotation's key is spelled in JSON text (json.dumps escapes neither "x", "-" nor letters).
_KEY_TEXT = json.dumps(X_MCP_HEADER_KEY)


def _may_annotate(schema: Any) -> bool:
    """False only when `schema` holds no `x-mcp-header` key anywhere (it cannot carry an annotation, valid or not).

    The SDK's walk visits every schema position in Python (~30 µs a tool); the JSON text of a schema
    that has no such key cannot contain the quoted key, and the C encoder writes it in a few µs. A
    string value that happens to read "x-mcp-header" is only a false alarm: the walk then decides.
    """
    try:
        return _KEY_TEXT in json.dumps(schema, check_circular=False)
    except (TypeError, ValueError, RecursionError):
        return True  # not plain JSON, or too deep to write: the SDK's walk decides


class HeaderScreen:
    """Whether a tools walk may carry `x-mcp-header` annotations, screened a page at a time as pages arrive.

    `_may_annotate` over a whole catalog is one C pass, but 10,000 tools take ~25 ms of it: in the
    window that pass is a stall of the GUI thread when the walk ends. A page's share (~0.3 ms) is
    taken as the page arrives instead, and `ParamHeaders.learn` is told what the pages said.
    """

    def __init__(self) -> None:
        self.suspect = False  # some page held the quoted key (or could not be written as JSON)

    def page(self, result: Mapping[str, Any]) -> None:
        """Screen one tools/list result as the server sent it."""
        if not self.suspect:
            tools = result.get("tools")
            schemas = [tool.get("inputSchema") if isinstance(tool, dict) else tool for tool in tools or ()]
            self.suspect = not isinstance(tools, list) or _may_annotate(schemas)


class ParamHeaders:
    """The accepted catalog's `x-mcp-header` maps, by tool name, and the tools a conforming client excludes."""

    def __init__(self) -> None:
        self.maps: dict[str, dict[tuple[str, ...], str]] = {}
        self.excluded: dict[str, str] = {}

    def learn(self, tools: Iterable[Mapping[str, Any]], screen: HeaderScreen | None = None) -> None:
        """Take the annotations of a complete tools list (replacing what an earlier walk taught); `screen`:
        what its pages' screening found, as they arrived (else the whole list is screened here)."""
        maps: dict[str, dict[tuple[str, ...], str]] = {}
        excluded: dict[str, str] = {}
        tools = list(tools)
        suspect = screen.suspect if screen is not None else _may_annotate([tool.get("inputSchema") for tool in tools])
        if not suspect:
            self.maps, self.excluded = maps, excluded  # the usual catalog: one C pass over all the schemas
            return
        for tool in tools:
            name, schema = tool.get("name"), tool.get("inputSchema")
            if not isinstance(name, str) or not _may_annotate(schema):
                continue
            try:
                reason = find_invalid_x_mcp_header(schema)
            except RecursionError:
                reason = "the input schema is nested too deeply to check its x-mcp-header annotations"
            if reason is not None:
                excluded[name] = visible(reason, REASON_LIMIT)
            elif (found := x_mcp_header_map(schema)) and name not in maps:
                maps[name] = found
        self.maps, self.excluded = maps, excluded

    def for_call(self, name: str, arguments: Mapping[str, Any] | None) -> dict[str, str]:
        """The `Mcp-Param-*` headers of a call of `name` with `arguments` (none for a tool without annotations)."""
        header_map = self.maps.get(name)
        if header_map is None or not isinstance(arguments, Mapping):
            return {}
        return mcp_param_headers(header_map, arguments)

    def too_long(self, name: str, arguments: Mapping[str, Any] | None) -> str | None:
        """Why a call of `name` with `arguments` cannot carry its mirrored headers (None: it can).

        CR/LF and non-ASCII are no reason: the spec's codec carries them base64-wrapped. Length is.
        """
        for header, value in self.for_call(name, arguments).items():
            size = len(header) + 2 + len(value.encode())
            if size > HEADER_LINE_LIMIT:
                return (
                    f"the argument mirrored into {header} would make a {size:,}-byte header line, over the "
                    f"{HEADER_LINE_LIMIT:,} bytes servers and proxies commonly accept; nothing was sent"
                )
        return None

    def headers_for(self, request: httpx2.Request) -> dict[str, str]:
        """The headers a POST carrying a `tools/call` mirrors; {} for anything else."""
        import httpx2  # loaded by whoever made the request; a stdio walk, which has ParamHeaders too, never loads it

        if not self.maps or request.method != "POST":
            return {}
        try:
            body = request.content
        except httpx2.RequestNotRead:
            return {}
        if b'"tools/call"' not in body:  # most POSTs: no need to parse them
            return {}
        try:
            message = json.loads(body)
        except ValueError:
            return {}
        params = message.get("params") if isinstance(message, dict) and message.get("method") == "tools/call" else None
        if not isinstance(params, dict) or not isinstance(params.get("name"), str):
            return {}
        return self.for_call(params["name"], params.get("arguments"))
