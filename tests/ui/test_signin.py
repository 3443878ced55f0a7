"""Signing in to a server behind OAuth, in the app: the banner, the browser, the keyring, sign-out, cancel.

Real widgets offscreen over the engine's OAuth fixture (an authorization server and a
protected demo server, real processes on 127.0.0.1). The system browser is Qt's URL
handler for http and https, replaced by a recorder (`Browser`): the app's automatic
opening is seen there, and nothing outside the test is launched. The test plays the
person at the browser by reading the link from the banner (`signInUrl`) and following
it with httpx to the app's loopback listener. Tokens go to the tests' file keyring.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from PySide6.QtCore import QObject, QSettings, Qt, QUrl, Slot
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QPushButton

from catalog_inspector.core.calls import CallStore
from catalog_inspector.core.config import ServerSpec
from catalog_inspector.core.drift import History
from catalog_inspector.core.oauth import grant_of
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.widgets.labels import ElidedLabel
from tests.fixtures.file_keyring import FileKeyring
from tests.helpers import demo_spec
from tests.oauth_helpers import files_under, kept, listening_sockets, oauth_server
from tests.ui.conftest import Harness, wait_for


class Browser(QObject):
    """Stands in for the system browser: Qt hands it every http(s) URL `QDesktopServices.openUrl` gets."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(url.toString(QUrl.ComponentFormattingOption.FullyEncoded))


@pytest.fixture
def browser() -> Iterator[Browser]:
    recorder = Browser()
    for scheme in ("http", "https"):
        QDesktopServices.setUrlHandler(scheme, recorder, "open")  # type: ignore[arg-type]  # PySide6 wants str
    yield recorder
    for scheme in ("http", "https"):
        QDesktopServices.unsetUrlHandler(scheme)


def remote(url: str) -> ServerSpec:
    return ServerSpec(name="remote", transport="http", url=url)


def app_window(harness: Harness, spec: ServerSpec, app_dir: Path) -> MainWindow:
    settings = QSettings(str(app_dir / "settings.ini"), QSettings.Format.IniFormat)
    return harness.window(
        [spec], settings=settings, history=History(app_dir / "history"), call_store=CallStore(app_dir / "calls")
    )


def state(window: MainWindow) -> ServerState | None:
    return window.current.supervisor.state if window.current is not None else None


def url_field(window: MainWindow) -> QLineEdit:
    return window.findChild(QLineEdit, "signInUrl")


def button(window: MainWindow, name: str) -> QPushButton:
    return window.findChild(QPushButton, name)


def asks_to_sign_in(window: MainWindow) -> bool:
    return window.banner.state == "signin" and url_field(window).isVisible()


def play_browser(qtbot, link: str) -> httpx2.Response:  # type: ignore[no-untyped-def]
    """The person at the browser: follow the link through the authorization server back to the app.

    In a thread: the app's listener answers on this (the GUI) thread's event loop, which the wait spins.
    """
    done: list[httpx2.Response | BaseException] = []

    def follow() -> None:
        try:
            done.append(httpx2.get(link, follow_redirects=True, timeout=30, trust_env=False))
        except BaseException as exc:  # handed to the test's thread
            done.append(exc)

    threading.Thread(target=follow, daemon=True).start()
    wait_for(qtbot, lambda: bool(done), timeout=40_000)
    result = done[0]
    if isinstance(result, BaseException):
        raise result
    return result


def sign_in(qtbot, window: MainWindow) -> str:  # type: ignore[no-untyped-def]
    """Wait for the banner to ask, follow its link, wait for the accepted catalog; the link followed."""
    wait_for(qtbot, lambda: asks_to_sign_in(window))
    link = url_field(window).text()
    answer = play_browser(qtbot, link)
    assert answer.status_code == 200 and "Signed in" in answer.text
    wait_for(qtbot, lambda: state(window) is ServerState.READY)
    return link


def redirect_port(link: str) -> int:
    (redirect,) = parse_qs(urlsplit(link).query)["redirect_uri"]
    port = urlsplit(redirect).port
    assert port is not None
    return port


def server_info(window: MainWindow) -> str:
    return window.findChild(QPlainTextEdit, "serverInfo").toPlainText()


def sign_out_action(window: MainWindow) -> QAction:
    return window.findChild(QAction, "serverAction:signout")


