"""What a server entry's fields must hold to be usable at all: the one rule for each, for the config, the CLI's
flags and the server dialog alike.

Each check raises `ConfigError` naming the field (`where`), never a secret's value.
They refuse what would otherwise fail only once the server is started, misnamed:
`subprocess` refuses a NUL anywhere in a command line or the environment and an `=`
in a variable's name ("embedded null byte", then reported as the server's
protocol fault); the HTTP client encodes header values as ASCII; and a URL with a
port out of range or a broken IPv6 host failed deep inside the connection, as
"ExceptionGroup: unhandled errors in a TaskGroup" or an internal ValueError.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from urllib.parse import urlsplit

from catalog_inspector.core.redact import HIDDEN, redacted_url
from catalog_inspector.core.text import visible

__all__ = [
    "ConfigError",
    "check_arguments",
    "check_environment",
    "check_header",
    "check_text",
    "check_url",
    "shown_url",
]


class ConfigError(ValueError):
    """A configuration file or entry that cannot be used; the message says where and why."""


_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # RFC 9110 field-name
_SENDABLE = re.compile(r"[\t\x20-\x7e]*")  # what a header value may hold: printable ASCII and tabs
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@")
_UNPARSABLE = redacted_url("http://[")  # what `redacted_url` says of a URL it cannot parse
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")  # the HTTP client refuses these in a URL; `urlsplit` lets them through


def check_header(name: str, value: str, where: str) -> None:
    """Refuse a header an HTTP client could not send as given (a CR or LF would split it into two).

    Raises:
        ConfigError: naming the header (never its value: it may be a secret).
    """
    if not _TOKEN.fullmatch(name):
        raise ConfigError(f"{where}: header name '{visible(name, 100)}' is not a valid HTTP field name")
    if any(char in value for char in "\r\n\0"):
        raise ConfigError(f"{where}: the value of header {name!r} contains a line break or NUL")
    if not _SENDABLE.fullmatch(value):
        position = next(i for i, char in enumerate(value) if not _SENDABLE.fullmatch(char))
        raise ConfigError(
            f"{where}: the value of header {name!r} has a character HTTP cannot send at position {position + 1} "
            "(header values are printable ASCII)"
        )


def check_text(text: str, where: str) -> None:
    """Refuse a NUL in a command, an argument or a directory: no command line can hold one.

    Raises:
        ConfigError: naming `where`.
    """
    if "\0" in text:
        raise ConfigError(f"{where} contains a NUL character, which no command line can hold")


def check_arguments(args: Sequence[str], where: str) -> None:
    """`check_text` for each argument, named by its place (`where[2]`)."""
    for index, arg in enumerate(args):
        check_text(arg, f"{where}[{index}]")


def check_environment(env: Mapping[str, str], where: str) -> None:
    """Refuse a variable no process environment can hold: an empty name, `=` or NUL in a name, NUL in a value.

    Raises:
        ConfigError: naming the variable (never its value: it may be a secret).
    """
    for name, value in env.items():
        if not name or "=" in name or "\0" in name:
            raise ConfigError(f"{where}: '{visible(name, 100)}' cannot be a variable's name (non-empty, no '=' or NUL)")
        if "\0" in value:
            raise ConfigError(f"{where}: the value of {name!r} contains a NUL character, which no environment can hold")


def shown_url(url: str) -> str:
    """`url` as it may be shown: `redacted_url`, or for one it cannot parse, the text without its user,
    password, query values and fragment."""
    shown = redacted_url(url)
    if shown == _UNPARSABLE:  # then by text alone: whatever stands before an @ in the authority goes
        rough = _USERINFO.sub(r"\1", url).partition("#")[0]
        base, query, _ = rough.partition("?")
        shown = base + (f"?{HIDDEN}" if query else "")
    return visible(shown, 300)


def check_url(url: str, where: str) -> None:
    """Refuse a URL the HTTP client cannot connect to: not http(s), no host, a port outside 1–65535,
    a broken IPv6 address, a control character (by the standard library's parser: this room does
    not import the network stack).

    Raises:
        ConfigError: naming `where` and the URL without its credentials.
    """
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"{where} must be an http:// or https:// URL")
    reason = ""
    if control := _CONTROL.search(url):
        reason = f"a control character at position {control.start() + 1}"
    else:
        try:
            parts = urlsplit(url)
            port = parts.port  # parsed lazily: an out-of-range or non-numeric port raises here
            if not parts.hostname:
                reason = "it has no host"
            elif port is not None and not 1 <= port <= 65535:
                reason = f"port {port} is not 1 to 65535"
        except ValueError as exc:
            reason = str(exc)  # the standard library's words name the part, never the credentials
    if reason:
        raise ConfigError(f"{where} is not a usable URL ({reason}): {shown_url(url)}")
