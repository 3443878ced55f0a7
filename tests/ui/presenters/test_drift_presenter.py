"""The Drift tab's presenter alone: a real drifting demo server, a real history on disk; no DriftPane.

The demo's `drift` mode changes its catalog on every walk (a type in echo's schema,
its description, delete_everything's destructive hint; walk n adds `added_in_walk_n`
and drops the previous walk's), counted across processes in its state file.
"""

from __future__ import annotations

from pathlib import Path

from catalog_inspector.core.drift import DriftRow, History, Severity, load_pins
from catalog_inspector.runtime.messages import Message
from catalog_inspector.ui.presenters import AppPresenter, DriftPresenter, ServerPresenter
from tests.helpers import demo_spec
from tests.ui.presenters.conftest import WAIT, Rig


def drifting(rig: Rig, tmp_path: Path, *others: str) -> tuple[AppPresenter, ServerPresenter, DriftPresenter, History]:
    history = History(tmp_path / "history")
    specs = [demo_spec("drift", "--state", str(tmp_path / "walks.json"), name="drifting")]
    app = rig.app([*specs, *(demo_spec("normal", name=name) for name in others)], history=history)
    presenter = rig.shown(app, "drifting")
    drift = presenter.drift
    assert drift is not None
    rig.qtbot.waitUntil(lambda: len(drift.history()) == 1, timeout=WAIT)  # the first catalog is kept
    return app, presenter, drift, history


def refreshed(rig: Rig, presenter: ServerPresenter, drift: DriftPresenter) -> None:
    """Refresh; wait for the new catalog's report and for the history to list it."""
    kept = len(drift.history())
    with rig.qtbot.waitSignal(drift.report_changed, timeout=WAIT):
        presenter.refresh()
    rig.qtbot.waitUntil(lambda: len(drift.history()) == kept + 1, timeout=WAIT)


def row(rows: tuple[DriftRow, ...], key: str, pointer: str = "") -> DriftRow:
    return next(r for r in rows if r.key == key and r.pointer == pointer)


def key_of(change: DriftRow) -> tuple[str, str, str, str]:
    """What the table keeps selected of a change."""
    return change.list_name, change.key, change.field, change.pointer


class Counted:
    """How often each of a presenter's signals fired."""

    def __init__(self, drift: DriftPresenter) -> None:
        self.counts = {
            name: 0 for name in ("report_changed", "approval_changed", "history_changed", "comparison_changed")
        }
        for name in self.counts:
            getattr(drift, name).connect(lambda name=name: self._fired(name))

    def _fired(self, name: str) -> None:
        self.counts[name] += 1


def test_a_refreshed_drifting_server_reports_every_change_once_its_worst_first(rig: Rig, tmp_path: Path) -> None:
    _app, presenter, drift, _history = drifting(rig, tmp_path)
    first = drift.report
    assert first is not None and first.diff is None, "the first catalog has nothing to compare with"
    assert drift.has_catalog and not drift.approved and drift.comparison is None

    counted = Counted(drift)
    refreshed(rig, presenter, drift)
    report = drift.report
    assert report is not None and report is not first and report.diff is not None
    repeat = row(report.rows, "echo", "/properties/repeat/type")
    assert (repeat.severity, repeat.what, repeat.old, repeat.new) == (Severity.BREAKING, "changed", "integer", "string")
    removed = row(report.rows, "added_in_walk_0")
    assert (removed.what, removed.severity) == ("removed", Severity.BREAKING)
    assert row(report.rows, "added_in_walk_1").what == "added"
    assert row(report.rows, "delete_everything", "/destructiveHint").severity is Severity.WARNING
    assert report.rows[0].severity is Severity.BREAKING, "worst first"
    assert counted.counts["report_changed"] == 1, "one report per refresh"
    assert counted.counts["comparison_changed"] == 0 and counted.counts["approval_changed"] == 0
    newest, oldest = drift.history()
    assert newest.path.name > oldest.path.name, "newest first"