def test_the_app_signs_in_through_the_banner_and_the_token_is_kept_in_the_keyring_and_nowhere_else(  # type: ignore[no-untyped-def]
    harness: Harness, qtbot, tmp_path: Path, browser: Browser, test_keyring: FileKeyring
) -> None:
    app_dir = tmp_path / "app"
    with oauth_server(tmp_path, "--access-lifetime", "600") as server:
        assert listening_sockets() == [], "nothing listens before the app starts"
        window = app_window(harness, remote(server.url), app_dir)
        wait_for(qtbot, lambda: asks_to_sign_in(window))
        link = url_field(window).text()

        # The banner: the server, the authorization server's host, the link as read-only plain text.
        issuer_host = urlsplit(link).netloc
        title = window.findChild(ElidedLabel, "statusBannerTitle").text()
        assert title == f"Sign in to remote at {issuer_host}"
        assert url_field(window).isReadOnly() and urlsplit(link).path == "/authorize"
        assert parse_qs(urlsplit(link).query)["code_challenge_method"] == ["S256"]
        assert browser.opened == [link], "the system browser was opened once, at the link shown"
        assert not button(window, "retryButton").isVisible()
        for name in ("signInOpen", "signInCopy", "signInCancel"):
            assert button(window, name).isVisible() and button(window, name).isEnabled(), name
        qtbot.mouseClick(button(window, "signInCopy"), Qt.MouseButton.LeftButton)
        assert QGuiApplication.clipboard().text() == link
        assert listening_sockets() == [("127.0.0.1", redirect_port(link))], "one loopback listener, for this sign-in"
        wait_for(qtbot, lambda: "waiting for you to finish signing in" in server_info(window))  # the pages follow

        answer = play_browser(qtbot, link)
        assert answer.status_code == 200 and "Signed in" in answer.text
        wait_for(qtbot, lambda: state(window) is ServerState.READY)
        assert listening_sockets() == [], "the listener closed with the sign-in"
        assert window.banner.state != "signin" and not url_field(window).isVisible()
        assert (
            len(window.current.supervisor.accepted.tools.items) > 0
            if window.current and window.current.supervisor.accepted
            else False
        )

        # The server details: signed in, the scopes and the expiry; never a token.
        wait_for(qtbot, lambda: "Scopes granted:" in server_info(window))
        grant = grant_of(server.url)
        assert grant is not None and grant.expires_at is not None
        info = server_info(window)
        assert "Sign-in (OAuth): signed in" in info
        assert "Scopes granted: mcp:read mcp:write mcp:admin" in info
        assert (
            f"Access token expires: {datetime.fromtimestamp(grant.expires_at).astimezone():%Y-%m-%d %H:%M:%S}" in info
        )
        assert sign_out_action(window).isEnabled()

        # A test call and an export: more files the app writes.
        supervisor = window.current.supervisor if window.current is not None else None
        assert supervisor is not None
        with qtbot.waitSignal(window.app.runtime.calls.history_changed, timeout=20_000):
            with qtbot.waitSignal(supervisor.call_finished, timeout=20_000):
                assert supervisor.call_tool("echo", {"text": "hello"}) is not None
        with qtbot.waitSignal(window.app.runtime.exported, timeout=10_000) as exported:
            assert window.export_snapshot(app_dir / "exports" / "remote.json", "accepted")
        assert exported.args[1] is None
        wait_for(qtbot, lambda: any((app_dir / "history").rglob("*.json")))
        log = window.findChild(QPlainTextEdit, "serverLog").toPlainText()
        info = server_info(window)
        harness.close(window)

    issued = server.issued()
    assert len(issued) == 1 and len(server.authorizations()) == 1
    tokens = [issued[0]["access_token"], issued[0]["refresh_token"]]
    keyring = kept(tmp_path)
    for token in tokens:
        assert any(token in value for value in keyring.values()), "the token is in the keyring"
        assert token not in info and token not in log and token not in link
    written = [
        path
        for path in files_under(tmp_path)
        if path.name != "keyring.json" and not path.name.startswith("record-")  # the keyring; the fixture's own log
    ]
    assert {path.relative_to(tmp_path).parts[0] for path in written} >= {"app", "sessions"}
    assert {path.relative_to(app_dir).parts[0] for path in written if app_dir in path.parents} >= {
        "settings.ini",
        "history",
        "calls",
        "exports",
    }
    for path in written:
        text = path.read_bytes().decode("utf-8", "replace")
        for token in tokens:
            assert token not in text, f"a token is in {path.relative_to(tmp_path)}"


