"""The sign-in's parts on their own: the config object, the URL check, the errors, the clock, the store, the meter."""

from __future__ import annotations

import json
import math
import time
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp.client.auth import OAuthFlowError, OAuthRegistrationError, OAuthTokenError
from mcp.shared.auth import OAuthToken
from pydantic import AnyUrl

from catalog_inspector.core.config import ConfigError, OAuthConfig, Variables, parse_entry
from catalog_inspector.core.errors import AUTH_STEPS, ErrorKind, auth_step, reason
from catalog_inspector.core.oauth.provider import _ClientMetadata, auth_error, check_authorization_url, resource_url
from catalog_inspector.core.oauth.store import KeyringStore, MemoryStore, server_key
from catalog_inspector.core.session.clock import PausableClock
from catalog_inspector.core.transport import AUTH_CAP, MeteredHTTPTransport, ResponseSizes, classify, classify_auth
from tests.fixtures.file_keyring import selected


def _entry(oauth: object, **more: object) -> object:
    return {"type": "http", "url": "https://example.com/mcp", "oauth": oauth, **more}


def test_the_oauth_object_of_an_entry_is_read_with_its_secret_from_the_keyring() -> None:
    secrets = {"remote/oauth/clientSecret": "s3cret"}
    variables = Variables(environ={}, secrets=secrets.get)
    oauth = {
        "clientId": "app",
        "clientSecret": "${keyring:remote/oauth/clientSecret}",
        "scope": "mcp:read mcp:write",
        "clientMetadataUrl": "https://client.example/app.json",
        "redirectPort": 33418,
        "somethingElse": {"another client's": "setting"},
    }
    spec = parse_entry("remote", _entry(oauth), variables)
    assert spec.oauth == OAuthConfig("app", "s3cret", "mcp:read mcp:write", "https://client.example/app.json", 33418)
    assert "s3cret" not in repr(spec)
    assert parse_entry("remote", _entry({"callbackPort": 8080})).oauth == OAuthConfig(redirect_port=8080)
    assert parse_entry("remote", _entry(None)).oauth is None


@pytest.mark.parametrize(
    ("oauth", "words"),
    [
        ("yes", "mcpServers.remote.oauth must be an object"),
        ({"clientId": 5}, "oauth.clientId must be a non-empty string"),
        ({"clientSecret": "s"}, "oauth.clientSecret needs a clientId"),
        ({"clientMetadataUrl": "http://client.example/app.json"}, "must be an https:// URL with a path"),
        ({"clientMetadataUrl": "https://client.example"}, "must be an https:// URL with a path"),
        ({"redirectPort": 0}, "oauth.redirectPort must be a port number"),
        ({"redirectPort": True}, "oauth.redirectPort must be a port number"),
    ],
)
def test_a_bad_oauth_object_names_its_field(oauth: object, words: str) -> None:
    with pytest.raises(ConfigError, match=words.replace(".", r"\.")):
        parse_entry("remote", _entry(oauth))


@pytest.mark.parametrize(
    "url",
    [
        "https://auth.example.com/authorize?x=1",
        "http://127.0.0.1:8080/authorize",
        "http://localhost:9/authorize",
        "http://[::1]:9/authorize",
        "http://127.0.0.2:9/authorize",
    ],
)
def test_an_authorization_url_over_https_or_to_this_machine_may_be_opened(url: str) -> None:
    check_authorization_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://auth.example.com/authorize",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "ftp://auth.example.com/x",
        "https:///no-host",
        "smb://127.0.0.1/share",
        "http://127.0.0.1.evil.example/authorize",  # a host name that starts like a loopback address
        "http://127.evil.example/authorize",
    ],
)
def test_any_other_authorization_url_is_refused_before_anything_opens_it(url: str) -> None:
    with pytest.raises(Exception) as refused:
        check_authorization_url(url)
    assert refused.value.info.details == {"step": "authorization", "cause": "unsafe_url", "url": url}  # type: ignore[attr-defined]


def test_the_flow_works_with_the_server_url_without_credentials_or_query() -> None:
    assert resource_url("https://alice:pw@Example.com:8443/mcp?api_key=K#frag") == "https://example.com:8443/mcp"
    assert server_key("HTTPS://alice:pw@Example.COM:443/mcp?api_key=K") == "https://example.com/mcp"
    assert server_key("http://127.0.0.1:8000") == "http://127.0.0.1:8000/"


