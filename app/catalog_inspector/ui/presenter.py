"""What the window shows for one server, computed from its supervisor: texts, banner, walks, actions.

A presenter holds no widgets and is tested without a window; the window binds
to the presenter of the selected server and renders what it says. The walks it
offers refer to the runtime's own page sequences (no copies).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.catalog import LIST_KINDS, PageRecord, Snapshot
from catalog_inspector.core.config import ServerSpec, launch_words
from catalog_inspector.core.drift import DriftReport, Duplicate, Entry, FirstPage, duplicates_of
from catalog_inspector.core.errors import (
    AUTH_STEPS,
    ErrorInfo,
    ErrorKind,
    auth_step,
    reason,
    stderr_lines,
    transport_hint,
)
from catalog_inspector.core.redact import redacted_args, redacted_url
from catalog_inspector.core.text import visible
from catalog_inspector.core.transport import environment_names
from catalog_inspector.runtime import ServerState, ServerSupervisor
from catalog_inspector.runtime.signins import SignInDesk
from catalog_inspector.runtime.tracker import DriftTracker
from catalog_inspector.ui.signin import grant_lines, link_text, sign_in_text

__all__ = ["Banner", "ServerPresenter", "Walk", "command_line", "describe_failure", "detail_line", "server_words"]

MESSAGE_LIMIT = 600
STDERR_WIDTH = 200
COMMAND_LIMIT = 2000  # the subtitle is cut to the window's width; its tooltip shows this much
TRANSPORT_WORDS = {"stdio": "stdio", "http": "Streamable HTTP", "sse": "legacy SSE"}

BannerKind = Literal["none", "failure", "stale", "lost", "drift", "consent", "entry", "signin"]


@dataclass(frozen=True)
class Banner:
    """The status banner's content: hidden (`none`), or a text with one button.

    `text` is the whole message, one fact per line: the first line is the title, the
    second the detail the banner shows beneath it (both cut to its width); the lines
    after those are shown when the user asks for the whole message.
    """

    kind: BannerKind = "none"
    text: str = ""
    button: str = ""
    button_enabled: bool = False
    error_kind: str | None = None  # the ErrorKind behind a failure or a lost session
    url: str = ""  # `signin`: the authorization URL, as shown, copied and opened (`ui.signin.link_text`)

    @property
    def title(self) -> str:
        return self.text.partition("\n")[0]

    @property
    def detail(self) -> str:
        return self.text.partition("\n")[2].partition("\n")[0]


@dataclass(frozen=True)
class Walk:
    """One walk a timeline can show: a label, the runtime's page sequence, whether it still grows."""

    label: str
    pages: Sequence[PageRecord]
    live: bool = False
    related: frozenset[int] = frozenset()  # pages that hold the first copy of the key that stopped the walk


def server_words(error: ErrorInfo) -> str:
    """The server's own last stderr lines, when a process exited (a missing API key, a traceback)."""
    lines = stderr_lines(error.details, STDERR_WIDTH)
    return "The server's last words:\n" + "\n".join(lines) if lines else ""


def detail_line(error: ErrorInfo) -> str:
    """The line under a heading: what to try, if anything, then what happened in words the heading has not said.

    The advice comes first: when the line is cut to a narrow banner, it is what stays. A sign-in's
    failure names its step in the heading (`describe_failure`): the line is its cause.
    """
    text = visible(error.message if auth_step(error) else reason(error), MESSAGE_LIMIT)
    hint = transport_hint(error, app=True)
    return f"{hint}: {text}" if hint else text


