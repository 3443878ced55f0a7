"""The handshake under a client profile: the `clientInfo` and extensions a session declares, and an initialize
that proposes a pinned protocol version.

The SDK's `ClientSession.initialize()` always proposes its newest handshake version;
a host pinned at 2025-06-18 proposes that one, and a server may answer it with a
smaller catalog. So a pinned version is sent here, as the SDK's `initialize()` does it
otherwise (the same capabilities, the same check of the answer, `adopt`, then
`notifications/initialized`); everything after the handshake is the SDK's again.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.client.session import ClientSession
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from catalog_inspector.core.config import OURS, ClientProfile, ServerSpec
from catalog_inspector.core.errors import ErrorKind, make_error
from catalog_inspector.core.text import visible
from catalog_inspector.core.transport import handshake_capabilities

__all__ = ["client_options", "initialize_at", "pinned_version"]


def _info(profile: ClientProfile) -> types.Implementation:
    return types.Implementation(name=profile.name, version=profile.version)


def client_options(spec: ServerSpec) -> dict[str, Any]:
    """The `ClientSession` arguments of the entry's profile: `client_info`, and `extensions` when it has any."""
    profile = spec.client or OURS
    options: dict[str, Any] = {"client_info": _info(profile)}
    if profile.extensions:
        options["extensions"] = {key: dict(settings) for key, settings in profile.extensions.items()}
    return options


def pinned_version(spec: ServerSpec) -> str | None:
    """The protocol version the entry's profile pins (its initialize proposes exactly that), or None."""
    return spec.client.protocol_version if spec.client is not None else None


async def initialize_at(session: ClientSession, version: str, spec: ServerSpec) -> types.InitializeResult:
    """The initialize handshake proposing `version`; the session adopts the answer, as after `initialize()`.

    Raises:
        CatalogError: kind `protocol`, the server answered with a version no handshake speaks.
        MCPError: the server refused the handshake (as `initialize()` raises it).
    """
    result = await session.send_request(
        types.InitializeRequest(
            params=types.InitializeRequestParams(
                protocol_version=version,
                capabilities=handshake_capabilities(session, version),
                client_info=_info(spec.client or OURS),
            ),
        ),
        types.InitializeResult,
    )
    if result.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
        answered = visible(str(result.protocol_version), 40)
        raise make_error(
            ErrorKind.PROTOCOL,
            f"the server answered an initialize at {version} with protocol version {answered!r}, "
            f"which the handshake does not speak ({', '.join(HANDSHAKE_PROTOCOL_VERSIONS)})",
        )
    session.adopt(result)
    await session.send_notification(types.InitializedNotification())
    return result