@pytest.mark.parametrize(
    ("exc", "phase", "step", "cause", "words"),
    [
        (
            OAuthFlowError("Protected resource https://evil.example/mcp does not match expected https://a.example/mcp"),
            "metadata",
            "metadata",
            "resource_mismatch",
            "is for https://evil.example/mcp, not for this server (https://a.example/mcp)",
        ),
        (
            OAuthFlowError("Authorization server metadata issuer mismatch: https://x.example != https://a.example"),
            "metadata",
            "metadata",
            "issuer_mismatch",
            "names the issuer https://x.example",
        ),
        (
            OAuthTokenError('Token exchange failed (400): {"error":"invalid_grant","error_description":"code \\u202e used"}'),
            "token",
            "token",
            "token_refused",
            "(HTTP 400: invalid_grant (code \\u202e used))",
        ),
        (
            OAuthRegistrationError("Registration failed: 400 {\"error\":\"invalid_client_metadata\"}"),
            "registration",
            "registration",
            "registration_refused",
            "refused to register this client (HTTP 400: invalid_client_metadata)",
        ),
        (OAuthFlowError("Authorization response iss mismatch: a != b"), "authorization", "authorization",
         "issuer_mismatch", "RFC 9207"),
        (OAuthFlowError("something new " * 100), "metadata", "metadata", "refused", "a metadata request failed"),
        (httpx2.ConnectError("All connection attempts failed"), "token", "token", "unreachable", "token request"),
        (httpx2.ReadTimeout("timed out"), "metadata", "metadata", "timed_out", "no answer in time"),
    ],
)  # fmt: skip
def test_what_the_sdks_flow_raises_becomes_one_auth_error_naming_its_step(
    exc: Exception, phase: str, step: str, cause: str, words: str
) -> None:
    error = classify_auth(exc, phase)
    assert error.kind is ErrorKind.AUTH
    assert (error.info.details["step"], error.info.details["cause"]) == (step, cause)
    assert words in error.info.message
    assert len(error.info.message) < 500, "the server's words are bounded"
    if isinstance(exc, OAuthFlowError):  # one escaping the transport's task group is still an auth error
        assert classify(ExceptionGroup("transport", [exc])).kind is ErrorKind.AUTH


def test_a_registration_the_server_does_not_offer_says_to_configure_a_client_id() -> None:
    error = classify_auth(
        OAuthRegistrationError("Registration failed: 401 Unauthorized"), "registration", registration=False
    )
    assert error.info.details == {"step": "registration", "cause": "no_registration", "status": 401}
    assert "--oauth-client-id" in error.info.message


def test_an_auth_error_names_its_step_under_the_heading() -> None:
    error = auth_error("token", "the token endpoint refused to issue a token (HTTP 400)", "token_refused").info
    assert error.kind.heading == "Authorization failed" and auth_step(error) == "token"
    assert reason(error) == f"{AUTH_STEPS['token']}: the token endpoint refused to issue a token (HTTP 400)"
    assert error.to_json()["details"] == {"step": "token", "cause": "token_refused"}


def test_a_pinned_scope_replaces_the_sdks_choice_and_a_step_up_adds_to_it() -> None:
    metadata = _ClientMetadata(redirect_uris=[AnyUrl("http://127.0.0.1/callback")])
    metadata.scope = "from:www-authenticate"
    assert metadata.scope == "from:www-authenticate", "nothing pinned: the SDK's choice stands"
    metadata._pinned = "mine"
    metadata.scope = "from:www-authenticate"
    assert metadata.scope == "mine"
    metadata._stepping_up = True
    metadata.scope = "mine more:scope"
    assert metadata.scope == "mine more:scope"
    assert "mine" in json.dumps(metadata.model_dump(mode="json")) and "_pinned" not in metadata.model_dump()


@pytest.mark.anyio
async def test_the_handshake_clock_stops_while_a_person_signs_in() -> None:
    clock = PausableClock(30)
    clock.pause(True)  # before start: nothing runs yet
    clock.pause(False)
    clock.start()
    started = clock.scope.deadline
    assert started - anyio.current_time() <= 30
    clock.pause(True)
    assert clock.scope.deadline == math.inf
    clock.pause(True)  # nested (a step-up inside a sign-in's wait never happens, but pairs must hold)
    clock.pause(False)
    assert clock.scope.deadline == math.inf
    clock.pause(False)
    assert 0 < clock.scope.deadline - anyio.current_time() <= 30


