"""A real MCP server (the SDK's lowlevel `Server`) whose catalog misbehaves on purpose.

It is the project's test fixture and the demo the app ships with. Behaviour is
chosen by a mode (see `catalog.MODES`) and is deterministic. Cursors are random
opaque tokens mapped to pages server-side: stable for the same page within a
catalog generation, rejected with -32602 when unknown or from an old generation.

Walks are counted (a walk starts with a list request without a cursor); with
`--state FILE` the count survives the process, so a stdio server spawned anew
for every session still drifts, flakes or duplicates "on refresh".
"""

from __future__ import annotations

import io
import json
import os
import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp.shared.subscriptions import ToolsListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from catalog_inspector.core.catalog import LIST_KINDS
from catalog_inspector.core.files import write_text_safely
from catalog_inspector.demo.catalog import CATASTROPHIC_TEXT, Options, Page, Plan, plan_for

__all__ = ["DemoServer"]

# Fields a 2026-07-28 result must carry; the SDK drops them on a handshake-era connection.
_MODERN_FIELDS = {"ttlMs": 0, "cacheScope": "private", "resultType": "complete"}

# `--call-fail`: how every tools/call fails. "jsonrpc" answers this JSON-RPC error (an application code,
# outside the ranges JSON-RPC and MCP reserve); "crash" exits the process mid-call with CALL_CRASH_EXIT.
CALL_FAILURES = ("jsonrpc", "crash")
CALL_ERROR_CODE = 1001
CALL_ERROR_MESSAGE = "demo: the backend refused the call"
CALL_CRASH_EXIT = 5
PROGRESS_STEPS = 2  # progress notifications a delayed call sends (when the request asked for progress)
GATE_POLL = 0.02  # seconds between looks at a call gate


@dataclass
class _Cursor:
    kind: str
    page: int
    walk: int
    generation: int


