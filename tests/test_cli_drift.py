"""The `diff` and `check` commands: the CI contract (JSON keys, severities, exit codes 0/1/2/3/4)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.cli_runner import run_cli
from tests.helpers import DEMO
from tests.test_cli import demo

DIFF_KEYS = {"added", "removed", "changed", "moved", "resources", "resource_templates", "prompts"}


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, timeout=timeout)


def snapshot_file(path: Path, *server: str) -> Path:
    proc = cli("snapshot", "--out", str(path), *server)
    assert proc.returncode == 0, proc.stderr
    return path


@pytest.fixture(scope="module")
def drift_pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two snapshots of the drifting demo server: its first walk and its second.

    Made once for the module's tests, which only read them (edits go to copies: `edited_copy`); the files are
    read-only, so a test that wrote one fails, unless it runs as root.
    """
    where = tmp_path_factory.mktemp("drift")
    state = str(where / "state.json")
    old = snapshot_file(where / "old.json", *demo("drift", "--state", state))
    new = snapshot_file(where / "new.json", *demo("drift", "--state", state))
    for path in (old, new):
        path.chmod(0o444)
    return old, new


def edited_copy(source: Path, target: Path, edit: Any) -> Path:
    document = json.loads(source.read_text())
    edit(document)
    target.write_text(json.dumps(document))
    return target


def test_diff_json_reports_every_change_with_pointer_and_severity(drift_pair: tuple[Path, Path]) -> None:
    old, new = drift_pair
    proc = cli("diff", str(old), str(new), "--json")
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert DIFF_KEYS <= set(report)
    assert report["added"] == ["added_in_walk_1"] and report["removed"] == ["added_in_walk_0"]
    changed = {item["name"]: item["changes"] for item in report["changed"]}
    retyped = next(c for c in changed["echo"] if c["pointer"] == "/properties/repeat/type")
    assert retyped == {**retyped, "field": "inputSchema", "old": "integer", "new": "string", "severity": "breaking"}
    assert retyped["reason"]
    described = next(c for c in changed["echo"] if c["field"] == "description")
    assert described["severity"] == "warning" and described["pointer"] == ""
    hint = next(c for c in changed["delete_everything"] if c["field"] == "annotations")
    assert hint["pointer"] == "/destructiveHint" and hint["old"] is True and hint["new"] is False
    for name in ("resources", "resource_templates", "prompts"):
        assert report[name] == {"added": [], "removed": [], "changed": [], "moved": []}


def test_diff_text_groups_by_severity_and_fail_on_sets_the_bar(drift_pair: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = drift_pair
    proc = cli("diff", str(old), str(new))
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    headings = [line.split(" ")[0] for line in lines if not line.startswith(" ") and line.endswith(":")]
    assert headings == ["breaking", "warning", "info"]
    assert any("inputSchema /properties/repeat/type" in line and '"integer" → "string"' in line for line in lines)
    assert lines[-1].startswith("Summary: ")
    assert cli("diff", str(old), str(new), "--fail-on", "breaking").returncode == 1
    # Only an added tool: info, under the breaking and warning bars, over `any`.
    grown = edited_copy(
        old, tmp_path / "grown.json", lambda d: d["tools"].append({"name": "extra", "inputSchema": {"type": "object"}})
    )
    assert cli("diff", str(old), str(grown), "--fail-on", "breaking").returncode == 0
    assert cli("diff", str(old), str(grown), "--fail-on", "warning").returncode == 0
    assert cli("diff", str(old), str(grown)).returncode == 1


def test_the_same_catalog_diffs_clean(drift_pair: tuple[Path, Path]) -> None:
    old, _ = drift_pair
    proc = cli("diff", str(old), str(old))
    assert proc.returncode == 0 and proc.stdout.strip() == "No changes."
    report = json.loads(cli("diff", str(old), str(old), "--json").stdout)
    assert report["added"] == report["removed"] == report["changed"] == report["moved"] == []


def test_files_that_are_not_snapshots_are_usage_errors_that_name_themselves(
    tmp_path: Path, drift_pair: tuple[Path, Path]
) -> None:
    old, _ = drift_pair
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "something-else/1"}))
    rejected = tmp_path / "rejected.json"
    cli("snapshot", "--out", str(rejected), *demo("duplicate"))
    damaged = edited_copy(old, tmp_path / "damaged.json", lambda d: d["tools"].append(1))
    for bad, words in (
        (damaged, "tools item 4 is not an object"),
        (garbage, "not valid JSON"),
        (other, "'something-else/1'"),
        (rejected, "rejected snapshot"),
        (tmp_path / "missing.json", "cannot read"),
    ):
        proc = cli("diff", str(old), str(bad))
        assert proc.returncode == 2, bad
        assert str(bad) in proc.stderr and words in proc.stderr, proc.stderr
        assert proc.stdout == ""


