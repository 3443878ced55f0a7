"""MCP Apps (the `io.modelcontextprotocol/ui` extension), read statically from a catalog: which tools have an
interface, the `ui://` resources they name, and what a strict host would flag. Nothing is fetched or rendered.

A tool's `_meta.ui.resourceUri` names its interface (`visibility`: who may call it, the model and/or the app); a
`ui://` resource is HTML served as `text/html;profile=mcp-app`, with `_meta.ui` saying its CSP (`connectDomains`,
`resourceDomains`, `frameDomains`, `baseUriDomains`), the browser permissions it asks for and its own domain.
Plain data, no SDK.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from catalog_inspector.core.catalog.snapshot import Snapshot
from catalog_inspector.core.steps import EVERY, Steps, run_whole
from catalog_inspector.core.text import visible

__all__ = ["APP_MIME", "AppFinding", "AppView", "app_of", "apps_json", "apps_steps", "ui_meta", "ui_words"]

APP_MIME = "text/html;profile=mcp-app"
CSP_KEYS = ("connectDomains", "resourceDomains", "frameDomains", "baseUriDomains")
# A CSP source that lets a view reach anything (a host adds nothing of its own to what is declared).
OPEN_SOURCES = frozenset({"*", "http:", "https:", "ws:", "wss:", "data:", "blob:", "http://*", "https://*"})
WORDS = 300  # characters of one value said


@dataclass(frozen=True)
class AppView:
    """A tool's interface: the resource it names, who may call the tool, whether the catalog lists that resource
    (None: the resources list was not judged, so nobody knows)."""

    resource_uri: str
    visibility: tuple[str, ...]
    listed: bool | None

    def to_json(self) -> dict[str, Any]:
        return {"resource_uri": self.resource_uri, "visibility": list(self.visibility), "resource_listed": self.listed}


@dataclass(frozen=True)
class AppFinding:
    """What a strict host would flag: `item` is `tools/NAME` or `resources/URI`; `code` a stable word."""

    item: str
    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"item": self.item, "code": self.code, "message": self.message}


def ui_meta(item: dict[str, Any]) -> dict[str, Any] | None:
    """The item's `_meta.ui` object, or None."""
    meta = item.get("_meta")
    ui = meta.get("ui") if isinstance(meta, dict) else None
    return ui if isinstance(ui, dict) else None


def app_of(tool: dict[str, Any], listed: frozenset[str] | None) -> AppView | None:
    """The tool's interface (`listed`: the URIs of the judged resources list, None when it was not judged)."""
    ui = ui_meta(tool)
    uri = ui.get("resourceUri") if ui is not None else None
    if not isinstance(uri, str):
        return None
    visibility = ui.get("visibility") if ui is not None else None
    seen = tuple(str(who) for who in visibility[:8]) if isinstance(visibility, list) else ()
    return AppView(uri, seen, uri in listed if listed is not None else None)


def _sources(value: Any) -> str:
    """A CSP list in words: its origins, comma-separated ("none" for an empty list)."""
    if not isinstance(value, list) or not all(isinstance(source, str) for source in value):
        return visible(str(value), WORDS)
    if not value:
        return "none"
    more = f" (and {len(value) - 20} more)" if len(value) > 20 else ""
    return visible(", ".join(value[:20]), WORDS) + more


def _open_sources(ui: dict[str, Any]) -> list[str]:
    csp = ui.get("csp")
    if not isinstance(csp, dict):
        return []
    found = []
    for key in CSP_KEYS:
        sources = csp.get(key)
        for source in sources if isinstance(sources, list) else ():
            if isinstance(source, str) and source.strip().lower() in OPEN_SOURCES:
                found.append(f"{key}: {visible(source, 60)}")
    return found


def _resource_findings(resource: dict[str, Any]) -> list[AppFinding]:
    uri = resource.get("uri")
    if not isinstance(uri, str):
        return []
    ui = ui_meta(resource)
    findings = []
    if uri.startswith("ui://") and resource.get("mimeType") != APP_MIME:
        mime = visible(str(resource.get("mimeType")), WORDS)
        findings.append(
            AppFinding(f"resources/{uri}", "app_mime_type", f"a ui:// resource served as {mime}, not {APP_MIME}")
        )
    opened = _open_sources(ui) if ui is not None else []
    if opened:
        findings.append(
            AppFinding(f"resources/{uri}", "app_csp_open", "its CSP lets the view reach anything: " + ", ".join(opened))
        )
    return findings


