"""The demo MCP server: the project's test fixture and the catalog a first-time user inspects."""

from catalog_inspector.demo.catalog import MODES

__all__ = ["MODES"]
