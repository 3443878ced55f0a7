"""The app's own configuration off the GUI thread: reading the file (and the keyring values it names),
writing it (and the values kept in the keyring), and asking whether there is a keyring at all.

Each of these can block for long on a bad day: an fsync on a slow disk, a keyring
daemon that waits for an unlock prompt. They run on the offload threads, one write at
a time in the order asked, and each reports back: the result to the caller's
callback, a failure in words on the message bridge (a write that failed changed
nothing: the store writes whole or not at all).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.config import ConfigError, Loaded, keyring_status, load_config
from catalog_inspector.runtime.messages import MessageBridge, failure_words
from catalog_inspector.runtime.offload import Offload
from catalog_inspector.runtime.tasks import TaskSet

__all__ = ["ConfigDesk"]

T = TypeVar("T")


class ConfigDesk(QObject):
    """Reads and writes of the app's configuration, each on the offload threads and each reported.

    Attributes:
        keyring: whether values can go to a keyring, and where, in words (None until probed).

    Signals:
        keyring_probed(): `keyring` is known.
    """

    keyring_probed = Signal()

    def __init__(
        self, offload: Offload, tasks: TaskSet, messages: MessageBridge, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.keyring: tuple[bool, str] | None = None
        self._offload = offload
        self._tasks = tasks
        self._messages = messages
        self._writes = asyncio.Lock()

    def load(self, path: Path, done: Callable[[Loaded | ConfigError], None]) -> None:
        """Read the config at `path`; `done` gets what was loaded, or the ConfigError that says why not."""

        async def job() -> Loaded | ConfigError:
            try:
                return await self._offload.run(load_config, path)
            except ConfigError as exc:
                return exc

        self._tasks.spawn(job(), done, self._failed("read the configuration"), name="config: read")

    def write(self, change: Callable[[], T], done: Callable[[T], None] | None = None, what: str = "") -> None:
        """Run `change` (it writes the file, or the keyring) off the GUI thread, after the writes asked before it;
        `done` gets its result. A ConfigError, an OSError or a keyring's refusal is said, and nothing more."""

        async def job() -> T:
            async with self._writes:
                return await self._offload.run(change)

        self._tasks.spawn(job(), done, self._failed(what or "save the configuration"), name="config: write")

    def probe_keyring(self) -> None:
        """Find out (once, off the GUI thread: finding a backend can take a while) whether there is a keyring."""

        def known(status: tuple[bool, str]) -> None:
            self.keyring = status
            self.keyring_probed.emit()

        def failed(exc: BaseException) -> None:
            known((False, f"the keyring could not be asked ({failure_words(exc)})"))

        self._tasks.spawn(self._offload.run(keyring_status), known, failed, name="config: probe the keyring")

    def _failed(self, what: str) -> Callable[[BaseException], None]:
        def failed(exc: BaseException) -> None:
            words = str(exc) if isinstance(exc, ConfigError) else failure_words(exc)
            self._messages.error(f"Could not {what}; nothing was changed: {words}")

        return failed

    @staticmethod
    def ignore(_result: Any) -> None:
        """A `done` for writes whose result nobody needs."""
