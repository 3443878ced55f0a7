"""Where a server's sign-in is kept: the system keyring, or memory for one run. Never a file of ours.

Per server (keyed by `server_key`, its URL without credentials, query or
fragment), three keyring entries under the service `mcp-catalog-inspector`:

- `oauth:<key>:tokens` — `{"token": <OAuthToken>, "expires_at": <unix time or null>}`: the
  access token's *absolute* expiry is kept next to it, so a token read back in
  a later run is known to be expired and refreshed before it is sent;
- `oauth:<key>:client` — the client registration (`OAuthClientInformationFull`);
- `oauth:<key>:server` — `{"authorization_server": <RFC 8414 metadata>, "resource": <RFC 9728
  metadata>}`, so a refresh in a later run goes to the right token endpoint without a
  new discovery.

A store implements the SDK's `TokenStorage` protocol plus what the SDK does
not keep (expiry, metadata). The keyring is reached off the event loop (a
Secret Service call can take a while); a keyring that refuses a write makes
the store keep the sign-in in memory for the rest of the run, and say so once.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import anyio.to_thread
from mcp.shared.auth import OAuthClientInformationFull, OAuthMetadata, OAuthToken, ProtectedResourceMetadata
from pydantic import ValidationError

from catalog_inspector.core.config import SERVICE

__all__ = ["Grant", "KeyringStore", "MemoryStore", "SignInStore", "forget", "grant_of", "keyring_usable", "server_key"]

Notice = Callable[[str], None]
_PARTS = ("tokens", "client", "server")


def server_key(url: str) -> str:
    """The key a server's sign-in is kept under: its URL without user, password, query or fragment.

    Scheme and host are lower-cased; a default port is left out. Tokens are bound to
    the resource, so a configured server and `--url` with the same URL share a sign-in.
    """
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    host = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}.get(parts.scheme.lower())
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = host if port is None or port == default else f"{host}:{port}"
    return urlunsplit((parts.scheme.lower(), netloc, parts.path or "/", "", ""))


def _username(key: str, part: str) -> str:
    return f"oauth:{key}:{part}"


@dataclass(frozen=True)
class Grant:
    """What a server's kept sign-in allows, for the server details: never the tokens themselves.

    Attributes:
        scopes: the scopes granted (as the token response said, else as asked).
        expires_at: when the access token expires (unix time), None if the server did not say.
        refreshable: whether a refresh token is kept (a new access token without asking again).
        client_id: the client the sign-in was made with.
    """

    scopes: tuple[str, ...]
    expires_at: float | None
    refreshable: bool
    client_id: str | None

    @property
    def expired(self) -> bool:
        return self.expires_at is not None and time.time() > self.expires_at


def _tokens_json(token: OAuthToken, expires_at: float | None) -> str:
    return json.dumps({"token": token.model_dump(mode="json", exclude_none=True), "expires_at": expires_at})


def _parse_tokens(text: str | None) -> tuple[OAuthToken | None, float | None]:
    if not text:
        return None, None
    try:
        data = json.loads(text)
        token = OAuthToken.model_validate(data["token"])
        expires_at = data.get("expires_at")
        return token, float(expires_at) if isinstance(expires_at, int | float) else None
    except (ValueError, KeyError, TypeError, ValidationError):
        return None, None  # damaged or from another version: as if nothing were kept


def _parse_client(text: str | None) -> OAuthClientInformationFull | None:
    if not text:
        return None
    try:
        return OAuthClientInformationFull.model_validate_json(text)
    except ValidationError:
        return None


Kept = tuple[OAuthMetadata | None, ProtectedResourceMetadata | None]


def _parse_server(text: str | None) -> Kept | None:
    if not text:
        return None
    try:
        data = json.loads(text)
        found = data.get("authorization_server"), data.get("resource")
        server = OAuthMetadata.model_validate(found[0]) if found[0] else None
        resource = ProtectedResourceMetadata.model_validate(found[1]) if found[1] else None
        return server, resource
    except (ValueError, AttributeError, TypeError, ValidationError):
        return None


def expiry_of(token: OAuthToken) -> float | None:
    """The absolute expiry of a token just received (its `expires_in` from now)."""
    try:
        return time.time() + int(token.expires_in) if token.expires_in is not None else None
    except (TypeError, ValueError):
        return None


# Sign-ins kept in memory, per server key, for the life of the process: `--no-store`, no keyring, or a
# keyring that refused to keep one. Every connection to the same server in this run shares them.
_MEMORY: dict[str, dict[str, str]] = {}


class SignInStore:
    """One server's sign-in, kept in memory for this run: the SDK's `TokenStorage`, plus expiry and metadata.

    `KeyringStore` keeps it in the keyring instead.
    """

    def __init__(self, key: str) -> None:
        self.key = key

    async def _read(self, part: str) -> str | None:
        return _MEMORY.get(self.key, {}).get(part)

    async def _write(self, part: str, text: str | None) -> None:
        if text is None:
            _MEMORY.get(self.key, {}).pop(part, None)
        else:
            _MEMORY.setdefault(self.key, {})[part] = text

    async def get_tokens(self) -> OAuthToken | None:
        return _parse_tokens(await self._read("tokens"))[0]

    async def get_expiry(self) -> float | None:
        """The kept access token's absolute expiry (unix time), or None."""
        return _parse_tokens(await self._read("tokens"))[1]

    async def set_tokens(self, tokens: OAuthToken) -> None:
        await self._write("tokens", _tokens_json(tokens, expiry_of(tokens)))

    async def forget_tokens(self) -> None:
        """Drop the tokens (a refresh token the server refused), keeping the registration."""
        await self._write("tokens", None)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return _parse_client(await self._read("client"))

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        await self._write("client", client_info.model_dump_json(exclude_none=True))

    async def get_metadata(self) -> Kept | None:
        """The authorization server's and the resource's metadata found by the last sign-in (each None where
        the server published none: the 2025-03-26 default endpoints), or None when no sign-in is kept."""
        return _parse_server(await self._read("server"))

    async def set_metadata(self, server: OAuthMetadata | None, resource: ProtectedResourceMetadata | None) -> None:
        data: dict[str, Any] = {
            "authorization_server": server.model_dump(mode="json", exclude_none=True) if server else None,
            "resource": resource.model_dump(mode="json", exclude_none=True) if resource else None,
        }
        await self._write("server", json.dumps(data))