@dataclass
class DemoServer:
    """State of one demo server process: mode, walk counts, cursor table.

    Attributes:
        mode: one of `catalog.MODES`.
        target: the list kind the mode applies to; the others behave normally.
        state_file: where walk counts persist across processes (None: in memory).
        wire: the protocol output, so the `garbage` mode can corrupt it.
    """

    mode: str
    target: str = "tools"
    opts: Options = field(default_factory=Options)
    delay: float = 0.5
    call_delay: float = 0.0
    call_gate: Path | None = None  # every call waits until this file exists
    error_text: str = ""  # the JSON-RPC error message of the `error` action, instead of the usual one
    call_fail: str = ""
    notify_count: int = 3
    notify_walks: int | None = None  # notify mode announces changes only in the first this many walks (None: all)
    state_file: Path | None = None
    busy_file: Path | None = None  # created when a request is kept waiting on purpose (a hang, a slow call)
    wire: Any = None
    generation: int = 0
    bus: InMemorySubscriptionBus = field(default_factory=InMemorySubscriptionBus)
    _walks: dict[str, int] = field(default_factory=dict)
    _cursors: dict[str, _Cursor] = field(default_factory=dict)
    _tokens: dict[tuple[str, int, int, int], str] = field(default_factory=dict)

    # -- walk counting ---------------------------------------------------
    def _load_walks(self) -> dict[str, int]:
        if self.state_file is None:
            return self._walks
        try:
            data = json.loads(self.state_file.read_text())
            return {str(k): int(v) for k, v in data.get("walks", {}).items()}
        except (OSError, ValueError, AttributeError):
            return {}

    def _start_walk(self, kind: str) -> int:
        walks = self._load_walks()
        walk = walks.get(kind, 0)
        walks[kind] = walk + 1
        self._walks = walks
        if self.state_file is not None:
            state = json.dumps({"walks": walks})
            write_text_safely(self.state_file, lambda handle: handle.write(state))
        return walk

    # -- cursors ---------------------------------------------------------
    def _token(self, plan: Plan, kind: str, page: int, walk: int) -> str:
        if page in plan.cursor_for:
            token = plan.cursor_for[page]
        else:
            key = (kind, page, walk, self.generation)
            token = self._tokens.get(key) or secrets.token_urlsafe(12)
            self._tokens[key] = token
        self._cursors[token] = _Cursor(kind, page, walk, self.generation)
        return token

    def _resolve(self, kind: str, cursor: str) -> _Cursor:
        found = self._cursors.get(cursor)
        if found is None or found.kind != kind:
            raise MCPError(types.INVALID_PARAMS, f"unknown cursor for {kind}")
        if found.generation != self.generation:
            raise MCPError(
                types.INVALID_PARAMS, "cursor belongs to an old catalog generation; list again from the start"
            )
        return found

    # -- serving ---------------------------------------------------------
    def _mode_for(self, kind: str) -> str:
        return self.mode if kind == self.target else "normal"

    async def list_page(self, ctx: Any, kind: str, params: types.PaginatedRequestParams | None) -> dict[str, Any]:
        cursor = params.cursor if params is not None else None
        mode = self._mode_for(kind)
        if cursor is None:
            walk, index = self._start_walk(kind), 0
        else:
            found = self._resolve(kind, cursor)
            walk, index = found.walk, found.page
        plan = plan_for(mode, kind, walk, self.opts)
        page = plan.page(index)
        if mode == "notify-early" and index == 0:
            # Like the reference "everything" server, which announces a change right after
            # `initialized`: before anything was listed, so the catalog about to be sent has it.
            await self.announce_tools_changed(ctx)
        log(f"{kind} walk {walk} page {index} ({len(page.items)} items)")
        await self._act(page, walk, mode)
        result: dict[str, Any] = {LIST_KINDS[kind].result_key: page.items, **_MODERN_FIELDS}
        if page.next is not None:
            result["nextCursor"] = self._token(plan, kind, page.next, walk)
        if page.action == "malformed":
            await self._write_raw(ctx, result)
        if page.action == "bump":
            self.generation += 1
            log(f"catalog changed: generation {self.generation}")
        if mode == "notify" and page.next is None and (self.notify_walks is None or walk < self.notify_walks):
            for _ in range(self.notify_count):
                await self.announce_tools_changed(ctx)
        return result

    async def announce_tools_changed(self, ctx: Any) -> None:
        """Say the tool list changed: to 2026-07-28 listeners through the bus, to older sessions by a push."""
        await self.bus.publish(ToolsListChanged())
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            await ctx.session.send_tool_list_changed()

    async def _write_raw(self, ctx: Any, result: dict[str, Any]) -> None:
        """Answer with a result the SDK's own server would refuse to send (it validates results).

        The SDK then sends its own answer to the same id, which the client drops as a late duplicate.
        """
        if self.wire is None:
            raise MCPError(types.INTERNAL_ERROR, "malformed mode needs the stdio transport")
        frame = {"jsonrpc": "2.0", "id": ctx.request_id, "result": result}
        await self.wire.write(json.dumps(frame) + "\n")
        await self.wire.flush()
        for kind in LIST_KINDS.values():
            for item in result.get(kind.result_key, []):
                item.setdefault("name", "repaired")
                item.setdefault("inputSchema", {"type": "object"})
                item.setdefault("uri", "demo://repaired")
                item.setdefault("uriTemplate", "demo://repaired/{id}")

    async def _act(self, page: Page, walk: int, mode: str) -> None:
        if mode == "slow":
            await anyio.sleep(self.delay)
        if page.action == "hang":
            log("hanging on purpose")
            self._busy()
            await anyio.sleep_forever()
        if page.action == "crash":
            log("crashing on purpose")
            sys.stderr.flush()
            os._exit(3)
        if page.action == "error":
            raise MCPError(types.INTERNAL_ERROR, self.error_text or f"flaky backend: upstream timed out (walk {walk})")
        if page.action == "garbage" and self.wire is not None:
            await self.wire.write("this line is not JSON-RPC: a stray print() on stdout\n")
            await self.wire.flush()

    def _busy(self) -> None:
        # A test that signals the client waits for this: the client is then walking, or calling.
        if self.busy_file is not None:
            self.busy_file.touch()

    async def call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> dict[str, Any]:
        args = params.arguments or {}
        if self.call_delay:
            self._busy()
            await self._take_time(ctx)
        while self.call_gate is not None and not self.call_gate.exists():
            await anyio.sleep(GATE_POLL)
        if self.call_fail == "jsonrpc":
            raise MCPError(CALL_ERROR_CODE, CALL_ERROR_MESSAGE, data={"tool": params.name})
        if self.call_fail == "crash":
            log(f"crashing mid-call on purpose (tools/call {params.name})")
            sys.stderr.flush()
            os._exit(CALL_CRASH_EXIT)
        if params.name == "echo":
            text = str(args.get("text", "")) * int(args.get("repeat", 1) or 1)
            return {
                "content": [{"type": "text", "text": text}],
                "structuredContent": {"text": text, "length": len(text)},
                "resultType": "complete",
            }
        if params.name == "count_items":
            return {
                "content": [{"type": "text", "text": "many"}],
                "structuredContent": {"count": "many"},
                "resultType": "complete",
            }
        if params.name == "catastrophic_pattern":
            return {
                "content": [{"type": "text", "text": CATASTROPHIC_TEXT}],
                "structuredContent": {"text": CATASTROPHIC_TEXT},
                "resultType": "complete",
            }
        if params.name == "delete_everything":
            return {
                "content": [{"type": "text", "text": "refusing: this demo deletes nothing"}],
                "isError": True,
                "resultType": "complete",
            }
        return {"content": [{"type": "text", "text": f"called {params.name}"}], "resultType": "complete"}

    async def _take_time(self, ctx: Any) -> None:
        """Sleep `call_delay` seconds in steps, saying how far it got (the SDK sends nothing unless asked)."""
        step = self.call_delay / PROGRESS_STEPS
        for done in range(PROGRESS_STEPS):
            await ctx.session.report_progress(done, PROGRESS_STEPS, f"demo: step {done + 1} of {PROGRESS_STEPS}")
            await anyio.sleep(step)

    def build(self) -> Server[Any]:
        async def on_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> Any:
            return await self.list_page(ctx, "tools", params)

        async def on_resources(ctx: Any, params: types.PaginatedRequestParams | None) -> Any:
            return await self.list_page(ctx, "resources", params)

        async def on_templates(ctx: Any, params: types.PaginatedRequestParams | None) -> Any:
            return await self.list_page(ctx, "resource_templates", params)

        async def on_prompts(ctx: Any, params: types.PaginatedRequestParams | None) -> Any:
            return await self.list_page(ctx, "prompts", params)

        async def on_call(ctx: Any, params: types.CallToolRequestParams) -> Any:
            return await self.call_tool(ctx, params)  # a dict result is sent as is

        async def on_read(ctx: Any, params: types.ReadResourceRequestParams) -> Any:
            contents = [{"uri": str(params.uri), "mimeType": "text/plain", "text": "a demo note"}]
            return {"contents": contents, **_MODERN_FIELDS}

        async def on_get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> Any:
            message = {"role": "user", "content": {"type": "text", "text": f"prompt {params.name}"}}
            return {"messages": [message], "resultType": "complete"}

        async def on_completion(ctx: Any, params: types.CompleteRequestParams) -> Any:
            values = complete_demo(params.ref.model_dump(), params.argument.name, params.argument.value, params.context)
            shown = values[:100]  # the spec's cap on one answer
            completion = {"values": shown, "total": len(values), "hasMore": len(values) > len(shown)}
            return {"completion": completion, "resultType": "complete"}

        return Server(
            f"demo-{self.mode}",
            version="1.0.0",
            instructions="The MCP Catalog Inspector demo server.",
            on_list_tools=on_tools,
            on_call_tool=on_call,
            on_list_resources=on_resources,
            on_list_resource_templates=on_templates,
            on_read_resource=on_read,
            on_list_prompts=on_prompts,
            on_get_prompt=on_get_prompt,
            on_completion=on_completion,
            on_subscriptions_listen=ListenHandler(self.bus),
        )


