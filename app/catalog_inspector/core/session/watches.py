"""Resource subscriptions on one connection: subscribe, unsubscribe, and the updates the server sends.

Before 2026-07-28 a client asks with `resources/subscribe` and the server pushes
`notifications/resources/updated`; on 2026-07-28 the same notification comes only on a `subscriptions/listen`
stream whose filter names the resource (`resourceSubscriptions`): one stream per resource here, open while it is
watched, closed to unsubscribe. Either way the update reaches the connection's message handler, which calls
`heard`. A flood costs a count, never a queue: `updated` holds at most `MAX_WATCHED` URIs.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import anyio
from mcp.client.session import ClientSession
from mcp.client.subscriptions import ListenNotSupportedError, SubscriptionLost, listen
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind
from catalog_inspector.core.server_log import ServerLog
from catalog_inspector.core.text import visible
from catalog_inspector.core.transport import classify

__all__ = ["MAX_WATCHED", "ResourceWatches", "UPDATED"]

MAX_WATCHED = 100  # resources watched at once on one connection
UPDATED = "notifications/resources/updated"

Updated = Callable[[str], None]


@contextmanager
def _before_2026() -> Iterator[None]:
    """The SDK warns that `resources/subscribe` is gone from 2026-07-28: it is sent only on older sessions."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        yield


class ResourceWatches:
    """The resources one connection watches.

    Attributes:
        watched: the URIs subscribed to, in the order asked.
        updates: how many updates the server sent for each watched URI since it was subscribed to.
        on_updated: told each URI the server said changed (one call per notification heard).
    """

    def __init__(self, session: ClientSession, group: anyio.abc.TaskGroup, log: ServerLog) -> None:
        self._session = session
        self._group = group
        self._log = log
        self._streams: dict[str, anyio.Event] = {}  # 2026-07-28: a URI's stream ends when its event is set
        self.watched: list[str] = []
        self.updates: dict[str, int] = {}
        self.on_updated: Updated | None = None

    @property
    def modern(self) -> bool:
        return self._session.protocol_version in MODERN_PROTOCOL_VERSIONS

    async def subscribe(self, uri: str, timeout: float) -> ErrorInfo | None:
        """Watch `uri`; None once the server accepted, else why not (nothing is watched then)."""
        if uri in self.watched:
            return None
        if len(self.watched) >= MAX_WATCHED:
            return ErrorInfo(ErrorKind.PROTOCOL, f"{MAX_WATCHED} resources are watched already: unsubscribe one first")
        try:
            with anyio.fail_after(timeout):
                if self.modern:
                    await self._listen(uri)
                else:
                    with _before_2026():
                        await self._session.subscribe_resource(uri)
        except TimeoutError:
            return ErrorInfo(ErrorKind.TIMEOUT, f"no answer to the subscription within {timeout:g} s")
        except CatalogError as exc:
            return exc.info
        except (MCPError, ListenNotSupportedError, SubscriptionLost, OSError, anyio.BrokenResourceError) as exc:
            return classify(exc).info
        self.watched.append(uri)
        self.updates[uri] = 0
        return None

    async def unsubscribe(self, uri: str, timeout: float) -> ErrorInfo | None:
        """Stop watching `uri` (it is forgotten here whatever the server answers)."""
        if uri not in self.watched:
            return None
        self.watched.remove(uri)
        self.updates.pop(uri, None)
        ended = self._streams.pop(uri, None)
        if ended is not None:
            ended.set()  # the stream closes: on 2026-07-28 that is the unsubscribe
            return None
        try:
            with anyio.fail_after(timeout), _before_2026():
                await self._session.unsubscribe_resource(uri)
        except TimeoutError:
            return ErrorInfo(ErrorKind.TIMEOUT, f"no answer to the unsubscription within {timeout:g} s")
        except (MCPError, OSError, anyio.BrokenResourceError) as exc:
            return classify(exc).info
        return None

    def heard(self, uri: str) -> None:
        """The server said `uri` changed: counted if it is watched (a flood of them is a number)."""
        if uri in self.updates:
            self.updates[uri] += 1
            if self.on_updated is not None:
                self.on_updated(uri)

    async def _listen(self, uri: str) -> None:
        """Open the URI's listen stream in the connection's task group; return once the server acknowledged it."""
        opened = anyio.Event()
        ended = anyio.Event()
        failed: list[BaseException] = []

        async def stream() -> None:
            try:
                async with listen(self._session, resource_subscriptions=[uri]) as subscription:
                    opened.set()
                    async with anyio.create_task_group() as inner:

                        async def drain() -> None:
                            async for _event in subscription:  # events reach the message handler too
                                pass

                        inner.start_soon(drain)
                        await ended.wait()
                        inner.cancel_scope.cancel()
            except SubscriptionLost as exc:
                self._log.append(f"[mcp-catalog-inspector] the subscription to {visible(uri, 200)} ended: {exc}")
            except Exception as exc:  # refused before the acknowledgment: the subscriber hears why
                failed.append(exc)
            finally:
                opened.set()
                self._streams.pop(uri, None)

        self._streams[uri] = ended
        self._group.start_soon(stream)
        await opened.wait()
        if failed:
            self._streams.pop(uri, None)
            raise failed[0]