def test_a_refresh_reuses_the_kept_sign_in_and_an_expired_token_is_renewed_without_asking(  # type: ignore[no-untyped-def]
    harness: Harness, qtbot, tmp_path: Path, browser: Browser, test_keyring: FileKeyring
) -> None:
    with oauth_server(tmp_path) as server:
        window = app_window(harness, remote(server.url), tmp_path / "app")
        sign_in(qtbot, window)
        supervisor = window.current.supervisor if window.current is not None else None
        assert supervisor is not None
        seen: list[str] = []
        window.app.runtime.signins.sign_in_started.connect(seen.append)

        first = supervisor.accepted
        window.refresh()
        wait_for(qtbot, lambda: supervisor.accepted is not first and supervisor.state is ServerState.READY)
        assert len(server.authorizations()) == 1 and len(server.issued()) == 1, "the kept token was used"

        server.admin("expire")  # the server refuses every token issued so far: the refresh token renews it
        desk = window.app.runtime.signins
        old = desk.grants["remote"]
        assert old is not None and old == grant_of(server.url)
        second = supervisor.accepted
        window.refresh()
        wait_for(qtbot, lambda: supervisor.accepted is not second and supervisor.state is ServerState.READY)
        assert len(server.authorizations()) == 1, "renewed with the refresh token: nobody was asked"
        assert len(server.issued()) == 2
        assert seen == [] and len(browser.opened) == 1, "no sign-in was shown for either walk"
        new_token = server.issued()[1]["access_token"]
        assert server.presented()[-1] == new_token
        renewed = grant_of(server.url)
        assert renewed is not None and renewed.expires_at is not None and renewed != old
        wait_for(qtbot, lambda: desk.grants["remote"] == renewed)  # read again after the walk
        expiry = f"{datetime.fromtimestamp(renewed.expires_at).astimezone():%Y-%m-%d %H:%M:%S}"
        wait_for(qtbot, lambda: f"Access token expires: {expiry}" in server_info(window))  # the pages follow
        harness.close(window)  # before the servers stop: they wait for the app's open streams


def test_sign_out_forgets_the_sign_in_closes_its_session_and_the_next_walk_asks_again(  # type: ignore[no-untyped-def]
    harness: Harness, qtbot, tmp_path: Path, browser: Browser, test_keyring: FileKeyring
) -> None:
    with oauth_server(tmp_path) as server:
        window = app_window(harness, remote(server.url), tmp_path / "app")
        sign_in(qtbot, window)
        wait_for(qtbot, lambda: sign_out_action(window).isEnabled())
        assert any(name.startswith("oauth:") for name in kept(tmp_path))

        with qtbot.waitSignal(window.app.runtime.signins.signed_out, timeout=10_000) as done:
            sign_out_action(window).trigger()
        assert done.args[1] is None
        assert not any(name.startswith("oauth:") for name in kept(tmp_path)), "tokens and registration forgotten"
        assert grant_of(server.url) is None
        wait_for(qtbot, lambda: "Sign-in (OAuth): not signed in" in server_info(window))  # the pages follow
        assert not sign_out_action(window).isEnabled()
        assert "Signed out of remote" in window.statusBar().currentMessage()
        supervisor = window.current.supervisor if window.current is not None else None
        assert supervisor is not None and supervisor.state is ServerState.LOST and supervisor.connection is None
        assert window.findChild(ElidedLabel, "statusBannerTitle").text().startswith("Signed out:")
        assert button(window, "retryButton").text() == "Reconnect"

        qtbot.mouseClick(button(window, "retryButton"), Qt.MouseButton.LeftButton)
        second = sign_in(qtbot, window)
        assert len(server.authorizations()) == 2, "signed out: the next walk asked again"
        assert len(browser.opened) == 2 and browser.opened[1] == second
        harness.close(window)


