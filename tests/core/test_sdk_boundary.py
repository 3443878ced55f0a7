"""The SDK's edges this app stands on, exercised with the installed SDK: an upgrade that moves one fails here.

`pyproject.toml` allows `mcp>=2.3,<3`, a range in which nothing below is promised:

- the private parts `core.transport.sdk` adapts (`negotiate_auto`, `request_within_origin`,
  `sse_within_origin`), run against real servers;
- every failure `core.transport.classify` recognises by its wording, because the SDK gives it
  no type of its own: the installed SDK is made to say each one for real (its HTTP transport
  against `tests/fixtures/hostile_http.py`, its dispatcher against a server that hangs or dies,
  its OAuth flow against `tests/fixtures/oauth_server.py`, its OAuth helpers on real HTTP
  answers), and the classifier must name it as it should. An SDK that words one differently
  turns it into "the server answered with an error" (or a bare `refused`) and fails its canary
  here, not in the field.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp.client.auth.oauth2 import OAuthContext, check_registration_usable
from mcp.client.auth.utils import (
    handle_registration_response,
    handle_token_response_scopes,
    validate_authorization_response_iss,
    validate_metadata_issuer,
)
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthMetadata
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from pydantic import AnyUrl

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import CatalogError, ErrorKind
from catalog_inspector.core.oauth import OAuthHooks
from catalog_inspector.core.oauth.opener import fetch
from catalog_inspector.core.session.connection import connect
from catalog_inspector.core.transport import MeteredHTTPTransport, ResponseSizes, classify, classify_auth
from catalog_inspector.core.transport.classify import TOO_DEEP
from catalog_inspector.core.transport.sdk import negotiate_auto, request_within_origin, sse_within_origin
from tests.helpers import DEMO, hostile_http, http_demo
from tests.oauth_helpers import oauth_server

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def hostile() -> Iterator[str]:
    """One hostile server for every fault here: `/f/FAULT/mcp` gets FAULT (`origin + "/f/…"`)."""
    with hostile_http("none", "--mb", "1") as url:
        yield url.removesuffix("/mcp")


def at(origin: str, fault: str) -> str:
    return f"{origin}/f/{fault}/mcp"


@asynccontextmanager
async def sdk_session(
    url: str, *, timeout: float = 10, max_sse_event_size: int | None = 1024 * 1024, max_redirects: int = 20,
    transport: httpx2.AsyncBaseTransport | None = None,
) -> AsyncIterator[ClientSession]:  # fmt: skip
    """The SDK's own Streamable HTTP client and session, as a plain SDK user would open them."""
    async with (
        httpx2.AsyncClient(timeout=30, max_redirects=max_redirects, transport=transport) as http,
        streamable_http_client(url, http_client=http, max_sse_event_size=max_sse_event_size) as (read, write),
        ClientSession(read, write, read_timeout_seconds=timeout) as session,
    ):
        yield session


async def sdk_error(url: str, **options: Any) -> MCPError:
    """What the installed SDK raises for the handshake, then one tools/list, against `url`."""
    with anyio.fail_after(60):
        async with sdk_session(url, **options) as session:
            with pytest.raises(MCPError) as raised:
                await session.initialize()
                await session.list_tools()
    return raised.value


# --- the private parts core.transport.sdk adapts -----------------------------------------------


async def test_negotiate_auto_discovers_a_modern_server_and_falls_back_to_initialize_for_an_older_one(
    hostile: str,
) -> None:
    with anyio.fail_after(60):
        async with sdk_session(f"{hostile}/mcp") as modern:
            await negotiate_auto(modern)
            assert modern.protocol_version in MODERN_PROTOCOL_VERSIONS
        async with sdk_session(at(hostile, "no-discover")) as older:
            await negotiate_auto(older)
            assert older.protocol_version in HANDSHAKE_PROTOCOL_VERSIONS


async def test_request_within_origin_follows_a_redirect_within_the_origin_only_and_a_bounded_number(
    hostile: str,
) -> None:
    list_tools = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    with anyio.fail_after(60):
        async with httpx2.AsyncClient(timeout=30, max_redirects=3) as client:
            followed = await request_within_origin(client, "POST", at(hostile, "redirect-huge"), json=list_tools)
            looping = await request_within_origin(client, "POST", at(hostile, "redirect-loop"), json=list_tools)
            away = await request_within_origin(client, "POST", at(hostile, "redirect"), json=list_tools)
    assert (followed.status_code, followed.url.path) == (200, "/f/json-huge/mcp")
    assert looping.status_code == 307, "the redirect itself, once the client's budget is spent"
    assert away.status_code == 307 and away.url.host == "127.0.0.1", "another origin is never followed"


