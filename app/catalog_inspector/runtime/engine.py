"""The engine gate: what needs the protocol engine waits until it has been imported.

The engine is the MCP SDK (with its two generations of pydantic types), httpx, OAuth
and our session and transport layers: most of a second to import. The app builds
its real window before it (`ui.app`), so a click on a server, the filter and the
Servers menu work at once, and imports it on a thread behind the window; then it
opens the gate. Every module of the runtime and of the window imports without the
engine; what needs it imports it inside the function that runs once the gate is
open (`tests/ui/test_startup.py` keeps it so).
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ENGINE_MODULES", "EngineGate"]

# What the window must not import before its first paint (the start-up probe reports which of these were there).
ENGINE_MODULES = (
    "mcp",
    "mcp_types",
    "pydantic",
    "httpx2",
    "cryptography",
    "catalog_inspector.core.session",
    "catalog_inspector.core.transport",
    "catalog_inspector.core.oauth",
)


class EngineGate:
    """Open once the engine is imported; a gate made open (the default) has nothing to wait for.

    Attributes:
        loaded: the engine is imported.
    """

    def __init__(self, loaded: bool = True) -> None:
        self.loaded = loaded
        self._waiting: list[Callable[[], None]] = []

    def when_loaded(self, then: Callable[[], None]) -> None:
        """Call `then` once the engine is imported (now, if it is)."""
        if self.loaded:
            then()
        else:
            self._waiting.append(then)

    def open(self) -> None:
        """The engine is imported: what waits goes on, in the order it asked."""
        self.loaded = True
        waiting, self._waiting = self._waiting, []
        for then in waiting:
            then()
