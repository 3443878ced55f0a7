"""The sandbox's worker process: validates one request at a time, read from stdin.

Run as `python -m catalog_inspector.core.calls.sandbox_worker`; `core.calls.sandbox` starts
it, feeds it and kills it when a request runs past its budget. It imports only
the standard library and `core.calls.validation` (jsonschema), so it starts quickly.

The protocol, newline-delimited JSON (compact JSON has no raw newlines):

- on start the worker writes ``{"ready": true}``;
- a request is three lines: a header ``{"id", "digest", "limit", "message_limit",
  "max_response"}``, the schema's JSON, the instance's JSON. `digest` names the
  schema line's bytes: a cached schema's line is read but not parsed or compiled again;
- the answer is one line: ``{"id", "problems": [[pointer, keyword, message], ...],
  "truncated"}`` or ``{"id", "failure", "detail"}`` (a `validation.Failure` value).

End of input ends the worker. Anything it prints by mistake goes to stderr, never
into the protocol.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections import OrderedDict
from typing import Any, BinaryIO

from jsonschema.protocols import Validator

from catalog_inspector.core.calls.validation import Failure, FieldProblem, Validation, prepare, validate_with

__all__ = ["SchemaCache", "main", "serve"]

CACHE_ENTRIES = 64
CACHE_BYTES = 64 * 1024 * 1024  # of schema JSON: many large schemas must not pile up in memory


class SchemaCache:
    """Compiled validators (or why a schema has none) by digest of the schema's JSON, least recently used first out."""

    def __init__(self, entries: int = CACHE_ENTRIES, max_bytes: int = CACHE_BYTES) -> None:
        self.entries = entries
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, tuple[Validator | Validation, int]] = OrderedDict()
        self._bytes = 0

    def get(self, digest: str) -> Validator | Validation | None:
        found = self._items.get(digest)
        if found is None:
            return None
        self._items.move_to_end(digest)
        return found[0]

    def put(self, digest: str, prepared: Validator | Validation, size: int) -> None:
        if digest in self._items or size > self.max_bytes:
            return
        self._items[digest] = (prepared, size)
        self._bytes += size
        while len(self._items) > self.entries or self._bytes > self.max_bytes:
            _, (_, dropped) = self._items.popitem(last=False)
            self._bytes -= dropped


def _answer(request_id: int, validation: Validation, max_response: int) -> bytes:
    if validation.failure is not None:
        body = {"id": request_id, "failure": str(validation.failure), "detail": validation.detail}
        return json.dumps(body, separators=(",", ":")).encode() + b"\n"
    # Keep the answer under `max_response` bytes: pointers and messages quote the instance.
    kept: list[bytes] = []
    size = 200
    truncated = validation.truncated
    for problem in validation.problems:
        encoded = json.dumps([problem.pointer, problem.keyword, problem.message], separators=(",", ":")).encode()
        if size + len(encoded) + 1 > max_response:
            truncated = True
            break
        kept.append(encoded)
        size += len(encoded) + 1
    head = json.dumps({"id": request_id, "truncated": truncated}, separators=(",", ":")).encode()
    return head[:-1] + b',"problems":[' + b",".join(kept) + b"]}\n"


def _lint(schema_line: bytes) -> Validation:
    """`lint_schema` with its metaschema pass, each issue as a problem (keyword: its code) for the one protocol."""
    from catalog_inspector.core.calls.lint import lint_schema

    try:
        issues = lint_schema(json.loads(schema_line), True)
    except RecursionError:
        return Validation(failure=Failure.TOO_LARGE, detail="the schema is nested too deeply to read")
    return Validation(tuple(FieldProblem(issue.pointer, issue.message, str(issue.code)) for issue in issues))


def _handle(header: dict[str, Any], schema_line: bytes, instance_line: bytes, cache: SchemaCache) -> Validation:
    if header.get("op") == "lint":
        return _lint(schema_line)
    digest = str(header["digest"])
    prepared = cache.get(digest)
    if prepared is None:
        try:
            prepared = prepare(json.loads(schema_line))
        except RecursionError:
            prepared = Validation(failure=Failure.TOO_LARGE, detail="the schema is nested too deeply to read")
        cache.put(digest, prepared, len(schema_line))
    if isinstance(prepared, Validation):
        return prepared
    try:
        instance = json.loads(instance_line)
    except RecursionError:
        return Validation(failure=Failure.TOO_LARGE, detail="the instance is nested too deeply to read")
    return validate_with(prepared, instance, limit=header["limit"], message_limit=header["message_limit"])


def serve(source: BinaryIO, sink: BinaryIO, cache: SchemaCache | None = None) -> None:
    """Answer requests from `source` on `sink` until `source` ends."""
    cache = cache if cache is not None else SchemaCache()
    sink.write(b'{"ready":true}\n')
    sink.flush()
    while header_line := source.readline():
        schema_line = source.readline()
        instance_line = source.readline()
        header = json.loads(header_line)
        try:
            validation = _handle(header, schema_line, instance_line, cache)
        except Exception as exc:  # the worker's task boundary: report the bug, keep serving
            validation = Validation(
                failure=Failure.CRASHED, detail=f"the validation worker failed: {type(exc).__name__}: {exc}"
            )
        sink.write(_answer(header["id"], validation, header["max_response"]))
        sink.flush()


def _die_with_parent() -> None:
    # A worker stuck in a catastrophic regex never reads the EOF that would end it,
    # so if the app dies without killing it, Linux kills it (PR_SET_PDEATHSIG). A
    # parent that died before this line leaves an idle worker, which reads EOF and exits.
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    except (AttributeError, OSError):
        pass


def _warm_up() -> None:
    # The first validator builds jsonschema's lazy tables (about a millisecond, measured):
    # pay that before saying ready, not inside the first request's budget.
    validator = prepare({"type": "object", "properties": {"a": {"type": "string", "pattern": "^a"}}})
    assert not isinstance(validator, Validation)
    validate_with(validator, {"a": "b"})


def main() -> None:
    _die_with_parent()
    warnings.simplefilter("ignore")  # a warning on stderr per request could fill a pipe nobody reads
    sink = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must never corrupt the protocol
    _warm_up()
    try:
        serve(sys.stdin.buffer, sink)
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the app has gone; so do we


if __name__ == "__main__":
    main()
