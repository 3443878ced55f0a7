"""Catalogs as data, and the rules of walking one: the four lists, snapshots, the bounded enumerator, export names.

Holds `lists` (the one table of MCP's paginated lists), `snapshot` (everything a
walk found, frozen, with its JSON form), `enumerator` (one list walked to its end
or its first offence, over any fetch function), `caching` (the pages' cache hints
and their rules), `export` (what an exported file is called and says), `apps` (MCP Apps read statically: a
tool's interface, `ui://` views, what a strict host flags) and `icons` (icons judged: safe raster data to draw,
SVG described, URLs listed, nothing fetched) and `tokens` (what a catalog costs in a model's context, o200k_base,
counted offline). No SDK and no network stack: `session` does the fetching.
Imports `config` and core's shared modules.
"""

from __future__ import annotations

from catalog_inspector.core.catalog.apps import (
    APP_MIME,
    AppFinding,
    AppView,
    app_of,
    apps_json,
    apps_steps,
    ui_meta,
    ui_words,
)
from catalog_inspector.core.catalog.caching import (
    CacheCheck,
    CacheCode,
    CacheIssue,
    cache_issues,
    cacheable_words,
    duration_words,
    hint_text,
    hints_required,
    ttl_of,
)
from catalog_inspector.core.catalog.enumerator import (
    Fetched,
    Timeline,
    walk_list,
)
from catalog_inspector.core.catalog.export import (
    Which,
    export_file_name,
    export_note,
)
from catalog_inspector.core.catalog.icons import ICON_BYTES, Icon, icon_words, icons_of
from catalog_inspector.core.catalog.lists import (
    LIST_KINDS,
    LIST_NAMES,
    ListKind,
    item_key,
)
from catalog_inspector.core.catalog.snapshot import (
    FORMAT,
    JUDGED,
    NOT_OFFERED,
    ListResult,
    ListStatus,
    Offence,
    PageRecord,
    Snapshot,
    failed_snapshot,
    now_iso,
    offence_of,
    source_of,
    summarize,
    taken_words,
    unimplemented_words,
    write_json,
)
from catalog_inspector.core.catalog.tokens import (
    ENCODING,
    SCHEMA_FIELDS,
    TokenCount,
    ToolCounter,
    count_snapshot,
    count_snapshot_steps,
    count_texts,
    delta_words,
    encoding_ready,
    host_text,
    preload,
    preload_encoding,
    token_words,
    tool_parts,
)

__all__ = [
    "ENCODING",
    "SCHEMA_FIELDS",
    "TokenCount",
    "ToolCounter",
    "count_snapshot",
    "count_snapshot_steps",
    "count_texts",
    "delta_words",
    "encoding_ready",
    "host_text",
    "preload",
    "preload_encoding",
    "token_words",
    "tool_parts",
    "APP_MIME",
    "AppFinding",
    "AppView",
    "ICON_BYTES",
    "Icon",
    "app_of",
    "apps_json",
    "apps_steps",
    "icon_words",
    "icons_of",
    "ui_meta",
    "ui_words",
    "CacheCheck",
    "CacheCode",
    "CacheIssue",
    "cache_issues",
    "cacheable_words",
    "duration_words",
    "hints_required",
    "hint_text",
    "ttl_of",
    "Offence",
    "offence_of",
    "FORMAT",
    "Fetched",
    "JUDGED",
    "LIST_KINDS",
    "LIST_NAMES",
    "ListKind",
    "ListResult",
    "ListStatus",
    "NOT_OFFERED",
    "PageRecord",
    "Snapshot",
    "Timeline",
    "Which",
    "export_file_name",
    "export_note",
    "failed_snapshot",
    "source_of",
    "item_key",
    "now_iso",
    "taken_words",
    "summarize",
    "unimplemented_words",
    "walk_list",
    "write_json",
]
