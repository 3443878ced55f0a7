"""The "apps" demo server: an MCP Apps server (a tool with an interface, its `ui://` HTML resource), icons, results
with every kind of content, and instructions, on every era.

`python -m catalog_inspector.demo --mode apps [--legacy]`

- `show_weather` has an interface: `_meta.ui.resourceUri` names `ui://weather/view.html`
  (`text/html;profile=mcp-app`, a CSP with named domains, a camera permission, its own domain);
- `open_dashboard` points at `ui://dashboard/view.html`, which is not listed (a broken link a lint names);
- `ui://loose/view.html` is served as plain `text/html` with a CSP that allows everything (two more findings);
- `rich_result` answers with annotated text, two resource links (one listed, one not), a PNG, an image that is not
  one, and a half-second WAV;
- the server, `show_weather` and a resource carry `data:` icons (a PNG; an SVG, described and never drawn; an
  `https` one, listed and never fetched);
- `demo://apps/clock` can be subscribed to (`resources/subscribe`; on 2026-07-28 `subscriptions/listen`);
  `tick` says it changed `count` times (default 1; try 5,000 for a flood).
"""

from __future__ import annotations

import argparse
import base64
import io
import struct
import wave
import zlib
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler
from mcp.shared.subscriptions import ResourceUpdated
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

__all__ = ["build", "main"]

WEATHER_VIEW = "ui://weather/view.html"
CLOCK = "demo://apps/clock"
APP_MIME = "text/html;profile=mcp-app"
_COMPLETE = {"resultType": "complete"}
_LISTED = {"ttlMs": 0, "cacheScope": "private", **_COMPLETE}  # 2026-07-28: list and read results say how long they hold


