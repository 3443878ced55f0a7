"""The README's claim of what the client declares is what the app sends a real server: the capabilities recorded
by an SDK server off the wire, in an `initialize` (2025-11-25) and in a 2026-07-28 request's `_meta`, are exactly
the ones the README names."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_walk_again_as import profile_spec

CLAIM = "The inspector declares exactly these client capabilities"


def readme_capabilities() -> dict[str, set[str]]:
    """The README's list, `name` (`sub`, `sub`) each, as {name: {sub, …}}: the clause after the claim's colon."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    start = text.index(CLAIM)
    clause = text[text.index(":", start) + 1 : text.index(";", start)]
    found = re.findall(r"`([A-Za-z]+)`(?: \(([^)]*)\))?", clause)
    return {name: set(re.findall(r"`([A-Za-z]+)`", subs)) for name, subs in found}


def test_the_readme_names_each_capability_once() -> None:
    assert readme_capabilities() == {"elicitation": {"form", "url"}, "sampling": set(), "roots": {"listChanged"}}


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_the_app_declares_exactly_what_the_readme_says(harness: Harness, qtbot, tmp_path: Path, era: str) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "seen.jsonl"
    window = harness.window([replace(profile_spec(record), protocol_era=era)])  # type: ignore[arg-type]
    wait_for(qtbot, lambda: shown(window))
    seen = [json.loads(line) for line in record.read_text().splitlines()]
    assert seen and {line["negotiated"] for line in seen} == {"2025-11-25" if era == "legacy" else "2026-07-28"}
    for line in seen:
        declared = line["capabilities"]
        assert {name: set(value) for name, value in declared.items()} == readme_capabilities()
        assert all(value is True for value in declared["roots"].values())
