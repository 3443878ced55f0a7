"""The four paginated lists of MCP, described once: the one table the engine, the UI, the CLI and the demo read.

Plain data, no SDK import: anything that only needs to know what a list is
(snapshots, the UI, the demo's catalogs) can import it without the network stack.
The request types that bind each list to the protocol live in `core.session.walk`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LIST_KINDS", "LIST_NAMES", "ListKind", "item_key"]


@dataclass(frozen=True)
class ListKind:
    """One paginated list method and every fact about it.

    Attributes:
        name: the snapshot key (`tools`, `resources`, `resource_templates`, `prompts`).
        method: the JSON-RPC method (`tools/list` …).
        result_key: the array in the result (`tools`, `resources`, `resourceTemplates`, `prompts`).
        key_field: what must be unique within one walk (`name`, `uri`, `uriTemplate`).
        capability: the server capability that offers the list.
        key_noun: words for one key in messages ("tool name", "resource URI" …).
        plural: words for the list in sentences ("resource templates").
        title: the tab title ("Resource templates").
        columns: (header, field) pairs a table of these items shows.
    """

    name: str
    method: str
    result_key: str
    key_field: str
    capability: str
    key_noun: str
    plural: str
    title: str
    columns: tuple[tuple[str, str], ...]


LIST_KINDS: dict[str, ListKind] = {
    kind.name: kind
    for kind in (
        ListKind(
            "tools",
            "tools/list",
            "tools",
            "name",
            "tools",
            "tool name",
            "tools",
            "Tools",
            (("Name", "name"), ("Title", "title"), ("Description", "description")),
        ),
        ListKind(
            "resources",
            "resources/list",
            "resources",
            "uri",
            "resources",
            "resource URI",
            "resources",
            "Resources",
            (("URI", "uri"), ("Name", "name"), ("MIME type", "mimeType"), ("Description", "description")),
        ),
        ListKind(
            "resource_templates",
            "resources/templates/list",
            "resourceTemplates",
            "uriTemplate",
            "resources",
            "resource template",
            "resource templates",
            "Resource templates",
            (("URI template", "uriTemplate"), ("Name", "name"), ("Description", "description")),
        ),
        ListKind(
            "prompts",
            "prompts/list",
            "prompts",
            "name",
            "prompts",
            "prompt name",
            "prompts",
            "Prompts",
            (("Name", "name"), ("Title", "title"), ("Description", "description")),
        ),
    )
}
LIST_NAMES: tuple[str, ...] = tuple(LIST_KINDS)


def item_key(list_name: str, item: dict[str, Any]) -> str:
    """The value that must be unique within one walk of `list_name` (a tool's name, a resource's URI …)."""
    return str(item[LIST_KINDS[list_name].key_field])