async def test_sse_within_origin_opens_the_event_stream_and_caps_an_event_by_its_decoded_size(hostile: str) -> None:
    with http_demo("normal", sse=True) as url, anyio.fail_after(60):
        async with httpx2.AsyncClient(timeout=30) as client, sse_within_origin(client, url) as events:
            first = await anext(aiter(events))
    assert first.event == "endpoint" and first.data.startswith("/")
    with anyio.fail_after(60):
        async with httpx2.AsyncClient(timeout=30) as client:
            async with sse_within_origin(client, f"{hostile}/f/gzip-legacy-sse/sse", max_event_size=1000) as bomb:
                with pytest.raises(httpx2.SSEError, match="exceeded the 1000 byte limit"):
                    await anext(aiter(bomb))


# --- what the SDK makes up, by wording: each one said by the installed SDK ----------------------


@pytest.mark.parametrize(
    ("fault", "kind", "words"),
    [
        ("sse-ends", ErrorKind.CONNECTION, "the server's event stream ended without a response"),
        ("status-404", ErrorKind.CONNECTION, "the server ended the HTTP session (404)"),
        ("status-500", ErrorKind.CONNECTION, "the server answered with an HTTP error status"),
        ("json-deep", ErrorKind.PROTOCOL, f"the server sent a response {TOO_DEEP}"),
        ("json-garbage", ErrorKind.PROTOCOL, "malformed HTTP response: Failed to parse JSON response: "),
        ("sse-garbage", ErrorKind.PROTOCOL, "malformed HTTP response: Failed to parse SSE message: "),
        ("text-plain", ErrorKind.PROTOCOL, "malformed HTTP response: Unexpected content type: text/plain"),
        ("status-202", ErrorKind.PROTOCOL, "the server answered a request with 202 Accepted"),
    ],
)
async def test_each_error_the_sdks_http_transport_makes_up_is_named_by_its_own_kind(
    hostile: str, fault: str, kind: ErrorKind, words: str
) -> None:
    error = classify(await sdk_error(at(hostile, fault)), page=0).info
    assert (error.kind, error.page) == (kind, 0) and error.message.startswith(words), error


async def test_a_post_to_no_mcp_endpoint_is_the_sdks_not_found(hostile: str) -> None:
    error = classify(await sdk_error(f"{hostile}/nowhere")).info
    assert (error.kind, error.message) == (ErrorKind.CONNECTION, "HTTP 404 Not Found: is the URL the MCP endpoint?")


async def test_an_event_over_the_sdks_own_limit_is_a_size_limit_not_the_servers_error(hostile: str) -> None:
    error = classify(await sdk_error(at(hostile, "sse-huge"), max_sse_event_size=1000), page=0).info
    assert (error.kind, error.message) == (
        ErrorKind.SIZE_LIMIT,
        "an event on the server's stream exceeded the 1000-byte cap",
    )


async def test_an_event_stream_the_transport_cut_is_the_streams_failure_not_the_servers_error(hostile: str) -> None:
    metered = MeteredHTTPTransport(httpx2.AsyncHTTPTransport(), ResponseSizes(), cap=1000)
    error = classify(await sdk_error(at(hostile, "sse-huge"), transport=metered), page=0).info
    assert error.kind is ErrorKind.CONNECTION and error.message.startswith("the server's event stream failed: "), error


async def test_a_redirect_the_sdk_stops_following_is_a_connection_failure_naming_where_it_led(hostile: str) -> None:
    error = classify(await sdk_error(at(hostile, "redirect-loop"), max_redirects=2), page=0).info
    assert error.kind is ErrorKind.CONNECTION, error
    assert (
        error.message == f"the server redirected to {at(hostile, 'redirect-loop')} instead of answering: not followed"
    )


async def test_the_sdks_own_request_timeout_is_a_timeout(hostile: str) -> None:
    error = classify(await sdk_error(at(hostile, "hang"), timeout=0.5), page=0).info
    assert (error.kind, error.message) == (
        ErrorKind.TIMEOUT,
        "no answer within the request timeout (Request 'tools/list' timed out)",
    )


async def test_a_server_that_dies_mid_request_is_the_sdks_closed_connection(tmp_path: Path) -> None:
    server = StdioServerParameters(command=DEMO[0], args=[*DEMO[1:], "--mode", "crash"])
    with anyio.fail_after(60), (tmp_path / "stderr").open("w") as errlog:
        async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            first = await session.list_tools()
            with pytest.raises(MCPError) as raised:
                await session.list_tools(params=types.PaginatedRequestParams(cursor=first.next_cursor))
    error = classify(raised.value, page=1).info
    assert (error.kind, error.message) == (ErrorKind.CONNECTION, "the connection to the server closed")


# --- what the SDK's OAuth flow raises, by wording -----------------------------------------------

LIMITS = Limits(request_timeout=10, deadline=60)


