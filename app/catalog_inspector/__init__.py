"""MCP Catalog Inspector: see exactly what an MCP server's catalog is, page by page."""

__version__ = "0.1.0"  # the one place: pyproject.toml reads it (setuptools dynamic version)
