"""`signout`: forget the sign-in the keyring keeps for one HTTP server."""

from __future__ import annotations

import argparse
import sys

from catalog_inspector.cli.common import EXIT_CODES, UsageError, configured, usage
from catalog_inspector.core.oauth import forget
from catalog_inspector.core.redact import redacted_url
from catalog_inspector.core.text import visible


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `signout` command: forget what the keyring keeps for one server."""
    try:
        if args.url is not None:
            if not args.url.startswith(("http://", "https://")):
                raise UsageError(f"--url must start with http:// or https://: {args.url!r}")
            url = args.url
        else:
            spec = configured(args)
            if spec.transport == "stdio":
                raise UsageError(f"{visible(spec.name, 200)!r} is a stdio server: there is no sign-in to forget")
            url = spec.url
    except UsageError as exc:
        return usage(parser, "signout", str(exc))
    import keyring.errors

    shown = redacted_url(url)
    try:
        found = forget(url)
    except keyring.errors.KeyringError as exc:
        print(f"mcp-catalog-inspector signout: the keyring refused: {visible(str(exc), 300)}", file=sys.stderr)
        return EXIT_CODES["failed"]
    print(f"signed out of {shown}" if found else f"no sign-in was kept for {shown}", file=sys.stderr)
    return EXIT_CODES["complete"]
