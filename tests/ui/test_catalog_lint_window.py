"""A catalog's lint in the window is the CLI's list: the metaschema pass too, big schemas in the lint sandbox."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from catalog_inspector.core.calls import catalog_lint, lint_rows
from catalog_inspector.ui.models.roles import Role
from tests.cli_runner import run_cli
from tests.helpers import fixture_spec, forked
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_main_window import tree


def _rows(lints: dict) -> list[dict[str, str]]:  # type: ignore[type-arg]
    return lint_rows(lints)


def test_the_tree_lints_as_the_cli_does_big_schemas_included(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    spec = fixture_spec("lint_server", "lints")
    window = harness.window([spec])
    wait_for(qtbot, lambda: shown(window))
    calls = window.app.runtime.calls
    # The big schema's metaschema pass comes from the lint sandbox, after the quick marks.
    wait_for(qtbot, lambda: any(i.code == "invalid_schema" for i in calls.lints.get("lints", {}).get("big_bad", ())))
    lints = calls.lints["lints"]
    assert [i.pointer for i in lints["small_bad"] if i.code == "invalid_schema"] == ["/inputSchema/properties/q/type"]
    assert [i.pointer for i in lints["big_bad"] if i.code == "invalid_schema"] == ["/inputSchema/properties/p7/minimum"]
    assert not any(i.code == "invalid_schema" for i in lints.get("big_clean", ()))
    snapshot = window.current.supervisor.accepted
    assert _rows(lints) == [row.to_json() for row in catalog_lint(snapshot)], "the CLI's own list"
    command = forked("tests.fixtures.lint_server")
    cli = run_cli("check", "--lint", "--json", "--", *command, timeout=60)
    assert cli.returncode == 1, cli.stderr  # errors: a misspelt type, a name hosts refuse
    assert json.loads(cli.stdout)["lint"] == _rows(lints)
    model = tree(window).model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == "big_bad")
    wait_for(qtbot, lambda: "invalid_schema" in (model.index(row, 2).data(Qt.ItemDataRole.ToolTipRole) or ""))
    assert model.index(row, 2).data().startswith("⚠ lint")
