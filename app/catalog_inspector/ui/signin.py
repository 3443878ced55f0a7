"""What the window says about a sign-in: its banner text, its link, the server details' lines. No widgets.

An authorization URL comes from the server's authorization server: untrusted. It is
shown, copied and opened in one form, Qt's fully encoded one (ASCII, no control or
bidi character, the host in its ASCII form so a look-alike host is visible), and
opened only when that same parse says https, or http to this machine: the browser
gets exactly what was shown and checked, whatever another parser would make of the
original text.
"""

from __future__ import annotations

import ipaddress
import time
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QUrl

from catalog_inspector.core.config import ServerSpec, oauth_applies
from catalog_inspector.core.text import visible

if TYPE_CHECKING:  # the engine's: a sign-in only exists once it is imported
    from catalog_inspector.core.oauth import Grant, SignIn

__all__ = [
    "SIGN_IN_LABEL",
    "browser_url",
    "grant_lines",
    "link_text",
    "sign_in_opened_words",
    "sign_in_text",
    "wait_words",
]

SIGN_IN_LABEL = "Sign-in (OAuth)"
LINK_LIMIT = 32_000  # characters of a link that is shown whole and may be opened (a longer one is cut, never opened)
HOST_LIMIT = 200
SCOPE_LIMIT = 600


def _parsed(url: str) -> QUrl:
    return QUrl(url if len(url) <= LINK_LIMIT else "", QUrl.ParsingMode.TolerantMode)


def link_text(url: str) -> str:
    """The link as it is shown, copied and opened: fully encoded; else the raw text made visible and cut
    (Qt cannot parse it, or it is longer than LINK_LIMIT), which `browser_url` never opens."""
    parsed = _parsed(url)
    encoded = parsed.toString(QUrl.ComponentFormattingOption.FullyEncoded) if parsed.isValid() else ""
    if not encoded or len(encoded) > LINK_LIMIT:
        return visible(url, LINK_LIMIT)
    return encoded


def host_text(url: str) -> str:
    """The authorization server's host (ASCII form) and any port, as the browser would reach it."""
    parsed = _parsed(url)
    host = parsed.host(QUrl.ComponentFormattingOption.FullyEncoded) if parsed.isValid() else ""
    if not host:
        return "an unknown host"
    port = parsed.port()
    return visible(f"{host}:{port}" if port != -1 else host, HOST_LIMIT)


def browser_url(url: str) -> QUrl | None:
    """The link to open in the browser, or None when it is not https (or http to this machine)."""
    shown = link_text(url)
    parsed = QUrl(shown, QUrl.ParsingMode.StrictMode)  # the text shown, read again: what is opened is what is shown
    if not parsed.isValid() or parsed.toString(QUrl.ComponentFormattingOption.FullyEncoded) != shown:
        return None
    host = parsed.host().lower()
    scheme = parsed.scheme().lower()
    if host and (scheme == "https" or (scheme == "http" and _loopback(host))):
        return parsed
    return None


def _loopback(host: str) -> bool:
    """This machine: `localhost`, or a loopback address (not a name that merely starts with `127.`)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def wait_words(seconds: float) -> str:
    if seconds >= 120 and seconds % 60 == 0:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"


def sign_in_text(server: str, sign_in: SignIn, walking: bool) -> str:
    """The banner's message for a sign-in that waits: title, detail, then what to check."""
    what = "walk" if walking else "request"
    port = QUrl(sign_in.redirect_uri).port()
    return "\n".join(
        [
            f"Sign in to {visible(server, 120)} at {host_text(sign_in.url)}",
            f"Finish in your browser; the {what} goes on when it comes back (up to {wait_words(sign_in.seconds)}).",
            "The link below comes from the server's authorization server: sign in only if you expect that host.",
            f"The browser comes back to this app on 127.0.0.1:{port}, which listens only until this sign-in ends.",
        ]
    )


def sign_in_opened_words(server: str, opened: bool, selected: bool) -> str:
    """What the status bar says once a server asked for a sign-in and the browser was (or was not) opened."""
    shown = visible(server, 120)
    where = "" if selected else f" (select {shown} to see its link)"
    done = "your browser was opened at its sign-in page" if opened else "no browser could be opened; copy the link"
    return f"{shown} asks you to sign in: {done}{where}."


def _moment(when: float) -> str:
    return f"{datetime.fromtimestamp(when).astimezone():%Y-%m-%d %H:%M:%S %Z}".strip()


def grant_lines(spec: ServerSpec, grant: Grant | None, known: bool, waiting: bool) -> list[str]:
    """The server details' lines about signing in: whether, which scopes, until when; never a token."""
    if not oauth_applies(spec):
        if spec.transport == "stdio":
            return []
        return [f"{SIGN_IN_LABEL}: not used: the configured headers send their own Authorization"]
    if waiting:
        return [f"{SIGN_IN_LABEL}: waiting for you to finish signing in, in the browser"]
    if not known:
        return [f"{SIGN_IN_LABEL}: not known yet (read once the server has been reached)"]
    if grant is None:
        return [f"{SIGN_IN_LABEL}: not signed in (the app asks when the server answers that it needs a sign-in)"]
    scopes = visible(" ".join(grant.scopes), SCOPE_LIMIT) if grant.scopes else "none named by the server"
    if grant.expires_at is None:
        expiry = "not said by the authorization server"
    elif grant.expired:
        expiry = f"{_moment(grant.expires_at)} (expired: renewed when the server next asks)"
    else:
        left = max(0, int(grant.expires_at - time.time()) // 60)
        expiry = f"{_moment(grant.expires_at)} (in {left} min)"
    renewal = (
        "a refresh token is kept: a new access token comes without asking you"
        if grant.refreshable
        else "no refresh token: you are asked to sign in again once it expires"
    )
    lines = [
        f"{SIGN_IN_LABEL}: signed in (no token is ever shown)",
        f"  Scopes granted: {scopes}",
        f"  Access token expires: {expiry}",
        f"  Renewal: {renewal}",
    ]
    if grant.client_id:
        lines.append(f"  Client id: {visible(grant.client_id, HOST_LIMIT)}")
    lines.append("  Servers ▸ Sign out forgets the tokens and the client registration.")
    return [*lines, ""]
