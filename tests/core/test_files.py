"""Reading within a cap, as strict JSON: the rules every reader of the CLI and the app shares (issue 20, 5–7)."""

from __future__ import annotations

import json
import os
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from catalog_inspector.core.catalog import write_json
from catalog_inspector.core.config import ConfigError, ConfigStore, LaunchConsent, ServerSpec, read_document
from catalog_inspector.core.drift import History
from catalog_inspector.core.drift.lockfile import PINS_FILE, load_pins, save_pins
from catalog_inspector.core.drift.pins import Pin, Pins
from catalog_inspector.core.files import MAX_CONFIG_BYTES, InputError, parse_json, read_bounded
from tests.core.drift.test_history import SPEC, snapshot_of


def test_a_regular_file_over_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(64 * 1024 * 1024 * 1024)  # sparse: reading it would take minutes
    with pytest.raises(InputError) as caught:
        read_bounded(big, 1024, "tests")
    assert str(caught.value) == f"{big} is 65536 MiB, over the 1 KiB cap on tests; it was not read"


def test_a_stream_is_read_no_further_than_the_cap(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def endless() -> None:
        with open(fifo, "wb") as out, open("/dev/zero", "rb") as zero:
            try:
                while True:
                    out.write(zero.read(65536))
            except BrokenPipeError:
                pass  # the reader stopped at its cap and closed: what is promised

    writer = threading.Thread(target=endless)
    writer.start()
    try:
        with pytest.raises(InputError, match=r"fifo holds more than the 1 MiB cap on tests; it was not read"):
            read_bounded(fifo, 1024 * 1024, "tests")
    finally:
        writer.join(timeout=30)
    assert not writer.is_alive()
    exact = tmp_path / "exact"
    exact.write_bytes(b"x" * 1024)
    assert read_bounded(exact, 1024, "tests") == b"x" * 1024, "the cap itself is allowed"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[NaN]", "is not valid JSON: NaN is not a number in JSON"),
        ('{"a": -Infinity}', "is not valid JSON: -Infinity is not a number in JSON"),
        ("[1e400]", "is not valid JSON: 1e400 is beyond the range of a double"),
        ("[" * 10_000 + "]" * 10_000, "nests its JSON too deeply to read"),
        ("[1,]", "is not valid JSON (line 1, column 4: Expecting value)"),
    ],
)
def test_json_is_read_strictly(text: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_json(text, "x.json")
    assert str(caught.value) == f"x.json {words}" and caught.value.name == "x.json"


def test_standard_numbers_still_read() -> None:
    assert parse_json("[1.5e300, -0.0, 12345678901234567890, 1E-400]", "x") == [
        1.5e300,
        -0.0,
        12345678901234567890,
        0.0,
    ]


def test_a_config_over_its_cap_or_with_nan_is_a_config_error(tmp_path: Path) -> None:
    config = tmp_path / "servers.json"
    with open(config, "wb") as handle:
        handle.truncate(MAX_CONFIG_BYTES + 1)
    with pytest.raises(ConfigError, match="over the 16 MiB cap on config files"):
        read_document(config)
    config.write_text('{"mcpServers": {}, "x": NaN}')
    with pytest.raises(ConfigError, match="NaN is not a number in JSON"):
        read_document(config)
    with open(config, "ab") as handle:
        handle.truncate(MAX_CONFIG_BYTES + 1)  # grown past the cap since it was read
    with pytest.raises(ConfigError, match="over the 16 MiB cap"):
        ConfigStore(config).write({"mcpServers": {}})
    assert config.stat().st_size == MAX_CONFIG_BYTES + 1, "the file that could not be backed up is left as it was"


def test_pins_with_nan_or_over_the_cap_count_as_none(tmp_path: Path) -> None:
    save_pins(tmp_path, Pins("2026-12-01T00:00:00+00:00", (Pin("tools", "a", "sha256:0", ""),)))
    assert load_pins(tmp_path) is not None
    (tmp_path / PINS_FILE).write_text('{"format": "mcp-catalog-pins/1", "approved_at": NaN, "digests": {}}')
    assert load_pins(tmp_path) is None
    with open(tmp_path / PINS_FILE, "wb") as handle:
        handle.truncate(MAX_CONFIG_BYTES + 1)
    assert load_pins(tmp_path) is None


def test_a_kept_snapshot_with_nan_or_too_deep_is_skipped_for_the_one_before(tmp_path: Path) -> None:
    history = History(tmp_path)
    good = history.save(SPEC, snapshot_of(SPEC, ["a"], "2026-11-30T22:00:00.000+00:00"))
    for damage in ("NaN", "[" * 100_000 + "]" * 100_000):
        bad = history.save(SPEC, snapshot_of(SPEC, ["a", "b"], "2026-11-30T22:05:00.000+00:00"))
        data = json.loads(bad.path.read_text())
        data["duration_ms"] = "@@"
        bad.path.write_text(json.dumps(data).replace('"@@"', damage))
        with pytest.raises(InputError):
            history.load(bad)
        latest = history.latest(SPEC)
        assert latest is not None and latest[0] == good
        bad.path.unlink()


def test_a_snapshot_holding_nan_is_not_written(tmp_path: Path) -> None:
    snapshot = snapshot_of(SPEC, ["a"])
    tools = replace(snapshot.tools, items=({"name": "a", "inputSchema": {"type": "object", "default": float("nan")}},))
    with pytest.raises(ValueError), open(tmp_path / "out.json", "w") as out:
        write_json(replace(snapshot, lists={**snapshot.lists, "tools": tools}), out)
    assert "NaN" not in (tmp_path / "out.json").read_text()


def test_a_consent_file_over_its_cap_asks_again(tmp_path: Path) -> None:
    spec = ServerSpec(name="s", command="srv")
    path = tmp_path / "consent.json"
    consent = LaunchConsent(path)
    consent.approve(spec)
    assert LaunchConsent(path).approved(spec)
    with open(path, "ab") as handle:
        handle.truncate(MAX_CONFIG_BYTES + 1)
    assert not LaunchConsent(path).approved(spec)
