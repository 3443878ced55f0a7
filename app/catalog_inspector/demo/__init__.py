"""The demo MCP server: the project's test fixture and the catalog a first-time user inspects."""

from catalog_inspector.demo.catalog import LIST_KINDS, MODES

__all__ = ["LIST_KINDS", "MODES"]