class MemoryStore(SignInStore):
    """A sign-in kept for this run only (`--no-store`)."""


class KeyringStore(SignInStore):
    """A server's sign-in in the system keyring; in memory for this run where the keyring cannot keep it
    (there is none, or it refused), and `on_notice` hears why."""

    def __init__(self, key: str, on_notice: Notice | None = None) -> None:
        super().__init__(key)
        self._on_notice = on_notice

    async def _read(self, part: str) -> str | None:
        kept = await super()._read(part)  # only what the keyring could not keep, this run
        return kept if kept is not None else await anyio.to_thread.run_sync(_get, self.key, part)

    async def _write(self, part: str, text: str | None) -> None:
        problem = await anyio.to_thread.run_sync(_put, self.key, part, text)
        if problem is None:
            await super()._write(part, None)
            return
        await super()._write(part, text)
        if text is not None and self._on_notice is not None:
            self._on_notice(f"{problem}: the sign-in is kept in memory for this run only")


def _get(key: str, part: str) -> str | None:
    import keyring
    import keyring.errors

    try:
        return keyring.get_password(SERVICE, _username(key, part))
    except keyring.errors.KeyringError:
        return None


def _put(key: str, part: str, text: str | None) -> str | None:
    """Write (or with None delete) one entry; the problem in words, or None."""
    import keyring
    import keyring.errors

    from catalog_inspector.core.config import keyring_status

    usable, _ = keyring_status()
    if not usable:
        return "no keyring is available here"
    try:
        if text is not None:
            keyring.set_password(SERVICE, _username(key, part), text)
        else:
            try:
                keyring.delete_password(SERVICE, _username(key, part))
            except keyring.errors.PasswordDeleteError:
                pass  # nothing was kept
    except keyring.errors.KeyringError as exc:
        return f"the keyring refused it ({str(exc) or type(exc).__name__})"
    return None


def keyring_usable() -> bool:
    """Whether a keyring is there to keep sign-ins (see `core.config.secrets.keyring_status`)."""
    from catalog_inspector.core.config import keyring_status

    return keyring_status()[0]


def grant_of(url: str) -> Grant | None:
    """What the kept sign-in for the server at `url` allows, or None (blocking: call it off the GUI thread)."""
    key = server_key(url)
    memory = _MEMORY.get(key, {})

    def read(part: str) -> str | None:
        return memory.get(part) or _get(key, part)

    token, expires_at = _parse_tokens(read("tokens"))
    if token is None:
        return None
    client = _parse_client(read("client"))
    scopes = tuple(token.scope.split()) if token.scope else ()
    return Grant(scopes, expires_at, token.refresh_token is not None, client.client_id if client else None)


def forget(url: str) -> bool:
    """Sign out of the server at `url`: forget its tokens, client registration and metadata.

    Returns whether anything was kept. Blocking: call it off the GUI thread.

    Raises:
        keyring.errors.KeyringError: the keyring refused to delete.
    """
    import keyring
    import keyring.errors

    from catalog_inspector.core.config import keyring_status

    key = server_key(url)
    found = bool(_MEMORY.pop(key, None))
    if not keyring_status()[0]:
        return found
    for part in _PARTS:
        try:
            keyring.delete_password(SERVICE, _username(key, part))
            found = True
        except keyring.errors.PasswordDeleteError:
            pass
    return found
