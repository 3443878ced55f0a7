"""The CLI's OAuth options: the flags, how they lay over a configured entry's "oauth" object, and the hooks
that show a sign-in as `--oauth-open` says (see `core.oauth.provider`)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from catalog_inspector.core.config import (
    ConfigError,
    OAuthConfig,
    ServerSpec,
    check_client_metadata_url,
    oauth_applies,
)
from catalog_inspector.core.open_mode import OpenMode, default_mode
from catalog_inspector.core.text import visible

# `core.oauth` (the SDK's OAuth client) is imported where a command uses it, not by the parser (`add_oauth_options`).

__all__ = ["OAUTH_FLAGS", "add_oauth_options", "port", "use_oauth_hooks", "with_oauth_flags"]


def add_oauth_options(command: argparse.ArgumentParser) -> None:
    """How to sign in to an HTTP server that asks for OAuth (the flags override the entry's "oauth" object)."""
    oauth = command.add_argument_group("OAuth (HTTP servers that ask for a sign-in)")
    oauth.add_argument(
        "--oauth-open",
        choices=[str(mode) for mode in OpenMode],
        help=f"how to show the sign-in: browser, print the URL on stderr, or fetch it (default here: {default_mode()})",
    )
    oauth.add_argument("--oauth-client-id", metavar="ID", help="a client registered with the authorization server")
    oauth.add_argument("--oauth-client-secret", metavar="SECRET", help="that client's secret")
    oauth.add_argument("--oauth-scope", metavar="SCOPES", help="the scopes to ask for (space-separated)")
    oauth.add_argument(
        "--oauth-client-metadata-url", metavar="URL", help="this client's metadata document (CIMD), an https URL"
    )
    oauth.add_argument(
        "--oauth-redirect-port", type=port, metavar="PORT", help="a fixed loopback port for the redirect"
    )
    oauth.add_argument("--no-store", action="store_true", help="keep the sign-in for this run only, not in the keyring")


def port(text: str) -> int:
    try:
        value = int(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from exc
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number (1 to 65535): {text!r}")
    return value


OAUTH_FLAGS = {  # flag → OAuthConfig field
    "oauth_client_id": "client_id",
    "oauth_client_secret": "client_secret",
    "oauth_scope": "scope",
    "oauth_client_metadata_url": "client_metadata_url",
    "oauth_redirect_port": "redirect_port",
}


def with_oauth_flags(spec: ServerSpec, args: argparse.Namespace) -> ServerSpec:
    """`spec` with the OAuth flags given laid over its entry's "oauth" object (ValueError: a usage error)."""
    given = {field: getattr(args, flag) for flag, field in OAUTH_FLAGS.items() if getattr(args, flag) is not None}
    if not given and args.oauth_open is None:
        return spec
    if spec.transport == "stdio":
        raise ValueError("the --oauth-… options go with an HTTP server (--url, or a configured http or sse server)")
    if not oauth_applies(spec):
        raise ValueError("the server's headers bring their own Authorization: the --oauth-… options would go unused")
    if not given:
        return spec
    if "client_metadata_url" in given:
        try:
            check_client_metadata_url(given["client_metadata_url"], "--oauth-client-metadata-url")
        except ConfigError as exc:
            raise ValueError(str(exc)) from exc
    merged = replace(spec.oauth or OAuthConfig(), **given)
    if merged.client_secret is not None and merged.client_id is None:
        raise ValueError("--oauth-client-secret goes with --oauth-client-id")
    return replace(spec, oauth=merged)


def use_oauth_hooks(args: argparse.Namespace, limit: int, spec: ServerSpec | None = None) -> None:
    """Sign-ins in this run: shown as --oauth-open says, kept unless --no-store, notices said once on stderr.

    With `spec` (the one server the command reaches), nothing is done for a server that cannot ask for a
    sign-in (stdio, or headers that bring their own Authorization): the OAuth client stays unloaded.
    """
    if spec is not None and not oauth_applies(spec):
        return
    from catalog_inspector.core.oauth import OAuthHooks, opener_for, set_default_hooks

    said: set[tuple[str, str]] = set()

    def notice(server: str, words: str) -> None:
        if (server, words) not in said:
            said.add((server, words))
            print(f"mcp-catalog-inspector: {visible(server, 200)}: {visible(words, limit)}", file=sys.stderr)

    mode = OpenMode(args.oauth_open) if args.oauth_open is not None else default_mode()
    store = "memory" if args.no_store else "keyring"
    set_default_hooks(OAuthHooks(opener=opener_for(mode), store=store, on_notice=notice))
