"""One live connection to a server: connecting, walking its lists into a snapshot, sending requests raw, the worker.

Holds `connection` (transport, handshake and protocol era, list-change
listening, raw requests), `http_link` (the HTTP transports and sign-in, loaded only for an HTTP
server, or all at once by `load_http`), `handshake` (the entry's client profile in the handshake: its
clientInfo, extensions and a pinned protocol version), `walk` (a snapshot taken over a connection with the
`catalog` enumerator), `asking` (the rounds of a request the server answers by
asking), `clock` (a time limit that stops while a person is waited for), `requests` (tools/call, resources/read and prompts/get
sent raw; their outcomes are `calls` data), `completions` (completion/complete), `watches` (resource subscriptions) and `worker` (one session's whole
life in one task: connect, walk, publish, serve, close). Imports `transport`,
`oauth`, `catalog`, `calls`, `config` and core's shared modules.
"""

from __future__ import annotations

from catalog_inspector.core.session.asking import (
    Asking,
    AskingDesk,
    Stopped,
)
from catalog_inspector.core.session.completions import complete, offers_completions
from catalog_inspector.core.session.connection import (
    Connection,
    http_unloaded,
    load_http,
)
from catalog_inspector.core.session.requests import (
    call_tool,
    get_prompt,
    read_resource,
)
from catalog_inspector.core.session.watches import ResourceWatches
from catalog_inspector.core.session.worker import (
    SessionWorker,
)

__all__ = [
    "Asking",
    "AskingDesk",
    "Connection",
    "ResourceWatches",
    "SessionWorker",
    "Stopped",
    "call_tool",
    "complete",
    "get_prompt",
    "http_unloaded",
    "load_http",
    "offers_completions",
    "read_resource",
]