def test_cancel_ends_the_walk_as_an_authorization_failure_and_leaves_no_listening_socket(  # type: ignore[no-untyped-def]
    harness: Harness, qtbot, tmp_path: Path, browser: Browser, test_keyring: FileKeyring
) -> None:
    with oauth_server(tmp_path) as server:
        window = app_window(harness, remote(server.url), tmp_path / "app")
        wait_for(qtbot, lambda: asks_to_sign_in(window))
        port = redirect_port(url_field(window).text())
        assert listening_sockets() == [("127.0.0.1", port)]
        started = time.monotonic()
        qtbot.mouseClick(button(window, "signInCancel"), Qt.MouseButton.LeftButton)
        wait_for(qtbot, lambda: state(window) is ServerState.FAILED, timeout=10_000)
        assert time.monotonic() - started < 5, "at once, not at the end of the wait"
        assert listening_sockets() == []
        assert not server.requests("as", "/authorize"), "nobody went to the browser"

        supervisor = window.current.supervisor if window.current is not None else None
        assert supervisor is not None and supervisor.attempt is not None and supervisor.attempt.snapshot is not None
        error = supervisor.attempt.snapshot.error
        assert error is not None and str(error.kind) == "auth"
        assert error.details == {"step": "authorization", "cause": "cancelled"}
        assert window.banner.state == "failure" and window.banner.kind == "auth"
        title = window.findChild(ElidedLabel, "statusBannerTitle").text()
        assert title == "Failed: Authorization failed at the authorization step (signing in)"
        assert window.findChild(ElidedLabel, "statusBannerDetail").text() == "the sign-in was cancelled"
        assert "Cause: cancelled" in window.findChild(QLabel, "statusBannerText").text()
        assert button(window, "retryButton").text() == "Retry" and button(window, "retryButton").isEnabled()
        assert not url_field(window).isVisible()
        harness.close(window)


@pytest.mark.parametrize(
    ("switch", "step", "words", "browses"),
    [
        ("--no-dcr", "registration", "registering the client", False),
        ("--wrong-state", "authorization", "signing in", True),
        ("--resource-mismatch", "metadata", "discovering the authorization server", False),
    ],
)
def test_a_failed_sign_in_names_its_step_and_cause_in_the_banner_with_retry(  # type: ignore[no-untyped-def]
    harness: Harness,
    qtbot,
    tmp_path: Path,
    browser: Browser,
    test_keyring: FileKeyring,
    switch: str,
    step: str,
    words: str,
    browses: bool,
) -> None:
    with oauth_server(tmp_path, switch) as server:
        window = app_window(harness, remote(server.url), tmp_path / "app")
        if browses:
            wait_for(qtbot, lambda: asks_to_sign_in(window))
            play_browser(qtbot, url_field(window).text())
        wait_for(qtbot, lambda: state(window) is ServerState.FAILED)
        assert listening_sockets() == []
        supervisor = window.current.supervisor if window.current is not None else None
        assert supervisor is not None and supervisor.attempt is not None and supervisor.attempt.snapshot is not None
        error = supervisor.attempt.snapshot.error
        assert error is not None and error.details["step"] == step
        title = window.findChild(ElidedLabel, "statusBannerTitle").text()
        assert title == f"Failed: Authorization failed at the {step} step ({words})"
        assert window.findChild(ElidedLabel, "statusBannerDetail").text() == error.message
        whole = window.findChild(QLabel, "statusBannerText").text()
        assert f"Cause: {error.details['cause']}" in whole
        assert button(window, "retryButton").text() == "Retry" and button(window, "retryButton").isEnabled()
        assert len(browser.opened) == (1 if browses else 0)
        assert not any(name.endswith(":tokens") for name in kept(tmp_path))
        harness.close(window)


def test_sign_out_is_offered_only_for_an_http_server_with_a_kept_sign_in(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="local")])
    wait_for(qtbot, lambda: state(window) is ServerState.READY)
    assert not sign_out_action(window).isEnabled()
    assert not window.sign_out()
    assert "Sign-in" not in server_info(window), "a stdio server has no sign-in to speak of"
    assert json.dumps(window.app.runtime.signins.grants) == "{}", "no keyring read for a server that cannot sign in"


