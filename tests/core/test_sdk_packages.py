"""`core.sdk_packages`: the SDK's package bodies wait until a name only they define is asked for.

Each case runs in a fresh interpreter: the test process imported the SDK long ago.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from tests.helpers import DEMO

# The server is this worker's forked demo (`tests.helpers.DEMO`): the interpreter under test is the command's.
DEMO_SERVER = (*DEMO, "--mode", "many", "--tools", "30", "--page-size", "10")
# What a command must not import for a walk over stdio: the server side, what only `mcp.Client` needs, and HTTP
# (httpx, the SDK's HTTP and OAuth clients, our meter, HTTP's fault classifier, the OAuth sign-in).
NOT_FOR_A_WALK = ("mcp.server", "mcp.client.client", "mcp.client._memory", "uvicorn", "starlette")
NO_HTTP = (
    "httpx2",
    "mcp.client.auth",
    "mcp.client.streamable_http",
    "mcp.shared._httpx_utils",
    "catalog_inspector.core.oauth",
    "catalog_inspector.core.transport.meter",
    "catalog_inspector.core.transport.http_faults",
    "catalog_inspector.core.transport.legacy_sse",
    "catalog_inspector.core.session.http_link",
)


def _run(script: str, *args: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, object] = json.loads(out.stdout.splitlines()[-1])
    return result


def test_a_walk_over_stdio_runs_neither_body_nor_imports_the_server_side_or_http(tmp_path) -> None:
    out = tmp_path / "snapshot.json"
    found = _run(
        """
        import json, sys
        from catalog_inspector.main import main
        from catalog_inspector.core.sdk_packages import deferred
        code = main(["snapshot", "--out", sys.argv[1], "--", *sys.argv[2:]])
        imported = sorted(m for m in %r if m in sys.modules)
        from catalog_inspector.core import session
        left = session.http_unloaded()  # what the app loads behind its window, and then says is left: nothing
        session.load_http()
        left_after = session.http_unloaded()
        # Once httpx is loaded (by an HTTP server's walk), the face's classifier knows its exceptions.
        import httpx2
        from catalog_inspector.core.transport import classify
        request = httpx2.Request("POST", "http://localhost:9/mcp")
        error = classify(ExceptionGroup("walk", [httpx2.ConnectTimeout("", request=request)]), 2)
        print(json.dumps({"code": code, "deferred": [deferred("mcp"), deferred("mcp.client")], "imported": imported,
                          "left": ["http_link" in left, "MeteredHTTPTransport" in left, left_after],
                          "http": [error.kind.value, error.info.message, error.info.page, error.info.details]}))
        """
        % (NOT_FOR_A_WALK + NO_HTTP,),
        str(out),
        *DEMO_SERVER,
    )
    assert found == {
        "code": 0,
        "deferred": [True, True],
        "imported": [],
        "left": [True, True, []],
        "http": [
            "connection",
            "localhost:9: connecting timed out (no answer: is the host reachable?)",
            2,
            {"host": "localhost", "port": 9, "cause": "timed_out"},
        ],
    }
    document = json.loads(out.read_text())
    assert document["status"] == "complete"
    assert len(document["tools"]) == 30 and document["tokens"]["total"] > 0


def test_a_name_only_a_body_defines_runs_that_body_and_is_the_sdks_own() -> None:
    plain = _run(
        """
        import json, mcp, mcp.client
        print(json.dumps({"mcp": sorted(mcp.__all__), "client": sorted(mcp.client.__all__)}))
        """
    )
    found = _run(
        """
        import json, sys
        from catalog_inspector.core.sdk_packages import defer, deferred
        defer()
        from mcp import types                      # a submodule: no body
        from mcp.client import session             # the same one level down
        steps = [deferred("mcp"), deferred("mcp.client"), "mcp.server" in sys.modules]
        from mcp import Client, ClientSession      # names only the body defines
        import mcp, mcp.client
        from mcp.client import Transport
        from mcp.client.client import Client as Home
        steps += [deferred("mcp"), deferred("mcp.client"), Client is Home, ClientSession is session.ClientSession,
                  mcp.types is types, Transport is mcp.client.Transport, type(mcp).__name__]
        try:
            mcp.no_such_name
        except AttributeError as exc:
            steps.append(str(exc))
        print(json.dumps({"steps": steps, "mcp": sorted(mcp.__all__), "client": sorted(mcp.client.__all__)}))
        """
    )
    assert found["steps"] == [
        True,
        True,
        False,
        False,
        False,
        True,
        True,
        True,
        True,
        "module",
        "module 'mcp' has no attribute 'no_such_name'",
    ]
    assert found["mcp"] == plain["mcp"] and found["client"] == plain["client"]


def test_threads_that_ask_at_once_wait_for_the_one_body_run() -> None:
    found = _run(
        """
        import json, threading
        from catalog_inspector.core.sdk_packages import defer
        defer()
        import mcp
        gate = threading.Barrier(4)
        got, errors = [], []
        def ask():
            gate.wait()
            try:
                got.append(mcp.ClientSession)
            except Exception as exc:
                errors.append(repr(exc))
        threads = [threading.Thread(target=ask) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(json.dumps({"errors": errors, "same": len(got) == 4 and len(set(map(id, got))) == 1}))
        """
    )
    assert found == {"errors": [], "same": True}


def test_a_package_already_imported_is_left_alone() -> None:
    found = _run(
        """
        import json, sys, types
        import mcp
        from catalog_inspector.core.sdk_packages import defer, deferred
        before = sys.modules["mcp"], sys.modules["mcp.client"]
        defer()
        print(json.dumps({"same": (sys.modules["mcp"], sys.modules["mcp.client"]) == before,
                          "deferred": [deferred("mcp"), deferred("mcp.client")],
                          "plain": type(sys.modules["mcp"]) is types.ModuleType}))
        """
    )
    assert found == {"same": True, "deferred": [False, False], "plain": True}
