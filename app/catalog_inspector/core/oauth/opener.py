"""The command line's three ways to show a sign-in: open a browser, print the URL, or fetch it.

- `browser` opens the system browser (and prints the URL too, for when it does not come up);
- `print` writes the URL to stderr and waits for the redirect (a person opens it);
- `fetch` requests the URL itself and follows its redirects to the loopback listener, for an
  authorization server that approves without a person (the conformance suite's does). It
  sends nothing but the URL: no configured header, no cookie. Each hop is https or http to
  this machine, bounded in time and size; an answer that is not a redirect ends it.

The app brings its own opener (it shows the URL in the window); see `core.oauth.provider.Opener`.
"""

from __future__ import annotations

import sys
import webbrowser
from collections.abc import Callable
from typing import TextIO

import anyio.to_thread
import httpx2

from catalog_inspector.core.errors import CatalogError
from catalog_inspector.core.oauth.signin import Opener, SignIn, auth_error, check_authorization_url
from catalog_inspector.core.open_mode import OpenMode, default_mode
from catalog_inspector.core.redact import redacted_url
from catalog_inspector.core.text import visible

__all__ = ["OpenMode", "default_mode", "opener_for"]

MAX_HOPS = 10  # redirects `fetch` follows
HOP_SECONDS = 30.0
BODY_CAP = 256 * 1024  # bytes of a page `fetch` reads (and throws away)


def _shown(sign_in: SignIn) -> str:
    # httpx's form of the URL is percent-encoded: no control character reaches the terminal.
    return str(httpx2.URL(sign_in.url))


def opener_for(mode: OpenMode, stream: Callable[[], TextIO] = lambda: sys.stderr) -> Opener:
    """The opener for `mode`; what it says goes to `stream()` (stderr)."""

    def say(text: str) -> None:
        out = stream()
        out.write(text + "\n")
        out.flush()

    async def browser(sign_in: SignIn) -> None:
        say(f"{visible(sign_in.server, 200)}: signing in, in the browser; if it does not open, open {_shown(sign_in)}")
        if not await anyio.to_thread.run_sync(webbrowser.open, sign_in.url):
            say("(no browser could be opened: open the URL above yourself)")

    async def printed(sign_in: SignIn) -> None:
        say(
            f"{visible(sign_in.server, 200)}: to sign in, open this URL in a browser on this machine "
            f"(waiting {sign_in.seconds:g} s for it to come back to {sign_in.redirect_uri}):\n{_shown(sign_in)}"
        )

    async def fetched(sign_in: SignIn) -> None:
        say(f"{visible(sign_in.server, 200)}: signing in by fetching {_shown(sign_in)}")
        await fetch(sign_in)

    return {OpenMode.BROWSER: browser, OpenMode.PRINT: printed, OpenMode.FETCH: fetched}[mode]


async def fetch(sign_in: SignIn) -> None:
    """Play the browser: GET the authorization URL and follow its redirects until the listener has the code.

    Raises:
        CatalogError: auth, step authorization: a hop failed, or the server answered without
            redirecting back (it wants a person).
    """
    url = httpx2.URL(sign_in.url)
    timeout = httpx2.Timeout(HOP_SECONDS)
    async with httpx2.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False) as client:
        for _ in range(MAX_HOPS + 1):
            check_authorization_url(str(url))
            try:
                async with client.stream("GET", url) as response:
                    read = 0
                    async for chunk in response.aiter_raw():
                        read += len(chunk)
                        if read > BODY_CAP:
                            break
            except httpx2.HTTPError as exc:
                raise _hop_failed(url, exc) from exc
            if str(url.copy_with(query=None, fragment=None)) == sign_in.redirect_uri or sign_in.redirected:
                return  # back at the listener: the wait for the redirect takes it from here
            location = response.headers.get("location")
            if not response.is_redirect or location is None:
                raise auth_error(
                    "authorization",
                    f"fetching the sign-in: {redacted_url(str(url))} answered HTTP {response.status_code} instead of "
                    "redirecting back: this authorization server wants a person (use --oauth-open browser or print)",
                    "not_redirected",
                    status=response.status_code,
                )
            try:
                url = url.join(location)
            except httpx2.InvalidURL as exc:
                raise _hop_failed(url, exc) from exc
    raise auth_error(
        "authorization", f"fetching the sign-in: more than {MAX_HOPS} redirects without coming back", "not_redirected"
    )


def _hop_failed(url: httpx2.URL, exc: Exception) -> CatalogError:
    return auth_error(
        "authorization",
        f"fetching the sign-in: {redacted_url(str(url))} failed: {visible(str(exc) or type(exc).__name__, 200)}",
        "unreachable",
    )
