"""What changed between catalogs and whether it matters: the diff, its severities, reports, approval pins, history.

Holds `diff` (added, removed, changed down to a JSON pointer, moved), `severity`
(how much each change matters, and why in words), `report` (a new catalog next to
the previous one: drift, approval, duplicates, reach, collisions), `pins` (the
user's approval of a catalog), `lockfile` (the approval as a file) and `history` (accepted snapshots kept on disk).
No SDK. Imports `catalog`, `config` and core's shared modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from catalog_inspector.core.faces import load_on_demand

if TYPE_CHECKING:
    from catalog_inspector.core.drift.diff import (
        ABSENT,
        CatalogDiff,
        Severity,
        diff_catalogs,
        diff_catalogs_steps,
    )
    from catalog_inspector.core.drift.history import (
        DEFAULT_KEEP,
        Entry,
        History,
    )
    from catalog_inspector.core.drift.lockfile import (
        LOCKFILE_NAME,
        forget_pins,
        load_pins,
        read_lockfile,
        save_pins,
        write_lockfile,
    )
    from catalog_inspector.core.drift.pins import (
        Pin,
        PinCheck,
        PinDiff,
        Pins,
        check_pins,
        check_pins_steps,
    )
    from catalog_inspector.core.drift.report import (
        Comparison,
        DriftReport,
        DriftRow,
        Duplicate,
        FirstPage,
        build_report,
        build_report_steps,
        catalog_items,
        collisions,
        collisions_steps,
        counts_steps,
        counts_words,
        diff_snapshots,
        diff_snapshots_steps,
        duplicates_of,
        not_judged,
        rows_of,
        rows_steps,
        token_deltas_of,
        token_deltas_steps,
    )

__all__ = [
    "Comparison",
    "ABSENT",
    "CatalogDiff",
    "DEFAULT_KEEP",
    "DriftReport",
    "DriftRow",
    "Duplicate",
    "Entry",
    "FirstPage",
    "History",
    "LOCKFILE_NAME",
    "Pin",
    "PinCheck",
    "PinDiff",
    "Pins",
    "read_lockfile",
    "write_lockfile",
    "Severity",
    "build_report",
    "build_report_steps",
    "catalog_items",
    "diff_snapshots",
    "diff_snapshots_steps",
    "not_judged",
    "check_pins",
    "check_pins_steps",
    "collisions",
    "collisions_steps",
    "counts_steps",
    "counts_words",
    "diff_catalogs",
    "diff_catalogs_steps",
    "duplicates_of",
    "forget_pins",
    "load_pins",
    "rows_of",
    "rows_steps",
    "token_deltas_of",
    "token_deltas_steps",
    "save_pins",
]

# The window's first frame needs none of this room but the history (`ui.app`): its modules are loaded when a name
# is first asked for (PEP 562), the rest on the engine's thread behind the first frame (`ui.startup`).
_HOMES: dict[str, tuple[str, ...]] = {
    "diff": ("ABSENT", "CatalogDiff", "Severity", "diff_catalogs", "diff_catalogs_steps"),
    "history": ("DEFAULT_KEEP", "Entry", "History"),
    "lockfile": ("LOCKFILE_NAME", "forget_pins", "load_pins", "read_lockfile", "save_pins", "write_lockfile"),
    "pins": ("Pin", "PinCheck", "PinDiff", "Pins", "check_pins", "check_pins_steps"),
    "report": (
        "Comparison",
        "DriftReport",
        "DriftRow",
        "Duplicate",
        "FirstPage",
        "build_report",
        "build_report_steps",
        "catalog_items",
        "collisions",
        "collisions_steps",
        "counts_steps",
        "counts_words",
        "diff_snapshots",
        "diff_snapshots_steps",
        "duplicates_of",
        "not_judged",
        "rows_of",
        "rows_steps",
        "token_deltas_of",
        "token_deltas_steps",
    ),
}

__getattr__ = load_on_demand(__name__, _HOMES)
