"""The Qt-free engine: configs, connections, the bounded enumerator, snapshots, validation, errors.

Nothing here imports Qt; everything runs and is tested without a display.
"""

from catalog_inspector.core.config import ConfigError, Limits, ServerSpec, load_config, parse_config
from catalog_inspector.core.enumerator import LIST_KINDS, PageRecord, Timeline, walk_list
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind, WalkFailed, WalkRejected, classify
from catalog_inspector.core.snapshot import FORMAT, ListResult, Snapshot

__all__ = [
    "FORMAT",
    "LIST_KINDS",
    "CatalogError",
    "ConfigError",
    "ErrorInfo",
    "ErrorKind",
    "Limits",
    "ListResult",
    "PageRecord",
    "ServerSpec",
    "Snapshot",
    "Timeline",
    "WalkFailed",
    "WalkRejected",
    "classify",
    "load_config",
    "parse_config",
    "walk_list",
]