def test_check_walks_the_live_server_against_a_baseline(tmp_path: Path) -> None:
    state = str(tmp_path / "state.json")
    baseline = snapshot_file(tmp_path / "baseline.json", *demo("drift", "--state", state))
    out = tmp_path / "now.json"
    proc = cli("check", "--baseline", str(baseline), "--json", "--out", str(out), *demo("drift", "--state", state))
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["added"] == ["added_in_walk_1"]
    assert json.loads(out.read_text())["status"] == "complete", "--out keeps the new snapshot"
    steady = snapshot_file(tmp_path / "steady.json", *demo("normal"))
    proc = cli("check", "--baseline", str(steady), *demo("normal"))
    assert proc.returncode == 0 and proc.stdout.strip() == "No changes."


@pytest.mark.parametrize(("mode", "code", "kind"), [("duplicate", 3, "duplicate_name"), ("crash", 4, "connection")])
def test_check_exits_like_snapshot_when_the_walk_is_not_accepted(
    tmp_path: Path, mode: str, code: int, kind: str
) -> None:
    baseline = snapshot_file(tmp_path / "baseline.json", *demo("normal"))
    proc = cli("check", "--baseline", str(baseline), "--timeout", "5", *demo(mode))
    assert proc.returncode == code and kind in proc.stderr
    assert proc.stdout == "", "no diff is printed for a walk that was not accepted"


def test_check_usage_errors_exit_2(tmp_path: Path) -> None:
    assert cli("check", *demo("normal")).returncode == 2, "--baseline is required"
    proc = cli("check", "--baseline", str(tmp_path / "none.json"), *demo("normal"))
    assert proc.returncode == 2 and "none.json" in proc.stderr
    baseline = snapshot_file(tmp_path / "baseline.json", "--", *DEMO, "--mode", "normal")
    proc = cli("check", "--baseline", str(baseline), "--out", "-", *demo("normal"))
    assert proc.returncode == 2 and "--out" in proc.stderr


def test_a_snapshot_says_what_its_tools_cost_in_tokens(drift_pair: tuple[Path, Path]) -> None:
    old, _ = drift_pair
    document = json.loads(old.read_text())
    tokens = document["tokens"]
    assert tokens["encoding"] == "o200k_base"
    assert set(tokens["tools"]) == {tool["name"] for tool in document["tools"]}
    assert tokens["total"] == sum(tokens["tools"].values()) == tokens["lists"]["tools"] > 0
    first = document["pages"][0]["names"]
    assert tokens["first_page"] == sum(tokens["tools"][name] for name in first) < tokens["total"]
    # The tool objects stay exactly as sent: nothing of the count is written into them.
    assert all("tokens" not in tool for tool in document["tools"])


def test_diff_reports_the_change_in_tokens(drift_pair: tuple[Path, Path]) -> None:
    old, new = drift_pair
    report = json.loads(cli("diff", str(old), str(new), "--json").stdout)["tokens"]
    before, after = json.loads(old.read_text())["tokens"], json.loads(new.read_text())["tokens"]
    assert (report["old"], report["new"]) == (before["total"], after["total"])
    assert report["delta"] == after["total"] - before["total"]
    assert report["tools"]["added_in_walk_1"] == after["tools"]["added_in_walk_1"] > 0
    assert report["tools"]["added_in_walk_0"] == -before["tools"]["added_in_walk_0"]
    text = cli("diff", str(old), str(new)).stdout
    assert f"Tokens (o200k_base): {before['total']:,} → {after['total']:,}" in text
    assert f"  tools: added_in_walk_1: +{after['tools']['added_in_walk_1']:,} tokens" in text


def test_a_forged_count_in_a_file_is_not_believed(drift_pair: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = drift_pair
    forged = edited_copy(new, tmp_path / "forged.json", lambda d: d["tokens"].update(total=1))
    report = json.loads(cli("diff", str(old), str(forged), "--json").stdout)["tokens"]
    assert report["new"] == json.loads(new.read_text())["tokens"]["total"]


def test_check_fails_a_build_over_its_token_budgets(tmp_path: Path) -> None:
    baseline = snapshot_file(tmp_path / "base.json", *demo("normal"))
    total = json.loads(baseline.read_text())["tokens"]["total"]
    within = cli("check", "--baseline", str(baseline), "--max-tokens", str(total), *demo("normal"))
    assert within.returncode == 0, within.stderr
    over = cli("check", "--baseline", str(baseline), "--max-tokens", str(total - 1), *demo("normal"))
    assert over.returncode == 1
    assert f"over --max-tokens {total - 1:,}" in over.stderr and "No changes." in over.stdout
    # The drifting demo's second walk adds a tool: it grows by more than 0.5 %, less than 500 %.
    state = str(tmp_path / "state.json")
    first = snapshot_file(tmp_path / "first.json", *demo("drift", "--state", state))
    grew = cli(
        "check", "--baseline", str(first), "--fail-on", "breaking", "--max-token-growth", "0.5",
        *demo("drift", "--state", state),
    )  # fmt: skip
    assert grew.returncode == 1 and "over --max-token-growth 0.5%" in grew.stderr
    fine = cli(
        "check", "--baseline", str(first), "--fail-on", "breaking", "--max-token-growth", "500",
        *demo("drift", "--state", state),
    )  # fmt: skip
    assert "--max-token-growth" not in fine.stderr
