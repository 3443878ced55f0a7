"""Server configurations (the `mcpServers` JSON shape other MCP clients use) and walk budgets.

A file is read entry by entry: a bad entry is reported with its reason and the
good ones still load (`Loaded`). Other clients' shapes and `${…}` variables are
understood (`core.config.clients`); variables are expanded here, when a server
is about to be used, and never written back.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import json5

from catalog_inspector.core.config.checks import (
    ConfigError,
    check_arguments,
    check_environment,
    check_header,
    check_text,
    check_url,
)
from catalog_inspector.core.config.clients import ShapeError, VariableError, expand, servers_of, workspace_of
from catalog_inspector.core.config.profiles import ClientProfile, check_era, parse_client
from catalog_inspector.core.config.secrets import read_secret
from catalog_inspector.core.files import (
    MAX_CONFIG_BYTES,
    MAX_JSONC_BYTES,
    InputError,
    NotStandardNumber,
    file_stem,
    finite_float,
    parse_json,
    read_bounded,
    read_text,
    refuse_constant,
)
from catalog_inspector.core.launch import python_module_command
from catalog_inspector.core.redact import redacted_args, redacted_url

__all__ = [
    "server_key",
    "BUDGET_KEYS",
    "STOP_BUDGETS",
    "DEFAULT_LOG_LEVEL",
    "LOG_LEVELS",
    "LogLevel",
    "ConfigError",
    "EntryProblem",
    "Limits",
    "Loaded",
    "OAuthConfig",
    "ServerSpec",
    "check_header",
    "limits_for",
    "demo_servers",
    "load_config",
    "oauth_applies",
    "parse_config",
    "parse_servers",
    "read_document",
]

Transport = Literal["stdio", "http", "sse"]


@dataclass(frozen=True)
class Limits:
    """Budgets for one walk. A walk that would exceed any of them is rejected, never truncated.

    Attributes:
        max_pages: pages per list.
        max_items: items per list.
        max_page_bytes: bytes in one response (stdio: one line on the wire).
        request_timeout: seconds for one request.
        deadline: seconds for the whole snapshot, connecting included.
        max_rounds: rounds of input_required one test request may answer before it is given up.
        task_deadline: seconds a test call run as a task may take, from its tools/call to its end (its
            polls, its questions, its result); the time a person takes to answer is not counted.
    """

    max_pages: int = 1000
    max_items: int = 100_000
    max_page_bytes: int = 4 * 1024 * 1024
    request_timeout: float = 30.0
    deadline: float = 120.0
    max_rounds: int = 10
    task_deadline: float = 300.0

    def budget_of(self, kind: str) -> int | None:
        """The budget a walk stopped with `kind` (an `ErrorKind` value) ran out of, if a budget stopped it."""
        name = STOP_BUDGETS.get(kind)
        return int(getattr(self, name)) if name is not None else None


# The budgets whose running out stops a walk with a kind of its own (`ErrorKind` values) → their Limits field.
STOP_BUDGETS = {"page_limit": "max_pages", "item_limit": "max_items", "size_limit": "max_page_bytes"}


@dataclass(frozen=True)
class OAuthConfig:
    """How to sign in to an HTTP server that asks for OAuth: the entry's `"oauth"` object, or the CLI's flags.

    Every field is optional: with none, the client registers itself (Client ID Metadata
    Document or dynamic registration) and the scopes are the ones the server names.

    Attributes:
        client_id: a client registered with the authorization server beforehand.
        client_secret: its secret (a `${keyring:…}` reference in the file); never shown.
        scope: the scopes to ask for, instead of the ones the server names (space-separated).
        client_metadata_url: an https URL of this client's metadata document (CIMD), used as the
            client id where the authorization server supports it.
        redirect_port: a fixed loopback port for the redirect (for a server that registered
            one exact redirect URI); default: an ephemeral port per sign-in.
    """

    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    scope: str | None = None
    client_metadata_url: str | None = None
    redirect_port: int | None = None


@dataclass(frozen=True)
class ServerSpec:
    """How to reach one server. stdio: command/args/env/cwd; http and sse: url/headers."""

    name: str
    transport: Transport = "stdio"
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    disabled: bool = False  # `"disabled": true`: listed, never started on its own
    budgets: Mapping[str, float] = field(default_factory=dict)  # `Limits` field → value, from `"budgets"`
    oauth: OAuthConfig | None = None  # http and sse: the entry's `"oauth"` object (None: sign in with defaults)
    roots: tuple[Mapping[str, str], ...] = ()  # `"roots"`: what roots/list is answered with ([{"uri", "name"}])
    protocol_era: ProtocolEra = "auto"  # `"protocolEra"`: legacy (initialize), modern (2026-07-28 only), auto
    client: ClientProfile | None = None  # `"client"`: who the client says it is (None: this inspector)
    log_level: LogLevel = "info"  # `"logLevel"`: the least severe log message (notifications/message) asked for

    def describe(self) -> str:
        """A one-line plain description (`stdio: python -m x`, `http: https://…`), without secrets:
        URL credentials and query values, header values and secret-looking options read `…`."""
        if self.transport == "stdio":
            return f"stdio: {' '.join([self.command, *redacted_args(self.args)])}"
        return f"{self.transport}: {redacted_url(self.url)}"


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be a list of strings")
    return tuple(value)


def _mapping(value: Any, where: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ConfigError(f"{where} must be an object of strings")
    return dict(value)


BUDGET_KEYS = {  # the entry's "budgets" object (a key of ours: other clients ignore it) → Limits field
    "maxPages": ("max_pages", int),
    "maxItems": ("max_items", int),
    "maxPageBytes": ("max_page_bytes", int),
    "requestTimeout": ("request_timeout", float),
    "deadline": ("deadline", float),
    "maxRounds": ("max_rounds", int),
    "taskDeadline": ("task_deadline", float),
}


def limits_for(spec: ServerSpec, defaults: Limits) -> Limits:
    """The budgets a walk of `spec` runs under: its own where the entry sets them, else `defaults`."""
    budgets: dict[str, Any] = dict(spec.budgets)  # each value already has its field's type (`_budgets`)
    return replace(defaults, **budgets) if budgets else defaults


def oauth_applies(spec: ServerSpec) -> bool:
    """Whether `spec` may be signed in to: an HTTP server whose headers bring no Authorization of their own."""
    return spec.transport in ("http", "sse") and not any(key.lower() == "authorization" for key in spec.headers)


def _budgets(value: Any, where: str) -> dict[str, float]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be an object")
    found: dict[str, float] = {}
    for key, number in value.items():
        if key not in BUDGET_KEYS:
            raise ConfigError(f"{where}.{key} is not a budget (use {', '.join(BUDGET_KEYS)})")
        name, kind = BUDGET_KEYS[key]
        if isinstance(number, bool) or not isinstance(number, int | float) or number <= 0:
            raise ConfigError(f"{where}.{key} must be a positive number")
        if kind is int and number != int(number):
            raise ConfigError(f"{where}.{key} must be a whole number")
        found[name] = kind(number)
    return found


# The entry's "oauth" object: clientId, clientSecret, scope, clientMetadataUrl, redirectPort (Claude
# Code's `callbackPort` is read as `redirectPort`). Keys it does not know are ignored: another client's
# settings may share the object.


def check_client_metadata_url(url: str, where: str) -> None:
    """A Client ID Metadata Document URL must be https with a path (it becomes the client id).

    Raises:
        ConfigError: naming `where`.
    """
    scheme, _, rest = url.partition("://")
    host, _, path = rest.partition("/")
    if scheme.lower() != "https" or not host or not path:
        raise ConfigError(f"{where} must be an https:// URL with a path (it is used as the client id)")


def _oauth(value: Any, where: str, var: Callable[[str, str], str]) -> OAuthConfig | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be an object")
    found: dict[str, str] = {}
    for key in ("clientId", "clientSecret", "scope", "clientMetadataUrl"):
        text = value.get(key)
        if text is None:
            continue
        if not isinstance(text, str) or not text.strip():
            raise ConfigError(f"{where}.{key} must be a non-empty string")
        found[key] = var(text, f"{where}.{key}")
    if "clientSecret" in found and "clientId" not in found:
        raise ConfigError(f"{where}.clientSecret needs a clientId")
    if "clientMetadataUrl" in found:
        check_client_metadata_url(found["clientMetadataUrl"], f"{where}.clientMetadataUrl")
    port_key = "redirectPort" if "redirectPort" in value else "callbackPort"
    port = value.get(port_key)
    if port is not None and (isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535):
        raise ConfigError(f"{where}.{port_key} must be a port number (1 to 65535)")
    return OAuthConfig(
        client_id=found.get("clientId"),
        client_secret=found.get("clientSecret"),
        scope=found.get("scope"),
        client_metadata_url=found.get("clientMetadataUrl"),
        redirect_port=port,
    )


PROTOCOL_ERAS = ("auto", "legacy", "modern")
ProtocolEra = Literal["auto", "legacy", "modern"]
# auto    discover (2026-07-28), else initialize: what a server offers decides
# legacy  initialize only (2025-11-25 and before)
# modern  server/discover only: a server that cannot speak 2026-07-28 fails the handshake


LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
# RFC 5424's severities, least severe first: a level asks for itself and every one after it. On 2026-07-28 the
# level travels in each request's `_meta`; before, by one `logging/setLevel` to a server that declares `logging`.
LOG_LEVELS: tuple[LogLevel, ...] = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
DEFAULT_LOG_LEVEL: LogLevel = "info"


def _log_level(value: Any, where: str) -> LogLevel:
    if value is None:
        return DEFAULT_LOG_LEVEL
    if value not in LOG_LEVELS:
        raise ConfigError(f"{where} must be one of {', '.join(LOG_LEVELS)}")
    level: LogLevel = value
    return level


def _roots(value: Any, where: str) -> tuple[dict[str, str], ...]:
    """The entry's `"roots"`: a list of `{"uri": "file:///…", "name": "…"}` (the spec allows file:// only)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ConfigError(f'{where} must be a list of {{"uri", "name"}} objects')
    found: list[dict[str, str]] = []
    for index, root in enumerate(value):
        at = f"{where}[{index}]"
        if not isinstance(root, dict) or not isinstance(root.get("uri"), str):
            raise ConfigError(f'{at} must be an object with a "uri" string')
        uri = root["uri"]
        if not uri.startswith("file://") or len(uri) > 4096:
            raise ConfigError(f"{at}.uri must be a file:// URI")
        check_text(uri, f"{at}.uri")
        name = root.get("name")
        if name is not None and not isinstance(name, str):
            raise ConfigError(f"{at}.name must be a string")
        found.append({"uri": uri, **({"name": name} if name else {})})
    return tuple(found)


