"""The Qt-free engine, in rooms. Each room's `__init__` is its face: code outside a room imports the face only.

Rooms, lowest floor first (a room imports only rooms above it in this list, and
core's shared modules):

- `config`: server entries and budgets, the app's own file, other clients' files,
  consent, secrets;
- `catalog`: the four lists, snapshots, the bounded enumerator, export names (no SDK);
- `transport`: stdio, legacy SSE, the byte meter, the classification of failures,
  the SDK adapter;
- `oauth`: signing in to an HTTP server that asks for it;
- `calls`: call outcomes and reports, forms, validation and its sandbox, lint, call
  history (no SDK);
- `drift`: the diff and its severities, drift reports, approval pins, history (no SDK);
- `session`: one live connection: connect, walk, send requests raw, the worker.

Shared modules, the floor every room stands on: `errors` (the kinds of failure and
the exception tree), `jsonrpc_codes` (the JSON-RPC codes the spec defines, by name),
`text` (untrusted text made safe to show), `files` (safe writes), `paths` (where
files live), `redact` (secrets left out), `pointer` (JSON pointers), `launch` (our
own helper processes' command lines), `processes` (server process trees found
and killed; a server started before the engine loaded, taken when it is asked for),
`proc_table` (what /proc says about a process, and a signal to exactly it), `popen_process` (such a process spoken to as anyio's), `gc_pause` (the cycle
collector held off while a catalog is walked), `json_encode` (one kept JSON encoder for a document's lines),
`sdk_packages` (the SDK's package bodies, which re-export its server side, run only when asked for) and
`steps` (work over a whole catalog that runs whole or a slice at a time).

Nothing here imports Qt, the runtime or the UI (`tests/core/test_layers.py`).
"""