def test_a_call_that_needs_more_scope_asks_in_the_banner_and_goes_on_once_signed_in(  # type: ignore[no-untyped-def]
    harness: Harness, qtbot, tmp_path: Path, browser: Browser, test_keyring: FileKeyring
) -> None:
    with oauth_server(tmp_path, "--www-scope", "mcp:read", "--step-up", "tools/call:mcp:admin") as server:
        window = app_window(harness, remote(server.url), tmp_path / "app")
        sign_in(qtbot, window)
        wait_for(qtbot, lambda: "Scopes granted: mcp:read\n" in server_info(window))
        supervisor = window.current.supervisor if window.current is not None else None
        assert supervisor is not None
        outcomes: list[object] = []
        supervisor.call_finished.connect(lambda _ticket, outcome: outcomes.append(outcome))
        assert supervisor.call_tool("echo", {"text": "hi"}) is not None
        wait_for(qtbot, lambda: asks_to_sign_in(window))
        detail = window.findChild(ElidedLabel, "statusBannerDetail").text()
        assert "the request goes on" in detail and supervisor.state is ServerState.READY
        link = url_field(window).text()
        assert parse_qs(urlsplit(link).query)["scope"] == ["mcp:read mcp:admin"]
        assert browser.opened[-1] == link and len(browser.opened) == 2
        play_browser(qtbot, link)
        wait_for(qtbot, lambda: bool(outcomes))
        assert getattr(outcomes[0], "layer", None) == "ok"
        assert window.banner.state != "signin"
        wait_for(qtbot, lambda: "Scopes granted: mcp:read mcp:admin" in server_info(window))
        assert listening_sockets() == []
        harness.close(window)


HOSTILE_LINK = 'https://auth.example/authorize?next=<img src="file:///dev/zero">&x=\u202eevil&pad=' + "A" * 3000


@pytest.mark.parametrize(
    ("link", "safe"), [(HOSTILE_LINK, True), ("http://127.0.0.1.evil.example/authorize?state=x", False)]
)
def test_the_banner_shows_a_link_as_plain_encoded_text_and_opens_only_a_safe_one(  # type: ignore[no-untyped-def]
    harness: Harness, qtbot, browser: Browser, link: str, safe: bool
) -> None:
    from catalog_inspector.core.oauth import SignIn

    window = harness.window([demo_spec("normal", name="local")])
    wait_for(qtbot, lambda: state(window) is ServerState.READY)
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    pending = SignIn("local", link, "http://127.0.0.1:9/callback", 30.0)
    supervisor.show_sign_in(pending)  # as the app's hooks do when the engine asks
    assert asks_to_sign_in(window)
    field = url_field(window)
    shown = field.text()
    assert isinstance(field, QLineEdit) and field.isReadOnly(), "a line edit cannot render markup"
    assert "<" not in shown and "\u202e" not in shown and shown.isascii() and shown.isprintable()
    assert shown.startswith(link.split("?", 1)[0]) and len(shown) >= len(link)
    title = window.findChild(ElidedLabel, "statusBannerTitle")
    assert title.textFormat() == Qt.TextFormat.PlainText
    assert title.text() == f"Sign in to local at {urlsplit(link).hostname}"
    assert button(window, "signInOpen").isEnabled() is safe
    assert browser.opened == ([shown] if safe else []), "opened automatically only when safe"
    qtbot.mouseClick(button(window, "signInOpen"), Qt.MouseButton.LeftButton)
    assert browser.opened == ([shown, shown] if safe else [])
    qtbot.mouseClick(button(window, "signInCopy"), Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == shown
    qtbot.mouseClick(button(window, "signInCancel"), Qt.MouseButton.LeftButton)
    assert pending.cancelled
    wait_for(qtbot, lambda: supervisor.sign_in is None and window.banner.state != "signin")


def test_a_legacy_sse_server_behind_oauth_asks_in_the_banner_too(  # type: ignore[no-untyped-def]
    harness: Harness, qtbot, tmp_path: Path, browser: Browser, test_keyring: FileKeyring
) -> None:
    with oauth_server(tmp_path, "--sse") as server:
        spec = ServerSpec(name="legacy", transport="sse", url=server.url)
        window = app_window(harness, spec, tmp_path / "app")
        link = sign_in(qtbot, window)
        assert browser.opened == [link] and listening_sockets() == []
        wait_for(qtbot, lambda: sign_out_action(window).isEnabled())
        harness.close(window)
