"""Signing in to an HTTP server that asks for OAuth: the SDK's provider, plus what it leaves to the client.

The SDK's `OAuthClientProvider` does the MCP authorization flow (protected-resource
and authorization-server discovery with their fallbacks, CIMD or dynamic
registration, PKCE, the `resource` parameter and its check, scope selection,
step-up, the token endpoint's authentication methods, refresh when a token is
known to have expired). `InspectorOAuth` subclasses it for what a desktop
client and a CLI need and the SDK does not do:

- the redirect arrives on a loopback listener (`core.oauth.listener`) bound when
  a sign-in starts, before registration, and closed right after it;
- a kept sign-in is read only when a server first answers 401 (a server that
  never asks never makes us touch the keyring), with its access token's
  absolute expiry: an expired one is refreshed before it is sent, and a token
  the server refuses is refreshed before anyone is asked again;
- a failed refresh is said (`OAuthHooks.on_notice`), not swallowed;
- at most `MAX_SIGN_INS` sign-ins per session, whatever the server keeps asking;
- a pre-registered client without a token endpoint method gets one from the
  authorization server's metadata; `OAuthConfig.scope` replaces the SDK's choice;
- every request the flow makes goes only to https (or http to loopback), the
  rule the authorization URL is opened by (`core.oauth.signin.url_allowed`): a
  server's metadata cannot send the inspector to an internal address or a `file:`
  URL; each has the request timeout and a byte cap, counted once decoded;
- every failure is one `auth` error naming its step (`core.errors.AUTH_STEPS`).

An opener (`Opener`) shows the authorization URL: the app's shows it in the
window and opens the browser; the CLI's open a browser, print it, or fetch it
(`core.oauth.opener`). A `SignIn` can be cancelled at any time.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import anyio.abc
import httpx2
from mcp.client.auth import OAuthClientProvider
from mcp.client.auth.utils import extract_field_from_www_auth, union_scopes
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata
from pydantic import AnyUrl, PrivateAttr

from catalog_inspector.core.config import Limits, OAuthConfig, ServerSpec
from catalog_inspector.core.errors import CatalogError, leaves
from catalog_inspector.core.oauth.listener import CALLBACK_PATH, Callback, LoopbackListener
from catalog_inspector.core.oauth.signin import (
    Notice,
    OAuthHooks,
    Opener,
    SignIn,
    auth_error,
    check_authorization_url,
    check_url,
    default_hooks,
    oauth_applies,
    resource_url,
    set_default_hooks,
)
from catalog_inspector.core.oauth.store import KeyringStore, MemoryStore, SignInStore, server_key
from catalog_inspector.core.text import visible
from catalog_inspector.core.transport import (
    AUTH_CAP,
    AUTH_STEP,
    RequestFaults,
    classify_auth,
    http_status_error,
    request_id_of,
)

__all__ = [  # the sign-in's public face (`core.oauth.signin`) comes from here too
    "MAX_SIGN_INS",
    "InspectorOAuth",
    "Notice",
    "OAuthHooks",
    "Opener",
    "SignIn",
    "auth_error",
    "check_authorization_url",
    "default_hooks",
    "oauth_applies",
    "resource_url",
    "set_default_hooks",
]

# What each request of the flow is, in "refused to send … to URL".
_STEP_REQUESTS = {
    "metadata": "a metadata request",
    "registration": "the registration request",
    "token": "the token request",
}
MAX_SIGN_INS = 3  # sign-ins (a step-up counts) one session may ask for; the SDK bounds only one per request
RESPONSE_CAP = 1024 * 1024  # bytes of one metadata, registration or token response
CLIENT_NAME = "MCP Catalog Inspector"


def _bearer(response: httpx2.Response) -> bool:
    """Whether an answer challenges for a Bearer token (RFC 6750): the server speaks OAuth."""
    challenge = response.headers.get("www-authenticate", "")
    return challenge.strip().lower().startswith("bearer")


def _insufficient_scope(response: httpx2.Response) -> bool:
    return response.status_code == 403 and extract_field_from_www_auth(response, "error") == "insufficient_scope"


class _ClientMetadata(OAuthClientMetadata):
    """The registration metadata; with a scope pinned (`OAuthConfig.scope`) the SDK's scope choice cannot replace it.

    The SDK sets `scope` just before it registers and authorizes; a pinned scope stays,
    and a step-up adds the scopes the server asks for to it.
    """

    _pinned: str | None = PrivateAttr(default=None)
    _stepping_up: bool = PrivateAttr(default=False)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "scope" and self._pinned is not None:
            value = union_scopes(self._pinned, value) if self._stepping_up else self._pinned
        super().__setattr__(name, value)


class InspectorOAuth(OAuthClientProvider):
    """The SDK's OAuth provider for one connection, with the inspector's listener, store, bounds and errors.

    Attributes:
        sign_ins: sign-ins asked for in this session.
        phase: the step the flow is in (a key of `AUTH_STEPS`), for classifying what it raises.
        listener: the loopback listener while a sign-in is under way, else None.
    """

    def __init__(
        self,
        spec: ServerSpec,
        limits: Limits,
        *,
        hooks: OAuthHooks | None = None,
        report: Callable[[CatalogError], None] | None = None,
        refused: RequestFaults | None = None,
        pause: Callable[[bool], None] | None = None,
    ) -> None:
        self.spec = spec
        self.config = spec.oauth or OAuthConfig()
        self.limits = limits
        self.hooks = hooks or default_hooks()
        self.store = self._make_store()
        self._report = report
        self._refused = refused if refused is not None else RequestFaults()
        self._pause = pause
        metadata = _ClientMetadata(client_name=CLIENT_NAME, redirect_uris=[AnyUrl(f"http://127.0.0.1{CALLBACK_PATH}")])
        metadata._pinned = self.config.scope
        super().__init__(
            resource_url(spec.url),
            metadata,
            self.store,
            redirect_handler=self._open,
            callback_handler=self._wait,
            client_metadata_url=self.config.client_metadata_url,
        )
        self._metadata = metadata
        self.sign_ins = 0
        self.phase = "metadata"
        self.listener: LoopbackListener | None = None
        self._loaded = False
        self._last_port = 0
        self._token_request: httpx2.Request | None = None
        self._endpoints_known = False  # a refresh may go to the token endpoint: it was found, or kept
        self._sign_in: SignIn | None = None
        self._state: str | None = None
        self._group: anyio.abc.TaskGroup | None = None

    def _make_store(self) -> SignInStore:
        if self.hooks.store == "memory":
            return MemoryStore(server_key(self.spec.url))
        return KeyringStore(server_key(self.spec.url), on_notice=self._notice)

    def _notice(self, words: str) -> None:
        if self.hooks.on_notice is not None:
            self.hooks.on_notice(self.spec.name, words)

    # The flow, around the SDK's: its `_auth_flow` runs inside; this one sees every request and answer.

    async def _auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        flow = super()._auth_flow(request)
        tried_refresh = False
        try:
            outgoing = await flow.__anext__()
            before = self.sign_ins  # counted once the SDK's lock is ours: another request's sign-in is over
            while True:
                if outgoing is not request:
                    self._bound(outgoing)
                    outgoing = await flow.asend((yield outgoing))
                    continue
                response = yield request
                # Before anyone is asked: the kept sign-in, refreshed if it expired or was refused.
                while self.sign_ins == before and response.status_code == 401 and self._applies(response):
                    if not self._loaded:
                        await self._load()
                    sent = request.headers.get("authorization")
                    if not tried_refresh and self._should_refresh(sent):
                        tried_refresh = True
                        refresh = await self._refresh_token()
                        self._bound(refresh)
                        await self._handle_refresh_response((yield refresh))
                    token = self._usable_bearer()
                    if token is None or token == sent:
                        break  # nothing kept that the server has not refused: a sign-in
                    self._add_auth_header(request)
                    response = yield request
                if self.sign_ins > before:
                    self._after_sign_in(request, response)  # the answer to the retry; the SDK's flow ends with it
                elif response.status_code == 401 and not self._applies(response):
                    self._file(request, http_status_error(request.method, request.url, 401))
                    return  # not an OAuth server: the SDK must not start a flow
                elif response.status_code == 401 or _insufficient_scope(response):
                    if self.sign_ins >= MAX_SIGN_INS:
                        self._file(request, self._too_many(response))
                        return
                    await self._begin(response)
                elif response.status_code == 403:
                    self._file(request, http_status_error(request.method, request.url, 403))
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        except CatalogError as exc:
            self._failed(exc)
            raise
        except Exception as exc:
            error = classify_auth(exc, self.phase, registration=self._registration_offered())
            self._failed(error)
            raise error from exc
        finally:
            self._close_listener()
            await flow.aclose()

    def _applies(self, response: httpx2.Response) -> bool:
        """Whether a 401 starts (or continues) a sign-in: the server challenges for a Bearer token, or the
        entry configures OAuth. A plain 401 from a server that wants an API key stays a connection error."""
        return _bearer(response) or self.spec.oauth is not None

    def _bound(self, request: httpx2.Request) -> None:
        """The flow's own requests go only where the browser may (https, or http to this machine) and get the
        request timeout and a byte cap (the SDK checks none of these: a server could send it anywhere)."""
        if request.method == "POST" and request is not self._token_request:
            self.phase = "registration"  # the only other POST the flow makes
        step = "token" if request is self._token_request else self.phase if request.method == "POST" else "metadata"
        check_url(str(request.url), step, f"send {_STEP_REQUESTS[step]} to")
        request.extensions["timeout"] = httpx2.Timeout(self.limits.request_timeout).as_dict()
        request.extensions[AUTH_CAP] = RESPONSE_CAP
        request.extensions[AUTH_STEP] = step

    def _file(self, request: httpx2.Request, error: CatalogError) -> None:
        """What the caller of this one request is told (the connection itself is fine)."""
        request_id = request_id_of(request)
        if request_id is not None:
            self._refused.add(request_id, error)

    def _failed(self, error: CatalogError) -> None:
        if self._report is not None:
            self._report(error)

    def _too_many(self, response: httpx2.Response) -> CatalogError:
        if response.status_code == 403:
            wanted = visible(extract_field_from_www_auth(response, "scope") or "", 300)
            return auth_error(
                "scope",
                f"the server still asks for more scope ({wanted or 'unnamed'}) after {self.sign_ins} sign-ins "
                "in this session: not asking again",
                "retry_limit",
                required=wanted or None,
                sign_ins=self.sign_ins,
            )
        return auth_error(
            "authorization",
            f"the server refused every token after {self.sign_ins} sign-ins in this session: not asking again",
            "retry_limit",
            sign_ins=self.sign_ins,
        )

    def _after_sign_in(self, request: httpx2.Request, response: httpx2.Response) -> None:
        if response.status_code == 401:
            self._file(
                request,
                auth_error(
                    "token", "the server refused the access token it had just issued (HTTP 401)", "token_refused"
                ),
            )
        elif _insufficient_scope(response):
            wanted = visible(extract_field_from_www_auth(response, "scope") or "", 300)
            asked = visible(self.context.client_metadata.scope or "", 300)
            self._file(
                request,
                auth_error(
                    "scope",
                    f"the server still asks for scope {wanted or '(unnamed)'} after a sign-in that asked for "
                    f"{asked or 'no scope'}",
                    "insufficient_scope",
                    required=wanted or None,
                    requested=asked or None,
                ),
            )
        elif response.status_code == 403:
            self._file(request, http_status_error(request.method, request.url, 403))

    # What is kept.

    async def _initialize(self) -> None:
        # Nothing is read before a server asks (see `_load`): a server that never answers 401 never
        # makes us touch the keyring, and no token is sent to a server that did not ask for one.
        self._initialized = True

    async def _load(self) -> None:
        """Read the kept sign-in: tokens with their expiry, the registration, the metadata found with them."""
        self._loaded = True
        configured = self._pre_registered()
        if configured is not None:
            self.context.client_info = configured
        elif self.context.client_info is None:
            self.context.client_info = await self.store.get_client_info()
        kept = await self.store.get_metadata()
        tokens = await self.store.get_tokens() if kept is not None else None
        if kept is None or tokens is None or self.context.current_tokens is not None:
            return
        self.context.current_tokens = tokens
        self.context.token_expiry_time = await self.store.get_expiry()
        if self.context.oauth_metadata is None:
            self.context.oauth_metadata = kept[0]
        if self.context.protected_resource_metadata is None:
            self.context.protected_resource_metadata = kept[1]
        self._endpoints_known = True

    def _pre_registered(self) -> OAuthClientInformationFull | None:
        if self.config.client_id is None:
            return None
        return OAuthClientInformationFull(client_id=self.config.client_id, client_secret=self.config.client_secret)

    def _should_refresh(self, sent: str | None) -> bool:
        """A refresh is worth trying: a refresh token is kept, we know where to send it, and the access
        token has expired or the server just refused it."""
        if not (self.context.can_refresh_token() and self._endpoints_known):
            return False
        return not self.context.is_token_valid() or sent == f"Bearer {self._access_token()}"

    def _access_token(self) -> str | None:
        tokens = self.context.current_tokens
        return tokens.access_token if tokens is not None else None

    def _usable_bearer(self) -> str | None:
        token = self._access_token()
        return f"Bearer {token}" if token and self.context.is_token_valid() else None

    async def _handle_token_response(self, response: httpx2.Response) -> None:
        await super()._handle_token_response(response)
        self._endpoints_known = True
        await self.store.set_metadata(self.context.oauth_metadata, self.context.protected_resource_metadata)

    async def _handle_refresh_response(self, response: httpx2.Response) -> bool:
        refreshed = await super()._handle_refresh_response(response)
        if not refreshed:
            # The SDK only logs this and falls back to a full sign-in; a person should know why they are asked.
            said = ""
            if response.status_code != 200:
                await response.aread()
                said = _error_words(response)
            self._notice(
                f"the authorization server refused to refresh the sign-in (HTTP {response.status_code}{said}): "
                "signing in again"
            )
            await self.store.forget_tokens()
        return refreshed

    # A sign-in.

    async def _begin(self, response: httpx2.Response) -> None:
        """A sign-in is about to start: bind its listener first, so a registration names its redirect URI."""
        self.phase = "metadata"
        self._metadata._stepping_up = response.status_code == 403
        if not self._loaded:
            await self._load()
        preferred = self._preferred_port()
        try:
            listener = LoopbackListener(preferred)
        except CatalogError:
            if preferred == 0 or preferred == self.config.redirect_port:
                raise
            listener = LoopbackListener(0)  # the port registered last time is taken: register again
        self.listener = listener
        self._last_port = listener.port
        self.context.client_metadata.redirect_uris = [AnyUrl(listener.redirect_uri)]
        info = self.context.client_info
        if info is not None and self._registered_here(info) and info.redirect_uris:
            if listener.redirect_uri not in {str(uri) for uri in info.redirect_uris}:
                # Registered for another port: many servers match redirect URIs exactly.
                self.context.client_info = None

    def _registered_here(self, info: OAuthClientInformationFull) -> bool:
        """Whether `info` is a dynamic registration of ours (not the configured client, not a CIMD id)."""
        return info.client_id not in (self.config.client_id, self.config.client_metadata_url)

    def _preferred_port(self) -> int:
        if self.config.redirect_port is not None:
            return self.config.redirect_port
        if self._last_port:
            return self._last_port
        info = self.context.client_info
        for uri in (info.redirect_uris or []) if info is not None else []:
            parts = urlsplit(str(uri))
            if parts.hostname == "127.0.0.1" and parts.path == CALLBACK_PATH and parts.port:
                return parts.port
        return 0

    def _registration_offered(self) -> bool | None:
        metadata = self.context.oauth_metadata
        return None if metadata is None else metadata.registration_endpoint is not None

    def _close_listener(self) -> None:
        if self.listener is not None:
            self.listener.close()
            self.listener = None

    async def _perform_authorization_code_grant(self) -> tuple[str, str]:
        self.phase = "authorization"
        if self.listener is None:  # a sign-in the wrapper did not begin (the SDK's own retry paths)
            self.listener = LoopbackListener(self._preferred_port())
            self.context.client_metadata.redirect_uris = [AnyUrl(self.listener.redirect_uri)]
        self.sign_ins += 1
        if self._pause is not None:
            self._pause(True)  # the person's time is not the server's: handshake clocks stop
        granted: list[tuple[str, str]] = []
        try:
            async with anyio.create_task_group() as group:
                self._group = group
                try:
                    granted.append(await super()._perform_authorization_code_grant())
                finally:
                    self._group = None
                    group.cancel_scope.cancel()
        except BaseExceptionGroup as exc:
            raise _first_leaf(exc) from None
        finally:
            self._close_listener()  # right after the redirect: no socket outlives the sign-in
            if self._pause is not None:
                self._pause(False)
            if self._sign_in is not None and self.hooks.on_ended is not None:
                self.hooks.on_ended(self._sign_in)
            self._sign_in = None
        return granted[0]

    async def _open(self, url: str) -> None:
        """The SDK's redirect handler: check the URL, start listening, hand it to the opener."""
        check_authorization_url(url)
        assert self.listener is not None and self._group is not None
        state = parse_qs(urlsplit(url).query).get("state", [None])[0]
        seconds = self.hooks.wait if self.hooks.wait is not None else self.limits.deadline
        sign_in = SignIn(self.spec.name, url, self.listener.redirect_uri, seconds)
        self._sign_in = sign_in
        self._state = state
        self._group.start_soon(self._listen, self.listener, sign_in, state)
        await self.hooks.opener(sign_in)

    async def _listen(self, listener: LoopbackListener, sign_in: SignIn, state: str | None) -> None:
        sign_in._arrived(await listener.receive(state))

    async def _wait(self) -> AuthorizationCodeResult:
        """The SDK's callback handler: the redirect's code, or why there is none."""
        sign_in = self._sign_in
        assert sign_in is not None
        try:
            with anyio.move_on_after(sign_in.seconds):
                await sign_in._wake.wait()
        finally:
            sign_in._ended.set()
        callback = sign_in._callback
        if sign_in.cancelled:
            raise auth_error("authorization", "the sign-in was cancelled", "cancelled")
        if callback is None:
            raise auth_error(
                "authorization",
                f"no redirect came back to {sign_in.redirect_uri} within {sign_in.seconds:g} s",
                "timed_out",
                seconds=sign_in.seconds,
            )
        if callback.error is not None:
            raise _refusal(callback)
        if callback.state != self._state:
            raise auth_error(
                "authorization",
                "the redirect's state does not match this sign-in's: refused (it may not come from this sign-in)",
                "state_mismatch",
            )
        if not callback.code:
            raise auth_error("authorization", "the redirect brought no authorization code", "no_code")
        return AuthorizationCodeResult(code=callback.code, state=callback.state, iss=callback.iss)

    # Token requests.

    def _fill_method(self) -> None:
        """A client with a secret but no token endpoint method (pre-registered, or a registration that did
        not say) authenticates as the authorization server's metadata allows; RFC 8414's default is basic."""
        info = self.context.client_info
        if info is None or info.token_endpoint_auth_method is not None or not info.client_secret:
            return
        metadata = self.context.oauth_metadata
        supported = (metadata.token_endpoint_auth_methods_supported if metadata else None) or ["client_secret_basic"]
        for method in ("client_secret_basic", "client_secret_post", "none"):
            if method in supported:
                info.token_endpoint_auth_method = method
                return

    async def _exchange_token_authorization_code(self, auth_code: str, code_verifier: str) -> httpx2.Request:
        self.phase = "token"
        self._fill_method()
        request = await super()._exchange_token_authorization_code(auth_code, code_verifier)
        self._token_request = request
        return request

    async def _refresh_token(self) -> httpx2.Request:
        self.phase = "token"
        self._fill_method()
        request = await super()._refresh_token()
        self._token_request = request
        return request


