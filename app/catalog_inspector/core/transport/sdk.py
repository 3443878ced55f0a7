"""The SDK's private parts this app relies on, in one place: an SDK upgrade that moves them fails here.

`mcp>=2.3,<3` promises only the SDK's public surface. What we take from behind it:

- `negotiate_auto` (`mcp.client._probe`): the discover-else-initialize policy of the
  SDK's `Client(mode="auto")`, which `ClientSession` does not offer on its own; we
  note the discover requests it sends (`negotiate_auto_noting`) to say why it fell back;
- `handshake_capabilities` (`ClientSession._build_capabilities`): the capabilities the session
  would declare at a version, for an initialize we send ourselves (the SDK's `initialize()`
  proposes only its newest version, and a client profile may pin another);
- `request_within_origin` and `sse_within_origin` (`mcp.shared._httpx_utils`): the
  SDK's same-origin redirect rule for HTTP requests and event streams, which our
  legacy SSE client follows so that it refuses exactly what the SDK's would (imported when first asked for:
  they stand on httpx, which a stdio walk never loads);
- `validate_server_result` (`mcp_types.methods`), which `ClientSession.send_request` runs on
  every result: replaced, on import, by the same validation without the dump that the SDK's
  makes of the validated result and throws away (`serialize_server_result`). The dump was a
  third of the check: 6 ms of a 2,000-tool page, 0.3 s of CPU in a 100,000-tool walk, on the
  walk's path between a page and the request for the next.

`tests/core/test_sdk_boundary.py` makes the installed SDK exercise each of them, and
`tests/core/transport/test_sdk_results.py` holds the result check to the SDK's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import UnionType
from typing import TYPE_CHECKING, Any, cast

import mcp_types as types
from mcp.client._probe import negotiate_auto
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types import methods as _methods
from pydantic import BaseModel

if TYPE_CHECKING:
    from mcp.shared._httpx_utils import request_within_origin, sse_within_origin

__all__ = [
    "DiscoverAttempt",
    "handshake_capabilities",
    "negotiate_auto",
    "negotiate_auto_noting",
    "request_within_origin",
    "sse_within_origin",
    "validate_server_result",
]


def __getattr__(name: str) -> Any:
    """The SDK's HTTP helpers, imported when legacy SSE first asks: they stand on httpx, which a stdio walk never
    loads (PEP 562). An SDK that moves them fails then, and in tests/core/test_sdk_boundary.py."""
    if name in ("request_within_origin", "sse_within_origin"):
        from mcp.shared import _httpx_utils

        value = getattr(_httpx_utils, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Taken now, not per result: an SDK that renames them fails here, on import, not on a walk's first page.
_check_known_version = _methods._check_known_version
_adapter = _methods._adapter


def validate_server_result(
    method: str,
    version: str,
    data: Mapping[str, Any],
    *,
    surface: Mapping[tuple[str, str], type[BaseModel] | UnionType] = _methods.SERVER_RESULTS,
) -> None:
    """`mcp_types.methods.validate_server_result` without the dump of what it validated: the same checks, in the
    same order, raising the same errors (`ValueError` for an unknown version, `KeyError` for a method the version
    lacks, pydantic's `ValidationError` for a result of the wrong shape); tests compare the two."""
    _check_known_version(version)
    _adapter(surface[(method, version)]).validate_python(data, by_name=False)


_methods.validate_server_result = validate_server_result  # the SDK's session looks it up on the module per result


@dataclass(frozen=True)
class DiscoverAttempt:
    """One `server/discover` the SDK's policy sent: the version it proposed, and the JSON-RPC error that answered
    it (None when it was answered with a result)."""

    version: str
    refused: MCPError | None = None


class _Noting:
    """The session as `negotiate_auto` sees it: every `server/discover` it sends is noted on its way.

    The policy says nothing about why it fell back to `initialize` (a -32022 naming only
    handshake-era versions, a -32601 from an older server, …); the person should hear it.
    Everything else is the session itself.
    """

    def __init__(self, session: ClientSession) -> None:
        self._session = session
        self.attempts: list[DiscoverAttempt] = []

    async def send_discover(self, version: str) -> dict[str, Any]:
        try:
            result = await self._session.send_discover(version)
        except MCPError as exc:
            self.attempts.append(DiscoverAttempt(version, exc))
            raise
        self.attempts.append(DiscoverAttempt(version))
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


async def negotiate_auto_noting(session: ClientSession) -> list[DiscoverAttempt]:
    """`negotiate_auto` on `session`, and the discover requests it sent, in order (raises as it does)."""
    noting = _Noting(session)
    await negotiate_auto(cast(ClientSession, noting))
    return noting.attempts


def handshake_capabilities(session: ClientSession, version: str) -> types.ClientCapabilities:
    """What `session` declares in an initialize at `version`: its callbacks' capabilities and its extensions."""
    return session._build_capabilities(version)
