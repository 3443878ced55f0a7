"""What an exported snapshot file is called and what it says about itself.

An export from the app is the `mcp-catalog-snapshot/1` document plus an `export`
object: which catalog it holds (`"accepted"`, the catalog of record, or `"attempt"`,
the latest walk that was not accepted), when it was written, and, for an accepted
catalog exported after a later refresh was rejected, that attempt's outcome — so a
file never passes off a last good catalog as the server's current state.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Literal

from catalog_inspector.core.catalog.snapshot import Snapshot, now_iso
from catalog_inspector.core.files import file_stem

__all__ = ["Which", "export_file_name", "export_note"]

Which = Literal["accepted", "attempt"]

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def export_file_name(server: str, snapshot: Snapshot, which: Which) -> str:
    """`<server>-<date>.json` (`-failed` before `.json` for an attempt): safe on every platform's file system.

    The date is the day the snapshot was taken (today if it does not say).
    """
    stem = file_stem(server, 80)
    day = snapshot.taken_at[:10] if _DAY.fullmatch(snapshot.taken_at[:10]) else date.today().isoformat()
    return f"{stem}-{day}{'-failed' if which == 'attempt' else ''}.json"


def export_note(which: Which, snapshot: Snapshot, attempt: Snapshot | None) -> dict[str, Any]:
    """The `export` object written beside the snapshot's own keys."""
    note: dict[str, Any] = {"of": which, "exported_at": now_iso()}
    if which == "accepted" and attempt is not None and attempt is not snapshot:
        note["latest_attempt"] = {
            "status": attempt.status,
            "taken_at": attempt.taken_at,
            "error": attempt.error.to_json() if attempt.error else None,
        }
    return {"export": note}