USERS = ("ann", "anton", "bob", "carol", "dave", "eve")
LANGUAGES = ("de", "en", "es", "fr", "it", "ja", "nl", "pt")


def complete_demo(ref: dict[str, Any], argument: str, value: str, context: Any) -> list[str]:
    """The demo's suggestions: a template's users (then that user's notes), languages, and 150 note ids for the
    `summarize` prompt (more than one answer may hold)."""
    given = dict(context.arguments or {}) if context is not None else {}
    choices: tuple[str, ...] = ()
    if ref.get("type") == "ref/resource" and argument == "user":
        choices = USERS
    elif ref.get("type") == "ref/resource" and argument == "id":
        choices = ("1", "2", "3") if given.get("user") == "ann" else ("7",)
    elif ref.get("type") == "ref/resource" and argument == "lang":
        choices = LANGUAGES
    elif ref.get("type") == "ref/prompt" and ref.get("name") == "summarize" and argument == "id":
        choices = tuple(f"n-{n}" for n in range(150))
    return [choice for choice in choices if choice.startswith(value)]


def log(message: str) -> None:
    print(f"[demo] {message}", file=sys.stderr, flush=True)


async def serve_stdio(demo: DemoServer, legacy_only: bool) -> None:
    from mcp.server.lowlevel.server import NotificationOptions
    from mcp.server.stdio import stdio_server

    # Own the wire explicitly (so `garbage` can write to it), and point fd 1 at
    # stderr so stray output from anything else misses the protocol.
    wire_in = io.TextIOWrapper(os.fdopen(os.dup(0), "rb"), encoding="utf-8", errors="replace")
    wire_out = io.TextIOWrapper(os.fdopen(os.dup(1), "wb"), encoding="utf-8")
    os.dup2(2, 1)
    stdin, stdout = anyio.wrap_file(wire_in), anyio.wrap_file(wire_out)
    demo.wire = stdout
    server = demo.build()
    options = server.create_initialization_options(NotificationOptions(tools_changed=True))
    async with stdio_server(stdin, stdout) as (read, write):
        await run_in_era(server, read, write, options, legacy_only)


