"""The loopback listener that receives one sign-in's redirect (RFC 8252 §7.3), open only for that sign-in.

It is bound on 127.0.0.1 when a sign-in starts (before the client registers,
so the registration names its port), answers `GET /callback` once, and is
closed right after: no listening socket exists outside a sign-in. Nothing it
receives is trusted: a request's head is read up to a byte cap and a time
bound, several connections are served at once (a browser opens speculative
ones that never send anything), and the page it answers with never repeats
what it was sent.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import anyio
import anyio.abc

from catalog_inspector.core.errors import CatalogError, ErrorKind, make_error

__all__ = ["CALLBACK_PATH", "Callback", "LoopbackListener"]

CALLBACK_PATH = "/callback"
HEAD_LIMIT = 16 * 1024  # bytes of a request's line and headers; a redirect's query fits with room to spare
HEAD_SECONDS = 10.0  # for one connection to send its request head
VALUE_LIMIT = 4096  # characters kept of one query parameter


@dataclass(frozen=True)
class Callback:
    """The query of the redirect that came back: a code and state, or the authorization server's error."""

    code: str | None = None
    state: str | None = None
    iss: str | None = None
    error: str | None = None
    error_description: str | None = None


def _page(status: str, words: str) -> bytes:
    body = (
        "<!doctype html><meta charset=utf-8><title>MCP Catalog Inspector</title>"
        f"<p style='font:16px sans-serif;margin:3em'>{words}</p>"
    ).encode()
    head = f"HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
    return (head + "Cache-Control: no-store\r\nConnection: close\r\n\r\n").encode() + body


SIGNED_IN = _page("200 OK", "Signed in. You can close this window and return to MCP Catalog Inspector.")
REFUSED = _page("400 Bad Request", "This sign-in response was refused. Return to MCP Catalog Inspector for the reason.")
NOT_FOUND = _page("404 Not Found", "Nothing here.")


def bind_error(port: int, exc: OSError) -> CatalogError:
    where = f"127.0.0.1:{port}" if port else "an ephemeral port on 127.0.0.1"
    return make_error(
        ErrorKind.AUTH,
        f"could not listen on {where} for the redirect ({exc.strerror or exc})",
        details={"step": "authorization", "cause": "listener", "port": port, "errno": exc.errno},
    )


class LoopbackListener:
    """A listening socket on 127.0.0.1 (an ephemeral port unless one is given) for one sign-in's redirect.

    Attributes:
        port: the port it listens on.
        redirect_uri: `http://127.0.0.1:<port>/callback`.
        closed: whether the socket is closed (after `close()`; it is never reopened).

    Raises (constructor):
        CatalogError: kind auth, step authorization, when the port cannot be bound.
    """

    def __init__(self, port: int = 0) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            # A port used by an earlier sign-in may still have connections in TIME_WAIT.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", port))
            sock.listen(16)
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            raise bind_error(port, exc) from exc
        self._sock = sock
        self.port: int = sock.getsockname()[1]
        self.redirect_uri = f"http://127.0.0.1:{self.port}{CALLBACK_PATH}"
        self.closed = False

    def close(self) -> None:
        """Stop listening (idempotent, synchronous: it also runs while a task is being cancelled)."""
        if not self.closed:
            self.closed = True
            self._sock.close()

    async def receive(self, expected_state: str | None) -> Callback:
        """Serve connections until one brings `GET /callback`; return its query. The caller bounds the wait.

        Other paths get a 404 and the wait goes on. The browser's page says "signed in" only
        for a code with the `expected_state`; anything else gets a page that says it was refused.
        """
        found: list[Callback] = []
        async with anyio.create_task_group() as group:
            while not found:
                await anyio.wait_readable(self._sock)
                try:
                    connection, _ = self._sock.accept()
                except (BlockingIOError, InterruptedError):
                    continue
                connection.setblocking(False)
                stream = await anyio.abc.SocketStream.from_socket(connection)
                group.start_soon(self._serve, stream, expected_state, found, group.cancel_scope)
        return found[0]

    async def _serve(
        self, stream: anyio.abc.SocketStream, state: str | None, found: list[Callback], done: anyio.CancelScope
    ) -> None:
        async with stream:
            head = b""
            with anyio.move_on_after(HEAD_SECONDS):
                while b"\r\n\r\n" not in head and len(head) < HEAD_LIMIT:
                    try:
                        head += await stream.receive(HEAD_LIMIT - len(head))
                    except (anyio.EndOfStream, anyio.BrokenResourceError, OSError):
                        return
            line = head.split(b"\r\n", 1)[0].decode("latin-1")
            parts = line.split(" ")
            target = urlsplit(parts[1]) if len(parts) == 3 and parts[0] == "GET" else None
            if target is None or target.path != CALLBACK_PATH or found:
                await _send(stream, NOT_FOUND)
                return
            query = parse_qs(target.query, keep_blank_values=True, max_num_fields=32)

            def one(name: str) -> str | None:
                values = query.get(name)
                return values[0][:VALUE_LIMIT] if values else None

            callback = Callback(one("code"), one("state"), one("iss"), one("error"), one("error_description"))
            found.append(callback)
            accepted = callback.code and not callback.error and (state is None or callback.state == state)
            await _send(stream, SIGNED_IN if accepted else REFUSED)
            done.cancel()


async def _send(stream: anyio.abc.SocketStream, data: bytes) -> None:
    try:
        with anyio.move_on_after(HEAD_SECONDS):
            await stream.send(data)
    except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
        pass
