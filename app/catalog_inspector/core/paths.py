"""Where the inspector's files live (platformdirs)."""

from __future__ import annotations

from pathlib import Path

import platformdirs

__all__ = ["APP_NAME", "cache_dir", "calls_dir", "consent_file", "history_dir", "user_config_file"]

APP_NAME = "mcp-catalog-inspector"


def user_config_file() -> Path:
    """The user's server list: `<config dir>/servers.json` in the `mcpServers` shape."""
    return Path(platformdirs.user_config_dir(APP_NAME)) / "servers.json"


def cache_dir() -> Path:
    path = Path(platformdirs.user_cache_dir(APP_NAME))
    path.mkdir(parents=True, exist_ok=True)
    return path


def history_dir() -> Path:
    """Where accepted snapshots and pinned digests are kept, per server (see `core.drift.history`)."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / "history"


def calls_dir() -> Path:
    """Where test calls and named argument sets are kept, per server (see `core.calls.store`)."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / "calls"


def consent_file() -> Path:
    """The digests of the local commands the user agreed to run (see `core.config.consent`)."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / "launch-consent.json"
