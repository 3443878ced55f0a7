"""The rows of the tool tree: a node per tool, per schema section and per JSON value, built lazily."""

from __future__ import annotations

import json
from typing import Any

from catalog_inspector.core.calls import task_support
from catalog_inspector.core.text import visible

__all__ = ["PREVIEW", "Node", "annotation_badges", "description_of", "fold", "preview", "schemas_of"]

PREVIEW = 200

_BADGES = (
    ("readOnlyHint", "read-only"),
    ("destructiveHint", "destructive"),
    ("idempotentHint", "idempotent"),
    ("openWorldHint", "open-world"),
)


def annotation_badges(tool: dict[str, Any]) -> list[str]:
    """The hints a tool sets to true, as short badges (only what the server said), and its task support
    (`execution.taskSupport` required or optional: a conforming client must, or may, run it as a task)."""
    annotations = tool.get("annotations")
    badges = [label for key, label in _BADGES if annotations.get(key) is True] if isinstance(annotations, dict) else []
    support = task_support(tool)
    if support in ("required", "optional"):
        badges.append(f"task: {support}")
    meta = tool.get("_meta")
    ui = meta.get("ui") if isinstance(meta, dict) else None
    if isinstance(ui, dict) and isinstance(ui.get("resourceUri"), str):
        badges.append("▣ app")  # an MCP Apps interface: its detail names it
    return badges


def preview(value: Any) -> str:
    if isinstance(value, dict):
        return f"{{…}} {len(value)} key{'s' if len(value) != 1 else ''}"
    if isinstance(value, list):
        return f"[…] {len(value)} item{'s' if len(value) != 1 else ''}"
    return visible(json.dumps(value, ensure_ascii=False), PREVIEW)


def description_of(tool: dict[str, Any]) -> str:
    description = tool.get("description")
    return description if isinstance(description, str) else ""


def fold(name: str, tool: dict[str, Any]) -> str:
    """What the filter matches: the name and the description, case folded (never empty)."""
    return f"{name}\n{description_of(tool)}".casefold()


def schemas_of(tool: dict[str, Any]) -> tuple[Any, bool, Any]:
    """What a tool's child rows are built from."""
    return tool.get("inputSchema"), "outputSchema" in tool, tool.get("outputSchema")


class Node:
    """A row: a tool (`tool` set, no parent), a schema section, or a JSON value inside a schema.

    `row` is the row under the parent; for a tool, its shown row, or -1 while it is
    hidden by the filter or gone from the catalog. `search` is a tool's folded name
    and description ("" until first needed).
    """

    __slots__ = ("children", "key", "parent", "row", "search", "tool", "value")

    def __init__(self, parent: Node | None, row: int, key: str, value: Any, tool: dict[str, Any] | None = None) -> None:
        self.parent = parent
        self.row = row
        self.key = key
        self.value = value
        self.tool = tool
        self.search = ""
        self.children: list[Node] | None = None

    def expandable(self) -> bool:
        if self.tool is not None:
            return True
        return isinstance(self.value, dict | list) and len(self.value) > 0

    def materialize(self) -> list[Node]:
        if self.children is None:
            if self.tool is not None:
                sections = [("Input schema", self.tool.get("inputSchema"))]
                if "outputSchema" in self.tool:
                    sections.append(("Output schema", self.tool.get("outputSchema")))
                self.children = [Node(self, i, key, value) for i, (key, value) in enumerate(sections)]
            elif isinstance(self.value, dict):
                self.children = [Node(self, i, str(k), v) for i, (k, v) in enumerate(self.value.items())]
            elif isinstance(self.value, list):
                self.children = [Node(self, i, f"[{i}]", v) for i, v in enumerate(self.value)]
            else:
                self.children = []
        return self.children

    def folded(self) -> str:
        if not self.search:
            assert self.tool is not None
            self.search = fold(self.key, self.tool)
        return self.search

    def tool_row(self) -> int:
        """The row of the tool this node belongs to."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node.row

    def attached(self) -> bool:
        """Whether this node is still in the tree that is shown (no replaced ancestor)."""
        node = self
        while node.parent is not None:
            siblings = node.parent.children
            if siblings is None or node.row >= len(siblings) or siblings[node.row] is not node:
                return False
            node = node.parent
        return node.row >= 0