def _era(value: Any, where: str) -> ProtocolEra:
    if value is None:
        return "auto"
    if value not in PROTOCOL_ERAS:
        raise ConfigError(f"{where} must be one of {', '.join(PROTOCOL_ERAS)}")
    era: ProtocolEra = value
    return era


SUPPORTED_TYPES = "stdio, http (Streamable HTTP) or sse (legacy HTTP+SSE)"
_HTTP_NAMES = ("streamable-http", "streamableHttp", "streamable_http", "http")


@dataclass(frozen=True)
class Variables:
    """What `${…}` in an entry expands with: the environment, answered inputs, the workspace folder."""

    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    inputs: Mapping[str, str] | None = None
    workspace: Path | None = None
    secrets: Callable[[str], str | None] | None = read_secret

    def __call__(self, text: str, where: str) -> str:
        try:
            return expand(text, self.environ, inputs=self.inputs, workspace=self.workspace, secrets=self.secrets)
        except VariableError as exc:
            raise ConfigError(f"{where}: {exc}") from exc


def parse_entry(name: str, entry: Any, variables: Variables | None = None) -> ServerSpec:
    where = f"mcpServers.{name}"
    var = variables or Variables()
    if not isinstance(entry, dict):
        raise ConfigError(f"{where} must be an object")
    disabled = entry.get("disabled", False)
    if not isinstance(disabled, bool):
        raise ConfigError(f"{where}.disabled must be true or false")
    budgets = _budgets(entry.get("budgets"), f"{where}.budgets")
    roots = _roots(entry.get("roots"), f"{where}.roots")
    era = _era(entry.get("protocolEra"), f"{where}.protocolEra")
    client = parse_client(entry.get("client"), f"{where}.client")
    check_era(client, era, f"{where}.client")
    log_level = _log_level(entry.get("logLevel"), f"{where}.logLevel")
    kind = entry.get("type") or entry.get("transport")
    if kind is not None and not isinstance(kind, str):
        raise ConfigError(f"{where}.type must be a string: {SUPPORTED_TYPES}")
    if kind in _HTTP_NAMES:
        kind = "http"
    if kind is None:
        kind = "stdio" if "command" in entry else ("http" if "url" in entry else None)
    if kind == "stdio":
        command = entry.get("command")
        if not isinstance(command, str) or not command:
            raise ConfigError(f"{where}.command must be a non-empty string")
        cwd = entry.get("cwd")
        if cwd is not None and not isinstance(cwd, str):
            raise ConfigError(f"{where}.cwd must be a string")
        spec = ServerSpec(
            name=name,
            transport="stdio",
            command=var(command, f"{where}.command"),
            args=tuple(var(arg, f"{where}.args") for arg in _strings(entry.get("args"), f"{where}.args")),
            env={
                key: var(value, f"{where}.env.{key}")
                for key, value in _mapping(entry.get("env"), f"{where}.env").items()
            },
            cwd=var(cwd, f"{where}.cwd") if cwd is not None else None,
            disabled=disabled,
            budgets=budgets,
            roots=roots,
            protocol_era=era,
            client=client,
            log_level=log_level,
        )
        # After expansion: a variable's value is what the process would get.
        check_text(spec.command, f"{where}.command")
        check_arguments(spec.args, f"{where}.args")
        check_environment(spec.env, f"{where}.env")
        if spec.cwd is not None:
            check_text(spec.cwd, f"{where}.cwd")
        return spec
    if kind in ("http", "sse"):
        url = entry.get("url")
        url = var(url, f"{where}.url") if isinstance(url, str) else url
        if not isinstance(url, str):
            raise ConfigError(f"{where}.url must be an http:// or https:// URL")
        check_url(url, f"{where}.url")
        transport: Transport = "sse" if kind == "sse" else "http"
        headers = _mapping(entry.get("headers"), f"{where}.headers")
        headers = {key: var(value, f"{where}.headers.{key}") for key, value in headers.items()}
        for key, value in headers.items():
            check_header(key, value, f"{where}.headers")
        oauth = _oauth(entry.get("oauth"), f"{where}.oauth", var)
        return ServerSpec(
            name=name,
            transport=transport,
            url=url,
            headers=headers,
            disabled=disabled,
            budgets=budgets,
            oauth=oauth,
            roots=roots,
            protocol_era=era,
            client=client,
            log_level=log_level,
        )
    if kind is not None:
        raise ConfigError(f"{where}: type {kind!r} is not supported; use {SUPPORTED_TYPES}")
    raise ConfigError(f"{where} needs a command (stdio) or a url (type http or sse)")


