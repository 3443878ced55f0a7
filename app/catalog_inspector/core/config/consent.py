"""Which local commands the user agreed to run: asked once per exact command line.

A stdio server is code the user is about to run. Before its first launch the
app shows the command, its arguments, its working directory and the names of
the variables set for it, and asks. The answer is kept by a digest of exactly
those (the variables' names, not their values: a rotated token is not a new
command), so any change to the command line asks again.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from pathlib import Path

from catalog_inspector.core.config.servers import ServerSpec
from catalog_inspector.core.files import MAX_CONFIG_BYTES, read_json, write_text_safely

__all__ = ["LaunchConsent", "launch_key", "launch_words"]


def launch_key(spec: ServerSpec) -> str:
    line = [spec.command, list(spec.args), spec.cwd, sorted(spec.env)]
    return hashlib.sha256(json.dumps(line, ensure_ascii=False).encode()).hexdigest()


def launch_words(spec: ServerSpec) -> str:
    """What the question shows: every part of the command line, quoted as a shell would need it."""
    lines = [f"Command: {shlex.join([spec.command, *spec.args])}"]
    lines.append(f"Working directory: {spec.cwd or '(the app’s own)'}")
    names = ", ".join(sorted(spec.env)) or "none besides the usual PATH, HOME and the like"
    lines.append(f"Environment variables set: {names}")
    return "\n".join(lines)


class LaunchConsent:
    """The command lines the user agreed to, kept in `path` (None: for this run only)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._keys: set[str] = set()
        self._trusted: set[str] = set()
        if path is not None and path.exists():
            try:
                keys = read_json(path, MAX_CONFIG_BYTES, "consent files")
            except (OSError, ValueError):
                keys = []  # a damaged file asks again: never trusts more than it should
            self._keys = {key for key in keys if isinstance(key, str)} if isinstance(keys, list) else set()

    def approved(self, spec: ServerSpec) -> bool:
        if spec.transport != "stdio":
            return True
        key = launch_key(spec)
        return key in self._keys or key in self._trusted

    def trust(self, spec: ServerSpec) -> None:
        """Run without asking, for this run only (the bundled demo servers are the app's own code)."""
        self._trusted.add(launch_key(spec))

    def approve(self, spec: ServerSpec) -> None:
        """Remember the user's yes (raises OSError if it cannot be written; the yes still holds for this run)."""
        self.grant(spec)
        self.save()

    def grant(self, spec: ServerSpec) -> None:
        """The user's yes, for this run: in memory at once (the app writes it with `save`, off its GUI thread)."""
        self._keys.add(launch_key(spec))

    def save(self) -> None:
        """Write every yes given so far, whole or not at all (raises OSError if it cannot be written)."""
        if self.path is not None:
            keys = sorted(self._keys)
            write_text_safely(self.path, lambda handle: json.dump(keys, handle, allow_nan=False))
