"""The call history and argument sets on disk: bounded, per config entry, whole-or-nothing, and the call command."""

from __future__ import annotations

import shlex
from dataclasses import replace
from pathlib import Path

from catalog_inspector.core.calls.store import ARGUMENTS_CAP, CallRecord, CallStore, call_command, capped
from catalog_inspector.core.config import ServerSpec

SPEC = ServerSpec(name="files", command="python", args=("-m", "files server"), env={"TOKEN": "s3cret"})


def record(n: int, **changes: object) -> CallRecord:
    base = CallRecord(f"2026-11-30T22:00:{n:02d}.000+00:00", "tool", "echo", {"text": str(n)}, "ok", 12.5)
    return replace(base, **changes)  # type: ignore[arg-type]


def test_history_is_bounded_oldest_first_and_per_server(tmp_path: Path) -> None:
    store = CallStore(tmp_path, keep=3)
    for n in range(5):
        store.record(SPEC, record(n))
    assert [r.arguments for r in store.history(SPEC)] == [{"text": "2"}, {"text": "3"}, {"text": "4"}]
    assert store.history(replace(SPEC, name="other")) == []
    again = CallStore(tmp_path, keep=3).history(SPEC)
    assert again == store.history(SPEC), "it survives a restart"


def test_a_damaged_file_starts_a_new_history_rather_than_failing(tmp_path: Path) -> None:
    store = CallStore(tmp_path)
    store.record(SPEC, record(1))
    next(tmp_path.glob("*.calls.json")).write_text("{broken")
    assert store.history(SPEC) == []
    assert [r.arguments for r in store.record(SPEC, record(2))] == [{"text": "2"}]


def test_arguments_over_the_cap_are_not_kept(tmp_path: Path) -> None:
    assert capped({"text": "x"}) == ({"text": "x"}, False)
    assert capped({"text": "x" * ARGUMENTS_CAP}) == (None, True)


def test_argument_sets_round_trip_and_delete(tmp_path: Path) -> None:
    store = CallStore(tmp_path)
    store.save_set(SPEC, "echo", "short", {"text": "a"})
    store.save_set(SPEC, "echo", "long", {"text": "a" * 50})
    store.save_set(SPEC, "count_items", "two", {"items": ["a", "b"]})
    assert CallStore(tmp_path).argument_sets(SPEC) == {
        "echo": {"short": {"text": "a"}, "long": {"text": "a" * 50}},
        "count_items": {"two": {"items": ["a", "b"]}},
    }
    store.delete_set(SPEC, "count_items", "two")
    assert set(store.argument_sets(SPEC)) == {"echo"}


def test_no_environment_value_enters_the_files_and_the_command_repeats_the_call(tmp_path: Path) -> None:
    store = CallStore(tmp_path)
    store.record(SPEC, record(1))
    store.save_set(SPEC, "echo", "s", {"text": "x"})
    assert not any("s3cret" in p.read_text() for p in tmp_path.iterdir())
    command = call_command(SPEC, "echo", {"text": "it's"})
    assert shlex.split(command) == [
        "mcp-catalog-inspector",
        "call",
        "echo",
        "--args",
        '{"text": "it\'s"}',
        "--",
        "python",
        "-m",
        "files server",
    ]
    remote = ServerSpec(name="r", transport="sse", url="http://127.0.0.1:1/sse", headers={"Authorization": "Bearer x"})
    assert shlex.split(call_command(remote, "t", {}))[-3:] == ["--url", "http://127.0.0.1:1/sse", "--sse"]
    assert "Bearer" not in call_command(remote, "t", {})
