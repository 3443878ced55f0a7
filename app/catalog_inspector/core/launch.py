"""Command lines that run one of the app's own Python modules in a new process, from source or from a bundle.

From a virtualenv or a source tree the command is the interpreter with `-m MODULE`.
A frozen app (PyInstaller) has no interpreter to give `-m` to: `sys.executable` is
the app itself. There the command is the app's executable with a hidden first
argument (`ENTRY_FLAGS`) that `catalog_inspector.main` handles before it imports
anything else, and runs the module's `main()` with the remaining arguments.

Only the modules in `ENTRY_FLAGS` can be run this way; asking for another one is
a bug, not a user error, and raises `KeyError` in both modes so it shows up in
the tests rather than in a frozen build.
"""

from __future__ import annotations

import sys

__all__ = ["ENTRY_FLAGS", "python_module_command"]

# Module → the hidden flag that runs it inside a frozen app. main.py maps each flag
# back to the module's `main()`; the PyInstaller spec names these modules as hidden
# imports (they are only ever imported by name, so its analysis cannot see them).
ENTRY_FLAGS: dict[str, str] = {
    "catalog_inspector.demo": "--run-demo-server",
    "catalog_inspector.core.calls.sandbox_worker": "--run-sandbox-worker",
}


def python_module_command(
    module: str,
    *args: str,
    interpreter_flags: tuple[str, ...] = (),
    frozen: bool | None = None,
    executable: str | None = None,
) -> tuple[str, tuple[str, ...]]:
    """The program and its arguments that run `module` with `args` in a new process.

    Args:
        module: a key of `ENTRY_FLAGS`.
        interpreter_flags: flags for the Python interpreter (such as `-P`); a frozen
            app has no interpreter command line, so they are dropped there.
        frozen: whether this is a bundled app; by default `sys.frozen` (set by PyInstaller).
        executable: the program to start; by default `sys.executable`.

    Raises:
        KeyError: `module` has no entry flag.
    """
    flag = ENTRY_FLAGS[module]
    if frozen is None:
        frozen = bool(getattr(sys, "frozen", False))
    program = sys.executable if executable is None else executable
    if frozen:
        return program, (flag, *args)
    return program, (*interpreter_flags, "-m", module, *args)
