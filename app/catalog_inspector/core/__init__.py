"""The Qt-free engine: configs, connections, the bounded enumerator, snapshots, validation, errors.

Nothing here imports Qt; everything runs and is tested without a display. The
data modules (`lists`, `errors`, `snapshot`) import no SDK either; connecting
and walking (`connection`, `walk`, `worker`) are separate modules that produce them.
"""

from catalog_inspector.core.config import ConfigError, Limits, ServerSpec, load_config, parse_config
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind, WalkFailed, WalkRejected
from catalog_inspector.core.lists import LIST_KINDS, LIST_NAMES, ListKind
from catalog_inspector.core.snapshot import FORMAT, ListResult, PageRecord, Snapshot

__all__ = [
    "FORMAT",
    "LIST_KINDS",
    "LIST_NAMES",
    "CatalogError",
    "ConfigError",
    "ErrorInfo",
    "ErrorKind",
    "Limits",
    "ListKind",
    "ListResult",
    "PageRecord",
    "ServerSpec",
    "Snapshot",
    "WalkFailed",
    "WalkRejected",
    "load_config",
    "parse_config",
]
