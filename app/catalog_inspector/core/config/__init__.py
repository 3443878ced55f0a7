"""Configuration: server entries and their budgets, the app's own file, other clients' files, consent, secrets.

Holds `servers` (the `mcpServers` shape, `ServerSpec`, `Limits`, loading),
`checks` (what each field must hold to be usable: one rule for the config, the CLI
and the server dialog), `profiles` (the client an entry says it is: name, version, extensions, a
pinned protocol version, the hosts' presets), `store` (the app's file, written whole and atomically), `clients` (other MCP
clients' shapes, variables and usual locations), `consent` (which commands the
user agreed to run) and `secrets` (values kept in the system keyring).
Imports only core's shared modules; every other room may import this face.
"""

from __future__ import annotations

from catalog_inspector.core.config.checks import (
    ConfigError,
    check_header,
    check_url,
)
from catalog_inspector.core.config.clients import (
    Input,
    ShapeError,
    Source,
    inputs_used,
    known_locations,
    look,
    servers_of,
)
from catalog_inspector.core.config.consent import (
    LaunchConsent,
    launch_words,
)
from catalog_inspector.core.config.profiles import (
    DEFAULT_KEY,
    ENTRY_KEY,
    EXTENSIONS_LIMIT,
    HANDSHAKE_VERSIONS,
    MCP_APPS,
    OURS,
    PRESETS,
    ClientProfile,
    changed,
    check_client_text,
    check_era,
    check_extension,
    check_protocol_version,
    parse_client,
    profile_choices,
    profile_for,
)
from catalog_inspector.core.config.secrets import (
    SERVICE,
    keyring_status,
    reference,
    store_secret,
)
from catalog_inspector.core.config.servers import (
    ASKS_DEMO,
    BUDGET_KEYS,
    DEFAULT_LOG_LEVEL,
    DEMO_MODES,
    LOG_LEVELS,
    PROTOCOL_ERAS,
    STOP_BUDGETS,
    EntryProblem,
    Limits,
    Loaded,
    LogLevel,
    OAuthConfig,
    ServerSpec,
    Variables,
    check_client_metadata_url,
    demo_servers,
    limits_for,
    load_config,
    oauth_applies,
    parse_config,
    parse_entry,
    read_document,
    server_key,
)
from catalog_inspector.core.config.store import (
    ConfigStore,
)

__all__ = [
    "oauth_applies",
    "BUDGET_KEYS",
    "STOP_BUDGETS",
    "ClientProfile",
    "DEFAULT_KEY",
    "ENTRY_KEY",
    "HANDSHAKE_VERSIONS",
    "EXTENSIONS_LIMIT",
    "MCP_APPS",
    "OURS",
    "PRESETS",
    "changed",
    "check_client_text",
    "check_era",
    "check_extension",
    "check_protocol_version",
    "parse_client",
    "profile_choices",
    "profile_for",
    "ConfigError",
    "ConfigStore",
    "DEFAULT_LOG_LEVEL",
    "DEMO_MODES",
    "EntryProblem",
    "Input",
    "LaunchConsent",
    "LOG_LEVELS",
    "Limits",
    "Loaded",
    "LogLevel",
    "OAuthConfig",
    "SERVICE",
    "ServerSpec",
    "ShapeError",
    "Source",
    "Variables",
    "check_client_metadata_url",
    "check_header",
    "check_url",
    "ASKS_DEMO",
    "PROTOCOL_ERAS",
    "demo_servers",
    "inputs_used",
    "keyring_status",
    "known_locations",
    "launch_words",
    "limits_for",
    "load_config",
    "look",
    "parse_config",
    "parse_entry",
    "read_document",
    "reference",
    "server_key",
    "servers_of",
    "store_secret",
]