def png(width: int = 4, height: int = 4, rgb: tuple[int, int, int] = (30, 136, 229)) -> bytes:
    """A small solid PNG, made here (no image library)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def wav(seconds: float = 0.5, rate: int = 8000) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as sound:
        sound.setnchannels(1)
        sound.setsampwidth(1)
        sound.setframerate(rate)
        sound.writeframes(b"\x80" * int(seconds * rate))
    return out.getvalue()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


PNG_ICON = {"src": f"data:image/png;base64,{_b64(png())}", "mimeType": "image/png", "sizes": ["4x4"]}
SVG_ICON = {"src": "data:image/svg+xml;base64," + _b64(b"<svg xmlns='http://www.w3.org/2000/svg'/>")}
WEB_ICON = {"src": "https://icons.example.invalid/weather.png", "mimeType": "image/png"}

TOOLS: list[dict[str, Any]] = [
    {
        "name": "show_weather",
        "title": "Show the weather",
        "description": "The forecast for a city, with an interactive view in hosts that render MCP Apps.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        "annotations": {"readOnlyHint": True},
        "icons": [PNG_ICON, SVG_ICON, WEB_ICON],
        "_meta": {"ui": {"resourceUri": WEATHER_VIEW, "visibility": ["model", "app"]}},
    },
    {
        "name": "open_dashboard",
        "description": "Opens a dashboard view; its interface resource is not listed.",
        "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": True},
        "_meta": {"ui": {"resourceUri": "ui://dashboard/view.html"}},
    },
    {
        "name": "tick",
        "description": "Says demo://apps/clock changed, count times, to whoever subscribed to it.",
        "inputSchema": {"type": "object", "properties": {"count": {"type": "integer", "minimum": 1, "maximum": 10000}}},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "rich_result",
        "description": "Answers with every kind of content: annotated text, resource links, images, audio.",
        "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": True},
    },
]
RESOURCES: list[dict[str, Any]] = [
    {
        "uri": WEATHER_VIEW,
        "name": "weather-view",
        "title": "Weather view",
        "mimeType": APP_MIME,
        "_meta": {
            "ui": {
                "csp": {"connectDomains": ["https://api.weather.example.invalid"], "resourceDomains": []},
                "permissions": {"camera": {}},
                "domain": "weather.example.invalid",
                "prefersBorder": True,
            }
        },
    },
    {
        "uri": "ui://loose/view.html",
        "name": "loose-view",
        "mimeType": "text/html",
        "_meta": {"ui": {"csp": {"connectDomains": ["*"], "resourceDomains": ["https:"]}}},
    },
    {"uri": "demo://apps/notes/1", "name": "note-1", "mimeType": "text/plain", "icons": [PNG_ICON]},
    {"uri": CLOCK, "name": "clock", "mimeType": "text/plain", "description": "Changes whenever tick is called"},
]
HTML = {
    WEATHER_VIEW: "<!doctype html><html><body><h1>Weather</h1><script>parent.postMessage('hi', '*')</script></body>"
    "</html>",
    "ui://loose/view.html": "<html><body><img src=https://tracker.example.invalid/pixel.gif></body></html>",
}


def rich_content() -> list[dict[str, Any]]:
    return [
        {
            "type": "text",
            "text": "Rain after noon.",
            "annotations": {"audience": ["user"], "priority": 0.9, "lastModified": "2026-12-01T09:00:00Z"},
        },
        {"type": "resource_link", "uri": "demo://apps/notes/1", "name": "note-1", "mimeType": "text/plain"},
        {"type": "resource_link", "uri": "demo://apps/unlisted", "name": "unlisted", "description": "Not listed"},
        {"type": "image", "mimeType": "image/png", "data": _b64(png(16, 8, (229, 57, 53)))},
        {"type": "image", "mimeType": "image/png", "data": _b64(b"\x89PNG\r\n\x1a\nthis is not an image")},
        {"type": "audio", "mimeType": "audio/wav", "data": _b64(wav())},
    ]


def build() -> Server[Any]:
    bus = InMemorySubscriptionBus()
    ticks = [0]
    subscribed: set[str] = set()  # before 2026-07-28: what this session asked to hear about

    async def on_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> Any:
        return {"tools": TOOLS, **_LISTED}

    async def on_call(ctx: Any, params: types.CallToolRequestParams) -> Any:
        if params.name == "rich_result":
            return {"content": rich_content(), **_COMPLETE}
        if params.name == "tick":
            count = int((params.arguments or {}).get("count", 1))
            for _ in range(count):
                ticks[0] += 1
                if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
                    await bus.publish(ResourceUpdated(uri=CLOCK))
                elif CLOCK in subscribed:
                    await ctx.session.send_resource_updated(CLOCK)
            return {"content": [{"type": "text", "text": f"ticked {count} times"}], **_COMPLETE}
        city = str((params.arguments or {}).get("city", "nowhere"))
        return {"content": [{"type": "text", "text": f"{params.name}: sunny in {city}"}], **_COMPLETE}

    async def on_resources(ctx: Any, params: types.PaginatedRequestParams | None) -> Any:
        return {"resources": RESOURCES, **_LISTED}

    async def on_read(ctx: Any, params: types.ReadResourceRequestParams) -> Any:
        uri = str(params.uri)
        listed = next((resource for resource in RESOURCES if resource["uri"] == uri), None)
        if uri in HTML and listed is not None:
            content = {"uri": uri, "mimeType": listed["mimeType"], "text": HTML[uri], "_meta": listed["_meta"]}
        elif uri == CLOCK:
            content = {"uri": uri, "mimeType": "text/plain", "text": f"ticks: {ticks[0]}"}
        else:
            content = {"uri": uri, "mimeType": "text/plain", "text": f"the note at {uri}"}
        return {"contents": [content], **_LISTED}

    async def on_subscribe(ctx: Any, params: Any) -> Any:
        subscribed.add(str(params.uri))
        return {}

    async def on_unsubscribe(ctx: Any, params: Any) -> Any:
        subscribed.discard(str(params.uri))
        return {}

    return Server(
        "apps",
        version="1.0.0",
        instructions="Call show_weather for a forecast.\nIts view needs a host that renders MCP Apps. <b>Not bold.</b>",
        icons=[types.Icon.model_validate(PNG_ICON)],
        on_list_tools=on_tools,
        on_call_tool=on_call,
        on_list_resources=on_resources,
        on_read_resource=on_read,
        on_subscribe_resource=on_subscribe,
        on_unsubscribe_resource=on_unsubscribe,
        on_subscriptions_listen=ListenHandler(bus),
    )


async def serve(legacy: bool) -> None:
    from catalog_inspector.demo.server import run_in_era

    server = build()
    async with stdio_server() as (read, write):
        await run_in_era(server, read, write, server.create_initialization_options(), legacy)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m catalog_inspector.demo --mode apps")
    parser.add_argument("--legacy", action="store_true", help="answer server/discover with -32601 (a 2025 server)")
    anyio.run(serve, parser.parse_args(argv).legacy)
