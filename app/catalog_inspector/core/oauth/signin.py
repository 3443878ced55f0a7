"""What the app and the command line see of a sign-in: the hooks that show it, and the `SignIn` they get.

`core.oauth.provider` runs the flow; an `Opener` shows a sign-in's authorization URL (the app in
its window and the system browser; the CLI in one of three ways, `core.oauth.opener`), and
may cancel it at any time. `OAuthHooks` bundles the opener with where sign-ins are kept
and who hears notices; `set_default_hooks` makes them the ones every connection uses.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import anyio

from catalog_inspector.core.config import oauth_applies
from catalog_inspector.core.errors import CatalogError, ErrorKind, make_error
from catalog_inspector.core.oauth.listener import Callback
from catalog_inspector.core.text import visible

__all__ = [
    "Notice",
    "OAuthHooks",
    "Opener",
    "SignIn",
    "auth_error",
    "check_authorization_url",
    "check_url",
    "default_hooks",
    "oauth_applies",
    "resource_url",
    "set_default_hooks",
    "url_allowed",
]

_LOOPBACK = ("127.0.0.1", "::1", "localhost")


def auth_error(step: str, message: str, cause: str, **details: Any) -> CatalogError:
    """An `auth` error at `step` (a key of `AUTH_STEPS`), with `cause` as a word for scripts; None details are left out."""
    facts = {key: value for key, value in details.items() if value is not None}
    return make_error(ErrorKind.AUTH, message, details={"step": step, "cause": cause, **facts})


@dataclass
class SignIn:
    """One sign-in waiting for a person: what an `Opener` gets. Cancel it at any time (`cancel()`).

    Attributes:
        server: the configured server's name (or its URL, from the command line).
        url: the authorization URL, already checked (https, or http to loopback).
        redirect_uri: where the browser comes back (the loopback listener).
        seconds: how long the inspector waits for that redirect.
    """

    server: str
    url: str
    redirect_uri: str
    seconds: float
    _wake: anyio.Event = field(default_factory=anyio.Event, repr=False)
    _cancelled: bool = field(default=False, repr=False)
    _callback: Callback | None = field(default=None, repr=False)
    _ended: anyio.Event = field(default_factory=anyio.Event, repr=False)

    async def ended(self) -> None:
        """Wait until the sign-in is over: the browser came back, it was cancelled, or its time ran out."""
        await self._ended.wait()

    def cancel(self) -> None:
        """Stop waiting: the sign-in fails as cancelled (call it in the event loop's thread)."""
        self._cancelled = True
        self._wake.set()
        self._ended.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    @property
    def redirected(self) -> bool:
        """Whether the browser has come back to the listener."""
        return self._callback is not None

    def _arrived(self, callback: Callback) -> None:
        self._callback = callback
        self._wake.set()
        self._ended.set()


Opener = Callable[[SignIn], Awaitable[None]]
"""Shows a sign-in's URL to the person (or fetches it). Raising fails the sign-in; returning leaves the wait to run."""

Notice = Callable[[str, str], None]
"""Receives (server name, words) for what a person should know but is no failure (a refused refresh token)."""


async def _no_opener(sign_in: SignIn) -> None:
    raise auth_error(
        "authorization", "this server asks for a sign-in, and nothing here can open a browser", "no_opener"
    )


@dataclass
class OAuthHooks:
    """How sign-ins are shown, kept and told about, for every connection that does not bring its own.

    Attributes:
        opener: shows the authorization URL (see `core.oauth.opener` for the CLI's three).
        store: "keyring" (kept per server across runs) or "memory" (this run only, `--no-store`).
        on_notice: hears (server name, words): a refused refresh token, a keyring that is missing.
        wait: seconds to wait for the browser's redirect (None: the walk's deadline).
        on_ended: hears a `SignIn` the opener was given once its wait is over (the redirect came,
            or it failed, timed out or was cancelled), to stop showing its URL.
    """

    opener: Opener = _no_opener
    store: str = "keyring"
    on_notice: Notice | None = None
    wait: float | None = None
    on_ended: Callable[[SignIn], None] | None = None


_default_hooks = OAuthHooks()


def default_hooks() -> OAuthHooks:
    return _default_hooks


def set_default_hooks(hooks: OAuthHooks) -> None:
    """Set the hooks that connections without their own use (the app and the CLI set theirs at start)."""
    global _default_hooks
    _default_hooks = hooks


def resource_url(url: str) -> str:
    """The server URL the flow works with: without user, password, query or fragment (none of them may reach
    an authorization server: a query can hold an API key)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url  # not a URL the connection can use either: it fails there, as a connection error
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    netloc = host if port is None else f"{host}:{port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def url_allowed(url: str) -> bool:
    """Whether a sign-in may reach `url`: https, or http to this machine (by name or loopback address).

    The one rule for every URL a server hands the sign-in: the authorization URL a
    browser opens, and each request of the flow (metadata, registration, token).
    """
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return False
    return bool(host) and (parts.scheme == "https" or (parts.scheme == "http" and _loopback(host)))


def check_url(url: str, step: str, what: str) -> None:
    """Refuse a URL `url_allowed` does not allow, before anything reaches it; `what` is the verb and its
    object ("open the authorization URL", "send a metadata request to").

    Raises:
        CatalogError: auth, at `step`, cause `unsafe_url`.
    """
    if url_allowed(url):
        return
    shown = visible(url, 200)
    raise auth_error(step, f"refused to {what} {shown}: only https, or http to this machine", "unsafe_url", url=shown)


def check_authorization_url(url: str) -> None:
    """Refuse to open an authorization URL that is not https, or http to this machine.

    Raises:
        CatalogError: auth, step authorization, cause `unsafe_url`.
    """
    check_url(url, "authorization", "open the authorization URL")


def _loopback(host: str) -> bool:
    """This machine, by name or address: `127.0.0.1.evil.example` is a host name, not a loopback address."""
    if host in _LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
