"""The commands for CI and fleets: `approve` and `check --pins`, `check --lint`, `--report`, and `sweep`."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import junitparser
import pytest

from tests.cli_runner import run_cli
from tests.helpers import DEMO, forked
from tests.test_cli import demo


def cli(*args: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, timeout=timeout)


def test_approve_writes_a_lockfile_that_check_pins_holds_a_catalog_to(tmp_path: Path) -> None:
    lock = tmp_path / "mcp-catalog.lock.json"
    state = str(tmp_path / "state.json")
    proc = cli("approve", "--out", str(lock), *demo("drift", "--state", state))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Approved 4 tools, 3 resources, 3 resource templates, 2 prompts → ")
    document = json.loads(lock.read_text())
    assert document["format"] == "mcp-catalog-lock/1"
    assert {item["kind"] for item in document["items"]} == {"tools", "resources", "resource_templates", "prompts"}
    # The drifting demo's next walk changes echo's schema and description, a hint, and swaps a tool.
    walked_once = Path(state).read_text()
    check = cli("check", "--pins", str(lock), "--json", *demo("drift", "--state", state))
    assert check.returncode == 1, check.stderr
    pins = json.loads(check.stdout)["pins"]
    assert not pins["clean"] and pins["file"] == str(lock)
    differs = {(d["kind"], d["name"]): d for d in pins["differs"]}
    assert differs[("tools", "echo")]["fields"] == ["description", "inputSchema"]
    assert differs[("tools", "delete_everything")]["fields"] == ["annotations"]
    assert differs[("tools", "added_in_walk_1")]["change"] == "added"
    assert differs[("tools", "added_in_walk_0")]["change"] == "removed"
    Path(state).write_text(walked_once)  # the same next walk again, said as text
    text = cli("check", "--pins", str(lock), *demo("drift", "--state", state)).stdout
    assert "  tools: echo: changed: description, inputSchema" in text


def test_a_clean_catalog_passes_its_pins_and_a_broken_lockfile_is_a_usage_error(tmp_path: Path) -> None:
    lock = tmp_path / "lock.json"
    assert cli("approve", "--out", str(lock), *demo("normal")).returncode == 0
    clean = cli("check", "--pins", str(lock), *demo("normal"))
    assert clean.returncode == 0, clean.stderr
    assert "every item matches." in clean.stdout
    lock.write_text('{"format": "mcp-catalog-lock/1", "items": [{"kind": "tools"}]}')
    broken = cli("check", "--pins", str(lock), *demo("normal"))
    assert broken.returncode == 2 and "is not a catalog lockfile: item 0's name is not a string" in broken.stderr


def test_approve_writes_nothing_for_a_walk_that_failed(tmp_path: Path) -> None:
    lock = tmp_path / "lock.json"
    proc = cli("approve", "--out", str(lock), "--", sys.executable, "-c", "raise SystemExit(3)")
    assert proc.returncode == 4 and "not approved: the walk was not accepted" in proc.stderr
    assert not lock.exists()


def test_check_needs_something_to_check() -> None:
    proc = cli("check", *demo("normal"))
    assert proc.returncode == 2 and "--baseline, --pins, --lint or --max-tokens" in proc.stderr


def test_check_lint_fails_at_its_level(tmp_path: Path) -> None:
    # The demo's three undocumented parameters are info: they pass at the default level and fail at info.
    passed = cli("check", "--lint", "--json", *demo("normal"))
    assert passed.returncode == 0, passed.stderr
    rows = json.loads(passed.stdout)["lint"]
    assert {(row["item"], row["code"], row["severity"]) for row in rows} == {
        ("echo", "undocumented_parameter", "info"),
        ("count_items", "undocumented_parameter", "info"),
        ("delete_everything", "undocumented_parameter", "info"),
    }
    failed = cli("check", "--lint", "info", *demo("normal"))
    assert failed.returncode == 1 and failed.stdout.startswith("Lint (3 info):")
    # The same list as the snapshot's own `lint`.
    document = json.loads(cli("snapshot", *demo("normal")).stdout)
    assert document["lint"] == rows


def test_the_reports_say_the_same_as_the_exit_code(tmp_path: Path) -> None:
    state = str(tmp_path / "state.json")
    baseline = tmp_path / "base.json"
    assert cli("snapshot", "--out", str(baseline), *demo("drift", "--state", state)).returncode == 0
    junit, sarif, markdown = tmp_path / "r.xml", tmp_path / "r.sarif", tmp_path / "r.md"
    proc = cli(
        "check", "--baseline", str(baseline), "--fail-on", "breaking", "--lint",
        "--report", f"junit={junit}", "--report", f"sarif={sarif}", "--report", f"markdown={markdown}",
        *demo("drift", "--state", state),
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    suites = junitparser.JUnitXml.fromfile(str(junit))
    cases = [case for suite in suites for case in suite]
    failed = {(case.classname, case.name) for case in cases if not case.is_passed}
    # The breaking changes fail (echo's retyped parameter, the removed tool); an added tool is below --fail-on.
    assert any(name == "tools/echo" and "drift" in classname for classname, name in failed)
    assert any(name == "tools/added_in_walk_0" for _, name in failed)
    assert not any(name == "tools/added_in_walk_1" for _, name in failed)
    log = json.loads(sarif.read_text())
    assert log["version"] == "2.1.0"
    rules = {rule["id"] for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    assert {"drift/changed", "drift/removed", "lint/undocumented_parameter"} <= rules
    retyped = next(r for r in log["runs"][0]["results"] if "retyped" in r["message"]["text"])
    assert (
        retyped["level"] == "error"
        and retyped["properties"]["pointer"] == "/tools/0/inputSchema/properties/repeat/type"
    )
    assert "❌" in markdown.read_text()


def test_a_clean_check_writes_passing_reports(tmp_path: Path) -> None:
    baseline = tmp_path / "base.json"
    assert cli("snapshot", "--out", str(baseline), *demo("normal")).returncode == 0
    junit = tmp_path / "r.xml"
    proc = cli("check", "--baseline", str(baseline), "--report", f"junit={junit}", *demo("normal"))
    assert proc.returncode == 0, proc.stderr
    suites = junitparser.JUnitXml.fromfile(str(junit))
    cases = [case for suite in suites for case in suite]
    assert cases and all(case.is_passed for case in cases)
    names = {case.name for case in cases}
    assert {"tools/echo", "prompts/greet"} <= names or {"tools/echo"} <= names
    ET.parse(junit)  # well-formed for any XML reader, not only junitparser


def test_a_report_option_is_checked_before_the_walk(tmp_path: Path) -> None:
    proc = cli("check", "--lint", "--report", "html=x.html", *demo("normal"))
    assert proc.returncode == 2 and "unknown format 'html'" in proc.stderr


def test_call_writes_a_report_of_its_outcome(tmp_path: Path) -> None:
    junit = tmp_path / "call.xml"
    proc = cli("call", "no_such_tool", "--report", f"junit={junit}", *demo("normal"))
    assert proc.returncode == 3
    cases = [case for suite in junitparser.JUnitXml.fromfile(str(junit)) for case in suite]
    failed = [case for case in cases if not case.is_passed]
    assert [case.name for case in failed] == ["tools/no_such_tool"]


def _fleet(tmp_path: Path) -> Path:
    servers = {
        "clean": {"command": DEMO[0], "args": [*DEMO[1:], "--mode", "normal"]},
        "drift": {"command": DEMO[0], "args": [*DEMO[1:], "--mode", "drift", "--state", str(tmp_path / "d.json")]},
        "crash": {"command": sys.executable, "args": ["-c", "raise SystemExit(3)"]},
        "hang": {
            "command": sys.executable,
            "args": ["-c", "import signal; signal.pause()"],
            "budgets": {"deadline": 3},
        },
        "broken": {"command": ""},
    }
    path = tmp_path / "servers.json"
    path.write_text(json.dumps({"mcpServers": servers}))
    return path


def test_sweep_walks_a_fleet_each_under_its_own_deadline(tmp_path: Path) -> None:
    config, history = _fleet(tmp_path), tmp_path / "history"
    first = cli("sweep", "--config", str(config), "--history", str(history), "--json")
    assert first.returncode == 4, first.stderr  # the worst: a failed walk (crash, hang) over a broken entry (2)
    rows = {row["server"]: row for row in json.loads(first.stdout)["servers"]}
    assert [row["status"] for row in rows.values()] == ["complete", "complete", "failed", "failed", "skipped"]
    assert rows["clean"]["tools"] == 3 and rows["clean"]["tokens"] > 0 and rows["clean"]["drift"] is None
    assert rows["clean"]["lint"] == {"error": 0, "warning": 0, "info": 3}
    assert "exit code 3" in rows["crash"]["error"] and rows["broken"]["exit_code"] == 2
    # The hang is stopped by its own deadline: it did not hold the sweep up past it.
    assert rows["hang"]["seconds"] < 3 + 5 and "timeout" in rows["hang"]["error"]
    # A second sweep of the two that work: drift against the history the first one kept.
    again = cli("sweep", "--config", str(config), "--history", str(history), "--server", "clean", "--server", "drift")
    assert again.returncode == 1, again.stderr
    lines = again.stdout.splitlines()
    assert lines[0].split()[:3] == ["server", "status", "tools"]
    assert lines[1].split()[:2] == ["clean", "complete"] and " 0/0/0 " in lines[1]
    assert lines[2].split()[:2] == ["drift", "complete"] and " 2/2/1 " in lines[2]


def test_sweep_names_an_unknown_server(tmp_path: Path) -> None:
    proc = cli("sweep", "--config", str(_fleet(tmp_path)), "--server", "nope")
    assert proc.returncode == 2 and "no server named 'nope'" in proc.stderr


@pytest.mark.parametrize("fmt", ["junit", "markdown", "sarif"])
def test_sweep_writes_one_report_for_the_fleet(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "report"
    proc = cli("sweep", "--config", str(_fleet(tmp_path)), "--history", str(tmp_path / "h"), "--server", "clean",
               "--server", "crash", "--report", f"{fmt}={out}")  # fmt: skip
    assert proc.returncode == 4
    text = out.read_text()
    assert "clean" in text and "crash" in text


def test_sweep_checks_the_approval_the_app_keeps(tmp_path: Path) -> None:
    from catalog_inspector.core.config import load_config
    from catalog_inspector.core.drift import History

    config, history = _fleet(tmp_path), tmp_path / "history"
    loaded = load_config(config)
    for name in ("clean", "drift"):  # approved as the app would keep it: pins.json in the server's history folder
        pins = History(history).directory(loaded.spec(name)) / "pins.json"
        pins.parent.mkdir(parents=True, exist_ok=True)
        assert cli("approve", "--out", str(pins), "--server", name, "--config", str(config)).returncode == 0
    proc = cli("sweep", "--config", str(config), "--history", str(history), "--server", "clean", "--server", "drift",
               "--json")  # fmt: skip
    rows = {row["server"]: row for row in json.loads(proc.stdout)["servers"]}
    assert rows["clean"]["pins"] == "clean"
    assert rows["drift"]["pins"] == 4  # the drifting demo's next walk: echo, delete_everything, one in, one out
    assert proc.returncode == 1


def test_diff_writes_its_reports(tmp_path: Path) -> None:
    state = str(tmp_path / "state.json")
    old = tmp_path / "old.json"
    new = tmp_path / "new.json"
    for path in (old, new):
        assert cli("snapshot", "--out", str(path), *demo("drift", "--state", state)).returncode == 0
    sarif = tmp_path / "diff.sarif"
    proc = cli("diff", str(old), str(new), "--report", f"sarif={sarif}")
    assert proc.returncode == 1
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"drift/removed", "drift/changed", "drift/added"}
    located = next(r for r in results if r["ruleId"] == "drift/added")
    assert located["properties"]["pointer"].startswith("/tools/")
    assert located["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("new.json")


def test_a_sweep_without_lint_counts_it_but_never_fails_a_report_on_it(tmp_path: Path) -> None:
    config = tmp_path / "servers.json"
    command = forked("tests.fixtures.lint_server")
    config.write_text(json.dumps({"mcpServers": {"lints": {"command": command[0], "args": command[1:]}}}))
    junit = tmp_path / "sweep.xml"
    proc = cli("sweep", "--config", str(config), "--history", str(tmp_path / "h"), "--report", f"junit={junit}")
    assert proc.returncode == 0, proc.stdout + proc.stderr  # errors found, but --lint was not asked for
    cases = [case for suite in junitparser.JUnitXml.fromfile(str(junit)) for case in suite]
    assert all(case.is_passed for case in cases)
    strict = cli("sweep", "--config", str(config), "--history", str(tmp_path / "h2"), "--lint")
    assert strict.returncode == 1
