"""The sign-in as the app drives it: `connect()` with an opener, against the OAuth fixture servers on 127.0.0.1.

The opener plays the browser (it fetches the authorization URL, as `--oauth-open fetch`
does) and looks at this process's listening sockets while the sign-in waits.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import anyio
import httpx2
import pytest

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import CatalogError, ErrorKind
from catalog_inspector.core.oauth import InspectorOAuth, OAuthHooks, SignIn, forget, grant_of
from catalog_inspector.core.oauth.opener import fetch
from catalog_inspector.core.session.connection import connect
from catalog_inspector.core.session.walk import take_snapshot
from tests.fixtures.file_keyring import FileKeyring
from tests.oauth_helpers import listening_sockets, oauth_server

pytestmark = pytest.mark.anyio

LIMITS = Limits(request_timeout=10, deadline=60)


def _spec(url: str) -> ServerSpec:
    return ServerSpec(name="remote", transport="http", url=url)


async def test_no_socket_listens_before_a_sign_in_one_does_while_it_waits_and_none_after(tmp_path: Path) -> None:
    seen: list[tuple[str, list[tuple[str, int]]]] = []

    async def opener(sign_in: SignIn) -> None:
        seen.append((sign_in.redirect_uri, listening_sockets()))
        await fetch(sign_in)

    with oauth_server(tmp_path) as server:
        assert listening_sockets() == [], "nothing listens before a sign-in"
        with anyio.fail_after(60):
            async with connect(_spec(server.url), LIMITS, oauth=OAuthHooks(opener=opener, store="memory")) as live:
                assert listening_sockets() == [], "the listener closed right after the redirect"
                snapshot = await take_snapshot(live, LIMITS)
        assert snapshot.status == "complete"
        assert listening_sockets() == []
    ((redirect_uri, during),) = seen
    assert during == [("127.0.0.1", urlsplit(redirect_uri).port)], "one listener, on loopback, for the sign-in"


@pytest.mark.parametrize("switch", ["--wrong-state", "--no-dcr"])
async def test_a_failed_sign_in_leaves_no_listening_socket(tmp_path: Path, switch: str) -> None:
    with oauth_server(tmp_path, switch) as server:
        hooks = OAuthHooks(opener=fetch, store="memory")
        with anyio.fail_after(60), pytest.raises(CatalogError) as failed:
            async with connect(_spec(server.url), LIMITS, oauth=hooks):
                pass
    assert failed.value.kind is ErrorKind.AUTH
    assert failed.value.info.details["step"] == ("authorization" if switch == "--wrong-state" else "registration")
    assert listening_sockets() == []


async def test_a_sign_in_can_be_cancelled_while_it_waits(tmp_path: Path) -> None:
    ended: list[SignIn] = []

    async def opener(sign_in: SignIn) -> None:
        sign_in.cancel()  # the app's Cancel button, pressed while the browser is open

    with oauth_server(tmp_path) as server:
        started = time.monotonic()
        hooks = OAuthHooks(opener=opener, store="memory", on_ended=ended.append)
        with anyio.fail_after(30), pytest.raises(CatalogError) as failed:
            async with connect(_spec(server.url), LIMITS, oauth=hooks):
                pass
        assert [(sign_in.cancelled, sign_in.redirected) for sign_in in ended] == [(True, False)]
        assert not server.requests("as", "/authorize"), "the browser never went"
    assert failed.value.info.details == {"step": "authorization", "cause": "cancelled"}
    assert time.monotonic() - started < LIMITS.request_timeout, "at once, not at a timeout"
    assert listening_sockets() == []


async def test_a_sign_in_nobody_completes_ends_at_its_wait_bound(tmp_path: Path) -> None:
    async def opener(sign_in: SignIn) -> None:
        pass  # the person never comes back

    with oauth_server(tmp_path) as server:
        hooks = OAuthHooks(opener=opener, store="memory", wait=0.5)
        with anyio.fail_after(30), pytest.raises(CatalogError) as failed:
            async with connect(_spec(server.url), LIMITS, oauth=hooks):
                pass
    assert failed.value.info.details["cause"] == "timed_out"
    assert "within 0.5 s" in failed.value.info.message
    assert listening_sockets() == []


async def test_the_granted_scopes_and_expiry_can_be_read_and_sign_out_forgets_them(
    tmp_path: Path, test_keyring: FileKeyring
) -> None:
    with oauth_server(tmp_path, "--access-lifetime", "600") as server:
        assert grant_of(server.url) is None
        with anyio.fail_after(60):
            async with connect(_spec(server.url), LIMITS, oauth=OAuthHooks(opener=fetch)):
                pass
        grant = grant_of(server.url)
        assert grant is not None
        assert set(grant.scopes) == {"mcp:read", "mcp:write", "mcp:admin"} and grant.refreshable
        assert grant.expires_at is not None and 500 < grant.expires_at - time.time() <= 600
        assert not grant.expired and grant.client_id is not None and grant.client_id.startswith("dcr-")
        assert forget(server.url) is True
        assert grant_of(server.url) is None and forget(server.url) is False
        with anyio.fail_after(60):
            async with connect(_spec(server.url), LIMITS, oauth=OAuthHooks(opener=fetch)):
                pass
        assert len(server.authorizations()) == 2, "signed out: the next connection signs in again"


async def test_the_user_agent_fetch_refuses_an_authorization_server_that_wants_a_person(tmp_path: Path) -> None:
    """`fetch` fails at once, naming the answer, when the authorization page does not redirect back."""

    async def opener(sign_in: SignIn) -> None:
        page = sign_in.url.replace("/authorize?", "/.well-known/oauth-authorization-server?")
        await fetch(SignIn(sign_in.server, page, sign_in.redirect_uri, sign_in.seconds))

    with oauth_server(tmp_path) as server:
        with anyio.fail_after(30), pytest.raises(CatalogError) as failed:
            async with connect(_spec(server.url), LIMITS, oauth=OAuthHooks(opener=opener, store="memory")):
                pass
    assert failed.value.info.details["cause"] == "not_redirected"
    assert "HTTP 200" in failed.value.info.message


@pytest.mark.parametrize(("error", "step"), [("access_denied", "authorization"), ("invalid_scope", "scope")])
async def test_the_authorization_servers_refusal_is_named_with_its_words_made_visible(
    tmp_path: Path, error: str, step: str
) -> None:
    with oauth_server(tmp_path, "--deny", error) as server:
        with anyio.fail_after(30), pytest.raises(CatalogError) as failed:
            async with connect(_spec(server.url), LIMITS, oauth=OAuthHooks(opener=fetch, store="memory")):
                pass
    details = failed.value.info.details
    assert (details["step"], details["error"]) == (step, error)
    assert "\\u202e" in failed.value.info.message and "\u202e" not in failed.value.info.message
    assert listening_sockets() == []


async def test_the_clocks_stop_while_a_person_signs_in_and_run_again_after(tmp_path: Path) -> None:
    """The provider tells its connection when it starts and stops waiting for a person (`PausableClock.pause`)."""
    calls: list[object] = []

    async def opener(sign_in: SignIn) -> None:
        calls.append("opened")
        await fetch(sign_in)

    with oauth_server(tmp_path) as server:
        hooks = OAuthHooks(opener=opener, store="memory", on_ended=lambda sign_in: calls.append(sign_in.redirected))
        provider = InspectorOAuth(_spec(server.url), LIMITS, hooks=hooks, pause=calls.append)
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        headers = {"accept": "application/json, text/event-stream"}
        with anyio.fail_after(60):
            async with httpx2.AsyncClient(auth=provider, timeout=10) as client:
                response = await client.post(server.url, json=ping, headers=headers)
    assert response.status_code != 401
    assert calls == [True, "opened", False, True], "paused, opened, resumed, then the sign-in ended (redirected)"


# --- where the flow's requests may go (issue 20, point 9) ---------------------------------------


@pytest.mark.parametrize(
    ("point", "url", "step"),
    [
        ("resource_metadata", "http://internal.invalid/.well-known/oauth-protected-resource", "metadata"),
        ("resource_metadata", "file:///etc/passwd", "metadata"),
        ("authorization_server", "http://internal.invalid", "metadata"),
        ("registration", "http://internal.invalid/register", "registration"),
        ("token", "http://internal.invalid/token", "token"),
    ],
)
async def test_a_flow_request_the_server_points_elsewhere_than_https_or_loopback_is_never_sent(
    tmp_path: Path, point: str, url: str, step: str
) -> None:
    with oauth_server(tmp_path, "--point", f"{point}={url}") as server:
        hooks = OAuthHooks(opener=fetch, store="memory")
        with anyio.fail_after(60), pytest.raises(CatalogError) as failed:
            async with connect(_spec(server.url), LIMITS, oauth=hooks):
                pass
        asked = {request["path"] for request in server.requests("as")}
        issued = server.issued()
    info = failed.value.info
    assert (info.kind, info.details["step"], info.details["cause"]) == (ErrorKind.AUTH, step, "unsafe_url"), info
    assert (
        url.split("//")[-1].rstrip("/") in info.details["url"] and "only https, or http to this machine" in info.message
    )
    if step == "registration":
        assert "/register" not in asked and "/authorize" not in asked
    if step == "token":
        assert "/token" not in asked and not issued


async def test_a_flow_request_that_cannot_reach_its_server_fails_at_its_step(tmp_path: Path) -> None:
    with socket.socket() as closed:  # a loopback port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with oauth_server(tmp_path, "--point", f"resource_metadata=http://127.0.0.1:{port}/metadata") as server:
        with anyio.fail_after(60), pytest.raises(CatalogError) as failed:
            async with connect(_spec(server.url), LIMITS, oauth=OAuthHooks(opener=fetch, store="memory")):
                pass
    info = failed.value.info
    assert (info.kind, info.details["step"], info.details["cause"]) == (ErrorKind.AUTH, "metadata", "unreachable"), info
    assert f"127.0.0.1:{port}: connection refused" in info.message
