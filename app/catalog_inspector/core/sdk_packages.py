"""The SDK's two package bodies, `mcp` and `mcp.client`, run only when a name that only they define is asked for.

`import mcp.client.session` runs `mcp/__init__.py` and `mcp/client/__init__.py` first, and
those re-export the whole SDK: `mcp.Client`, whose in-memory transport imports the server
(`mcp.server`, uvicorn, starlette) and HTTPX, and the server's sessions. The engine imports
the modules it uses by their full names and uses none of those re-exports: on the 2-core
machine the bodies were a quarter of a command's imports (0.85 → 0.66 s) and 15 MB of its
memory (70 → 55 MB), before a walk's first byte.

`defer()`, called before anything imports the SDK, puts the two packages in `sys.modules`
without running their bodies: their submodules import as always (each package has its
`__path__`), and a name only a body defines (`from mcp import Client`, `mcp.ClientSession`)
runs that body then, once, and is found. Nothing changes for code that imported the SDK
first: `defer()` leaves a package that is already imported alone.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
from types import ModuleType
from typing import Any

__all__ = ["PACKAGES", "defer", "deferred"]

PACKAGES = ("mcp", "mcp.client")  # parent first: the child is found through the parent's `__path__`

_lock = threading.RLock()  # one body run, whichever thread asks first (re-entered by what the body imports)
_running: set[str] = set()  # the packages whose body is running now (under `_lock`)


class _Deferred(ModuleType):
    """A package whose body has not run: a missing name imports the submodule of that name, or runs the body."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name != "__all__":
            # What tools probe modules for (`__wrapped__`, `__cached__` …): no body defines one but `__all__`.
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        # `from mcp import types` asks the package for `types` before it imports the submodule: a submodule is
        # imported as a submodule, so that form does not run the body either.
        if name != "__all__" and importlib.util.find_spec(f"{self.__name__}.{name}") is not None:
            return importlib.import_module(f"{self.__name__}.{name}")
        _run_body(self)
        try:
            return self.__dict__[name]
        except KeyError:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}") from None


def _run_body(module: ModuleType) -> None:
    """Run `module`'s body in it, once: another thread that asks meanwhile waits for it to end; a lookup by the
    body itself (the same thread) finds what the body has defined so far, as in any package being imported."""
    with _lock:
        if not _waiting(module) or module.__name__ in _running:
            return
        _running.add(module.__name__)
        try:
            spec = module.__spec__
            assert spec is not None and spec.loader is not None
            spec.loader.exec_module(module)
            module.__class__ = ModuleType  # a plain package from now on: lookups no longer come here
        finally:
            _running.discard(module.__name__)


def defer() -> None:
    """Put `PACKAGES` in `sys.modules` with their bodies not run; a package already imported is left as it is."""
    with _lock:
        for name in PACKAGES:
            if name in sys.modules:
                continue
            spec = importlib.util.find_spec(name)
            if spec is None or spec.submodule_search_locations is None or spec.loader is None:
                return  # not installed as a package: the imports that need it say so as always
            module = _Deferred(name)
            module.__spec__ = spec
            module.__loader__ = spec.loader
            module.__file__ = spec.origin
            module.__cached__ = spec.cached  # type: ignore[attr-defined]  # as the import system sets it
            module.__path__ = list(spec.submodule_search_locations)
            module.__package__ = name
            sys.modules[name] = module
            parent, _, child = name.rpartition(".")
            if parent:
                setattr(sys.modules[parent], child, module)


def deferred(name: str) -> bool:
    """Whether package `name`'s body is still waiting (tests ask)."""
    return _waiting(sys.modules.get(name))


def _waiting(module: ModuleType | None) -> bool:
    return type(module) is _Deferred
