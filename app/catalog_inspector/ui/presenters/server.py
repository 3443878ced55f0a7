"""What the window shows for one server, computed from its supervisor: texts, banner, walks, actions; and the
server's own tabs' presenters (Call, Drift, the request boxes) with the view state that is the server's.

A presenter holds no widgets and is tested without a window; the window binds to the
presenter of the selected server and renders what it says. The walks it offers refer
to the runtime's own page sequences (no copies). A new catalog is published once, with
its first drift report, so the tool tree is planned once per refresh.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.catalog import (
    LIST_KINDS,
    LIST_NAMES,
    PageRecord,
    Snapshot,
    TokenCount,
    Which,
    apps_json,
    cacheable_words,
    hints_required,
    icon_words,
    icons_of,
    taken_words,
    token_words,
    unimplemented_words,
)
from catalog_inspector.core.config import limits_for
from catalog_inspector.core.errors import ErrorInfo, ErrorKind
from catalog_inspector.core.text import visible
from catalog_inspector.runtime import Completer, ResourceWatcher, ServerState, ServerSupervisor
from catalog_inspector.runtime.asks import PendingAsk, roots_words
from catalog_inspector.runtime.calldesk import CallDesk
from catalog_inspector.runtime.messages import MessageBridge
from catalog_inspector.runtime.offload import Offload
from catalog_inspector.runtime.signins import SignInDesk
from catalog_inspector.runtime.tracker import DriftTracker
from catalog_inspector.ui.presenters.answer import Answer
from catalog_inspector.ui.presenters.call import CallPresenter
from catalog_inspector.ui.presenters.drift import DriftPresenter
from catalog_inspector.ui.presenters.request import RequestPresenter
from catalog_inspector.ui.presenters.status import banner_of, verdict_of
from catalog_inspector.ui.presenters.words import (
    MESSAGE_LIMIT,
    Banner,
    Walk,
    clock,
    command_line,
    list_mark,
    walk_limits,
)
from catalog_inspector.ui.signin import grant_lines

if TYPE_CHECKING:
    from catalog_inspector.core.calls import LintIssue
    from catalog_inspector.core.drift import DriftReport, Duplicate, FirstPage

__all__ = ["ServerPresenter"]


class ServerPresenter(QObject):
    """The presentation of one server.

    Attributes:
        supervisor: the server's supervisor (the state this presents).
        call: the Call tab's presenter; drift: the Drift tab's (None without a tracker).
        requests: the request boxes' presenters, by list name (resources, resource_templates, prompts).
        selected: the window shows this server now (only then is its walk's progress news).
        tool_filter: the Tools tab's filter text, the server's own (another's would hide tools with no word why).
        chosen_walks: the walk each timeline shows (list name → its kind), when the person chose one.

    Signals:
        header_changed(): title, subtitle or enabled actions changed.
        banner_changed(): the banner's content changed.
        catalog_changed(): a new catalog was accepted, with its first report when there is a tracker
            (the tree and the lists follow once).
        marks_changed(): the tool tree's marks changed without a new catalog (an approval, its check).
        lint_changed(): the accepted catalog's lint (`lint_marks`) or its tokens (`token_marks`) are ready.
        walks_changed(): the walks the timelines offer changed.
        pages_added(str): the live walk of this list (name) has new pages in its sequence.
        details_changed(): the server details (`server_text`) or whether it can sign out changed.
        log_lines(object): lines for the server log (a list of str, already made visible).
        input_changed(): a question of the server's began or stopped waiting for the person (`waiting`).
        tokens_changed(): the shown catalog's tokens (and its drift base's) were counted (`tokens`).
    """

    header_changed = Signal()
    banner_changed = Signal()
    catalog_changed = Signal()
    marks_changed = Signal()
    lint_changed = Signal()
    walks_changed = Signal()
    pages_added = Signal(str)
    details_changed = Signal()
    log_lines = Signal(object)
    input_changed = Signal()
    tokens_changed = Signal()

    def __init__(
        self,
        supervisor: ServerSupervisor,
        parent: QObject | None = None,
        tracker: DriftTracker | None = None,
        signins: SignInDesk | None = None,
        calls: CallDesk | None = None,
        messages: MessageBridge | None = None,
    ) -> None:
        super().__init__(parent)
        self.supervisor = supervisor
        self.tracker = tracker
        self.signins = signins
        self.messages = messages if messages is not None else MessageBridge(self)
        self._calls = calls if calls is not None else CallDesk([], Offload(), None)  # a presenter tested on its own
        self.drift = DriftPresenter(supervisor, tracker, self.messages, self) if tracker is not None else None
        self.selected = False
        self.tool_filter = ""
        self.chosen_walks: dict[str, str] = {}
        self._published: Snapshot | None = None  # the catalog the tree and the lists show
        self._duplicates: tuple[Snapshot | None, list[Duplicate]] = (None, [])
        self._cacheable: tuple[Snapshot | None, str] = (None, "")
        self._apps_of: tuple[Snapshot | None, Mapping[str, Any]] = (None, {})
        self._walk = self._walk_key()
        if signins is not None:
            signins.grant_changed.connect(self._on_signins_grant_changed)
            signins.signed_out.connect(self._on_signins_signed_out)
        if tracker is not None:
            tracker.report_ready.connect(self._on_tracker_report_ready)
            tracker.approval_changed.connect(self._on_tracker_approval_changed)
            tracker.tokens_counted.connect(self._on_tracker_tokens_counted)
        self._calls.catalog_linted.connect(self._on_calls_catalog_linted)
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
        supervisor.input_asked.connect(self._on_supervisor_input_asked)
        supervisor.input_settled.connect(self._on_supervisor_input_settled)
        if tracker is None or self.report is not None:
            self._published = supervisor.accepted  # accepted before this presenter was made

    # The Call tab's and the request boxes' presenters are made when first asked for: a server not shown needs none
    # of them (everything they show is the supervisor's, read when they are made), and the demo set's eight servers
    # made 520 signal connections for them before the first frame (10 ms on the 2-core machine).
    @cached_property
    def call(self) -> CallPresenter:
        return CallPresenter(self.supervisor, self._calls, self)

    @cached_property
    def completer(self) -> Completer:
        """One question at a time, whichever tab asks."""
        return Completer(self.supervisor, self)

    @cached_property
    def requests(self) -> dict[str, RequestPresenter]:
        supervisor = self.supervisor
        return {
            "resources": RequestPresenter("resource", supervisor, self, watcher=ResourceWatcher(supervisor, self)),
            "resource_templates": RequestPresenter("template", supervisor, self, self.completer),
            "prompts": RequestPresenter("prompt", supervisor, self, self.completer),
        }

    @property
    def name(self) -> str:
        return self.supervisor.spec.name

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
        tokens = self.tokens()
        if tokens is not None:  # what they cost a model's context (and a host that reads one page)
            first = f", {tokens.first_page:,} on page 1" if len(accepted.tools.pages) > 1 else ""
            tools = f"{tools} ({token_words(tokens.total)}{first})"
        taken = taken_words(accepted.taken_at, date=False)
        text = f"{head}: {tools}, taken at {taken} · protocol {version} · {current.spec.transport} · {state}"
        mark = list_mark(accepted)
        if mark:
            text = f"{text} · {mark}"
        cacheable = self._cacheable_words(accepted)
        return f"{text} · {cacheable}" if cacheable else text

    def _apps(self, accepted: Snapshot) -> Mapping[str, Any]:
        """What the catalog says of MCP Apps (`core.catalog.apps`): worked out with its drift report, off the GUI
        thread (a 100,000-tool catalog takes tens of milliseconds); here only without a tracker."""
        report = self.report
        if report is not None and report.apps is not None and report.taken_at == accepted.taken_at:
            return report.apps
        if self.tracker is not None:
            return {"findings": []}  # its report is on its way: the details follow it
        if self._apps_of[0] is not accepted:
            self._apps_of = (accepted, apps_json(accepted))
        return self._apps_of[1]

    def resource_uris(self) -> frozenset[str] | None:
        """The URIs of the shown catalog's resources, when that list was walked whole (a tool's MCP Apps
        interface is said to be listed there or not); None otherwise."""
        catalog = self.catalog
        if catalog is None or not catalog.lists["resources"].judged:
            return None
        return frozenset(str(resource.get("uri")) for resource in catalog.lists["resources"].items)

    def _cacheable_words(self, accepted: Snapshot) -> str:
        """What the accepted tools' cache hints allow ("cacheable for 5 min (private)"), worked out once a catalog."""
        if self._cacheable[0] is not accepted:
            self._cacheable = (accepted, cacheable_words(accepted.tools.pages))
        return self._cacheable[1]

    @property
    def waiting(self) -> int:
        """How many of the server's questions wait for the person (the sidebar marks the server while any do)."""
        return len(self.supervisor.asks.pending)

    def question_tab(self) -> str | None:
        """Where the oldest waiting question is shown: "call", "resources" or "prompts" (None: nothing waits)."""
        # From the supervisor's queue, not the tabs' answers: an answer made after this presenter hears of a question
        # after it (its presenters are made when first asked for).
        answers = self._answers()
        for pending in sorted(self.supervisor.asks.pending, key=lambda pending: pending.number):
            tab = next((tab for tab, answer in answers if answer.owns(pending)), None)
            if tab is not None:
                return tab
        return None

    def _answers(self) -> list[tuple[str, Answer]]:
        return [("call", self.call.answer), *((name, box.answer) for name, box in self.requests.items())]

    @property
    def can_refresh(self) -> bool:
        return not self.supervisor.busy

    @property
    def can_cancel(self) -> bool:
        return self.supervisor.busy

    @property
    def catalog(self) -> Snapshot | None:
        """The catalog the window shows: the accepted one, once it has been published with its first report."""
        return self._published

    def banner(self) -> Banner:
        return banner_of(self.supervisor, self.report)

    def verdict(self) -> tuple[str, str]:
        return verdict_of(self.report, walking=self.supervisor.busy)

    def walks(self, list_name: str) -> list[Walk]:
        """The walks a timeline of `list_name` offers, most relevant first: live or failed, then accepted."""
        current = self.supervisor
        walks: list[Walk] = []
        attempt = current.attempt
        if attempt is not None:
            started = clock(attempt.started_at)
            snapshot = attempt.snapshot
            limits = limits_for(current.spec, current.limits)
            if snapshot is None:
                pages, required = attempt.pages_of(list_name), hints_required(attempt.protocol_version)
                label = f"Live walk (started {started})"
                walks.append(Walk(label, pages, live=True, kind="live", hints_required=required, limits=limits))
            elif snapshot.status != "complete":
                error = snapshot.lists[list_name].error or snapshot.error
                kind = error.kind.heading if error else snapshot.status
                related = frozenset(
                    page
                    for duplicate in self._duplicates_of(snapshot)
                    if duplicate.list_name == list_name
                    for page in duplicate.pages[:-1]
                )
                label = f"Failed attempt at {started}: {kind}"
                required = hints_required(snapshot.server.get("protocol_version"))
                pages = attempt.pages_of(list_name)
                limits = walk_limits(limits, snapshot.lists[list_name].error)  # as it stopped this list
                walks.append(Walk(label, pages, related=related, kind="failed", hints_required=required, limits=limits))
        if current.accepted is not None:
            accepted = current.accepted
            taken = taken_words(accepted.taken_at, date=False)
            required = hints_required(accepted.server.get("protocol_version"))
            walks.append(Walk(f"Accepted catalog ({taken})", accepted.lists[list_name].pages, hints_required=required))
        return walks

    def choose_walk(self, list_name: str, kind: str) -> None:
        """The person chose which walk a timeline shows (its kind: live, failed, accepted); it stays chosen for
        this server while one of that kind is offered."""
        self.chosen_walks[list_name] = kind

    def export_choices(self) -> dict[Which, Snapshot]:
        """What File ▸ Export can write: the accepted catalog, and the latest attempt when it was not accepted."""
        supervisor = self.supervisor
        choices: dict[Which, Snapshot] = {}
        if supervisor.accepted is not None:
            choices["accepted"] = supervisor.accepted
        attempt = supervisor.attempt.snapshot if supervisor.attempt is not None else None
        if attempt is not None and attempt is not supervisor.accepted:
            choices["attempt"] = attempt
        return choices

    # -- drift, duplicates, reach ----------------------------------------------
    @property
    def report(self) -> DriftReport | None:
        """The drift report of the accepted catalog (None while it is being made, or without a tracker)."""
        return self.tracker.report_for(self.supervisor) if self.tracker is not None else None

    def shown_tools(self) -> list[dict[str, object]]:
        """The shown catalog's tools, then the ghosts of the tools the last refresh removed."""
        shown = self._published
        if shown is None:
            return []
        report = self.report
        ghosts = report.removed_tools if report is not None else ()
        return [*shown.tools.items, *ghosts]

    def tool_marks(self) -> tuple[dict[str, str], frozenset[str]]:
        """What the last refresh did to each tool, and the tools that differ from the approved catalog."""
        report = self.report
        if report is None:
            return {}, frozenset()
        return report.tool_marks(), report.pins.flagged() if report.pins is not None else frozenset()

    def lint_marks(self) -> Mapping[str, tuple[LintIssue, ...]]:
        """The shown catalog's lint per tool (tools without issues left out): the desk's own mapping, not copied."""
        return self._calls.lints.get(self.name, {})

    def tokens(self) -> TokenCount | None:
        """The shown catalog's cost in tokens, once counted (None before, or for another catalog)."""
        report, shown = self.report, self._published
        if report is None or shown is None or report.taken_at != shown.taken_at:
            return None
        return report.tokens

    def token_marks(self) -> Mapping[str, int]:
        """Each shown tool's tokens: the count's own mapping (not copied), empty before it is made."""
        count = self.tokens()
        return count.tools if count is not None else {}

    def excluded_marks(self) -> dict[str, str]:
        """The shown catalog's tools conforming 2026-07-28 clients exclude (name → why); known with the catalog."""
        shown = self._published
        return {entry["name"]: entry["reason"] for entry in shown.excluded_tools} if shown is not None else {}

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
        from catalog_inspector.core.drift import duplicates_of

        if self._duplicates[0] is not snapshot:
            self._duplicates = (snapshot, duplicates_of(snapshot))
        return self._duplicates[1]

    def first_page(self) -> FirstPage | None:
        """What a first-page-only host gets of the accepted tools (made with the drift report, off the GUI thread)."""
        report = self.report
        return report.reach if report is not None else None

    def server_text(self) -> str:
        current = self.supervisor
        accepted = current.accepted
        lines = [f"Configured as: {visible(current.spec.describe())}"]
        if current.spec.transport == "stdio":
            configured = sorted(current.spec.env)
            if current.engine.loaded:
                from catalog_inspector.core.transport import environment_names  # the engine (the SDK's allowlist)

                inherited, configured = environment_names(current.spec)
                lines.append(f"Environment passed on: {', '.join(inherited) or 'none'}")
            else:
                lines.append("Environment passed on: shown in a moment (the app is still loading)")
            lines.append(f"Environment configured (values not shown): {visible(', '.join(configured) or 'none')}")
        elif current.spec.headers:
            lines.append(f"Headers sent (values not shown): {visible(', '.join(sorted(current.spec.headers)))}")
        name = current.spec.name
        grants = self.signins.grants if self.signins is not None else {}
        lines += grant_lines(current.spec, grants.get(name), name in grants, current.sign_in is not None)
        lines.append(f"Roots given when the server asks (roots/list): {roots_words(current.spec.roots)}")
        lines.append(
            f"Log messages asked for: {current.spec.log_level} and above (2026-07-28: in each request's _meta; "
            "before: logging/setLevel, if the server declares logging); they are in the log below"
        )
        if accepted is None:
            return "\n".join([*lines, "", "No catalog accepted yet."])
        server = accepted.server
        lines += [
            f"Server name: {visible(str(server.get('name')))}",
            f"Server version: {visible(str(server.get('version')))}",
            f"Protocol version: {visible(str(server.get('protocol_version')))}",
            "Lists: "
            + ", ".join(f"{LIST_KINDS[n].plural} {accepted.lists[n].status.replace('_', ' ')}" for n in LIST_NAMES),
            *(f"Finding: {unimplemented_words(name)} (-32601, method not found)" for name in accepted.unimplemented),
            *(
                f"Finding: {visible(finding['item'], 300)}: {finding['message']} ({finding['code']})"
                for finding in self._apps(accepted)["findings"]
            ),
            *icon_words(icons_of(server), drawn=False),
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
        self.messages.info("Walk cancelled; the shown catalog is unchanged.", self.name)
        return True

    @property
    def can_sign_out(self) -> bool:
        """An HTTP or SSE server with a kept sign-in, and no walk running."""
        return self.signins is not None and self.signins.can_sign_out(self.supervisor.spec.name)

    def cancel_sign_in(self) -> bool:
        """Stop waiting for the browser: the walk (or request) that asked fails at the authorization step."""
        if not self.supervisor.cancel_sign_in():
            return False
        self.messages.info("Sign-in cancelled.", self.name)
        return True

    def sign_out(self) -> bool:
        """Forget the server's tokens and client registration (the message bridge says when it is done)."""
        if self.signins is None or not self.signins.sign_out(self.supervisor.spec.name):
            return False
        self.messages.progress(f"Signing out of {self.title}…")
        return True

    # -- following the supervisor ---------------------------------------------
    def _walk_key(self) -> tuple[object, object, object, object]:
        """What the walks offered depend on: the attempt, its era once connected (the live walk's pages are
        judged by it), its outcome, the accepted catalog."""
        attempt = self.supervisor.attempt
        era = attempt.protocol_version if attempt else None
        return attempt, era, attempt.snapshot if attempt else None, self.supervisor.accepted

    def _on_supervisor_state_changed(self) -> None:
        walk = self._walk_key()
        if any(now is not before for now, before in zip(walk, self._walk, strict=True)):
            # Started, finished, cancelled or accepted: the timelines offer other walks.
            self._walk = walk
            self.walks_changed.emit()
        self.header_changed.emit()
        self.banner_changed.emit()
        if not self.supervisor.busy and self.selected:
            self.messages.clear()  # "Walking …" news ends with the walk

    def _on_supervisor_page_arrived(self, list_name: str, page: PageRecord) -> None:
        self.pages_added.emit(list_name)
        if self.selected:
            noun = LIST_KINDS[list_name].plural
            self.messages.progress(f"Walking {noun}: page {page.index} ({page.items} items)")

    def _on_supervisor_catalog_accepted(self, snapshot: Snapshot) -> None:
        if self.tracker is None or self.report is not None:
            self._publish()
        # else: published when its first report is ready (`_on_tracker_report_ready`)

    def _publish(self) -> None:
        self._published = self.supervisor.accepted
        self.catalog_changed.emit()
        self.details_changed.emit()

    def _on_supervisor_session_lost(self, _error: ErrorInfo) -> None:
        self.banner_changed.emit()
        self.header_changed.emit()

    def _on_tracker_report_ready(self, name: str) -> None:
        if name != self.name or self.report is None:
            return
        if self._published is not self.supervisor.accepted:
            self._publish()  # the catalog and its first report, together
        else:
            self.marks_changed.emit()
        self.banner_changed.emit()
        report = self.report
        if report is not None and report.after_stale and self.selected:
            self.messages.info(report.headline(), self.name)

    def _on_tracker_approval_changed(self, name: str) -> None:
        if name == self.name:
            self.marks_changed.emit()
            self.banner_changed.emit()

    def _on_calls_catalog_linted(self, name: str) -> None:
        if name == self.name:
            self.lint_changed.emit()

    def _on_tracker_tokens_counted(self, name: str) -> None:
        if name == self.name:
            self.lint_changed.emit()
            self.header_changed.emit()  # the subtitle says the total
            self.tokens_changed.emit()

    def _on_supervisor_log_appended(self, lines: list[str]) -> None:
        self.log_lines.emit([visible(line) for line in lines])

    def _on_supervisor_sign_in_changed(self) -> None:
        self.banner_changed.emit()
        self.details_changed.emit()

    def _on_supervisor_sign_in_noticed(self, words: str) -> None:
        self.messages.info(visible(words, MESSAGE_LIMIT), self.name)

    def _on_supervisor_input_asked(self, pending: PendingAsk) -> None:
        self.input_changed.emit()
        self.header_changed.emit()  # the sidebar's row marks the server
        if not self.selected:
            self.messages.info(f"{self.title} asks for your input: select it in the sidebar to answer.")

    def _on_supervisor_input_settled(self, _pending: PendingAsk) -> None:
        self.input_changed.emit()
        self.header_changed.emit()

    def _on_signins_grant_changed(self, name: str) -> None:
        if name == self.supervisor.spec.name:
            self.details_changed.emit()

    def _on_signins_signed_out(self, name: str, problem: str | None) -> None:
        if name != self.supervisor.spec.name:
            return
        if problem is None:
            self.messages.info(
                f"Signed out of {self.title}: its tokens and client registration are forgotten; "
                "the next walk asks you to sign in."
            )
        else:
            self.messages.warning(f"Not signed out of {self.title}: {problem}")
