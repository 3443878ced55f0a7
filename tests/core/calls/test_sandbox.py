"""The validation sandbox: same answers as in process, and every slow, broken or dead worker stopped and reaped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import anyio
import pytest

from catalog_inspector.core.calls.sandbox import Sandbox, worker_environment
from catalog_inspector.core.calls.sandbox_worker import SchemaCache, serve
from catalog_inspector.core.calls.validation import Failure, Validation, problems_of
from catalog_inspector.core.processes import kill_group
from tests.helpers import POLL_INTERVAL, wait_gone, wait_until

pytestmark = pytest.mark.anyio

CATASTROPHIC = {"type": "string", "pattern": "^(a+)+$"}
SLOW_TEXT = "a" * 40 + "!"  # 2**40 ways to split the a's before `re` gives up
MARGIN = 1.0  # seconds allowed past a budget for killing and reaping the worker


class Hooks:
    """Records the sandbox's on_spawn / on_exit calls."""

    def __init__(self) -> None:
        self.spawned: list[int] = []
        self.exited: list[int] = []

    def sandbox(self, **options: Any) -> Sandbox:
        return Sandbox(on_spawn=self.spawned.append, on_exit=self.exited.append, **options)


async def gone(pid: int) -> None:
    """Wait, through the process's pidfd, until `pid` has exited."""
    await anyio.to_thread.run_sync(wait_gone, pid)


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


async def until_busy(pid: int) -> None:
    """Wait until the worker has spent CPU time on a request (no event announces that; poll /proc)."""
    start = _cpu_ticks(pid)
    with anyio.fail_after(10):
        while _cpu_ticks(pid) < start + 5:  # 50 ms at 100 Hz: an idle worker never gets there
            await anyio.sleep(POLL_INTERVAL)


async def in_flight(
    call: Callable[[], Awaitable[Validation]], then: Callable[[], Awaitable[None]]
) -> Validation | BaseException:
    """Run `call` in a task, run `then` while it is in flight, and return what the call returned or raised."""
    outcome: list[Validation | BaseException] = []

    async def caller() -> None:
        try:
            outcome.append(await call())
        except anyio.ClosedResourceError as exc:
            outcome.append(exc)

    async with anyio.create_task_group() as tg:
        tg.start_soon(caller)
        await then()
    return outcome[0]


