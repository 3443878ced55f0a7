"""The secrets a user gives (env values, header values, credentials in a URL) never land in a file the app writes.

The app walks a stdio server given an env secret and an HTTP server given a header
secret and a URL with userinfo and a query key, makes a test call on each, keeps
their history, exports both, and is quit; then every file under the app's
directories is read for the secret values. The configuration file is the one place
a value may be, and only when the user keeps it there (no keyring): it is scanned
too, with the keyring holding the values (a URL is the user's own text there).
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings

from catalog_inspector.core.calls import CallStore
from catalog_inspector.core.config import ConfigStore, ServerSpec, Variables, parse_entry
from catalog_inspector.core.drift import History
from catalog_inspector.runtime.supervisor import ServerState
from tests.fixtures.file_keyring import selected
from tests.helpers import DEMO, http_demo
from tests.ui.conftest import Harness, wait_for

SECRETS = ("env-secret-5d1e", "header-secret-0b7c", "url-password-9a2f", "query-secret-77e3")


def test_no_secret_value_reaches_any_file_the_app_writes(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app_dir = tmp_path / "app"
    # The keyring is a file outside the app's directories: the one place the values may be.
    with selected(tmp_path / "keyring.json") as kept, http_demo("normal") as url:
        kept.set_password("mcp-catalog-inspector", "local/env/API_TOKEN", SECRETS[0])
        kept.set_password("mcp-catalog-inspector", "remote/headers/Authorization", f"Bearer {SECRETS[1]}")
        secret_url = url.replace("http://", f"http://alice:{SECRETS[2]}@") + f"?api_key={SECRETS[3]}"
        config = app_dir / "servers.json"
        config.parent.mkdir()
        ConfigStore(config).write(
            {
                "mcpServers": {
                    "local": {
                        "command": DEMO[0],
                        "args": [*DEMO[1:], "--mode", "normal"],
                        "env": {"API_TOKEN": "${keyring:local/env/API_TOKEN}"},
                    },
                    "remote": {
                        "type": "http",
                        "url": secret_url,
                        "headers": {"Authorization": "${keyring:remote/headers/Authorization}"},
                    },
                }
            }
        )
        raw = json.loads(config.read_text())["mcpServers"]
        specs: list[ServerSpec] = [parse_entry(name, raw[name], Variables(environ={})) for name in raw]
        assert specs[0].env == {"API_TOKEN": SECRETS[0]} and specs[1].headers["Authorization"].endswith(SECRETS[1])
        settings = QSettings(str(app_dir / "settings.ini"), QSettings.Format.IniFormat)
        window = harness.window(
            specs,
            settings=settings,
            history=History(app_dir / "history"),
            call_store=CallStore(app_dir / "calls"),
        )
        for name in ("local", "remote"):
            assert window.select_server(name)
            supervisor = window.current.supervisor if window.current is not None else None
            assert supervisor is not None
            wait_for(qtbot, lambda s=supervisor: s.state is ServerState.READY)  # type: ignore[misc]
            with qtbot.waitSignal(window.app.runtime.calls.history_changed, timeout=20_000):
                with qtbot.waitSignal(supervisor.call_finished, timeout=20_000):
                    assert supervisor.call_tool("echo", {"text": "hello"}) is not None
            with qtbot.waitSignal(window.app.runtime.exported, timeout=10_000) as done:
                assert window.export_snapshot(app_dir / "exports" / f"{name}.json", "accepted")
            assert done.args[1] is None
        wait_for(qtbot, lambda: len(list((app_dir / "history").rglob("*.json"))) >= 2)
        harness.close(window)

    written = [path for path in app_dir.rglob("*") if path.is_file()]
    kinds = {path.relative_to(app_dir).parts[0] for path in written}
    assert {"servers.json", "settings.ini", "history", "calls", "exports"} <= kinds, kinds
    for path in written:
        text = path.read_bytes().decode("utf-8", "replace")
        # The URL is the user's own text in the config; its credentials go nowhere else.
        secrets = SECRETS[:2] if path.name == "servers.json" else SECRETS
        for secret in secrets:
            assert secret not in text, f"{secret} is in {path.relative_to(app_dir)}"
    exported = json.loads((app_dir / "exports" / "remote.json").read_text())
    assert "alice" not in exported["source"]["target"], "the URL's userinfo is redacted in what is written"
