"""HTTP's and OAuth's failures in the kinds of `core.errors`: statuses, what httpx could not do, a sign-in's step.

`core.transport.classify` asks `http_leaf` about an exception only once httpx is imported:
before that, nothing of HTTP can have been raised, and a stdio walk never loads this.
"""

from __future__ import annotations

import errno
import json
import re
import socket
import ssl
from collections import deque
from collections.abc import Iterator
from typing import Any

import httpx2
from mcp.client.auth import OAuthFlowError, OAuthRegistrationError, OAuthTokenError
from pydantic import ValidationError

from catalog_inspector.core.errors import CatalogError, ErrorKind, make_error
from catalog_inspector.core.redact import redacted_url
from catalog_inspector.core.text import visible

__all__ = ["address_of", "classify_auth", "http_leaf", "http_status_error"]


def address_of(url: httpx2.URL) -> tuple[str, int | None, str]:
    """Host, port (the scheme's default when none is given) and `host:port` as a person writes it."""
    port = url.port if url.port is not None else {"http": 80, "https": 443}.get(url.scheme)
    host = url.host
    shown = f"[{host}]" if ":" in host else host
    return host, port, f"{shown}:{port}" if port is not None else shown


# Said after an HTTP status that ends a connection: what the status usually means here.
_STATUS_WORDS = {
    401: "the server wants credentials: check the headers",
    403: "the server refused these credentials: check the headers",
    404: "is the URL the MCP endpoint?",
}


def http_status_error(
    method: str,
    url: httpx2.URL | str,
    status: int,
    page: int | None = None,
    words: str = "",
    hint: str = "",
    **details: Any,
) -> CatalogError:
    """A connection error for an HTTP status that ended a connection: method, URL (redacted), status.

    With `words` (what the status shows about the endpoint) the message leads with them and
    leaves the URL to `details` (it is the configured one), e.g. "this endpoint does not speak
    legacy SSE (GET answered HTTP 400 Bad Request, as Streamable HTTP endpoints do)".
    httpx's own text is not used: it names the URL with its credentials and adds a documentation link.
    """
    shown = redacted_url(str(url))
    phrase = httpx2.codes.get_reason_phrase(status)
    answered = f"answered HTTP {status}{f' {phrase}' if phrase else ''}"
    details = {"method": method, "url": shown, "status": status, **details}
    if words:
        message = f"{words} ({method} {answered}{f', {hint}' if hint else ''})"
    else:
        said = _STATUS_WORDS.get(status, "")
        message = f"{method} {shown} {answered}{f': {said}' if said else ''}"
    return make_error(ErrorKind.CONNECTION, message, page, details=details)


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """`exc`, then what caused it (causes, contexts, the leaves of groups among them), nearest first."""
    queue: deque[BaseException] = deque([exc])
    seen: set[int] = set()
    while queue and len(seen) < 32:  # a chain is short; a cycle or a huge group is not walked
        current = queue.popleft()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        if isinstance(current, BaseExceptionGroup):
            queue.extend(current.exceptions)
        queue.extend(cause for cause in (current.__cause__, current.__context__) if cause is not None)


_NAME_NOT_FOUND = {getattr(socket, name) for name in ("EAI_NONAME", "EAI_NODATA", "EAI_FAIL") if hasattr(socket, name)}


