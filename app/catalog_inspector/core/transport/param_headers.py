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
from typing import Any

import httpx2
from mcp.shared.inbound import find_invalid_x_mcp_header, mcp_param_headers, x_mcp_header_map

from catalog_inspector.core.text import visible

__all__ = ["ParamHeaders"]

REASON_LIMIT = 300  # characters of the SDK's reason kept (it quotes the server's annotation)


class ParamHeaders:
    """The accepted catalog's `x-mcp-header` maps, by tool name, and the tools a conforming client excludes."""

    def __init__(self) -> None:
        self.maps: dict[str, dict[tuple[str, ...], str]] = {}
        self.excluded: dict[str, str] = {}

    def learn(self, tools: Iterable[Mapping[str, Any]]) -> None:
        """Take the annotations of a complete tools list (replacing what an earlier walk taught)."""
        maps: dict[str, dict[tuple[str, ...], str]] = {}
        excluded: dict[str, str] = {}
        for tool in tools:
            name, schema = tool.get("name"), tool.get("inputSchema")
            if not isinstance(name, str):
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

    def headers_for(self, request: httpx2.Request) -> dict[str, str]:
        """The headers a POST carrying a `tools/call` mirrors; {} for anything else."""
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