@pytest.mark.anyio
async def test_the_keyring_store_keeps_the_tokens_absolute_expiry_and_nothing_is_read_back_broken(
    tmp_path: Path,
) -> None:
    with selected(tmp_path / "keyring.json") as backend:
        store = KeyringStore(server_key("https://example.com/mcp"))
        assert await store.get_tokens() is None and await store.get_metadata() is None
        await store.set_tokens(OAuthToken(access_token="AT", expires_in=100, refresh_token="RT", scope="a b"))
        expiry = await store.get_expiry()
        assert expiry is not None and 95 < expiry - time.time() <= 100
        again = KeyringStore(server_key("https://EXAMPLE.com:443/mcp?x=1"))  # another run, the same server
        token = await again.get_tokens()
        assert token is not None and (token.access_token, token.refresh_token) == ("AT", "RT")
        backend.set_password("mcp-catalog-inspector", "oauth:https://example.com/mcp:tokens", "{not json")
        assert await again.get_tokens() is None, "a damaged entry is as if nothing were kept"


@pytest.mark.anyio
async def test_the_memory_store_is_shared_by_the_connections_of_one_run() -> None:
    first, second = MemoryStore("memory://a"), MemoryStore("memory://a")
    await first.set_tokens(OAuthToken(access_token="AT"))
    token = await second.get_tokens()
    assert token is not None and token.access_token == "AT"
    assert await MemoryStore("memory://b").get_tokens() is None


def _transport(body: bytes, content_type: str) -> httpx2.MockTransport:
    async def chunks() -> AsyncIterator[bytes]:  # streamed, as a server's body arrives (bytes are read at once)
        for start in range(0, len(body), 100):
            yield body[start : start + 100]

    return httpx2.MockTransport(
        lambda request: httpx2.Response(200, content=chunks(), headers={"content-type": content_type})
    )


@pytest.mark.anyio
async def test_a_legacy_sse_get_that_is_not_an_event_stream_is_not_read_as_events() -> None:
    events: deque[int] = deque()
    body = b'{"resource": "x",\n\ndata: {"jsonrpc": "2.0"}\n\n"more": 1}'
    metered = MeteredHTTPTransport(_transport(body, "application/json"), ResponseSizes(), events, cap=len(body))
    async with httpx2.AsyncClient(transport=metered) as client:
        response = await client.get("http://127.0.0.1:9/.well-known/oauth-protected-resource")
    assert response.content == body and not events, "metadata is not metered as events"
    stream = b"event: message\ndata: {}\n\n"
    metered = MeteredHTTPTransport(_transport(stream, "text/event-stream"), ResponseSizes(), events, cap=1000)
    async with httpx2.AsyncClient(transport=metered) as client:
        await client.get("http://127.0.0.1:9/sse")
    assert list(events) == [len(stream)]


@pytest.mark.anyio
async def test_an_oauth_flows_own_response_is_cut_at_its_cap() -> None:
    metered = MeteredHTTPTransport(_transport(b"x" * 5000, "application/json"), ResponseSizes(), auth=True)
    async with httpx2.AsyncClient(transport=metered) as client:
        request = client.build_request("GET", "http://127.0.0.1:9/.well-known/oauth-authorization-server")
        request.extensions[AUTH_CAP] = 1000
        response = await client.send(request, stream=True)
        with pytest.raises(httpx2.StreamError, match="1,000-byte cap"):
            await response.aread()
    error = classify_auth(httpx2.StreamError("the response exceeded the 1,000-byte cap"), "metadata")
    assert error.info.details == {"step": "metadata", "cause": "too_large"}


@pytest.mark.anyio
async def test_a_sign_in_is_over_once_cancelled_or_once_the_browser_came_back() -> None:
    from catalog_inspector.core.oauth import SignIn
    from catalog_inspector.core.oauth.listener import Callback

    cancelled = SignIn("s", "https://auth.test/authorize", "http://127.0.0.1:9/callback", 30.0)
    came_back = SignIn("s", "https://auth.test/authorize", "http://127.0.0.1:9/callback", 30.0)
    cancelled.cancel()
    came_back._arrived(Callback(code="c", state="x"))
    with anyio.fail_after(5):
        await cancelled.ended()
        await came_back.ended()