@dataclass(frozen=True)
class EntryProblem:
    """An entry that could not be used, and why (the message names the entry and the field)."""

    name: str
    message: str


@dataclass(frozen=True)
class Loaded:
    """What a config file yields: the usable servers and the entries that are not, in file order."""

    specs: list[ServerSpec]
    problems: list[EntryProblem] = field(default_factory=list)

    def spec(self, name: str) -> ServerSpec | None:
        return next((spec for spec in self.specs if spec.name == name), None)

    def problem(self, name: str) -> EntryProblem | None:
        return next((problem for problem in self.problems if problem.name == name), None)


def parse_servers(data: Any, variables: Variables | None = None) -> Loaded:
    """Every entry of a document in any known shape; a bad entry becomes a problem, not a failure.

    Raises:
        ConfigError: the document holds no servers in any known shape.
    """
    try:
        source = servers_of(data)
    except ShapeError as exc:
        raise ConfigError(str(exc)) from exc
    loaded = Loaded([])
    for name, entry in source.servers.items():
        try:
            loaded.specs.append(parse_entry(str(name), entry, variables))
        except ConfigError as exc:
            loaded.problems.append(EntryProblem(str(name), str(exc)))
    return loaded


def parse_config(data: Any, variables: Variables | None = None) -> list[ServerSpec]:
    """Parse every entry strictly; raises ConfigError naming the first bad entry."""
    loaded = parse_servers(data, variables)
    if loaded.problems:
        raise ConfigError(loaded.problems[0].message)
    return loaded.specs


