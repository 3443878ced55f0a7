"""The app's sign-in hooks: a sign-in goes to the server that asked; outside the app's servers, to the hooks before."""

from __future__ import annotations

import anyio
import pytest

from catalog_inspector.core.oauth import OAuthHooks, SignIn, default_hooks, set_default_hooks
from catalog_inspector.runtime import signins


def test_a_sign_in_asked_outside_any_server_of_the_app_goes_to_the_hooks_installed_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(signins, "_before", signins._before)  # restored after the test, with the hooks below
    before = default_hooks()
    seen: list[SignIn] = []
    heard: list[tuple[str, str]] = []

    async def opener(sign_in: SignIn) -> None:
        seen.append(sign_in)

    set_default_hooks(OAuthHooks(opener=opener, store="memory", on_notice=lambda *said: heard.append(said), wait=7))
    try:
        signins.install_hooks()
        hooks = default_hooks()
        assert hooks.opener is not opener and (hooks.store, hooks.wait) == ("memory", 7)
        signins.install_hooks()
        assert default_hooks() is hooks, "installed once"
        pending = SignIn("cli", "https://auth.example/authorize", "http://127.0.0.1:9/callback", 1.0)
        anyio.run(hooks.opener, pending)
        assert hooks.on_notice is not None
        hooks.on_notice("cli", "words")
    finally:
        set_default_hooks(before)
    assert seen == [pending] and heard == [("cli", "words")]
