"""Environment and header values kept in the system keyring, with the config holding a reference.

A value stored here is written into the config as `${keyring:SERVER/env/NAME}`
(or `/headers/NAME`) and read back when the server starts, so the file never
holds the secret. Without a usable keyring (a headless machine, no Secret
Service) values stay in the config file as typed, and the app says so.
"""

from __future__ import annotations

__all__ = ["SERVICE", "keyring_status", "read_secret", "reference", "store_secret"]

SERVICE = "mcp-catalog-inspector"


def keyring_status() -> tuple[bool, str]:
    """Whether values can go to a keyring, and where they would be kept, in words."""
    import keyring  # here, not at start-up: finding a backend costs tens of milliseconds
    from keyring.backends import fail

    backend = keyring.get_keyring()
    if isinstance(backend, fail.Keyring) or getattr(backend, "priority", 0) <= 0:
        return False, "no system keyring is available here"
    name = getattr(backend, "name", type(backend).__name__)
    return True, f"the system keyring ({name})"


def reference(server: str, kind: str, key: str) -> str:
    """The config text that stands for a stored value (`kind`: "env" or "headers")."""
    return f"${{keyring:{server}/{kind}/{key}}}"


def store_secret(path: str, value: str) -> None:
    """Keep `value` under `path` (e.g. `files/env/TOKEN`).

    Raises:
        keyring.errors.KeyringError: the keyring refused it.
    """
    import keyring

    keyring.set_password(SERVICE, path, value)


def read_secret(path: str) -> str | None:
    """The value kept under `path`, or None (nothing kept, or no keyring)."""
    import keyring
    import keyring.errors

    try:
        return keyring.get_password(SERVICE, path)
    except keyring.errors.KeyringError:
        return None
