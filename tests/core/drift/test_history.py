"""Snapshot history on disk: identity by config entry, atomic files, bounded, readable back, no secrets."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from catalog_inspector.core.catalog import LIST_NAMES, ListResult, Snapshot, source_of
from catalog_inspector.core.config import ServerSpec, server_key
from catalog_inspector.core.drift import History
from catalog_inspector.core.errors import ErrorInfo, ErrorKind

SPEC = ServerSpec(name="files", command="npx", args=("-y", "files-server"), env={"TOKEN": "env-secret-123"})


def snapshot_of(spec: ServerSpec, tools: list[str], taken_at: str = "2026-11-30T22:13:32.123+00:00") -> Snapshot:
    items = tuple({"name": name, "inputSchema": {"type": "object"}} for name in tools)
    lists = {name: ListResult("complete") for name in LIST_NAMES}
    lists["tools"] = ListResult("complete", items)
    lists["prompts"] = ListResult("complete", ({"name": "p1"}, {"name": "p2"}))
    return Snapshot("complete", None, {"name": "srv", "version": "1"}, {}, None, lists, source_of(spec), taken_at)


def test_saved_snapshots_list_with_their_counts_and_read_back(tmp_path: Path) -> None:
    history = History(tmp_path)
    first = history.save(SPEC, snapshot_of(SPEC, ["a", "b"], "2026-11-30T22:00:00.000+00:00"))
    second = history.save(SPEC, snapshot_of(SPEC, ["a", "b", "c"], "2026-11-30T22:05:00.500+00:00"))
    entries = history.entries(SPEC)
    assert [e.path for e in entries] == [first.path, second.path]
    assert second.counts == {"tools": 3, "resources": 0, "resource_templates": 0, "prompts": 2}
    assert second.taken_at == "2026-11-30T22:05:00.500+00:00"
    assert second.label() == "2026-11-30 22:05:00 UTC · 3 tools"
    assert second.label(every_list=True) == "2026-11-30 22:05:00 UTC · 3 tools, 2 prompts"
    loaded = history.load(second)
    assert [t["name"] for t in loaded.tools.items] == ["a", "b", "c"]
    latest = history.latest(SPEC)
    assert latest is not None and latest[0] == second


def test_two_snapshots_in_the_same_millisecond_are_both_kept_in_order(tmp_path: Path) -> None:
    history = History(tmp_path)
    a = history.save(SPEC, snapshot_of(SPEC, ["a"]))
    b = history.save(SPEC, snapshot_of(SPEC, ["a", "b"]))
    assert [e.path for e in history.entries(SPEC)] == [a.path, b.path]


def test_history_is_bounded_oldest_first_and_can_shrink(tmp_path: Path) -> None:
    history = History(tmp_path, keep=3)
    saved = [history.save(SPEC, snapshot_of(SPEC, [f"t{i}"], f"2026-11-30T22:00:0{i}.000+00:00")) for i in range(5)]
    assert [e.path for e in history.entries(SPEC)] == [e.path for e in saved[2:]]
    assert not saved[0].path.exists() and not saved[1].path.exists()
    doomed = history.prune(SPEC, keep=1)
    assert [e.path for e in doomed] == [e.path for e in saved[2:4]]
    assert [e.path for e in history.entries(SPEC)] == [saved[4].path]


def test_identity_is_the_config_entry_not_what_the_server_calls_itself(tmp_path: Path) -> None:
    history = History(tmp_path)
    other_target = replace(SPEC, args=("-y", "other-server"))
    other_name = replace(SPEC, name="files-2")
    keys = {server_key(SPEC), server_key(other_target), server_key(other_name)}
    assert len(keys) == 3
    assert server_key(replace(SPEC, env={"TOKEN": "rotated"})) == server_key(SPEC), (
        "a rotated secret is the same server"
    )
    assert server_key(replace(SPEC, args=("-y", "files-server", "--token", "new"))) == server_key(
        replace(SPEC, args=("-y", "files-server", "--token", "old"))
    )
    history.save(SPEC, snapshot_of(SPEC, ["a"]))
    assert history.entries(other_target) == [] and history.entries(other_name) == []
    assert server_key(SPEC).startswith("files-")


def test_damaged_newest_file_falls_back_to_the_one_before(tmp_path: Path) -> None:
    history = History(tmp_path)
    good = history.save(SPEC, snapshot_of(SPEC, ["a"], "2026-11-30T22:00:00.000+00:00"))
    bad = history.save(SPEC, snapshot_of(SPEC, ["a", "b"], "2026-11-30T22:01:00.000+00:00"))
    bad.path.write_text('{"format": "mcp-catalog-snapshot/1", "status"')
    latest = history.latest(SPEC)
    assert latest is not None and latest[0] == good
    (history.directory(SPEC) / "notes.txt").write_text("not ours")
    assert len(history.entries(SPEC)) == 2, "foreign files are ignored"


def test_only_accepted_snapshots_are_kept(tmp_path: Path) -> None:
    rejected = replace(
        snapshot_of(SPEC, []), status="rejected", error=ErrorInfo(ErrorKind.DUPLICATE_NAME, "dup", page=1)
    )
    with pytest.raises(ValueError):
        History(tmp_path).save(SPEC, rejected)
    assert History(tmp_path).entries(SPEC) == []


def test_a_clock_stepped_back_still_keeps_the_newest_snapshot(tmp_path: Path) -> None:
    history = History(tmp_path, keep=1)
    history.save(SPEC, snapshot_of(SPEC, ["a"], "2026-11-30T10:00:00.000+00:00"))
    entry = history.save(SPEC, snapshot_of(SPEC, ["a", "b"], "2026-11-30T09:00:00.000+00:00"))
    assert history.entries(SPEC) == [entry] and entry.path.exists()
    assert entry.taken_at.startswith("2026-11-30T09:00:00")


def test_secret_looking_command_arguments_stay_out_of_history_files(tmp_path: Path) -> None:
    spec = ServerSpec(
        name="remote-via-proxy",
        command="npx",
        args=(
            "mcp-remote", "https://u:pw-secret@example.com/mcp?key=QSECRET", "--header", "Authorization: Bearer ARGSECRET",
            "--api-key", "KEYSECRET", "TOKEN=ENVSECRET", "--verbose",
        ),
    )  # fmt: skip
    history = History(tmp_path)
    history.save(spec, snapshot_of(spec, ["a"]))
    written = next(history.directory(spec).glob("*.json")).read_text()
    for secret in ("pw-secret", "QSECRET", "ARGSECRET", "KEYSECRET", "ENVSECRET"):
        assert secret not in written, secret
    target = json.loads(written)["source"]["target"]
    assert target == (
        "stdio: npx mcp-remote https://example.com/mcp?key=… --header Authorization: … --api-key … TOKEN=… --verbose"
    )


def test_no_secret_enters_a_history_file(tmp_path: Path) -> None:
    remote = ServerSpec(
        name="remote",
        transport="http",
        url="https://alice:hunter2@example.com:8443/mcp?token=query-secret#frag",
        headers={"Authorization": "Bearer header-secret"},
    )
    history = History(tmp_path)
    for spec in (remote, SPEC):
        history.save(spec, snapshot_of(spec, ["a"]))
    written = "".join(p.read_text() for p in tmp_path.rglob("*.json")) + "".join(p.name for p in tmp_path.rglob("*"))
    for secret in ("hunter2", "alice", "query-secret", "header-secret", "env-secret-123"):
        assert secret not in written
    source = json.loads(next(history.directory(remote).glob("*.json")).read_text())["source"]
    assert source == {"name": "remote", "transport": "http", "target": "http: https://example.com:8443/mcp?token=…"}


def test_a_write_that_fails_midway_leaves_the_history_as_it_was(tmp_path: Path) -> None:
    history = History(tmp_path)
    kept = history.save(SPEC, snapshot_of(SPEC, ["a"]))
    broken = snapshot_of(SPEC, ["a", "b"], "2026-11-30T23:00:00.000+00:00")
    broken = replace(broken, lists={**broken.lists, "tools": ListResult("complete", ({"name": "b", "x": object()},))})
    with pytest.raises(TypeError):
        history.save(SPEC, broken)
    assert sorted(p.name for p in history.directory(SPEC).iterdir()) == [kept.path.name], "no partial or temp file"
    assert [t["name"] for t in history.load(kept).tools.items] == ["a"]
