"""Connecting to one server (stdio, Streamable HTTP, legacy SSE) and sending raw requests.

A `Connection` is published only after the handshake succeeded. It records the
negotiated protocol version, server info and capabilities exactly as the server
sent them, and sends list and call requests *raw*: the inspector shows what the
server sent, so results bypass the SDK's per-session tool cache (its silent
re-listing, its output-schema check and its filtering of tools) while keeping
its per-version validation of the response shape.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import mcp_types as types
from mcp.client.session import ClientSession, IncomingMessage
from mcp.client.subscriptions import ListenNotSupportedError, Subscription, SubscriptionLost, listen
from mcp.shared.dispatcher import ProgressFnT
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import TypeAdapter

from catalog_inspector.core.catalog import Fetched
from catalog_inspector.core.config import Limits, ServerSpec, oauth_applies
from catalog_inspector.core.errors import CatalogError, ErrorKind, leaves, make_error
from catalog_inspector.core.jsonrpc_codes import named
from catalog_inspector.core.session.asking import Asking, AskingDesk
from catalog_inspector.core.session.clock import PausableClock
from catalog_inspector.core.session.handshake import client_options, initialize_at, pinned_version
from catalog_inspector.core.session.logs import ServerMessages
from catalog_inspector.core.session.notices import TaskNotices
from catalog_inspector.core.session.watches import ResourceWatches
from catalog_inspector.core.text import visible
from catalog_inspector.core.transport import (
    CompletingReadStream,
    Faults,
    ParamHeaders,
    ProbingWriteStream,
    RequestFaults,
    ResponseSizes,
    ServerLog,
    bounded_stdio_client,
    classify,
    negotiate_auto_noting,  # the SDK's discover-else-initialize policy, and what its discover requests heard
    probe_request_id,
)

if TYPE_CHECKING:
    from catalog_inspector.core.oauth import InspectorOAuth, OAuthHooks

__all__ = ["Connection", "Notification", "connect", "http_unloaded", "load_http"]

_RAW: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])

Notification = Callable[[str], None]
"""Receives the method of each server notification (e.g. `notifications/tools/list_changed`)."""


@dataclass
class Connection:
    """A live, handshaken session with one server.

    Attributes:
        spec: how the server was reached.
        session: the SDK session (owned by the task that entered `connect`).
        log: the server's stderr (stdio only), bounded.
        faults: transport faults; the first one explains a closed stream.
        sizes: each response's bytes on the wire, by request id, as the transport counted them.
        refused: why the transport refused a response as it arrived (HTTP), by request id.
        pid: the server process id (stdio only).
        limits: the budgets it was connected under (a test request's rounds and question size).
        desk: receives the server's own elicitation, sampling and roots requests (eras before 2026-07-28).
        param_headers: the accepted catalog's `x-mcp-header` annotations (the walk teaches them; HTTP calls mirror them).
        tasks: where the server's task status notifications and task progress go (`core.session.tasks`).
        messages: the server's log messages (`notifications/message`): each in `log`, and under its request.
        watches: the resources subscribed to on this connection and the server's updates of them.
    """

    spec: ServerSpec
    session: ClientSession
    log: ServerLog
    faults: Faults
    sizes: ResponseSizes = field(default_factory=ResponseSizes)
    refused: RequestFaults = field(default_factory=RequestFaults)
    pid: int | None = None
    desk: AskingDesk | None = None
    limits: Limits = field(default_factory=Limits)
    completing: CompletingReadStream[Any] | None = None
    param_headers: ParamHeaders = field(default_factory=ParamHeaders)
    messages: ServerMessages = field(default_factory=lambda: ServerMessages(ServerLog(), by_stream=False))
    server_info: dict[str, Any] = field(default_factory=dict)
    capabilities: dict[str, Any] = field(default_factory=dict)
    instructions: str | None = None
    tasks: TaskNotices = field(default_factory=TaskNotices)
    watches: ResourceWatches | None = None

    @property
    def protocol_version(self) -> str:
        return self.session.protocol_version or ""

    async def request(self, request: Any, timeout: float | None = None, progress: ProgressFnT | None = None) -> Fetched:
        """Send one request; return its result as the server sent it (wire JSON, camelCase) and its size.

        `progress` receives the server's progress notifications for it. Abandoning the
        request (a timeout, or the caller's task cancelled) sends the server
        `notifications/cancelled` (the SDK does).

        Raises:
            CatalogError: classified; a transport fault (garbage on the wire, an
                oversized line, a process exit) takes precedence over the
                "connection closed" it causes.
        """
        with probe_request_id() as ids:
            try:
                # The SDK checks the result's shape for the negotiated version before this
                # adapter runs; a dict adapter then keeps the wire JSON instead of models.
                result = await self.session.send_request(  # type: ignore[type-var]
                    request, _RAW, request_read_timeout_seconds=timeout, progress_callback=progress
                )
            except Exception as exc:
                refused = self.refused.pop(ids[0]) if ids else None
                if ids:
                    self.sizes.pop(ids[0])
                    if self.completing is not None:
                        self.completing.forget(ids[0])
                raise (refused or self.faults.first or classify(exc)) from exc
            except BaseException:  # cancelled: an answer that still comes is nobody's to take back
                if ids and self.completing is not None:
                    self.completing.forget(ids[0])
                raise
        if ids:
            self.refused.pop(ids[0])  # e.g. a redirect that was followed after all
            if self.completing is not None:
                result = self.completing.taken_back(ids[0], result)
        size = self.sizes.pop(ids[0]) if ids else None
        if size is None:
            # Only when a transport could not frame the response (an event stream split by bare CRs).
            size = len(json.dumps(result, separators=(",", ":"), ensure_ascii=False).encode())
        return Fetched(result, size)

    def check_faults(self) -> None:
        """Raise the first transport fault, if any (a garbage line can arrive between pages)."""
        if self.faults.first is not None:
            raise self.faults.first


def _no_handshake(spec: ServerSpec, seconds: float) -> str:
    if spec.transport == "stdio":
        return f"the server did not answer the handshake within {seconds:g} s"
    from catalog_inspector.core.session.http_link import endpoint_words

    return f"{endpoint_words(spec)} did not answer the handshake within {seconds:g} s"


def _dump(model: Any) -> dict[str, Any]:
    if model is None:
        return {}
    result: dict[str, Any] = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return result


def _transport(
    spec: ServerSpec,
    limits: Limits,
    log: ServerLog,
    faults: Faults,
    sizes: ResponseSizes,
    refused: RequestFaults,
    setup_timeout: float,
    on_spawn: Callable[[int], None],
    on_exit: Callable[[int], None] | None,
    auth: InspectorOAuth | None = None,
    params: ParamHeaders | None = None,
) -> AbstractAsyncContextManager[Any]:
    if spec.transport == "stdio":
        return bounded_stdio_client(
            spec,
            max_line_bytes=limits.max_page_bytes,
            log=log,
            faults=faults,
            on_spawn=on_spawn,
            on_exit=on_exit,
            sizes=sizes,
        )
    # Loaded for an HTTP server only: a stdio walk never imports httpx, the meter or the OAuth client.
    from catalog_inspector.core.session.http_link import http_transport

    return http_transport(spec, limits, sizes, refused, faults, setup_timeout, auth, params)


async def _negotiate(session: ClientSession, spec: ServerSpec, log: ServerLog) -> None:
    """The handshake of the entry's protocol era: discover else initialize (auto), or only one of them.

    A -32022 answer to discovery (the server names the versions it supports) is said in the log with what
    followed: asked again at a version both speak, or fell back to `initialize`. A version the entry's client
    profile pins is proposed in an initialize of its own (no discover first).
    """
    if (pinned := pinned_version(spec)) is not None:
        await initialize_at(session, pinned, spec)
    elif spec.protocol_era == "legacy":
        await session.initialize()
    elif spec.protocol_era == "modern":
        await session.discover()
    else:
        attempts = await negotiate_auto_noting(session)
        for index, attempt in enumerate(attempts):
            refused = attempt.refused
            if refused is None or refused.code != types.UNSUPPORTED_PROTOCOL_VERSION:
                continue
            if index + 1 < len(attempts):
                then = f"asked again at {visible(attempts[index + 1].version, 64)}"
            elif session.initialize_result is not None:
                then = "fell back to initialize"
            else:
                continue
            said = named(refused.code, refused.message, refused.data)
            log.append(f"[mcp-catalog-inspector] server/discover was answered {said}: {then}")


async def _ask_log_level(session: ClientSession, spec: ServerSpec, log: ServerLog) -> None:
    """Before 2026-07-28: ask for the entry's log level once, by `logging/setLevel`, if the server declares `logging`.

    (On 2026-07-28 the level goes in each request's `_meta` instead, and the request is gone.)
    A server that refuses keeps its session: it logs at its own level, and the log says so.
    """
    if session.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return
    capabilities = session.server_capabilities
    if capabilities is None or capabilities.logging is None:
        return
    level = spec.log_level
    try:
        # Raw, not `ClientSession.set_logging_level`: that one warns that the feature is deprecated.
        await session.send_request(
            types.SetLevelRequest(params=types.SetLevelRequestParams(level=level)), types.EmptyResult
        )
    except (MCPError, TimeoutError) as exc:
        said = named(exc.code, exc.message, exc.data) + ": " if isinstance(exc, MCPError) else ""
        why = visible(f"{said}{exc}", 500)
        log.append(f"[mcp-catalog-inspector] logging/setLevel {level} was refused ({why}): the server logs as it likes")
        return
    log.append(f"[mcp-catalog-inspector] logging/setLevel {level}: the server was asked for {level} and above")


async def _listen_for_changes(stack: AsyncExitStack, session: ClientSession, log: ServerLog) -> None:
    """On a 2026-07-28 connection, open `subscriptions/listen` for the list changes the server offers.

    That era sends list_changed only to a listener; the older one pushes it
    unasked. Each event also reaches the session's message handler, which is
    where the caller hears of it: the stream is only drained here, so unread
    events cannot pile up and end it. A server that refuses the request keeps
    its session; the log says changes will not be heard.
    """
    if session.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        return
    capabilities = session.server_capabilities
    tools = bool(capabilities and capabilities.tools and capabilities.tools.list_changed)
    prompts = bool(capabilities and capabilities.prompts and capabilities.prompts.list_changed)
    resources = bool(capabilities and capabilities.resources and capabilities.resources.list_changed)
    if not (tools or prompts or resources):
        return
    try:
        subscription = await stack.enter_async_context(
            listen(session, tools_list_changed=tools, prompts_list_changed=prompts, resources_list_changed=resources)
        )
    except (MCPError, ListenNotSupportedError, TimeoutError) as exc:
        said = named(exc.code, exc.message, exc.data) + ": " if isinstance(exc, MCPError) else ""
        why = visible(f"{said}{exc}", 500)
        log.append(f"[mcp-catalog-inspector] subscriptions/listen was refused ({why}): list changes will not be heard")
        return
    group = await stack.enter_async_context(anyio.create_task_group())
    stack.callback(group.cancel_scope.cancel)  # unwound first: the drain stops before the listen closes
    group.start_soon(_drain, subscription, log)


async def _drain(subscription: Subscription, log: ServerLog) -> None:
    try:
        async for _event in subscription:
            pass
    except SubscriptionLost as exc:
        log.append(f"[mcp-catalog-inspector] the list-change subscription ended: {exc}")


_HTTP_LINK = "catalog_inspector.core.session.http_link"


def load_http() -> None:
    """Import now all that a connection of any kind may need: the HTTP link (httpx, the meter, legacy SSE, the OAuth
    client) and every name of the transport's face. The app does, off its GUI thread; a command that walks a stdio
    server never does (the face loads on demand)."""
    import catalog_inspector.core.session.http_link  # noqa: F401
    from catalog_inspector.core import transport
    from catalog_inspector.core.faces import load_whole

    load_whole(transport)


def http_unloaded() -> list[str]:
    """What `load_http` would still import: the transport face's names not loaded yet, and `http_link` (empty once
    it ran)."""
    from catalog_inspector.core import transport
    from catalog_inspector.core.faces import unloaded

    return [*unloaded(transport), *(["http_link"] if _HTTP_LINK not in sys.modules else [])]


@asynccontextmanager
async def connect(
    spec: ServerSpec,
    limits: Limits,
    *,
    on_notification: Notification | None = None,
    log: ServerLog | None = None,
    on_spawn: Callable[[int], None] | None = None,
    on_exit: Callable[[int], None] | None = None,
    timeout: float | None = None,
    faults: Faults | None = None,
    oauth: OAuthHooks | None = None,
) -> AsyncIterator[Connection]:
    """Connect, negotiate the protocol era (discover, else initialize), yield a `Connection`.

    Must be entered and exited by the same task. `timeout` bounds the handshake
    (default: twice the request timeout; the time a sign-in waits for a person is
    not counted). `faults` lets the caller say how the server is to be ended before
    the connection exists. An HTTP server that asks for OAuth is signed in to with
    `oauth` (default: `core.oauth.provider.default_hooks()`), unless its headers bring their
    own Authorization. Raises `CatalogError` (classified; a failed sign-in is kind `auth`).
    """
    log = log if log is not None else ServerLog()
    faults = faults if faults is not None else Faults()
    sizes = ResponseSizes()
    refused = RequestFaults()
    pids: list[int] = []
    watching: list[ResourceWatches] = []  # made once the session is: its updates arrive here before

    def spawned(pid: int) -> None:
        pids.append(pid)
        if on_spawn is not None:
            on_spawn(pid)

    async def on_message(message: IncomingMessage) -> None:
        if isinstance(message, Exception):
            # The transport hands over what it could not deliver: unreadable data or its own failure.
            error = classify(message)
            if error.kind is ErrorKind.PROTOCOL:
                error = make_error(ErrorKind.PROTOCOL, f"the server sent an unreadable message: {message}")
            faults.report(error)
        else:
            if isinstance(message, types.ProgressNotification):
                # A task's progress, after its tools/call was answered (the SDK routes only a pending request's).
                notice = message.params
                await tasks.progress(notice.progress_token, notice.progress, notice.total, notice.message)
            if isinstance(message, types.LoggingMessageNotification):
                messages.heard(message.params.level, message.params.logger, message.params.data)
            elif isinstance(message, types.ResourceUpdatedNotification) and watching:
                watching[0].heard(str(message.params.uri))
            elif isinstance(message, types.ElicitCompleteNotification):
                # The end of a URL elicitation the person opened (2025-11-25 and later): said, never waited for.
                said = visible(message.params.elicitation_id, 200)
                log.append(f"[mcp-catalog-inspector] the server says the URL elicitation {said!r} is complete")
            if on_notification is not None:
                on_notification(str(message.method))

    messages = ServerMessages(log, by_stream=spec.transport == "http")
    desk = AskingDesk(Asking.of(spec, limits))
    tasks = TaskNotices()
    params = ParamHeaders()
    handshake = timeout if timeout is not None else limits.request_timeout * 2
    clock = PausableClock(handshake)
    auth = None
    if oauth_applies(spec):
        from catalog_inspector.core.oauth import InspectorOAuth  # an HTTP server's: loaded only for one

        auth = InspectorOAuth(spec, limits, hooks=oauth, report=faults.report, refused=refused, pause=clock.pause)
    body_error: BaseException | None = None
    try:
        async with AsyncExitStack() as stack:
            try:
                read, write = await stack.enter_async_context(
                    _transport(spec, limits, log, faults, sizes, refused, handshake, spawned, on_exit, auth, params)
                )
                completing = CompletingReadStream[Any](read)
                session = await stack.enter_async_context(
                    ClientSession(
                        completing,
                        ProbingWriteStream[SessionMessage](write, on_request=completing.sent),
                        read_timeout_seconds=limits.request_timeout,
                        message_handler=on_message,
                        notification_bindings=tasks.bindings(),
                        **client_options(spec),  # the entry's client profile: clientInfo, extensions
                        # 2026-07-28: the SDK puts the level in every request's `_meta` (a server sends no
                        # log message for a request without it); older eras ignore it (see `_ask_log_level`).
                        log_level=spec.log_level,
                        **desk.callbacks(),
                    )
                )
                completing.modern = lambda: session.protocol_version in MODERN_PROTOCOL_VERSIONS
                clock.start()
                with clock.scope:
                    await _negotiate(session, spec, log)
                if clock.scope.cancelled_caught:
                    raise TimeoutError
                await _ask_log_level(session, spec, log)
                await _listen_for_changes(stack, session, log)
                watch_group = await stack.enter_async_context(anyio.create_task_group())
                stack.callback(watch_group.cancel_scope.cancel)  # the watches' streams end before the session
                watching.append(ResourceWatches(session, watch_group, log))
            except TimeoutError as exc:
                faults.hurry()  # a server that cannot finish a handshake gets no grace period either
                raise (faults.first or make_error(ErrorKind.TIMEOUT, _no_handshake(spec, handshake))) from exc
            except Exception as exc:
                raise (faults.first or refused.last or classify(exc)) from exc
            try:
                yield Connection(
                    spec=spec,
                    session=session,
                    log=log,
                    faults=faults,
                    sizes=sizes,
                    refused=refused,
                    pid=pids[0] if pids else None,
                    desk=desk,
                    limits=limits,
                    completing=completing,
                    param_headers=params,
                    messages=messages,
                    server_info=_dump(session.server_info),
                    capabilities=_dump(session.server_capabilities),
                    instructions=session.instructions,
                    tasks=tasks,
                    watches=watching[0],
                )
            except BaseException as exc:
                body_error = exc
                raise
    except CatalogError:
        raise
    except Exception as exc:
        if body_error is not None and any(leaf is body_error for leaf in leaves(exc)):
            raise  # the caller's own error: not ours to reclassify
        # The transport's task group re-raises its own failure on exit, wrapped in groups.
        raise (faults.first or classify(exc)) from exc