def read_document(path: Path) -> Any:
    """A config file's JSON, read strictly first and then as JSONC (comments, trailing commas: VS Code's files).

    Read within `MAX_CONFIG_BYTES` (JSONC within `MAX_JSONC_BYTES`: json5 is slow); NaN and Infinity
    are refused either way.

    Raises:
        ConfigError: unreadable, too large, not UTF-8, not JSON, or nested too deeply (file, what, where).
    """
    name = str(path)
    try:
        text = read_text(read_bounded(path, MAX_CONFIG_BYTES, "config files"), name)
        return parse_json(text, name)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except InputError as exc:
        strict = exc
        if not isinstance(exc.__cause__, json.JSONDecodeError):
            raise ConfigError(str(exc)) from exc  # too large, not UTF-8, too deep, NaN: JSONC would not help
    if len(text) > MAX_JSONC_BYTES:
        limit = f"{MAX_JSONC_BYTES // 1024} KiB"
        raise ConfigError(f"{strict} (a file over {limit} is read as strict JSON only, without comments)") from strict
    try:
        return json5.loads(text, parse_constant=refuse_constant, parse_float=finite_float)
    except NotStandardNumber as exc:
        raise ConfigError(f"{path} is not valid JSON: {exc}") from exc
    except (ValueError, RecursionError):
        raise ConfigError(str(strict)) from strict