def describe_failure(error: ErrorInfo, status: str) -> str:
    """What a person can act on, one fact per line: the title (verdict, kind, where, JSON-RPC code),
    the reason, where the traceback is, the server's last words."""
    verdict = "Rejected" if status == "rejected" else "Failed"
    kind = LIST_KINDS.get(error.list_name or "tools", LIST_KINDS["tools"])
    where = ""
    if error.page is not None:
        where = f" on page {error.page} of {kind.plural}"
    elif error.list_name and error.list_name != "tools":
        where = f" while listing {kind.plural}"
    code = f" (JSON-RPC error {error.code})" if error.code is not None else ""
    step = auth_step(error)
    if step is not None:
        where = f" at the {step} step ({AUTH_STEPS[step]})"
    lines = [f"{verdict}: {error.kind.heading}{where}{code}", detail_line(error)]
    cause = error.details.get("cause") if step is not None else None
    if isinstance(cause, str):
        lines.append(f"Cause: {visible(cause, 64)} (the word scripts see in the error's details).")
    if error.details.get("traceback"):
        lines.append("The traceback is in the Server & log tab.")
    words = server_words(error)
    if words:
        lines.append(words)
    return "\n".join(lines)


def command_line(spec: ServerSpec) -> str:
    """How the server is reached, as one would type it: a shell-quoted command line, or the URL; no secrets."""
    if spec.transport == "stdio":
        target = shlex.join([spec.command, *redacted_args(spec.args)])
    else:
        target = redacted_url(spec.url)
    return visible(f"{TRANSPORT_WORDS.get(spec.transport, spec.transport)}: {target}", COMMAND_LIMIT)


def _clock(moment: datetime | None) -> str:
    return f"{moment:%H:%M:%S}" if moment is not None else "?"


