"""What the band under the window's header says of one server: the banner when there is something to say (a
person asked to sign in, a launch to consent to, a failed walk, a lost session, a stale catalog, drift that
matters), else the verdict on the catalog shown. Functions of the supervisor and its drift report, no widgets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from catalog_inspector.core.catalog import taken_words
from catalog_inspector.core.config import launch_words
from catalog_inspector.core.errors import ErrorInfo
from catalog_inspector.core.text import visible
from catalog_inspector.runtime import ServerState, ServerSupervisor
from catalog_inspector.ui.presenters.words import Banner, describe_failure, detail_line, server_words
from catalog_inspector.ui.signin import link_text, sign_in_text

if TYPE_CHECKING:
    from catalog_inspector.core.drift import DriftReport

__all__ = ["banner_of", "verdict_of"]


def banner_of(current: ServerSupervisor, report: DriftReport | None) -> Banner:
    """The banner for the server's state now (kind `none`: nothing to say, the verdict stands in its place)."""
    attempt = current.attempt
    retry_enabled = not current.busy
    sign_in = current.sign_in
    taken = taken_words(current.accepted.taken_at, date=False) if current.accepted is not None else "?"
    if sign_in is not None and not sign_in.cancelled:
        # First: a person is asked to act, and the server waits for them.
        text = sign_in_text(current.spec.name, sign_in, walking=current.busy)
        return Banner("signin", text, url=link_text(sign_in.url))
    if current.awaiting_consent and not current.busy:
        words = visible(launch_words(current.spec), 2000, keep_newlines=True)
        text = f"This server is a command that will run on your computer. Run it?\n{words}"
        return Banner("consent", text, "Run it", True)
    if current.state is ServerState.FAILED and attempt is not None and attempt.snapshot is not None:
        snapshot = attempt.snapshot
        assert snapshot.error is not None
        text = describe_failure(snapshot.error, snapshot.status)
        if current.accepted is not None:
            text += f"\nThe last good catalog, taken at {taken}, stays on screen."
        else:
            text += "\nNo catalog has been accepted from this server yet."
        return Banner("failure", text, "Retry", retry_enabled, str(snapshot.error.kind))
    if current.lost is not None and (current.state is ServerState.LOST or current.busy):
        return _lost_banner(current.lost, taken, retry_enabled)
    if current.state is ServerState.STALE:
        text = "The server says its catalog changed since this catalog was taken\nRefresh to walk it again."
        return Banner("stale", text, "Refresh", retry_enabled)
    # Drift that matters stays in the banner until the next catalog; a refresh that only answered a change
    # the server announced says so once, in the status line and the Drift tab, and leaves no banner behind.
    if report is not None and report.alarm:
        pins = _approval(report)
        return Banner("drift", report.headline(with_pins=False) + (f"\n{pins}" if pins else ""), "Show drift", True)
    return Banner()


def verdict_of(report: DriftReport | None, walking: bool) -> tuple[str, str]:
    """What the band says of the catalog shown while no banner is up, in two lines: the drift report's headline
    and the approval's summary (or that a new walk is under way); else that a walk is, or that there is no
    catalog yet."""
    if report is not None:
        again = "A new walk is under way; this catalog stays until the walk's is accepted." if walking else ""
        return report.headline(with_pins=False), again or _approval(report)
    if walking:
        return "Walking the catalog: its pages show on the timeline as they arrive.", ""
    return "No catalog yet.", ""


def _approval(report: DriftReport) -> str:
    return report.pins.summary() if report.pins is not None else ""


def _lost_banner(error: ErrorInfo, taken: str, retry_enabled: bool) -> Banner:
    lines = ["Connection lost: the session ended after its catalog was accepted", detail_line(error)]
    if error.details.get("cause") == "signed_out":
        lines = [
            "Signed out: the session that used the sign-in is closed",
            "Its tokens and client registration are forgotten; Reconnect walks again and asks you to sign in.",
        ]
    words = server_words(error)
    if words:
        lines.append(words)
    lines.append(f"The catalog taken at {taken} stays on screen; no session is live.")
    return Banner("lost", "\n".join(lines), "Reconnect", retry_enabled, str(error.kind))
