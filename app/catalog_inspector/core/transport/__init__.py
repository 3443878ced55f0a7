"""Talking to a server process or endpoint: stdio, legacy SSE, the byte meter, and what failures mean.

Holds `stdio` (the bounded stdio transport and the server's log), `legacy_sse`
(the bounded HTTP+SSE client), `meter` (every response's bytes counted as they
arrive, the cap enforced there), `streams` (the requests the SDK sends, seen on their way: their ids and
per-request extensions), `bodies` (HTTP bodies decoded, then read under
a cap), `sizes` (what each response measured, by request id), `param_headers` (`Mcp-Param-*` mirrored from a tool's arguments), `completing` (an absent
`resultType` read as complete, as 2026-07-28 tells clients), `classify` (what the SDK, anyio or the OS raises,
turned into `core.errors` kinds, once; `http_faults` for HTTP's and OAuth's) and `sdk` (the SDK's private parts we use,
behind one adapter). Imports `config` and core's shared modules; `oauth` and
`session` build on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from catalog_inspector.core.faces import load_on_demand

# Eager: the function shares its module's name, and importing the module (stdio does) would otherwise leave the
# module, not the function, as this face's `classify`.
from catalog_inspector.core.transport.classify import classify

if TYPE_CHECKING:
    from catalog_inspector.core.transport.completing import (
        CompletingReadStream,
    )
    from catalog_inspector.core.transport.http_faults import (
        address_of,
        classify_auth,
        http_status_error,
    )
    from catalog_inspector.core.transport.legacy_sse import (
        legacy_sse_client,
    )
    from catalog_inspector.core.transport.meter import (
        AUTH_CAP,
        AUTH_STEP,
        MeteredHTTPTransport,
        request_id_of,
    )
    from catalog_inspector.core.transport.param_headers import (
        HeaderScreen,
        ParamHeaders,
    )
    from catalog_inspector.core.transport.sdk import (
        DiscoverAttempt,
        handshake_capabilities,
        negotiate_auto,
        negotiate_auto_noting,
    )
    from catalog_inspector.core.transport.sizes import (
        RequestFaults,
        ResponseSizes,
    )
    from catalog_inspector.core.transport.stdio import (
        Faults,
        ServerLog,
        bounded_stdio_client,
        environment_names,
    )
    from catalog_inspector.core.transport.streams import (
        MeteredReadStream,
        ProbingWriteStream,
        declaring_extensions,
        probe_request_id,
    )

__all__ = [
    "AUTH_CAP",
    "AUTH_STEP",
    "CompletingReadStream",
    "DiscoverAttempt",
    "Faults",
    "HeaderScreen",
    "MeteredHTTPTransport",
    "MeteredReadStream",
    "ParamHeaders",
    "ProbingWriteStream",
    "RequestFaults",
    "ResponseSizes",
    "ServerLog",
    "address_of",
    "bounded_stdio_client",
    "classify",
    "classify_auth",
    "declaring_extensions",
    "environment_names",
    "handshake_capabilities",
    "http_status_error",
    "legacy_sse_client",
    "negotiate_auto",
    "negotiate_auto_noting",
    "probe_request_id",
    "request_id_of",
]

# A stdio walk needs none of HTTP (httpx, the meter, legacy SSE, OAuth's faults): each name is imported from its
# module when first asked for (PEP 562), so a command that walks a stdio server never loads the HTTP stack.
_HOMES: dict[str, tuple[str, ...]] = {
    "completing": ("CompletingReadStream",),
    "http_faults": (
        "address_of",
        "classify_auth",
        "http_status_error",
    ),
    "legacy_sse": ("legacy_sse_client",),
    "meter": (
        "AUTH_CAP",
        "AUTH_STEP",
        "MeteredHTTPTransport",
        "request_id_of",
    ),
    "param_headers": (
        "HeaderScreen",
        "ParamHeaders",
    ),
    "sdk": (
        "DiscoverAttempt",
        "handshake_capabilities",
        "negotiate_auto",
        "negotiate_auto_noting",
    ),
    "sizes": (
        "RequestFaults",
        "ResponseSizes",
    ),
    "stdio": (
        "Faults",
        "ServerLog",
        "bounded_stdio_client",
        "environment_names",
    ),
    "streams": (
        "MeteredReadStream",
        "ProbingWriteStream",
        "declaring_extensions",
        "probe_request_id",
    ),
}

__getattr__ = load_on_demand(__name__, _HOMES)