def _first_leaf(group: BaseExceptionGroup[Any]) -> BaseException:
    found = [leaf for leaf in leaves(group) if not isinstance(leaf, anyio.get_cancelled_exc_class())]
    return found[0] if found else group


def _error_words(response: httpx2.Response) -> str:
    """`: error (description)` from an OAuth error response's JSON body, made visible and bounded; else ""."""
    try:
        body = response.json()
    except ValueError:
        return ""
    if not isinstance(body, dict) or not isinstance(body.get("error"), str):
        return ""
    description = body.get("error_description")
    more = f" ({visible(description, 200)})" if isinstance(description, str) and description else ""
    return f": {visible(body['error'], 64)}{more}"


def _refusal(callback: Callback) -> CatalogError:
    """The authorization server's own error in the redirect (`error=access_denied`, …)."""
    code = visible(callback.error or "", 64)
    description = visible(callback.error_description or "", 300)
    said = f"{code}: {description}" if description else code
    details: dict[str, Any] = {"error": code, "error_description": description or None}
    if callback.error == "invalid_scope":
        return auth_error(
            "scope", f"the authorization server refused the scopes asked for ({said})", "invalid_scope", **details
        )
    if callback.error == "access_denied":
        return auth_error(
            "authorization", f"the sign-in was refused at the authorization server ({said})", "denied", **details
        )
    return auth_error(
        "authorization", f"the authorization server answered with an error ({said})", "refused", **details
    )


# The SDK logs a flow's failure with its traceback; the inspector reports it as an `auth` error instead.
logging.getLogger("mcp.client.auth").addHandler(logging.NullHandler())
