"""The app's helper processes start from source with `-m` and from a frozen bundle with a hidden flag."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import anyio
import pytest

from catalog_inspector.core.calls.sandbox import Sandbox, worker_command
from catalog_inspector.core.config import Limits, ServerSpec, demo_servers
from catalog_inspector.core.launch import ENTRY_FLAGS, python_module_command
from catalog_inspector.core.session import SessionWorker
from catalog_inspector.main import HELPERS

BUNDLE = "/opt/mcp-catalog-inspector/mcp-catalog-inspector"


def test_from_source_a_module_runs_under_this_interpreter_with_dash_m() -> None:
    command = python_module_command("catalog_inspector.demo", "--mode", "normal", frozen=False)
    assert command == (sys.executable, ("-m", "catalog_inspector.demo", "--mode", "normal"))


def test_from_source_interpreter_flags_come_before_dash_m() -> None:
    command = python_module_command(
        "catalog_inspector.core.calls.sandbox_worker", interpreter_flags=("-P",), frozen=False
    )
    assert command == (sys.executable, ("-P", "-m", "catalog_inspector.core.calls.sandbox_worker"))


def test_in_a_frozen_bundle_the_app_runs_itself_with_the_modules_hidden_flag() -> None:
    command = python_module_command("catalog_inspector.demo", "--mode", "drift", frozen=True, executable=BUNDLE)
    assert command == (BUNDLE, ("--run-demo-server", "--mode", "drift"))


def test_in_a_frozen_bundle_interpreter_flags_are_dropped() -> None:
    command = python_module_command(
        "catalog_inspector.core.calls.sandbox_worker", interpreter_flags=("-P",), frozen=True, executable=BUNDLE
    )
    assert command == (BUNDLE, ("--run-sandbox-worker",))


def test_a_frozen_bundle_defaults_to_its_own_executable() -> None:
    program, _ = python_module_command("catalog_inspector.demo", frozen=True)
    assert program == sys.executable


@pytest.mark.parametrize("frozen", [False, True])
def test_a_module_without_an_entry_flag_is_refused_in_both_modes(frozen: bool) -> None:
    with pytest.raises(KeyError):
        python_module_command("catalog_inspector.cli", frozen=frozen)


def test_every_entry_flag_is_handled_by_main_and_looks_like_no_user_option() -> None:
    assert set(HELPERS) == set(ENTRY_FLAGS)
    flags = list(ENTRY_FLAGS.values())
    assert len(set(flags)) == len(flags)
    assert all(flag.startswith("--run-") for flag in flags)


def test_the_commands_used_from_source_are_unchanged(tmp_path: Path) -> None:
    assert worker_command() == [sys.executable, "-P", "-m", "catalog_inspector.core.calls.sandbox_worker"]
    first = demo_servers(tmp_path)[0]
    state = str(tmp_path / "demo-normal.json")
    assert (first.command, first.args) == (
        sys.executable,
        ("-m", "catalog_inspector.demo", "--mode", "normal", "--state", state),
    )


@pytest.fixture
def fake_bundle(tmp_path: Path) -> str:
    """An executable that behaves as a frozen app's does: `main()` gets every argument, no `-m`."""
    path = tmp_path / "mcp-catalog-inspector"
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" -P -m catalog_inspector "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.anyio
async def test_the_frozen_command_walks_the_demo_server(fake_bundle: str) -> None:
    program, args = python_module_command(
        "catalog_inspector.demo", "--mode", "normal", frozen=True, executable=fake_bundle
    )
    worker = SessionWorker(
        ServerSpec(name="demo", command=program, args=args), Limits(request_timeout=5.0, deadline=30.0)
    )
    with anyio.fail_after(60):
        snapshot = await worker.walk_once()
    assert snapshot.status == "complete"
    assert [tool["name"] for tool in snapshot.tools.items] == ["echo", "count_items", "delete_everything"]


@pytest.mark.anyio
async def test_the_frozen_command_runs_a_sandbox_worker_that_validates(fake_bundle: str) -> None:
    program, args = python_module_command(
        "catalog_inspector.core.calls.sandbox_worker", frozen=True, executable=fake_bundle
    )
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    with anyio.fail_after(30):
        async with Sandbox(command=[program, *args], prestart=True) as sandbox:
            good = await sandbox.validate(schema, {"n": 1}, budget=5.0)
            bad = await sandbox.validate(schema, {"n": "one"}, budget=5.0)
    assert good.failure is None and good.problems == ()
    assert [(problem.pointer, problem.keyword) for problem in bad.problems] == [("/n", "type")]
