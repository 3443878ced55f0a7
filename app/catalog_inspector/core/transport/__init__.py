"""Talking to a server process or endpoint: stdio, legacy SSE, the byte meter, and what failures mean.

Holds `stdio` (the bounded stdio transport and the server's log), `legacy_sse`
(the bounded HTTP+SSE client), `meter` (every response's bytes counted as they
arrive, the cap enforced there), `bodies` (HTTP bodies decoded, then read under
a cap), `sizes` (what each response measured, by request id), `param_headers` (`Mcp-Param-*` mirrored from a tool's arguments), `completing` (an absent
`resultType` read as complete, as 2026-07-28 tells clients), `classify` (what the SDK, anyio or the OS raises,
turned into `core.errors` kinds, once) and `sdk` (the SDK's private parts we use,
behind one adapter). Imports `config` and core's shared modules; `oauth` and
`session` build on it.
"""

from __future__ import annotations

from catalog_inspector.core.transport.classify import (
    address_of,
    classify,
    classify_auth,
    http_status_error,
)
from catalog_inspector.core.transport.completing import (
    CompletingReadStream,
)
from catalog_inspector.core.transport.legacy_sse import (
    legacy_sse_client,
)
from catalog_inspector.core.transport.meter import (
    AUTH_CAP,
    AUTH_STEP,
    MeteredHTTPTransport,
    MeteredReadStream,
    ProbingWriteStream,
    declaring_extensions,
    probe_request_id,
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