CASES = {
    "nested objects": (
        {
            "type": "object",
            "properties": {"order": {"type": "object", "properties": {"qty": {"type": "integer"}}, "required": ["id"]}},
        },
        {"order": {"qty": "x"}},
        [("/order", "required"), ("/order/qty", "type")],
    ),
    "array items": ({"type": "array", "items": {"type": "integer"}}, ["a", 1, "b"], [("/0", "type"), ("/2", "type")]),
    "prefixItems without $schema": (
        {"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False},
        ["a", "b", "c"],
        [("", "items"), ("/1", "type")],
    ),
    "anyOf": (
        {"properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}},
        {"v": 1.5},
        [("/v", "anyOf")],
    ),
    "$defs and $ref": (
        {"$defs": {"pos": {"type": "integer", "minimum": 0}}, "properties": {"n": {"$ref": "#/$defs/pos"}}},
        {"n": -1},
        [("/n", "minimum")],
    ),
    "enum": ({"properties": {"c": {"enum": ["red", "green"]}}}, {"c": "blue"}, [("/c", "enum")]),
    "required": ({"required": ["a", "b"]}, {}, [("", "required"), ("", "required")]),
    "type union": ({"properties": {"x": {"type": ["string", "null"]}}}, {"x": 3}, [("/x", "type")]),
    "escaped keys": (
        {"properties": {"a/b": {"properties": {"c~d": {"type": "string"}}}}},
        {"a/b": {"c~d": 1}},
        [("/a~1b/c~0d", "type")],
    ),
    # The message quotes the const: its keys must keep their order on the way to the worker.
    "const keeps key order": ({"const": {"z": 1, "a": 2}}, {"z": 1}, [("", "const")]),
    "valid": ({"type": "object", "properties": {"a": {"type": "integer"}}}, {"a": 1}, []),
}


@pytest.mark.parametrize("case", CASES)
async def test_the_worker_finds_the_same_problems_as_in_process_validation(case: str) -> None:
    schema, instance, expected = CASES[case]
    async with Sandbox() as sandbox:
        outcome = await sandbox.validate(schema, instance, budget=10)
    assert outcome.failure is None
    assert [(p.pointer, p.keyword) for p in outcome.problems] == expected
    assert list(outcome.problems) == problems_of(schema, instance)  # messages too


async def test_a_catastrophic_pattern_is_stopped_at_its_budget_and_the_next_call_gets_a_fresh_worker() -> None:
    hooks = Hooks()
    async with hooks.sandbox(prestart=True) as sandbox:
        first = sandbox.pid
        assert first is not None
        budget = 0.3
        with anyio.fail_after(budget + MARGIN):
            outcome = await sandbox.validate(CATASTROPHIC, SLOW_TEXT, budget=budget)
        assert outcome.failure is Failure.OVER_BUDGET and "0.3 s budget" in outcome.detail
        await gone(first)
        assert hooks.exited == [first]
        again = await sandbox.validate(CATASTROPHIC, "aaa", budget=5)
        assert again.valid and sandbox.pid not in (None, first)
    assert len(hooks.spawned) == 2 and sorted(hooks.exited) == sorted(hooks.spawned)


async def test_an_over_budget_output_check_is_its_own_verdict() -> None:
    async with Sandbox() as sandbox:
        verdict = await sandbox.check_result(
            {"outputSchema": CATASTROPHIC}, {"structuredContent": SLOW_TEXT}, budget=0.2
        )
    assert verdict.verdict == "over_budget" and "budget" in verdict.detail


@contextmanager
def recording_server() -> Iterator[tuple[str, list[str]]]:
    """An HTTP server on 127.0.0.1 that serves a schema for any path and records each path asked for."""
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            body = b'{"type": "integer"}'
            self.send_response(200)
            self.send_header("Content-Type", "application/schema+json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


async def test_a_remote_ref_is_reported_unresolvable_and_never_fetched() -> None:
    with recording_server() as (base, hits):
        with urlopen(base + "/probe", timeout=5) as reply:  # the server answers and records
            assert json.loads(reply.read()) == {"type": "integer"}
        async with Sandbox() as sandbox:
            direct = await sandbox.validate({"$ref": base + "/schema.json"}, "x", budget=5)
            relative = await sandbox.validate({"$id": base + "/root.json", "$ref": "other.json"}, "x", budget=5)
            dynamic = await sandbox.validate({"$dynamicRef": base + "/dyn.json"}, "x", budget=5)
            # $schema only picks a draft: an unknown one is not fetched either; 2020-12 applies.
            meta = await sandbox.validate({"$schema": base + "/meta", "type": "integer"}, "x", budget=5)
            verdict = await sandbox.check_result(
                {"outputSchema": {"$ref": base + "/out.json"}}, {"structuredContent": 1}, 5
            )
    for outcome, ref in ((direct, "/schema.json"), (relative, "other.json"), (dynamic, "/dyn.json")):
        assert outcome.failure is Failure.UNRESOLVABLE_REF and ref in outcome.detail
    assert [p.keyword for p in meta.problems] == ["type"]
    assert verdict.verdict == "bad_schema" and "unresolvable" in verdict.detail
    assert hits == ["/probe"]


@pytest.mark.parametrize("schema", [{"type": "nonsense"}, {"pattern": "("}, {"$schema": 7}])
async def test_a_schema_invalid_against_its_metaschema_is_a_bad_schema(schema: object) -> None:
    async with Sandbox() as sandbox:
        outcome = await sandbox.validate(schema, "x", budget=5)
        assert outcome.failure is Failure.BAD_SCHEMA and outcome.detail
        assert (await sandbox.validate({"type": "string"}, "x", budget=5)).valid  # the worker survived it


async def test_an_oversized_instance_or_schema_is_refused_without_starting_a_worker() -> None:
    hooks = Hooks()
    async with hooks.sandbox(max_bytes=1024) as sandbox:
        big = await sandbox.validate({"type": "string"}, "x" * 2000, budget=5)
        huge_schema = await sandbox.validate({"enum": ["x" * 2000]}, "x", budget=5)
        assert sandbox.pid is None
    assert big.failure is Failure.TOO_LARGE and "instance" in big.detail and "1,024 bytes cap" in big.detail
    assert huge_schema.failure is Failure.TOO_LARGE and "schema" in huge_schema.detail
    assert hooks.spawned == []


async def test_a_deeply_nested_instance_is_refused_not_a_crash() -> None:
    deep: object = 1
    for _ in range(100_000):
        deep = [deep]
    async with Sandbox() as sandbox:
        outcome = await sandbox.validate({"type": "array"}, deep, budget=5)
    assert outcome.failure is Failure.TOO_LARGE and "nested too deeply" in outcome.detail


async def test_cancelling_the_caller_mid_validation_leaves_no_worker() -> None:
    hooks = Hooks()
    async with hooks.sandbox(prestart=True) as sandbox:
        pid = sandbox.pid
        assert pid is not None
        with anyio.CancelScope() as scope:

            async def cancel_when_busy() -> None:
                await until_busy(pid)
                scope.cancel()

            await in_flight(lambda: sandbox.validate(CATASTROPHIC, SLOW_TEXT, budget=60), cancel_when_busy)
        assert scope.cancelled_caught
        await gone(pid)
        assert sandbox.pid is None and hooks.exited == [pid]


async def test_aclose_leaves_no_process_and_later_calls_are_refused() -> None:
    hooks = Hooks()
    sandbox = hooks.sandbox(prestart=True)
    async with sandbox:
        pid = sandbox.pid
        assert pid is not None
    await gone(pid)
    assert hooks.exited == [pid]
    with pytest.raises(anyio.ClosedResourceError):
        await sandbox.validate({}, 1, budget=1)


async def test_aclose_during_a_call_ends_the_call_at_once() -> None:
    async with Sandbox(prestart=True) as sandbox:
        pid = sandbox.pid
        assert pid is not None

        async def close_when_busy() -> None:
            await until_busy(pid)
            with anyio.fail_after(MARGIN + 1):
                await sandbox.aclose()

        outcome = await in_flight(lambda: sandbox.validate(CATASTROPHIC, SLOW_TEXT, budget=60), close_when_busy)
    assert isinstance(outcome, anyio.ClosedResourceError)
    await gone(pid)


async def test_a_worker_killed_from_outside_is_a_crash_for_the_call_in_flight_and_the_next_call_works() -> None:
    hooks = Hooks()
    async with hooks.sandbox(prestart=True) as sandbox:
        pid = sandbox.pid
        assert pid is not None

        async def kill_when_busy() -> None:
            await until_busy(pid)
            os.kill(pid, signal.SIGKILL)

        outcome = await in_flight(lambda: sandbox.validate(CATASTROPHIC, SLOW_TEXT, budget=60), kill_when_busy)
        assert isinstance(outcome, Validation)
        assert outcome.failure is Failure.CRASHED and "SIGKILL" in outcome.detail
        await gone(pid)
        assert (await sandbox.validate({"type": "integer"}, 1, budget=5)).valid
        assert sandbox.pid not in (None, pid)
    assert len(hooks.spawned) == 2 and sorted(hooks.exited) == sorted(hooks.spawned)


async def test_a_worker_that_cannot_start_is_a_crash_with_its_last_words() -> None:
    hooks = Hooks()
    words = "import sys; sys.stderr.write('ModuleNotFoundError: no jsonschema here\\n'); sys.exit(3)"
    async with hooks.sandbox(command=[sys.executable, "-c", words]) as sandbox:
        outcome = await sandbox.validate({}, 1, budget=5)
    assert outcome.failure is Failure.CRASHED and "no jsonschema here" in outcome.detail
    assert len(hooks.spawned) == 1 and hooks.exited == hooks.spawned
    await gone(hooks.spawned[0])


GARBLED = "import signal, sys; print('{\"ready\": true}', flush=True); sys.stdin.readline(); print('nonsense', flush=True); signal.pause()"
MUTE = "import signal; signal.pause()"


async def test_a_worker_that_answers_nonsense_is_a_crash_and_is_killed() -> None:
    hooks = Hooks()
    async with hooks.sandbox(command=[sys.executable, "-c", GARBLED]) as sandbox:
        outcome = await sandbox.validate({}, 1, budget=5)
        assert outcome.failure is Failure.CRASHED and "protocol" in outcome.detail
        await gone(hooks.spawned[0])


async def test_a_worker_that_never_says_ready_is_a_crash_after_the_start_timeout() -> None:
    hooks = Hooks()
    async with hooks.sandbox(command=[sys.executable, "-c", MUTE], start_timeout=0.3) as sandbox:
        with anyio.fail_after(0.3 + MARGIN):
            outcome = await sandbox.validate({}, 1, budget=5)
        assert outcome.failure is Failure.CRASHED and "within 0.3 s" in outcome.detail
        await gone(hooks.spawned[0])


ORPHAN = """
import anyio
from catalog_inspector.core.calls.sandbox import Sandbox

async def main():
    async with Sandbox(prestart=True) as sandbox:
        print(sandbox.pid, flush=True)
        await sandbox.validate({"type": "string", "pattern": "^(a+)+$"}, "a" * 40 + "!", budget=600)

anyio.run(main)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_busy_worker_dies_with_an_app_that_was_killed() -> None:
    app = subprocess.Popen([sys.executable, "-c", ORPHAN], stdout=subprocess.PIPE, text=True)
    worker = 0
    try:
        assert app.stdout is not None
        worker = int(app.stdout.readline())
        start = _cpu_ticks(worker)
        wait_until(lambda: _cpu_ticks(worker) >= start + 5, what="the worker to be busy")
        app.kill()  # no aclose(), no finally: the app is simply gone
        app.wait()
        wait_gone(worker)
    finally:
        if worker:
            kill_group(worker)
        app.kill()
        app.wait()
        if app.stdout is not None:
            app.stdout.close()


async def test_concurrent_callers_queue_on_one_worker_and_each_gets_its_own_answer() -> None:
    hooks = Hooks()
    schema = {"properties": {"n": {"maximum": 2}}}
    found: dict[int, Validation] = {}
    async with hooks.sandbox() as sandbox:

        async def check(n: int) -> None:
            found[n] = await sandbox.validate(schema, {"n": n}, budget=10)

        async with anyio.create_task_group() as tg:
            for n in range(6):
                tg.start_soon(check, n)
    assert {n: found[n].valid for n in found} == {n: n <= 2 for n in range(6)}
    assert len(hooks.spawned) == 1


async def test_the_worker_gets_only_the_environment_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATALOG_TEST_SECRET", "do not pass on")
    async with Sandbox(prestart=True) as sandbox:
        assert sandbox.pid is not None
        environ = Path(f"/proc/{sandbox.pid}/environ").read_bytes()
    names = {entry.split(b"=", 1)[0].decode() for entry in environ.split(b"\0") if entry}
    assert names == set(worker_environment()) and "CATALOG_TEST_SECRET" not in names
    assert names <= {"PATH", "HOME", "LD_LIBRARY_PATH", "SYSTEMROOT", "PYTHONPATH"}


def _request(request_id: int, digest: str, schema: bytes, instance: bytes, max_response: int = 100_000) -> bytes:
    header = {"id": request_id, "digest": digest, "limit": 100, "message_limit": 500, "max_response": max_response}
    return b"\n".join([json.dumps(header).encode(), schema, instance, b""])


def test_the_worker_compiles_a_schema_once_and_answers_later_requests_from_its_cache() -> None:
    first = _request(1, "d", b'{"type":"integer"}', b'"x"')
    # Same digest: the schema line is not even parsed, so garbage there proves the cache answered.
    second = _request(2, "d", b"not json", b"1.5")
    out = BytesIO()
    serve(BytesIO(first + second), out)
    ready, *answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert ready == {"ready": True}
    assert [a["id"] for a in answers] == [1, 2]
    assert [[p[:2] for p in a["problems"]] for a in answers] == [[["", "type"]], [["", "type"]]]


def test_the_worker_cuts_an_answer_to_its_byte_cap() -> None:
    request = _request(
        1, "d", b'{"items":{"type":"integer"}}', json.dumps(["x" * 100] * 50).encode(), max_response=2000
    )
    out = BytesIO()
    serve(BytesIO(request), out)
    answer_line = out.getvalue().splitlines()[1]
    answer = json.loads(answer_line)
    assert len(answer_line) <= 2000 and answer["truncated"] is True and 0 < len(answer["problems"]) < 50


def test_the_schema_cache_is_bounded_by_entries_and_by_bytes() -> None:
    entries = SchemaCache(entries=2, max_bytes=1000)
    for name in "abc":
        entries.put(name, Validation(), 10)
    assert entries.get("a") is None and entries.get("c") is not None
    sized = SchemaCache(entries=10, max_bytes=100)
    sized.put("a", Validation(), 60)
    sized.put("b", Validation(), 60)
    sized.put("huge", Validation(), 101)
    assert sized.get("a") is None and sized.get("b") is not None and sized.get("huge") is None


async def test_a_lint_in_the_worker_is_lint_schema_with_its_metaschema_pass() -> None:
    from catalog_inspector.core.calls.lint import lint_schema

    schemas = [
        {"type": "object", "properties": {"q": {"type": "strnig"}, "tags": {"type": "array"}}},
        {"type": "object", "properties": {f"p{n}": {"type": "integer", "minimum": "zero"} for n in range(40)}},
        {"type": "object", "properties": {"ok": {"type": "string"}}},
    ]
    async with Sandbox() as sandbox:
        for schema in schemas:
            assert await sandbox.lint(schema, 10.0) == lint_schema(schema, True)
        # A validation on the same worker still answers as one.
        validation = await sandbox.validate({"type": "string"}, 3, 10.0)
        assert isinstance(validation, Validation) and validation.problems


async def test_a_lint_past_its_budget_is_over_budget_not_issues() -> None:
    huge = {"type": "object", "properties": {f"p{n}": {"type": "string", "pattern": "^a"} for n in range(5_000)}}
    async with Sandbox() as sandbox:
        found = await sandbox.lint(huge, 0.01)
    assert isinstance(found, Validation) and found.failure is Failure.OVER_BUDGET


def test_the_worker_loads_validation_alone_not_the_rest_of_the_calls_room() -> None:
    # A worker starts for every sandbox (and again after every budget overrun): the face of `core.calls` loads a
    # module when one of its names is asked for, so the worker does not pay for the catalog, config and lint.
    code = (
        "import sys, catalog_inspector.core.calls.sandbox_worker\n"
        "import json; print(json.dumps(sorted(m for m in sys.modules if m.startswith('catalog_inspector'))))"
    )
    loaded = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, check=True, timeout=60)
    modules = json.loads(loaded.stdout)
    assert "catalog_inspector.core.calls.validation" in modules
    for heavy in ("catalog", "config", "calls.lint", "calls.asking", "calls.sandbox", "processes"):
        assert f"catalog_inspector.core.{heavy}" not in modules, modules