async def run_in_era(server: Server[Any], read: Any, write: Any, options: Any, legacy_only: bool) -> None:
    """Serve a session; `legacy_only`: as a server older than 2026-07-28, which has no `server/discover`."""
    if not legacy_only:
        await server.run(read, write, options)
        return
    relay_send, relay_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    async with anyio.create_task_group() as tg:
        tg.start_soon(refuse_discover, read, write, relay_send)
        await server.run(relay_receive, write, options)
        tg.cancel_scope.cancel()


async def refuse_discover(read: Any, write: Any, relay: Any) -> None:
    """Answer `server/discover` with -32601, as a server older than the 2026 protocol does."""
    async with relay:
        async for item in read:
            message = getattr(item, "message", None)
            if isinstance(message, types.JSONRPCRequest) and message.method == "server/discover":
                error = types.ErrorData(code=types.METHOD_NOT_FOUND, message="Method not found")
                await write.send(SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=message.id, error=error)))
                continue
            await relay.send(item)


async def serve_http(demo: DemoServer, port: int, sse: bool) -> None:
    import socket

    import uvicorn

    server = demo.build()
    if sse:
        app = _sse_app(server)
        path = "/sse"
    else:
        app = server.streamable_http_app()
        path = "/mcp"
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)  # before READY: a client that connects at once waits in the backlog, never refused
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    http = uvicorn.Server(config)
    print(f"READY http://127.0.0.1:{sock.getsockname()[1]}{path}", flush=True)
    await http.serve(sockets=[sock])


def _sse_app(server: Server[Any]) -> Any:
    from mcp.server.sse import SseServerTransport
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Mount, Route

    transport = SseServerTransport("/messages/")

    async def handle_sse(request: Any) -> Response:
        async with transport.connect_sse(request.scope, request.receive, request._send) as (read, write):
            await server.run(read, write, server.create_initialization_options())
        return Response()

    return Starlette(
        routes=[Route("/sse", endpoint=handle_sse), Mount("/messages/", app=transport.handle_post_message)]
    )
