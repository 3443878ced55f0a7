"""Counting each response's bytes on the wire, so a page's size is measured, never re-serialised.

Re-serialising every page only to learn its size cost 0.3 s per 100,000 tools
and a second copy of each page. Instead each transport counts the bytes it
reads and files them under the JSON-RPC id of the response:

- stdio: the length of the response's line (`core.transport.stdio` records it);
- Streamable HTTP: the bytes of the POST response that answered the request
  (JSON body or event stream), counted as they arrive (`MeteredHTTPTransport`),
  which also cuts a body off at the byte cap while it arrives, so a page never
  has to fit in memory before it is refused; the bytes counted are the decoded
  ones (`core.transport.bodies`), what the page is, whatever the compression;
- legacy SSE: the bytes of each `message` event on the GET stream, matched to
  the messages the SDK delivers in the same order (`SseEventMeter` + `MeteredReadStream`).

The id a request was sent under is seen on its way by `core.transport.streams`, which also holds
legacy SSE's `MeteredReadStream`.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict, deque
from collections.abc import Callable

import httpx2

from catalog_inspector.core.errors import CatalogError, ErrorKind, make_error
from catalog_inspector.core.redact import redacted_url
from catalog_inspector.core.text import visible
from catalog_inspector.core.transport.bodies import CappedAuthBody, CappedBody, EventStream, decoded
from catalog_inspector.core.transport.http_faults import classify_auth, http_status_error
from catalog_inspector.core.transport.param_headers import ParamHeaders
from catalog_inspector.core.transport.sizes import MAX_PENDING, RequestFaults, RequestId, ResponseSizes, SseEventMeter

__all__ = [
    "AUTH_CAP",
    "AUTH_STEP",
    "MeteredHTTPTransport",
    "request_id_of",
]


def _request_id_of(body: bytes) -> RequestId | None:
    # Our own request, small: parsing it once is cheaper than anything else that finds its id.
    try:
        message = json.loads(body)
    except ValueError:
        return None
    request_id = message.get("id") if isinstance(message, dict) else None
    return request_id if isinstance(request_id, int | str) else None


def request_id_of(request: httpx2.Request) -> RequestId | None:
    """The JSON-RPC id a POST carries, or None (another method, a notification, a body not yet read).

    A redirect's next request carries the first one's body as a stream, unread: it is
    read here (bytes in memory, read again as often as asked), or a redirected request's
    answer would go unmetered and uncapped.
    """
    if request.method != "POST":
        return None
    try:
        return _request_id_of(request.content)
    except httpx2.RequestNotRead:
        if isinstance(request.stream, httpx2.ByteStream):
            return _request_id_of(b"".join(request.stream))
        return None


# The extensions an OAuth flow's own requests carry (metadata, registration, token): their response is
# capped at AUTH_CAP's value in bytes (the SDK reads those responses whole, with no limit of its own),
# and one that cannot reach its server fails as an `auth` error at AUTH_STEP's step (httpx raises that
# past the flow, which would never hear of it).
AUTH_CAP = "catalog_inspector.auth_cap"
AUTH_STEP = "catalog_inspector.auth_step"


def _origin(url: httpx2.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


def _redirected(request: httpx2.Request, response: httpx2.Response, count: int) -> CatalogError:
    """What a redirect means for its request's caller if it is the last answer that request gets.

    To another origin it is never followed (the user's headers stay where they were
    configured); within the origin the SDK follows a bounded number, so a request that
    ends on one kept being redirected, or was redirected in a way that cannot be
    followed (a POST turned into a GET).
    """
    target = request.url.join(response.headers["location"])
    shown = redacted_url(str(target))
    details = {"status": response.status_code, "location": shown, "redirects": count}
    if _origin(target) != _origin(request.url):
        origin = f"{request.url.scheme}://{request.url.netloc.decode()}"
        return make_error(
            ErrorKind.CONNECTION,
            f"the server redirected to another origin ({shown}): not followed, so your headers stay with {origin}",
            details=details,
        )
    if count > 1:
        words = f"{count} redirects within its origin, the last HTTP {response.status_code} to {shown}"
        return make_error(
            ErrorKind.CONNECTION, f"the server kept redirecting instead of answering ({words})", details=details
        )
    return make_error(
        ErrorKind.CONNECTION,
        f"the server redirected instead of answering (HTTP {response.status_code} to {shown}): not followed",
        details=details,
    )


def _bad_session_id(response: httpx2.Response) -> CatalogError | None:
    """A session id that is not visible ASCII (0x21-0x7E, as the spec says) is taken off the response.

    The SDK would keep it and fail to send it back (its own traceback, then every request
    lost); the handshake fails here instead, saying why.
    """
    raw = [value for key, value in response.headers.raw if key.lower() == b"mcp-session-id"]
    if not raw or all(value and all(0x21 <= byte <= 0x7E for byte in value) for value in raw):
        return None
    del response.headers["mcp-session-id"]
    shown = visible(raw[0].decode("utf-8", errors="replace"), 80)
    return make_error(
        ErrorKind.PROTOCOL,
        f'the server sent a session id that is not visible ASCII ("{shown}"): '
        "a session id may hold only the characters 0x21 to 0x7E",
    )


def _refused_status(request: httpx2.Request, response: httpx2.Response) -> CatalogError | None:
    """The reason for an HTTP error status on a Streamable HTTP POST, when the SDK would hide it.

    The SDK answers such a request with a stand-in ("Server returned an error
    response") that names neither the status nor the URL. A JSON body may be the
    server's own JSON-RPC error, which the SDK passes on: that one is the server's
    to tell, except for 401 and 403 (a refusal of the credentials, whatever the body says). A 404 inside a
    session is the SDK's "Session terminated", kept too.
    """
    status = response.status_code
    refused = status in (401, 403)  # credentials refused: said whatever the body is (its JSON is rarely JSON-RPC)
    if status < 400 or (
        not refused and response.headers.get("content-type", "").lower().startswith("application/json")
    ):
        return None
    if status == 404 and "mcp-session-id" in request.headers:
        return None
    if refused and "authorization" in request.headers:  # the entry's own header (OAuth's challenges are its own)
        words = "the server refused the credentials you sent in Authorization"
        hint = "check the header's value; without it, a server that offers OAuth is signed in to"
        return http_status_error("POST", request.url, status, words=words, hint=hint)
    if status == 405:
        words, like = "this endpoint does not take Streamable HTTP requests", "as legacy SSE endpoints do"
        return http_status_error("POST", request.url, status, words=words, hint=like, try_transport="sse")
    return http_status_error("POST", request.url, status)


class MeteredHTTPTransport(httpx2.AsyncBaseTransport):
    """An httpx transport that counts response bytes as they arrive, once decoded.

    Streamable HTTP: a POST's response bytes go to the id of the request it
    carried; with `cap` and `faults`, the body is cut off at the cap as it
    arrives, and redirects and unusable session ids are filed as faults.
    Legacy SSE (`events` given): the GET event stream is split into events for
    `SseEventMeter`; an event over `cap` ends the stream and `on_stream_fault` hears why.
    With `params`, a `tools/call` POST carries the `Mcp-Param-*` headers its arguments mirror.
    With `auth` (an OAuth provider handles 401 and 403: it files what they mean itself), an
    OAuth flow's own requests (`AUTH_CAP`) have their responses capped and are not metered.
    Any other body is cut off at `cap` too (an event stream event by event), so no answer
    of any kind is read whole unbounded.
    """

    def __init__(
        self,
        inner: httpx2.AsyncBaseTransport,
        sizes: ResponseSizes,
        events: deque[int] | None = None,
        *,
        cap: int | None = None,
        faults: RequestFaults | None = None,
        on_stream_fault: Callable[[CatalogError], None] | None = None,
        auth: bool = False,
        params: ParamHeaders | None = None,
    ) -> None:
        self._inner = inner
        self._params = params
        self._auth = auth
        self._sizes = sizes
        self._events = events
        self._cap = cap
        self._faults = faults if faults is not None else RequestFaults()
        self._on_stream_fault = on_stream_fault
        # Redirects each request has had so far, and the fault filed for the last (dropped once followed).
        self._redirects: OrderedDict[str, tuple[int, CatalogError]] = OrderedDict()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if self._params is not None:
            request.headers.update(self._params.headers_for(request))
        request_id = request_id_of(request)
        if request_id is not None and (redirect := self._redirects.get(str(request_id))) is not None:
            self._faults.discard(request_id, redirect[1])  # being followed: not the last answer
        try:
            response = await self._inner.handle_async_request(request)
        except httpx2.TransportError as exc:
            step = request.extensions.get(AUTH_STEP)
            if isinstance(step, str):
                exc.request = request  # httpx names it only once the error has left the transport
                raise classify_auth(exc, step) from exc
            raise
        stream = response.stream
        if not isinstance(stream, httpx2.AsyncByteStream):
            return response
        encoding = decoded(request, response, stream)
        stream = response.stream
        assert isinstance(stream, httpx2.AsyncByteStream)
        auth_cap = request.extensions.get(AUTH_CAP)
        if isinstance(auth_cap, int):
            response.stream = CappedAuthBody(stream, auth_cap)
            return response
        refused = _bad_session_id(response)
        event_stream = response.headers.get("content-type", "").lower().startswith("text/event-stream")
        if request.method == "GET" and self._events is not None and event_stream:
            # The legacy SSE stream (not a 401's body, nor metadata).
            meter = SseEventMeter(self._events, self._cap)
            response.stream = EventStream(stream, meter, self._on_stream_fault, encoding)
        elif request_id is not None:
            self._on_answer(request, response, request_id)
            # Legacy SSE answers on the GET stream; a POST's own body is only an acknowledgement. A 401 or
            # 403 is answered again once signed in, a redirect where it leads: none of them is the answer's size.
            counted = self._events is None and not self._challenged(response) and not response.is_redirect
            sizes = self._sizes if counted else ResponseSizes()
            response.stream = CappedBody(
                stream, request_id, sizes, self._faults, self._cap, counted and event_stream, encoding=encoding,
                refused=refused, json_body=counted and _is_json(response),
            )  # fmt: skip
        elif self._cap is not None:
            response.stream = CappedBody(stream, None, ResponseSizes(), self._faults, self._cap, event_stream)
        return response

    def _challenged(self, response: httpx2.Response) -> bool:
        return self._auth and response.status_code in (401, 403)

    def _on_answer(self, request: httpx2.Request, response: httpx2.Response, request_id: RequestId) -> None:
        """File what a POST's answer means for its caller: a redirect, or an HTTP error the SDK would hide."""
        key = str(request_id)
        if response.is_redirect:
            count = self._redirects.pop(key, (0, None))[0] + 1
            error = _redirected(request, response, count)
            self._redirects[key] = (count, error)
            while len(self._redirects) > MAX_PENDING:
                self._redirects.popitem(last=False)
            self._faults.add(request_id, error)
            return
        self._redirects.pop(key, None)
        if self._events is None and not self._challenged(response) and (status := _refused_status(request, response)):
            self._faults.add(request_id, status)

    async def aclose(self) -> None:
        await self._inner.aclose()


# The SDK logs a body this transport cut off (and its other HTTP failures) with a traceback on stderr
# when nobody configured logging; the caller of the request is told the classified reason instead.
logging.getLogger("mcp.client.streamable_http").addHandler(logging.NullHandler())


def _is_json(response: httpx2.Response) -> bool:
    """Whether the body is an answer the SDK will parse as JSON (a legacy SSE POST's "Accepted" is not)."""
    return response.headers.get("content-type", "").split(";")[0].strip().lower() == "application/json"
