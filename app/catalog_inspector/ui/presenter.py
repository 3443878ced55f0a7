"""What the window shows for one server, computed from its supervisor: texts, banner, walks, actions.

A presenter holds no widgets and is tested without a window; the window binds
to the presenter of the selected server and renders what it says. The walks it
offers refer to the runtime's own page sequences (no copies).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.consent import launch_words
from catalog_inspector.core.drift import DriftReport, Duplicate, FirstPage, duplicates_of
from catalog_inspector.core.errors import ErrorInfo, ErrorKind, stderr_lines
from catalog_inspector.core.history import Entry
from catalog_inspector.core.lists import LIST_KINDS
from catalog_inspector.core.snapshot import PageRecord, Snapshot
from catalog_inspector.core.stdio import environment_names
from catalog_inspector.core.text import visible
from catalog_inspector.runtime import ServerState, ServerSupervisor
from catalog_inspector.runtime.tracker import DriftTracker

__all__ = ["Banner", "ServerPresenter", "Walk", "describe_failure", "server_words"]

MESSAGE_LIMIT = 600
STDERR_WIDTH = 200

BannerKind = Literal["none", "failure", "stale", "lost", "drift", "consent", "entry"]


@dataclass(frozen=True)
class Banner:
    """The status banner's content: hidden (`none`), or a text with one button."""

    kind: BannerKind = "none"
    text: str = ""
    button: str = ""
    button_enabled: bool = False
    error_kind: str | None = None  # the ErrorKind behind a failure or a lost session


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


def describe_failure(error: ErrorInfo, status: str) -> str:
    """One paragraph a person can act on: kind, where, JSON-RPC code, the message, the server's last words."""
    verdict = "Rejected" if status == "rejected" else "Failed"
    kind = LIST_KINDS.get(error.list_name or "tools", LIST_KINDS["tools"])
    where = ""
    if error.page is not None:
        where = f" on page {error.page} of {kind.plural}"
    elif error.list_name and error.list_name != "tools":
        where = f" while listing {kind.plural}"
    code = f" (JSON-RPC error {error.code})" if error.code is not None else ""
    text = f"{verdict}: {error.kind.heading}{where}{code}. {visible(error.message, MESSAGE_LIMIT)}"
    if error.details.get("traceback"):
        text += " (the traceback is in the Server & log tab)"
    words = server_words(error)
    return f"{text}\n{words}" if words else text


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
        log_line(str): a line for the server log (already made visible).
        status_message(str): passing news for the status bar ("" clears it).
    """

    header_changed = Signal()
    banner_changed = Signal()
    catalog_changed = Signal()
    walks_changed = Signal()
    drift_changed = Signal()
    pages_added = Signal(str)
    log_line = Signal(str)
    status_message = Signal(str)

    def __init__(
        self, supervisor: ServerSupervisor, parent: QObject | None = None, tracker: DriftTracker | None = None
    ) -> None:
        super().__init__(parent)
        self.supervisor = supervisor
        self.tracker = tracker
        self._duplicates: tuple[Snapshot | None, list[Duplicate]] = (None, [])
        if tracker is not None:
            tracker.report_ready.connect(self._on_tracker_report_ready)
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
            return f"{visible(current.spec.describe(), 300)} — {state}; no catalog accepted yet"
        count = len(accepted.tools.items)
        head = "Catalog" if current.state in (ServerState.READY, ServerState.WALKING, ServerState.CONNECTING) else "Last good catalog"
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
            text = (
                f"Connection lost: the session ended after its catalog was accepted. "
                f"{visible(error.message, MESSAGE_LIMIT)}\n"
                f"The catalog taken at {_clock(current.accepted_at)} stays on screen; no session is live."
            )
            words = server_words(error)
            if words:
                text += f"\n{words}"
            return Banner("lost", text, "Reconnect", retry_enabled, str(error.kind))
        if current.state is ServerState.STALE:
            text = "The server says its catalog changed since this catalog was taken. Refresh to walk it again."
            return Banner("stale", text, "Refresh", retry_enabled)
        report = self.report
        if report is not None and (report.alarm or report.after_stale):
            return Banner("drift", report.headline(), "Show drift", True)
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
            walks.append(Walk(f"Accepted catalog ({_clock(current.accepted_at)})", current.accepted.lists[list_name].pages))
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

    def _on_supervisor_log_appended(self, line: str) -> None:
        self.log_line.emit(visible(line))

