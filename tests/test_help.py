"""`mcp-catalog-inspector --help`: one help for the app and the headless commands."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from catalog_inspector.cli import build_parser
from catalog_inspector.ui.app import app_parser

SCRIPT = Path(sys.executable).with_name("mcp-catalog-inspector")  # the console script pip installed


def _help(*args: str) -> str:
    env = dict(os.environ, COLUMNS="80")  # argparse wraps at the terminal's width
    out = subprocess.run([str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _commands() -> dict[str, str]:
    """Each subcommand's name and its one-line help, from the CLI's own parser."""
    (commands,) = (a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {choice.dest: str(choice.help) for choice in commands._choices_actions}


def _app_options() -> list[str]:
    return [
        option for action in app_parser()._actions for option in action.option_strings if option not in ("-h", "--help")
    ]


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_names_the_apps_options_and_each_command_on_one_line(flag: str) -> None:
    text = _help(flag)
    lines = text.splitlines()
    assert lines[0].startswith("usage: mcp-catalog-inspector [--config FILE | --self-test]")
    assert _app_options() == [
        "--config",
        "--self-test",
    ]  # a new app option must be added to cli.build_parser's description too
    for option in _app_options():
        assert any(line.lstrip().startswith(option) for line in lines), f"{option} is not in the help"
    assert set(_commands()) == {
        "snapshot", "diff", "check", "approve", "sweep", "call", "prompt", "read", "complete", "signout"
    }  # fmt: skip
    for name, summary in _commands().items():
        assert any(line.split() == [name, *summary.split()] for line in lines), f"{name}: {summary!r} is not one line"


def test_help_after_an_app_option_is_the_same_help() -> None:
    assert _help("--config", "servers.json", "--help") == _help("--help")


def test_a_commands_own_help_keeps_its_usage() -> None:
    assert _help("snapshot", "--help").startswith("usage: mcp-catalog-inspector snapshot [-h]")