def _http_transport_failure(exc: httpx2.TransportError, page: int | None) -> CatalogError:
    """What httpx could not do, said with the host and port: refused, name not found, timed out, TLS, …

    httpx says "All connection attempts failed" for a refused connection; the reason
    is the OS error underneath (errno, `socket.gaierror`), found in the exception chain.
    """
    try:
        request: httpx2.Request | None = exc.request
    except RuntimeError:  # raised outside a request
        request = None
    details: dict[str, Any] = {}
    where = "the server"
    if request is not None:
        host, port, where = address_of(request.url)
        details = {"host": host, "port": port}
    timeouts = request.extensions.get("timeout", {}) if request is not None else {}

    def failed(
        cause: str, words: str, kind: ErrorKind = ErrorKind.CONNECTION, number: int | None = None
    ) -> CatalogError:
        facts = {**details, "cause": cause, **({"errno": number} if number is not None else {})}
        return make_error(kind, f"{where}: {words}", page, details=facts)

    if isinstance(exc, httpx2.ConnectTimeout):
        seconds = timeouts.get("connect")
        after = f" after {seconds:g} s" if isinstance(seconds, int | float) else ""
        return failed("timed_out", f"connecting timed out{after} (no answer: is the host reachable?)")
    if isinstance(exc, httpx2.TimeoutException):
        seconds = timeouts.get("read")
        after = f" within {seconds:g} s" if isinstance(seconds, int | float) else ""
        return make_error(ErrorKind.TIMEOUT, f"{where}: no data arrived{after}", page, details=details)
    if isinstance(exc, httpx2.ConnectError):
        for cause in _causes(exc):
            if isinstance(cause, socket.gaierror):
                if cause.errno in _NAME_NOT_FOUND:
                    return failed("name_not_found", f"host name not found ({cause.strerror})", number=cause.errno)
                return failed(
                    "name_not_found", f"the host name could not be looked up ({cause.strerror})", number=cause.errno
                )
            if isinstance(cause, ssl.SSLError):
                said = getattr(cause, "verify_message", None) or cause.reason or cause.strerror or str(cause)
                return failed("tls", f"the TLS handshake failed ({said})")
            if isinstance(cause, ConnectionRefusedError) or (
                isinstance(cause, OSError) and cause.errno == errno.ECONNREFUSED
            ):
                return failed(
                    "refused", "connection refused (is the server running, on that port?)", number=errno.ECONNREFUSED
                )
            if isinstance(cause, TimeoutError):
                return failed("timed_out", "connecting timed out (no answer: is the host reachable?)")
            if isinstance(cause, OSError) and cause.errno is not None:
                return failed("os_error", f"could not connect ({cause.strerror or cause})", number=cause.errno)
    return make_error(ErrorKind.CONNECTION, f"{where}: {str(exc) or type(exc).__name__}", page, details=details)


# What the SDK's OAuth provider raises, recognised by its wording (its exceptions carry nothing else
# but their type, which says the step for registration and token errors): the step it belongs to, a
# word for the cause, and what to say ({…} from the pattern's groups). Each has a canary in
# tests/core/test_sdk_boundary.py. The SDK's own state and missing-code checks are not here: the
# provider's callback (`core.oauth.provider`) refuses those redirects first, with its own words.
_AUTH_FAILURES: tuple[tuple[re.Pattern[str], str, str, str], ...] = (
    (
        re.compile(r"Protected resource (?P<resource>\S+) does not match expected (?P<expected>\S+)"),
        "metadata",
        "resource_mismatch",
        "the protected-resource metadata is for {resource}, not for this server ({expected}): refused",
    ),
    (
        re.compile(r"Protected resource metadata request failed: HTTP (?P<status>\d+)"),
        "metadata",
        "metadata_unavailable",
        "the protected-resource metadata could not be read (HTTP {status})",
    ),
    (
        re.compile(r"Authorization server metadata issuer mismatch: (?P<found>\S+) != (?P<expected>\S+)"),
        "metadata",
        "issuer_mismatch",
        "the authorization server's metadata names the issuer {found}, not {expected}: refused",
    ),
    (
        re.compile(r"Authorization response iss mismatch: .*", re.S),
        "authorization",
        "issuer_mismatch",
        "the redirect names another issuer than the authorization server's: refused (RFC 9207)",
    ),
    (
        re.compile(r"Authorization response missing iss parameter.*", re.S),
        "authorization",
        "issuer_missing",
        "the redirect names no issuer, though the authorization server said it would: refused (RFC 9207)",
    ),
    (
        re.compile(r"Registration failed: (?P<status>\d+)(?P<body>.*)", re.S),
        "registration",
        "registration_refused",
        "the authorization server refused to register this client (HTTP {status}{said})",
    ),
    (
        re.compile(r"Invalid registration response: .*", re.S),
        "registration",
        "malformed",
        "the authorization server's registration response is malformed",
    ),
    (
        re.compile(r"Authorization server registered the client .*", re.S),
        "registration",
        "unusable_registration",
        "the authorization server registered this client in a way it cannot use ({text})",
    ),
    (
        re.compile(r"Token exchange failed \((?P<status>\d+)\)(?P<body>.*)", re.S),
        "token",
        "token_refused",
        "the token endpoint refused to issue a token (HTTP {status}{said})",
    ),
    (
        re.compile(r"Invalid token response: .*", re.S),
        "token",
        "malformed",
        "the token endpoint's response is malformed",
    ),
    (
        re.compile(r"Registered client uses unsupported token_endpoint_auth_method .*", re.S),
        "token",
        "unsupported_method",
        "the client is registered for a token endpoint method this client cannot use ({text})",
    ),
)

