"""The command line judges each list on its own: a server that offers resources without
`resources/templates/list` is walked, called, diffed and checked for its tools; a list that truly failed sets the
exit code and says why on a line of its own, and is left out of a comparison instead of read as removed."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_runner import run_cli
from tests.helpers import forked

SQLITE = ["--", *forked("tests.fixtures.partial_lists_server")]


def test_snapshot_of_a_server_without_templates_exits_0_with_a_note() -> None:
    proc = run_cli("snapshot", "--timeout", "5", *SQLITE, timeout=60)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["status"] == "complete" and doc["lists_status"]["resource_templates"] == "unimplemented"
    assert proc.stderr.strip() == (
        "note: resource_templates: the server declares resources but does not implement resources/templates/list "
        "(it answered -32601, method not found)"
    )


def test_a_list_that_failed_on_its_own_exits_4_naming_it() -> None:
    proc = run_cli("snapshot", "--timeout", "5", *SQLITE, "--resources-error", timeout=60)
    assert proc.returncode == 4
    doc = json.loads(proc.stdout)
    assert doc["status"] == "complete" and doc["tools_status"] == "complete" and len(doc["tools"]) == 6
    assert doc["lists_status"]["resources"] == "failed"
    assert doc["resources"]["error"]["code"] == -32603
    lines = proc.stderr.strip().splitlines()
    assert lines[0].startswith("partial: failed: server_error (resources, page 0): JSON-RPC -32603 (internal error)")
    assert lines[1].startswith("note: resource_templates:")


def test_a_call_needs_only_an_accepted_tools_list() -> None:
    for extra in ((), ("--resources-error",)):
        proc = run_cli("call", "list_tables", "--args", "{}", *SQLITE, *extra, timeout=60)
        doc = json.loads(proc.stdout)
        assert proc.returncode == 0 and doc["outcome"] == "ok", (extra, doc["error"])
        assert doc["result"]["content"][0]["text"] == "list_tables: no rows"


def test_diff_and_check_leave_out_a_list_that_failed_and_check_still_fails(tmp_path: Path) -> None:
    base, failed = tmp_path / "base.json", tmp_path / "failed.json"
    assert run_cli("snapshot", "--out", str(base), *SQLITE, timeout=60).returncode == 0
    assert run_cli("snapshot", "--out", str(failed), *SQLITE, "--resources-error", timeout=60).returncode == 4
    proc = run_cli("diff", str(base), str(failed), timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [
        "Not compared: resources (a walk did not list them whole)",
        "No changes in the lists compared.",
    ]
    as_json = json.loads(run_cli("diff", "--json", str(base), str(failed), timeout=60).stdout)
    assert as_json["not_compared"] == ["resources"] and as_json["resources"]["removed"] == []
    proc = run_cli("check", "--baseline", str(base), "--json", *SQLITE, "--resources-error", timeout=60)
    assert proc.returncode == 4, "the walk was not whole: the failed list's code, after the diff of the rest"
    assert json.loads(proc.stdout)["not_compared"] == ["resources"]
    assert "partial: failed: server_error (resources" in proc.stderr
