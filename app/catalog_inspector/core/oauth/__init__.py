"""Signing in to an HTTP server that asks for OAuth: the provider, the loopback listener, how a sign-in is shown, where it is kept.

Holds `provider` (the SDK's OAuth provider with what it leaves to a client),
`listener` (the redirect's loopback listener), `signin` (the hooks that show a
sign-in and the `SignIn` they get), `opener` (the command line's ways to show it)
and `store` (the keyring, or memory for one run). Imports `transport` (the byte
cap and the classification of its HTTP failures), `config` and core's shared modules.
"""

from __future__ import annotations

from catalog_inspector.core.oauth.opener import (
    OpenMode,
    default_mode,
    opener_for,
)
from catalog_inspector.core.oauth.provider import (
    InspectorOAuth,
    OAuthHooks,
    oauth_applies,
    set_default_hooks,
)
from catalog_inspector.core.oauth.signin import (
    SignIn,
    default_hooks,
)
from catalog_inspector.core.oauth.store import (
    Grant,
    forget,
    grant_of,
)

__all__ = [
    "Grant",
    "InspectorOAuth",
    "OAuthHooks",
    "OpenMode",
    "SignIn",
    "default_hooks",
    "default_mode",
    "forget",
    "grant_of",
    "oauth_applies",
    "opener_for",
    "set_default_hooks",
]
