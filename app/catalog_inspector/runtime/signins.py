"""Sign-ins in the app: the engine's hooks routed to the server that asked, kept sign-ins, signing out.

The engine (`core.oauth.provider`) shows a sign-in through the hooks every connection uses
(`core.oauth.signin.set_default_hooks`). The app's hooks (`install_hooks`, which the
runtime calls) run in the task of the request that met the 401, under the session
worker of one supervisor: `supervisor.asking` names it, so the sign-in is shown on
exactly that server (`ServerSupervisor.show_sign_in`), never on another server of the
same name that a configuration change put in its place. A connection made outside any
supervisor in the same process gets the hooks that were installed before.

`SignInDesk` says what each server's kept sign-in allows (`core.oauth.store.Grant`:
scopes, expiry; never a token) and signs out. Both are keyring calls, on the offload
threads; a server's kept sign-in is read only once the server has been reached (a
walk or a call ended, a sign-in ended), never at start.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.config import oauth_applies
from catalog_inspector.core.errors import ErrorInfo, ErrorKind
from catalog_inspector.core.text import visible
from catalog_inspector.runtime.messages import MessageBridge, failure_words
from catalog_inspector.runtime.offload import Offload, OffloadClosed
from catalog_inspector.runtime.supervisor import ServerSupervisor, asking
from catalog_inspector.runtime.tasks import TaskSet

if TYPE_CHECKING:  # the engine: the hooks are installed, and kept sign-ins read, once it is imported
    from catalog_inspector.core.oauth import Grant, OAuthHooks, SignIn

__all__ = ["SignInDesk", "install_hooks"]

_before: OAuthHooks | None = None  # the hooks installed before the app's: for connections outside a supervisor


async def _open(sign_in: SignIn) -> None:
    supervisor = asking.get()
    if supervisor is None:
        assert _before is not None
        await _before.opener(sign_in)
        return
    supervisor.show_sign_in(sign_in)  # the window shows it and opens the browser; the engine waits


def _notice(server: str, words: str) -> None:
    supervisor = asking.get()
    if supervisor is not None:
        supervisor.hear_sign_in_notice(words)
    elif _before is not None and _before.on_notice is not None:
        _before.on_notice(server, words)


def install_hooks() -> None:
    """Make the app's hooks the ones every connection uses (once per process; later calls change nothing).

    Imports the engine: the runtime calls it once the engine gate is open (`runtime.engine`)."""
    from catalog_inspector.core.oauth import OAuthHooks, default_hooks, set_default_hooks

    global _before
    current = default_hooks()
    if current.opener is _open:
        return
    _before = current
    set_default_hooks(OAuthHooks(opener=_open, store=current.store, on_notice=_notice, wait=current.wait))


def grant_of(url: str) -> Grant | None:
    """`core.oauth.grant_of`, imported when called (the engine: on an offload thread, if it is not imported yet)."""
    from catalog_inspector.core import oauth

    return oauth.grant_of(url)


def forget(url: str) -> bool:
    """`core.oauth.forget`, imported when called."""
    from catalog_inspector.core import oauth

    return oauth.forget(url)


SIGNED_OUT = "you signed out: the session that used the sign-in was closed"


class SignInDesk(QObject):
    """What each server's kept sign-in allows, and signing out; the sign-ins servers ask for, for the window.

    Attributes:
        grants: server name → its kept sign-in (None: nothing kept); a name is absent until read.

    Signals:
        sign_in_started(str): this server began waiting for a person to sign in (its supervisor's
            `sign_in`): the window opens the browser, once per sign-in.
        grant_changed(str): `grants` has this server's sign-in (read again).
        signed_out(str, object): a sign-out ended (server name; None, or what went wrong in words).
    """

    sign_in_started = Signal(str)
    grant_changed = Signal(str)
    signed_out = Signal(str, object)

    def __init__(self, offload: Offload, tasks: TaskSet | None = None, messages: MessageBridge | None = None) -> None:
        super().__init__()
        self.grants: dict[str, Grant | None] = {}
        self._offload = offload
        self._tasks = tasks if tasks is not None else TaskSet()
        self._messages = messages if messages is not None else MessageBridge()
        self._supervisors: dict[str, ServerSupervisor] = {}
        self._reading: set[str] = set()
        self._again: set[str] = set()

    def follow(self, supervisor: ServerSupervisor) -> None:
        """Follow a server's sign-ins (at start, and when the configuration adds or changes one)."""
        self._supervisors[supervisor.spec.name] = supervisor
        supervisor.sign_in_changed.connect(self._on_supervisor_sign_in_changed)
        supervisor.catalog_accepted.connect(self._on_supervisor_reached)
        supervisor.refresh_failed.connect(self._on_supervisor_reached)
        supervisor.call_finished.connect(self._on_supervisor_reached)

    def forget(self, supervisor: ServerSupervisor) -> None:
        """Stop following a server the configuration dropped or replaced (its sign-in stays kept)."""
        name = supervisor.spec.name
        if self._supervisors.get(name) is not supervisor:
            return
        del self._supervisors[name]
        self.grants.pop(name, None)
        supervisor.sign_in_changed.disconnect(self._on_supervisor_sign_in_changed)
        supervisor.catalog_accepted.disconnect(self._on_supervisor_reached)
        supervisor.refresh_failed.disconnect(self._on_supervisor_reached)
        supervisor.call_finished.disconnect(self._on_supervisor_reached)

    def can_sign_out(self, name: str) -> bool:
        """A sign-in is kept for this HTTP server and no walk runs (a walk would keep what it signs in to)."""
        supervisor = self._supervisors.get(name)
        return supervisor is not None and self.grants.get(name) is not None and not supervisor.busy

    def read(self, name: str) -> None:
        """Read the server's kept sign-in again, off the GUI thread; `grant_changed` follows."""
        supervisor = self._supervisors.get(name)
        if supervisor is None or not oauth_applies(supervisor.spec):
            return
        if name in self._reading:
            self._again.add(name)  # one read at a time per server; the latest state is read once more
            return
        self._reading.add(name)
        self._spawn(self._read(supervisor), name, "read the kept sign-in", True)

    def sign_out(self, name: str) -> bool:
        """Forget the server's tokens, client registration and metadata; close the session that holds them.

        `signed_out` says how it went; the next walk asks for a sign-in. False if there is nothing to forget.
        """
        if not self.can_sign_out(name):
            return False
        self._spawn(self._sign_out(self._supervisors[name]), name, "sign out")
        return True

    # -- off the GUI thread ---------------------------------------------------
    def _spawn(self, work: Coroutine[Any, Any, None], server: str, what: str, droppable: bool = False) -> None:
        """Run one job of this desk; whatever it raises is said on the message bridge."""

        def failed(exc: BaseException) -> None:
            self._messages.error(f"could not {what}: {failure_words(exc)}", server)

        self._tasks.spawn(work, None, failed, name=f"sign-ins: {what}", droppable=droppable)

    async def _read(self, supervisor: ServerSupervisor) -> None:
        name = supervisor.spec.name
        try:
            while True:
                self._again.discard(name)
                try:
                    grant = await self._offload.run(grant_of, supervisor.spec.url)
                except OffloadClosed:
                    return
                if self._supervisors.get(name) is not supervisor:
                    return  # replaced while it was read
                if name not in self._again:
                    break
        finally:
            self._reading.discard(name)
        self.grants[name] = grant
        self.grant_changed.emit(name)

    async def _sign_out(self, supervisor: ServerSupervisor) -> None:
        import keyring.errors  # as the engine does: the keyring is imported only when it is used

        name = supervisor.spec.name
        try:
            await self._offload.run(forget, supervisor.spec.url)
        except OffloadClosed:
            return
        except (keyring.errors.KeyringError, OSError) as exc:
            self.signed_out.emit(name, visible(f"the keyring refused to forget it: {exc}", 300))
            return
        supervisor.drop_session(ErrorInfo(ErrorKind.CANCELLED, SIGNED_OUT, details={"cause": "signed_out"}))
        if self._supervisors.get(name) is supervisor:
            self.grants[name] = None
            self.grant_changed.emit(name)
        self.signed_out.emit(name, None)

    # -- following the supervisors ---------------------------------------------
    def _on_supervisor_sign_in_changed(self) -> None:
        supervisor = self.sender()
        if (
            not isinstance(supervisor, ServerSupervisor)
            or self._supervisors.get(supervisor.spec.name) is not supervisor
        ):
            return
        if supervisor.sign_in is not None:
            self.sign_in_started.emit(supervisor.spec.name)
        else:
            self.read(supervisor.spec.name)

    def _on_supervisor_reached(self, *_args: object) -> None:
        supervisor = self.sender()
        if isinstance(supervisor, ServerSupervisor) and self._supervisors.get(supervisor.spec.name) is supervisor:
            self.read(supervisor.spec.name)
