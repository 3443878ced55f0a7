"""Working out what a new catalog changes in the tool tree, a slice of tools at a time."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from catalog_inspector.ui.models.tool_nodes import Node, fold

__all__ = ["SLICE", "Plan", "ToolsPlanner"]

SLICE = 1_000  # tools a planner step handles (~3.5 ms on the 2-core machine; 2,000 took 7 ms)


@dataclass
class Plan:
    """What a new catalog changes: the tree applies it in one step (`ToolTreeModel.apply`)."""

    by_name: dict[str, Node]  # the new catalog's nodes, in server order
    edited: list[tuple[Node, dict[str, Any], str]]  # kept nodes whose tool changed: node, new tool, folded text
    retired: list[Node]  # nodes of tools that are gone


class ToolsPlanner:
    """Works out what a new catalog changes, `SLICE` tools per `step()`, without touching the model.

    At 100,000 tools matching names, comparing content and folding text for the
    filter cost ~0.3 s; done in slices across events, no event of the window's
    takes more than a few milliseconds, and only `ToolTreeModel.apply` (linear in
    what is shown, not in the catalog) runs in one go.

    Attributes:
        result: the plan, once `step()` returned True.
    """

    def __init__(self, old: dict[str, Node], tools: Sequence[dict[str, Any]]) -> None:
        self.result: Plan | None = None
        self._work = self._plan(old, tools)

    def step(self) -> bool:
        """Do the next slice; True once the plan is finished."""
        if self.result is None:
            try:
                next(self._work)
            except StopIteration as done:
                self.result = done.value
        return self.result is not None

    @staticmethod
    def _plan(old: dict[str, Node], tools: Sequence[dict[str, Any]]) -> Generator[None, None, Plan]:
        by_name: dict[str, Node] = {}
        edited: list[tuple[Node, dict[str, Any], str]] = []
        kept = 0
        for count, tool in enumerate(tools, 1):
            name = tool.get("name", "")
            if type(name) is not str:
                name = str(name)
            if name not in by_name:
                node = old.get(name)
                if node is None:
                    node = Node(None, -1, name, None, tool)
                    node.folded()
                else:
                    kept += 1
                    if node.tool is not tool and node.tool != tool:
                        edited.append((node, tool, fold(name, tool)))
                by_name[name] = node
            if count % SLICE == 0:
                yield
        retired: list[Node] = []
        if kept < len(old):
            for count, (name, node) in enumerate(old.items(), 1):
                if name not in by_name:
                    retired.append(node)
                if count % (SLICE * 4) == 0:
                    yield
        return Plan(by_name, edited, retired)