class ServerPresenter(QObject):
    """The presentation of one server.

    Attributes:
        supervisor: the server's supervisor (the state this presents).

    Signals:
        header_changed(): title, subtitle or enabled actions changed.
        banner_changed(): the banner's content changed.
        catalog_changed(): a new catalog was accepted (the tree and the lists must follow).
        walks_changed(): the walks the timelines offer changed.
        drift_changed(): the drift report, the approval check or the history of this server changed.
        pages_added(str): the live walk of this list (name) has new pages in its sequence.
        details_changed(): the server details (`server_text`) or whether it can sign out changed.
        log_lines(object): lines for the server log (a list of str, already made visible).
        status_message(str): passing news for the status bar ("" clears it).
    """

    header_changed = Signal()
    banner_changed = Signal()
    catalog_changed = Signal()
    walks_changed = Signal()
    drift_changed = Signal()
    pages_added = Signal(str)
    details_changed = Signal()
    log_lines = Signal(object)
    status_message = Signal(str)

    def __init__(
        self,
        supervisor: ServerSupervisor,
        parent: QObject | None = None,
        tracker: DriftTracker | None = None,
        signins: SignInDesk | None = None,
    ) -> None:
        super().__init__(parent)
        self.supervisor = supervisor
        self.tracker = tracker
        self.signins = signins
        if signins is not None:
            signins.grant_changed.connect(self._on_signins_grant_changed)
            signins.signed_out.connect(self._on_signins_signed_out)
        self._duplicates: tuple[Snapshot | None, list[Duplicate]] = (None, [])
        if tracker is not None:
            tracker.report_ready.connect(self._on_tracker_report_ready)
            tracker.approval_changed.connect(self._on_tracker_report_ready)
            tracker.history_changed.connect(self._on_tracker_history_changed)
        self._walk = self._walk_key()
        # Bound methods, not lambdas: Qt drops these connections when the presenter is deleted.
        # Every walk, acceptance, failure and cancel changes the state too: state_changed
        # is where the header, the banner and the walks offered are renewed.
        supervisor.state_changed.connect(self._on_supervisor_state_changed)
        supervisor.page_arrived.connect(self._on_supervisor_page_arrived)
        supervisor.catalog_accepted.connect(self._on_supervisor_catalog_accepted)
        supervisor.session_lost.connect(self._on_supervisor_session_lost)  # also while a walk runs
        supervisor.log_appended.connect(self._on_supervisor_log_appended)
        supervisor.sign_in_changed.connect(self._on_supervisor_sign_in_changed)
        supervisor.sign_in_noticed.connect(self._on_supervisor_sign_in_noticed)

    # -- what the window shows ----------------------------------------------
    @property
    def title(self) -> str:
        return visible(self.supervisor.spec.name, 120)

    @property
    def subtitle(self) -> str:
        current = self.supervisor
        accepted = current.accepted
        state = current.state.value
        if accepted is None:
            # The state first: the command is what gets cut when the window is narrow.
            return f"{state.capitalize()}, no catalog accepted yet · {command_line(current.spec)}"
        count = len(accepted.tools.items)
        head = (
            "Catalog"
            if current.state in (ServerState.READY, ServerState.WALKING, ServerState.CONNECTING)
            else "Last good catalog"
        )
        version = accepted.server.get("protocol_version") or "?"
        tools = f"{count:,} tool{'s' if count != 1 else ''}"
        return f"{head}: {tools}, taken at {_clock(current.accepted_at)} · protocol {version} · {current.spec.transport} · {state}"

    @property
    def can_refresh(self) -> bool:
        return not self.supervisor.busy

    @property
    def can_cancel(self) -> bool:
        return self.supervisor.busy

    @property
    def catalog(self) -> Snapshot | None:
        return self.supervisor.accepted

    def banner(self) -> Banner:
        current = self.supervisor
        attempt = current.attempt
        retry_enabled = not current.busy
        sign_in = current.sign_in
        if sign_in is not None and not sign_in.cancelled:
            # First: a person is asked to act, and the server waits for them.
            text = sign_in_text(current.spec.name, sign_in, walking=current.busy)
            return Banner("signin", text, url=link_text(sign_in.url))
        if current.awaiting_consent and not current.busy:
            text = f"This server is a command that will run on your computer. Run it?\n{visible(launch_words(current.spec), 2000, keep_newlines=True)}"
            return Banner("consent", text, "Run it", True)
        if current.state is ServerState.FAILED and attempt is not None and attempt.snapshot is not None:
            snapshot = attempt.snapshot
            assert snapshot.error is not None
            text = describe_failure(snapshot.error, snapshot.status)
            if current.accepted is not None:
                text += f"\nThe last good catalog, taken at {_clock(current.accepted_at)}, stays on screen."
            else:
                text += "\nNo catalog has been accepted from this server yet."
            return Banner("failure", text, "Retry", retry_enabled, str(snapshot.error.kind))
        if current.lost is not None and (current.state is ServerState.LOST or current.busy):
            error = current.lost
            lines = ["Connection lost: the session ended after its catalog was accepted", detail_line(error)]
            if error.details.get("cause") == "signed_out":
                lines = [
                    "Signed out: the session that used the sign-in is closed",
                    "Its tokens and client registration are forgotten; Reconnect walks again and asks you to sign in.",
                ]
            words = server_words(error)
            if words:
                lines.append(words)
            lines.append(f"The catalog taken at {_clock(current.accepted_at)} stays on screen; no session is live.")
            return Banner("lost", "\n".join(lines), "Reconnect", retry_enabled, str(error.kind))
        if current.state is ServerState.STALE:
            text = "The server says its catalog changed since this catalog was taken\nRefresh to walk it again."
            return Banner("stale", text, "Refresh", retry_enabled)
        report = self.report
        if report is not None and (report.alarm or report.after_stale):
            pins = report.pins.summary() if report.pins is not None else ""
            text = report.headline(with_pins=False) + (f"\n{pins}" if pins else "")
            return Banner("drift", text, "Show drift", True)
        return Banner()

    def walks(self, list_name: str) -> list[Walk]:
        """The walks a timeline of `list_name` offers, most relevant first: live or failed, then accepted."""
        current = self.supervisor
        walks: list[Walk] = []
        attempt = current.attempt
        if attempt is not None:
            started = _clock(attempt.started_at)
            snapshot = attempt.snapshot
            if snapshot is None:
                walks.append(Walk(f"Live walk (started {started})", attempt.pages_of(list_name), live=True))
            elif snapshot.status != "complete":
                error = snapshot.lists[list_name].error or snapshot.error
                kind = error.kind.heading if error else snapshot.status
                related = frozenset(
                    page
                    for duplicate in self._duplicates_of(snapshot)
                    if duplicate.list_name == list_name
                    for page in duplicate.pages[:-1]
                )
                walks.append(Walk(f"Failed attempt at {started}: {kind}", attempt.pages_of(list_name), related=related))
        if current.accepted is not None:
            walks.append(
                Walk(f"Accepted catalog ({_clock(current.accepted_at)})", current.accepted.lists[list_name].pages)
            )
        return walks

    # -- drift, duplicates, reach ----------------------------------------------
    @property
    def report(self) -> DriftReport | None:
        """The drift report of the accepted catalog (None while it is being made, or without a tracker)."""
        return self.tracker.report_for(self.supervisor) if self.tracker is not None else None

    def shown_tools(self) -> list[dict[str, object]]:
        """The accepted catalog's tools, then the ghosts of the tools the last refresh removed."""
        accepted = self.supervisor.accepted
        if accepted is None:
            return []
        report = self.report
        ghosts = report.removed_tools if report is not None else ()
        return [*accepted.tools.items, *ghosts]

    def tool_marks(self) -> tuple[dict[str, str], frozenset[str]]:
        """What the last refresh did to each tool, and the tools that differ from the approved catalog."""
        report = self.report
        if report is None:
            return {}, frozenset()
        return report.tool_marks(), report.pins.flagged() if report.pins is not None else frozenset()

    @property
    def alarm(self) -> bool:
        """The sidebar badge: breaking or warning drift, or a broken approval, in the last refresh."""
        report = self.report
        return report is not None and report.alarm

    def duplicates(self) -> list[Duplicate]:
        """The duplicated keys of the latest attempt, when it was rejected for one."""
        attempt = self.supervisor.attempt
        snapshot = attempt.snapshot if attempt is not None else None
        if snapshot is None or snapshot.error is None or snapshot.error.kind is not ErrorKind.DUPLICATE_NAME:
            return []
        return self._duplicates_of(snapshot)

    def _duplicates_of(self, snapshot: Snapshot) -> list[Duplicate]:
        """Made once per failed attempt (two definitions diffed), however often the window asks."""
        if self._duplicates[0] is not snapshot:
            self._duplicates = (snapshot, duplicates_of(snapshot))
        return self._duplicates[1]

    def first_page(self) -> FirstPage | None:
        """What a first-page-only host gets of the accepted tools (made with the drift report, off the GUI thread)."""
        report = self.report
        return report.reach if report is not None else None

    def history(self) -> list[Entry]:
        """The server's kept snapshots, newest first."""
        if self.tracker is None:
            return []
        return list(reversed(self.tracker.entries.get(self.supervisor.spec.name, [])))

    def approve(self) -> bool:
        if self.tracker is None or not self.tracker.approve(self.supervisor.spec.name):
            return False
        self.status_message.emit("Approving this catalog: later catalogs whose tools differ will be flagged.")
        return True

    def forget_approval(self) -> None:
        if self.tracker is not None:
            self.tracker.forget_approval(self.supervisor.spec.name)

    def server_text(self) -> str:
        current = self.supervisor
        accepted = current.accepted
        lines = [f"Configured as: {visible(current.spec.describe())}"]
        if current.spec.transport == "stdio":
            inherited, configured = environment_names(current.spec)
            lines.append(f"Environment passed on: {', '.join(inherited) or 'none'}")
            lines.append(f"Environment configured (values not shown): {visible(', '.join(configured) or 'none')}")
        elif current.spec.headers:
            lines.append(f"Headers sent (values not shown): {visible(', '.join(sorted(current.spec.headers)))}")
        name = current.spec.name
        grants = self.signins.grants if self.signins is not None else {}
        lines += grant_lines(current.spec, grants.get(name), name in grants, current.sign_in is not None)
        if accepted is None:
            return "\n".join([*lines, "", "No catalog accepted yet."])
        server = accepted.server
        lines += [
            f"Server name: {visible(str(server.get('name')))}",
            f"Server version: {visible(str(server.get('version')))}",
            f"Protocol version: {visible(str(server.get('protocol_version')))}",
            "",
            "Capabilities:",
            visible(json.dumps(accepted.capabilities, indent=2, ensure_ascii=False), keep_newlines=True),
        ]
        if accepted.instructions:
            lines += ["", "Instructions:", visible(accepted.instructions, keep_newlines=True)]
        return "\n".join(lines)

    def log_text(self) -> str:
        return visible(self.supervisor.log.text(), keep_newlines=True)

    # -- what the user asks ---------------------------------------------------
    def refresh(self) -> None:
        self.supervisor.refresh()

    def cancel(self) -> bool:
        if not self.supervisor.cancel():
            return False
        self.status_message.emit("Walk cancelled; the shown catalog is unchanged.")
        return True

    @property
    def can_sign_out(self) -> bool:
        """An HTTP or SSE server with a kept sign-in, and no walk running."""
        return self.signins is not None and self.signins.can_sign_out(self.supervisor.spec.name)

    def cancel_sign_in(self) -> bool:
        """Stop waiting for the browser: the walk (or request) that asked fails at the authorization step."""
        if not self.supervisor.cancel_sign_in():
            return False
        self.status_message.emit("Sign-in cancelled.")
        return True

    def sign_out(self) -> bool:
        """Forget the server's tokens and client registration (`status_message` says when it is done)."""
        if self.signins is None or not self.signins.sign_out(self.supervisor.spec.name):
            return False
        self.status_message.emit(f"Signing out of {self.title}…")
        return True

    # -- following the supervisor ---------------------------------------------
    def _walk_key(self) -> tuple[object, object, object]:
        """What the walks offered depend on: the attempt, its outcome, the accepted catalog."""
        attempt = self.supervisor.attempt
        return attempt, attempt.snapshot if attempt else None, self.supervisor.accepted

    def _on_supervisor_state_changed(self) -> None:
        walk = self._walk_key()
        if any(now is not before for now, before in zip(walk, self._walk, strict=True)):
            # Started, finished, cancelled or accepted: the timelines offer other walks.
            self._walk = walk
            self.walks_changed.emit()
        self.header_changed.emit()
        self.banner_changed.emit()
        if not self.supervisor.busy:
            self.status_message.emit("")  # "Walking …" news ends with the walk

    def _on_supervisor_page_arrived(self, list_name: str, page: PageRecord) -> None:
        self.pages_added.emit(list_name)
        noun = LIST_KINDS[list_name].plural
        self.status_message.emit(f"Walking {noun}: page {page.index} ({page.items} items)")

    def _on_supervisor_catalog_accepted(self, _snapshot: Snapshot) -> None:
        self.catalog_changed.emit()

    def _on_supervisor_session_lost(self, _error: ErrorInfo) -> None:
        self.banner_changed.emit()
        self.header_changed.emit()

    def _on_tracker_report_ready(self, name: str) -> None:
        if name != self.supervisor.spec.name:
            return
        self.drift_changed.emit()
        self.banner_changed.emit()
        report = self.report
        if report is not None and report.after_stale:
            self.status_message.emit(report.headline())

    def _on_tracker_history_changed(self, name: str) -> None:
        if name == self.supervisor.spec.name:
            self.drift_changed.emit()

    def _on_supervisor_log_appended(self, lines: list[str]) -> None:
        self.log_lines.emit([visible(line) for line in lines])

    def _on_supervisor_sign_in_changed(self) -> None:
        self.banner_changed.emit()
        self.details_changed.emit()

    def _on_supervisor_sign_in_noticed(self, words: str) -> None:
        self.status_message.emit(visible(f"{self.supervisor.spec.name}: {words}", MESSAGE_LIMIT))

    def _on_signins_grant_changed(self, name: str) -> None:
        if name == self.supervisor.spec.name:
            self.details_changed.emit()

    def _on_signins_signed_out(self, name: str, problem: str | None) -> None:
        if name != self.supervisor.spec.name:
            return
        if problem is None:
            self.status_message.emit(
                f"Signed out of {self.title}: its tokens and client registration are forgotten; "
                "the next walk asks you to sign in."
            )
        else:
            self.status_message.emit(f"Not signed out of {self.title}: {problem}")