def load_config(path: Path, environ: Mapping[str, str] | None = None) -> Loaded:
    """Read a config file in any known shape: its usable servers and its bad entries.

    Raises:
        ConfigError: the file itself cannot be used (the message names the file).
    """
    data = read_document(path)
    variables = Variables(environ=dict(os.environ if environ is None else environ), workspace=workspace_of(path))
    try:
        return parse_servers(data, variables)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from exc


DEMO_MODES = (
    ("demo: clean catalog", "normal"),
    ("demo: duplicate on refresh", "refresh-duplicate"),
    ("demo: drifting catalog", "drift"),
    ("demo: flaky backend", "flaky"),
    ("demo: cursor cycle", "cycle"),
    ("demo: 10,000 tools", "many"),
)


ASKS_DEMO = "demo: asks for input"
APPS_DEMO = "demo: MCP Apps and rich results"


def demo_servers(state_dir: Path) -> list[ServerSpec]:
    """The bundled demo set: the demo server in a few instructive modes, run by this Python (or this bundle)."""
    servers = []
    for name, mode in DEMO_MODES:
        state = str(state_dir / f"demo-{mode}.json")
        command, args = python_module_command("catalog_inspector.demo", "--mode", mode, "--state", state)
        servers.append(ServerSpec(name=name, command=command, args=args))
    # A server whose tools ask for input (names, a plan, a consent page, a summary, roots): the input panel.
    command, args = python_module_command("catalog_inspector.demo", "--mode", "asks")
    demo_roots = ({"uri": "file:///tmp/demo-project", "name": "demo project"},)
    servers.insert(1, ServerSpec(name=ASKS_DEMO, command=command, args=args, roots=demo_roots))
    # An MCP Apps server (a tool with an interface and its ui:// resource), icons, results of every content kind.
    command, args = python_module_command("catalog_inspector.demo", "--mode", "apps")
    servers.insert(2, ServerSpec(name=APPS_DEMO, command=command, args=args))
    return servers


def server_key(spec: ServerSpec) -> str:
    """The file-name key of `spec`'s own files (history, calls): a slug of its name and a digest of its entry's identity."""
    # The redacted target: a rotated token in a URL or an argument is still the same server.
    identity = json.dumps([spec.name, spec.describe(), spec.cwd], ensure_ascii=False)
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]
    return f"{file_stem(spec.name, 40)}-{digest}"