def test_a_comparison_replaces_the_report_until_asked_back_and_the_selection_follows_the_table(
    rig: Rig, tmp_path: Path
) -> None:
    _app, presenter, drift, _history = drifting(rig, tmp_path)
    qtbot = rig.qtbot
    drift.selected = ("tools", "echo", "description", "")  # what the table had selected
    refreshed(rig, presenter, drift)
    assert drift.selected is None, "a new report is a new table: nothing in it is selected yet"

    oldest = drift.history()[-1]
    assert drift.report is not None
    drift.selected = key_of(row(drift.report.rows, "echo", "/properties/repeat/type"))  # selected in the report
    with qtbot.waitSignal(drift.comparison_changed, timeout=WAIT):
        drift.compare(oldest, None)
    comparison = drift.comparison
    assert comparison is not None and comparison.error is None and comparison.new_label == "the catalog shown now"
    assert row(comparison.rows, "added_in_walk_1").what == "added"
    assert drift.selected is None
    drift.selected = key_of(row(comparison.rows, "added_in_walk_1"))
    counted = Counted(drift)
    refreshed(rig, presenter, drift)
    assert counted.counts["report_changed"] == 1 and counted.counts["comparison_changed"] == 0
    assert drift.comparison is comparison, "a refresh does not take away the comparison on screen"
    assert drift.selected == ("tools", "added_in_walk_1", "", ""), "nor its selection"

    with qtbot.waitSignal(drift.comparison_changed, timeout=1_000):
        drift.show_report()
    assert drift.comparison is None and drift.selected is None
    drift.show_report()
    assert counted.counts["comparison_changed"] == 1, "already showing the report: nothing changes"

    newest, middle, _oldest = drift.history()
    with qtbot.waitSignal(drift.comparison_changed, timeout=WAIT):
        drift.compare(middle, newest)
    two = drift.comparison
    assert two is not None and two.new_label != "the catalog shown now"
    assert row(two.rows, "added_in_walk_1").what == "removed" and row(two.rows, "added_in_walk_2").what == "added"


def test_a_deleted_snapshot_leaves_the_history_and_comparing_with_it_says_why(rig: Rig, tmp_path: Path) -> None:
    _app, presenter, drift, _history = drifting(rig, tmp_path)
    refreshed(rig, presenter, drift)
    newest, oldest = drift.history()
    with rig.qtbot.waitSignal(drift.history_changed, timeout=WAIT):
        drift.delete(oldest)
    assert drift.history() == [newest] and not oldest.path.exists()
    with rig.qtbot.waitSignal(drift.comparison_changed, timeout=WAIT):
        drift.compare(oldest, None)
    assert drift.comparison is not None and drift.comparison.diff is None
    assert str(drift.comparison.error).startswith("could not read a kept snapshot: FileNotFoundError")


def test_an_approval_is_saved_flags_what_differs_after_a_refresh_and_is_forgotten(rig: Rig, tmp_path: Path) -> None:
    app, presenter, drift, history = drifting(rig, tmp_path, "idle")
    qtbot = rig.qtbot
    spec = presenter.supervisor.spec
    said: list[Message] = []
    presenter.messages.shown.connect(said.append)
    counted = Counted(drift)

    with qtbot.waitSignal(drift.approval_changed, timeout=WAIT):
        assert drift.approve()
    assert drift.approved and load_pins(history.directory(spec)) is not None, "on disk: a restart reads it"
    report = drift.report
    assert report is not None and report.pins is not None and report.pins.clean
    assert [m.text for m in said] == [
        "drifting: Approving this catalog: later catalogs whose tools differ will be flagged."
    ]
    assert counted.counts["report_changed"] == 0, "an approval is not a new report"

    refreshed(rig, presenter, drift)
    pins = drift.report.pins if drift.report is not None else None
    assert pins is not None and set(pins.changed) == {"echo", "delete_everything"}
    assert pins.added == ("added_in_walk_1",) and pins.removed == ("added_in_walk_0",)
    assert presenter.tool_marks()[1] == {"echo", "delete_everything", "added_in_walk_1"}

    with qtbot.waitSignal(drift.approval_changed, timeout=WAIT):
        drift.forget_approval()
    assert not drift.approved and load_pins(history.directory(spec)) is None
    assert drift.report is not None and drift.report.pins is None and presenter.tool_marks()[1] == frozenset()

    idle = app.presenters["idle"].drift
    assert idle is not None and not idle.has_catalog and not idle.approve(), "nothing to approve without a catalog"
    rig.shown(app, "idle")
    with qtbot.waitSignal(idle.approval_changed, timeout=WAIT):
        assert idle.approve()
    assert idle.approved and not drift.approved
    assert counted.counts["approval_changed"] == 2, "another server's approval is not this one's news"


def test_keeping_fewer_snapshots_prunes_the_history_now(rig: Rig, tmp_path: Path) -> None:
    _app, presenter, drift, history = drifting(rig, tmp_path)
    refreshed(rig, presenter, drift)
    newest = drift.history()[0]
    with rig.qtbot.waitSignal(drift.history_changed, timeout=WAIT):
        drift.set_keep(1)
    assert drift.keep == 1 and history.keep == 1
    assert drift.history() == [newest]