@pytest.mark.parametrize(
    ("switch", "step", "cause", "words"),
    [
        (("--resource-mismatch",), "metadata", "resource_mismatch", "is for https://elsewhere.example/mcp"),
        (("--prm-status", "503"), "metadata", "metadata_unavailable", "could not be read (HTTP 503)"),
        (("--token-refused",), "token", "token_refused", "(HTTP 400: invalid_grant (refused on purpose))"),
    ],
)
async def test_what_the_sdks_oauth_flow_raises_on_the_way_is_named_by_its_step_and_cause(
    tmp_path: Path, switch: tuple[str, ...], step: str, cause: str, words: str
) -> None:
    with oauth_server(tmp_path, *switch) as server:
        spec = ServerSpec(name="remote", transport="http", url=server.url)
        with anyio.fail_after(60), pytest.raises(CatalogError) as failed:
            async with connect(spec, LIMITS, oauth=OAuthHooks(opener=fetch, store="memory")):
                pass
    info = failed.value.info
    assert (info.kind, info.details["step"], info.details["cause"]) == (ErrorKind.AUTH, step, cause), info
    assert words in info.message


def _answer(status: int, body: bytes) -> httpx2.Response:
    request = httpx2.Request("POST", "https://auth.example/endpoint")
    return httpx2.Response(status, content=body, headers={"content-type": "application/json"}, request=request)


def _metadata(**more: Any) -> OAuthMetadata:
    return OAuthMetadata.model_validate(
        {"issuer": "https://x.example", "authorization_endpoint": "https://x.example/a",
         "token_endpoint": "https://x.example/t", **more}
    )  # fmt: skip


async def _raised_by(make: Any) -> Exception:
    with pytest.raises(Exception) as raised:
        await make()
    return raised.value


def _context(method: str) -> OAuthContext:
    client = OAuthClientInformationFull(client_id="c", client_secret="s", token_endpoint_auth_method=method)
    metadata = OAuthClientMetadata(redirect_uris=[AnyUrl("http://127.0.0.1/callback")])
    return OAuthContext("https://a.example/mcp", metadata, None, None, None, client_info=client)  # type: ignore[arg-type]


async def _sync(call: Any) -> None:
    call()


@pytest.mark.parametrize(
    ("make", "step", "cause", "words"),
    [
        (lambda: _sync(lambda: validate_metadata_issuer(_metadata(), "https://a.example")), "metadata",
         "issuer_mismatch", "names the issuer https://x.example"),
        (lambda: _sync(lambda: validate_authorization_response_iss("https://y.example", _metadata())),
         "authorization", "issuer_mismatch", "RFC 9207"),
        (lambda: _sync(lambda: validate_authorization_response_iss(
            None, _metadata(authorization_response_iss_parameter_supported=True))),
         "authorization", "issuer_missing", "names no issuer"),
        (lambda: handle_registration_response(_answer(400, b'{"error":"invalid_client_metadata"}')),
         "registration", "registration_refused", "(HTTP 400: invalid_client_metadata)"),
        (lambda: handle_registration_response(_answer(201, b"not json")), "registration", "malformed",
         "registration response is malformed"),
        (lambda: _sync(lambda: check_registration_usable(
            OAuthClientInformationFull(client_id="c", token_endpoint_auth_method="private_key_jwt"))),
         "registration", "unusable_registration", "in a way it cannot use"),
        (lambda: handle_token_response_scopes(_answer(200, b'{"token_type": "Bearer"}')), "token", "malformed",
         "token endpoint's response is malformed"),
        (lambda: _sync(lambda: _context("tls_client_auth").prepare_token_auth({}, {})), "token",
         "unsupported_method", "cannot use"),
    ],
)  # fmt: skip
async def test_what_the_sdks_oauth_helpers_raise_is_named_by_its_step_and_cause(
    make: Any, step: str, cause: str, words: str
) -> None:
    error = classify_auth(await _raised_by(make), "metadata").info
    assert (error.kind, error.details["step"], error.details["cause"]) == (ErrorKind.AUTH, step, cause), error
    assert words in error.message


async def test_the_capabilities_a_session_declares_at_a_version_are_read_from_the_sdk() -> None:
    # An initialize at a pinned version (a client profile) declares what the SDK's own would: its extensions,
    # and the callbacks the session was given.
    from catalog_inspector.core.transport import handshake_capabilities

    send, receive = anyio.create_memory_object_stream[Any](1)
    async with send, receive:

        async def elicit(*_args: Any) -> Any:
            raise AssertionError("never asked")

        ui = {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}
        session = ClientSession(receive, send, elicitation_callback=elicit, extensions=ui)
        declared = handshake_capabilities(session, "2025-06-18")
        assert declared.extensions == ui and declared.elicitation is not None and declared.sampling is None