_NO_REGISTRATION = (
    "the authorization server offers no client registration: configure a client id "
    '(--oauth-client-id, or "oauth": {{"clientId": …}} in the server\'s entry)'
)
_STEP_REQUESTS = {
    "metadata": "a metadata request",
    "registration": "the registration request",
    "authorization": "the sign-in",
    "token": "the token request",
    "scope": "the sign-in",
}


def _said(body: str) -> str:
    """`: error (description)` from an OAuth error body quoted in an SDK message; bounded and made visible."""
    text = body[body.index("{") :] if "{" in body else body.removeprefix(":").strip()
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("error"), str):
        description = data.get("error_description")
        more = f" ({visible(description, 200)})" if isinstance(description, str) and description else ""
        return f": {visible(data['error'], 64)}{more}"
    return f": {visible(text, 200)}" if text.strip() else ""


def classify_auth(exc: BaseException, step: str, *, registration: bool | None = None) -> CatalogError:
    """An OAuth flow's failure as an `auth` error: the step it failed at, a cause, and what to say.

    `step` is the phase the flow was in (a key of `AUTH_STEPS`); the SDK's registration and token
    errors name their own. `registration`: whether the authorization server offers dynamic
    registration (None: unknown), to say what to do when it does not.
    """
    if isinstance(exc, CatalogError):
        return exc
    if isinstance(exc, OAuthRegistrationError):
        step = "registration"
    elif isinstance(exc, OAuthTokenError):
        step = "token"

    def failed(words: str, cause: str, **details: Any) -> CatalogError:
        facts = {"step": step, "cause": cause, **{k: v for k, v in details.items() if v is not None}}
        return make_error(ErrorKind.AUTH, words, details=facts)

    if isinstance(exc, OAuthFlowError):
        text = str(exc)
        for pattern, own_step, cause, words in _AUTH_FAILURES:
            match = pattern.fullmatch(text)
            if match is None:
                continue
            step = own_step
            groups = {key: visible(value, 200) for key, value in match.groupdict().items() if key != "body"}
            said = _said(match.group("body")) if "body" in match.groupdict() else ""
            status = int(groups["status"]) if "status" in groups else None
            if cause == "registration_refused" and registration is False:  # the SDK tried `<origin>/register`
                return failed(_NO_REGISTRATION.format(), "no_registration", status=status)
            return failed(words.format(**groups, said=said, text=visible(text, 200)), cause, status=status)
        return failed(f"{_STEP_REQUESTS.get(step, 'the sign-in')} failed: {visible(text, 300)}", "refused")
    what = _STEP_REQUESTS.get(step, "the sign-in")
    if isinstance(exc, httpx2.TimeoutException):
        return failed(f"{what} got no answer in time", "timed_out")
    if isinstance(exc, httpx2.TransportError):
        where = _http_transport_failure(exc, None).info
        found = {("reason" if key == "cause" else key): value for key, value in where.details.items()}
        return failed(f"{what} failed: {where.message}", "unreachable", **found)
    if isinstance(exc, httpx2.StreamError):
        return failed(f"{what}: {visible(str(exc), 200)}", "too_large")
    if isinstance(exc, httpx2.DecodingError):
        return failed(f"{what} brought a compressed answer that does not decode: {visible(str(exc), 200)}", "malformed")
    if isinstance(exc, ValidationError | ValueError):
        return failed(f"{what} brought a malformed answer: {visible(str(exc), 300)}", "malformed")
    return failed(f"{what} failed: {type(exc).__name__}: {visible(str(exc), 300)}", "failed")


def http_leaf(exc: BaseException, page: int | None) -> CatalogError | None:
    """An exception of httpx or of the SDK's OAuth client, classified; None for anything else."""
    if isinstance(exc, OAuthFlowError):
        return classify_auth(exc, "authorization")
    if isinstance(exc, httpx2.HTTPStatusError):
        return http_status_error(exc.request.method, exc.request.url, exc.response.status_code, page)
    if isinstance(exc, httpx2.TransportError):
        return _http_transport_failure(exc, page)
    return None
