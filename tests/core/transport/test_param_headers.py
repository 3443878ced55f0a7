"""Learning a catalog's `x-mcp-header` annotations: the quick pass over a whole catalog decides as the SDK's walk."""

from __future__ import annotations

from typing import Any

from mcp.shared.inbound import find_invalid_x_mcp_header, x_mcp_header_map

from catalog_inspector.core.transport.param_headers import HeaderScreen, ParamHeaders

H = "x-mcp-header"


def _tool(name: str, schema: Any) -> dict[str, Any]:
    return {"name": name, "inputSchema": schema}


def test_a_catalog_without_any_annotation_learns_nothing() -> None:
    headers = ParamHeaders()
    headers.maps, headers.excluded = {"stale": {("a",): "A"}}, {"stale": "old"}  # what an earlier walk taught
    headers.learn(_tool(f"t{n}", {"type": "object", "properties": {"v": {"type": "string"}}}) for n in range(500))
    assert headers.maps == {} and headers.excluded == {}


def test_one_annotated_tool_among_many_is_found_and_a_lookalike_string_is_no_annotation() -> None:
    plain = [_tool(f"t{n}", {"type": "object", "properties": {"v": {"type": "string"}}}) for n in range(300)]
    lookalike = _tool("lookalike", {"type": "object", "properties": {"v": {"type": "string", "enum": [H]}}})
    valid = _tool("routed", {"type": "object", "properties": {"region": {"type": "string", H: "Region"}}})
    invalid = _tool("broken", {"type": "object", "anyOf": [{"properties": {"a": {"type": "string", H: "A"}}}]})
    headers = ParamHeaders()
    headers.learn([*plain, lookalike, valid, invalid])
    assert headers.maps == {"routed": {("region",): "Region"}}
    assert set(headers.excluded) == {"broken"}
    # Exactly what the SDK's own walk says of each.
    for tool in (lookalike, valid, invalid, plain[0]):
        reason = find_invalid_x_mcp_header(tool["inputSchema"])
        assert (tool["name"] in headers.excluded) == (reason is not None)
        if reason is None:
            assert headers.maps.get(tool["name"], {}) == x_mcp_header_map(tool["inputSchema"])


def test_a_schema_that_is_not_plain_json_goes_to_the_sdks_walk() -> None:
    deep: dict[str, Any] = {"type": "string", H: "Deep"}
    for _ in range(2000):  # too deep for json.dumps: the walk (iterative) still decides
        deep = {"type": "object", "properties": {"p": deep}}
    headers = ParamHeaders()
    headers.learn([_tool("deep", deep)])
    assert "deep" in headers.maps


def test_screening_page_by_page_decides_as_the_whole_catalog_pass() -> None:
    plain = [_tool(f"t{n}", {"type": "object", "properties": {"v": {"type": "string"}}}) for n in range(300)]
    valid = _tool("routed", {"type": "object", "properties": {"region": {"type": "string", H: "Region"}}})
    pages = [plain[:100], plain[100:200], [*plain[200:], valid]]
    screen = HeaderScreen()
    for page in pages[:2]:
        screen.page({"tools": page})
    assert not screen.suspect  # no page so far holds the key
    screened = ParamHeaders()
    screened.maps = {"stale": {("a",): "A"}}
    screened.learn([tool for page in pages[:2] for tool in page], screen)
    assert screened.maps == {} and screened.excluded == {}
    screen.page({"tools": pages[2]})
    assert screen.suspect
    whole, paged = ParamHeaders(), ParamHeaders()
    whole.learn([*plain, valid])
    paged.learn([*plain, valid], screen)
    assert paged.maps == whole.maps == {"routed": {("region",): "Region"}}


def test_a_page_the_screen_cannot_read_leaves_the_decision_to_the_walk() -> None:
    screen = HeaderScreen()
    screen.page({"tools": "not a list"})
    assert screen.suspect