def apps_json(snapshot: Snapshot) -> dict[str, Any]:
    """What the snapshot document records of MCP Apps (no new fetch): per tool with an interface, per `ui://` or
    `_meta.ui` resource, and the findings."""
    return run_whole(apps_steps(snapshot))


def apps_steps(snapshot: Snapshot) -> Steps[dict[str, Any]]:
    """`apps_json` in small steps (`core.steps`): the window has it worked out with the drift report."""
    resources = snapshot.lists["resources"]
    listed = frozenset(str(r.get("uri")) for r in resources.items) if resources.judged else None
    tools: dict[str, Any] = {}
    findings: list[AppFinding] = []
    for count, tool in enumerate(snapshot.tools.items, 1):
        if count % EVERY == 0:
            yield
        view = app_of(tool, listed) if "_meta" in tool else None
        if view is None:
            continue
        name = str(tool.get("name"))
        tools[name] = view.to_json()
        if view.listed is False:
            message = f"its interface {visible(view.resource_uri, WORDS)} is not in the server's resources list"
            findings.append(AppFinding(f"tools/{name}", "app_resource_missing", message))
        if not view.resource_uri.startswith("ui://"):
            message = f"its interface {visible(view.resource_uri, WORDS)} is not a ui:// URI"
            findings.append(AppFinding(f"tools/{name}", "app_uri_scheme", message))
    shown: dict[str, Any] = {}
    for resource in resources.items:
        uri = resource.get("uri")
        ui = ui_meta(resource)
        if not isinstance(uri, str) or (ui is None and not uri.startswith("ui://")):
            continue
        shown[uri] = {
            "mime_type": resource.get("mimeType"),
            "csp": ui.get("csp") if ui is not None else None,
            "permissions": ui.get("permissions") if ui is not None else None,
            "domain": ui.get("domain") if ui is not None else None,
        }
        findings.extend(_resource_findings(resource))
    return {"tools": tools, "resources": shown, "findings": [finding.to_json() for finding in findings]}


def ui_words(item: dict[str, Any], kind: str, listed: frozenset[str] | None = None) -> list[str]:
    """The detail lines of an item's MCP Apps part (a tool's interface, a resource's view), [] when it has none."""
    if kind == "tools":
        view = app_of(item, listed)
        if view is None:
            return []
        state = {
            True: "listed in this server's resources",
            False: "NOT in this server's resources list",
            None: "the resources list was not walked whole",
        }[view.listed]
        lines = [f"MCP Apps interface: {visible(view.resource_uri, WORDS)} — {state}"]
        if view.visibility:
            lines.append(f"    Callable by: {', '.join(visible(who, 40) for who in view.visibility)}")
        lines.append("    (the interface is HTML for hosts that render MCP Apps; shown here only as text)")
        return lines
    ui = ui_meta(item)
    uri = item.get("uri")
    if ui is None and not (isinstance(uri, str) and uri.startswith("ui://")):
        return []
    mime = item.get("mimeType")
    lines = [
        f"MCP Apps view: served as {visible(str(mime), WORDS)}" + ("" if mime == APP_MIME else f" (not {APP_MIME})")
    ]
    csp = ui.get("csp") if ui is not None else None
    if isinstance(csp, dict):
        for key in CSP_KEYS:
            if key in csp:
                lines.append(f"    CSP {key}: {_sources(csp[key])}")
    elif ui is not None:
        lines.append("    CSP: none declared (a host allows no outside origin)")
    for key, label in (("permissions", "Permissions asked for"), ("domain", "Domain")):
        if ui is not None and key in ui:
            value = ui[key]
            lines.append(f"    {label}: {visible(', '.join(value) if isinstance(value, dict) else str(value), WORDS)}")
    opened = _open_sources(ui) if ui is not None else []
    if opened:
        lines.append(f"    ⚠ its CSP lets the view reach anything: {', '.join(opened)}")
    return lines
