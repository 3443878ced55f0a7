"""The snapshot JSON form is stable and round-trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog_inspector.core.catalog import FORMAT, LIST_NAMES, ListResult, PageRecord, Snapshot
from catalog_inspector.core.errors import ErrorInfo, ErrorKind

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)
pages = st.builds(
    PageRecord,
    index=st.integers(0, 100),
    cursor=st.none() | st.text(max_size=10),
    next_cursor=st.none() | st.text(max_size=10),
    items=st.integers(0, 50),
    names=st.lists(st.text(max_size=6), max_size=4).map(tuple),
    bytes=st.integers(0, 10**6),
    latency_ms=st.floats(0, 10**6, allow_nan=False),
    outcome=st.sampled_from(["ok", *[str(k) for k in ErrorKind]]),
    # Cache hints as sent, valid or not: any JSON scalar a page keeps (text within its bound).
    ttl_ms=st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=50),
    cache_scope=st.none() | st.sampled_from(["public", "private"]) | st.integers() | st.text(max_size=20),
)
errors = st.none() | st.builds(
    ErrorInfo,
    kind=st.sampled_from(list(ErrorKind)),
    message=st.text(max_size=20),
    page=st.none() | st.integers(0, 9),
    code=st.none() | st.integers(-32700, -32000),
    list_name=st.none() | st.sampled_from(["tools", "resources", "resource_templates", "prompts"]),
    details=st.dictionaries(st.text(max_size=5), json_values, max_size=3),
)


@st.composite
def list_results(draw: st.DrawFn) -> ListResult:
    status = draw(st.sampled_from(["complete", "rejected", "failed", "not_offered"]))
    items = tuple(draw(st.lists(st.dictionaries(st.text(max_size=5), json_values, max_size=3), max_size=3)))
    return ListResult(
        status=status,
        items=items if status == "complete" else (),
        pages=tuple(draw(st.lists(pages, max_size=3))),
        error=draw(errors) if status in ("rejected", "failed") else None,
    )


@given(
    lists=st.fixed_dictionaries({n: list_results() for n in ("tools", "resources", "resource_templates", "prompts")}),
    status=st.sampled_from(["complete", "rejected", "failed"]),
    error=errors,
    duration=st.floats(0, 10**7, allow_nan=False),
)
def test_snapshot_json_round_trips(
    lists: dict[str, ListResult], status: str, error: ErrorInfo | None, duration: float
) -> None:
    snapshot = Snapshot(
        status=status,  # type: ignore[arg-type]
        error=error,
        server={"name": "s", "version": "1", "title": None, "protocol_version": "2025-11-25"},
        capabilities={"tools": {"listChanged": True}},
        instructions="hello",
        lists=lists,
        source={"name": "s", "transport": "stdio", "target": "stdio: s"},
        taken_at="2026-11-30T00:00:00.000+00:00",
        duration_ms=duration,
    )
    document = json.loads(json.dumps(snapshot.to_json()))
    assert document["format"] == FORMAT
    assert Snapshot.from_json(document) == snapshot


def test_the_contract_keys_are_present() -> None:
    empty = ListResult("not_offered")
    snapshot = Snapshot(
        "failed",
        ErrorInfo(ErrorKind.TIMEOUT, "late", 1, None),
        {"name": "s", "version": "1", "protocol_version": "x"},
        {},
        None,
        {
            "tools": ListResult("failed", error=ErrorInfo(ErrorKind.TIMEOUT, "late", 1)),
            "resources": empty,
            "resource_templates": empty,
            "prompts": empty,
        },
    )
    document = snapshot.to_json()
    for key in ("format", "status", "error", "server", "tools", "pages", "resources", "resource_templates", "prompts"):
        assert key in document
    assert document["error"] == {"kind": "timeout", "message": "late", "page": 1, "code": None, "details": {}}
    assert document["tools"] == []
    assert document["prompts"] == {"status": "not_offered", "items": [], "pages": [], "error": None}


def test_a_foreign_document_is_refused() -> None:
    with pytest.raises(ValueError, match="mcp-catalog-snapshot/1"):
        Snapshot.from_json({"format": "something-else"})


@given(
    lists=st.fixed_dictionaries({n: list_results() for n in ("tools", "resources", "resource_templates", "prompts")}),
    error=errors,
)
def test_the_streamed_document_is_the_same_json_one_catalog_item_per_line(
    lists: dict[str, ListResult], error: ErrorInfo | None
) -> None:
    import io

    from catalog_inspector.core.catalog import write_json

    snapshot = Snapshot("failed" if error else "complete", error, {"name": "s\n\u202e"}, {}, "multi\nline", lists)
    out = io.StringIO()
    write_json(snapshot, out)
    text = out.getvalue()
    assert json.loads(text) == json.loads(json.dumps(snapshot.to_json()))
    tools = list(lists["tools"].items) if lists["tools"].status == "complete" else []
    lines = text.split("\n")  # not splitlines(): U+0085 and U+2028 may stand raw inside strings
    for tool in tools:  # each catalog item is one line of its own
        assert "    " + json.dumps(tool, ensure_ascii=False) in [line.rstrip(",") for line in lines]


_ROW_TEXT = st.text(st.characters(), max_size=12)


@given(
    rows=st.lists(st.dictionaries(_ROW_TEXT, _ROW_TEXT | st.integers() | st.none(), max_size=5), max_size=6),
    counts=st.dictionaries(_ROW_TEXT, st.integers(min_value=0) | st.booleans(), max_size=6),
)
def test_the_derived_keys_are_written_one_element_a_line_as_the_encoder_writes_them(
    rows: list[dict[str, object]], counts: dict[str, object]
) -> None:
    # The lint rows and the per-tool counts go through a quicker path than the JSON encoder: byte for byte the same.
    import io

    from catalog_inspector.core.catalog import write_json

    snapshot = Snapshot("complete", None, {}, {}, None, {n: ListResult("not_offered") for n in LIST_NAMES})
    out = io.StringIO()
    write_json(snapshot, out, {"tokens": {"encoding": "o200k_base", "tools": counts}, "lint": rows})
    text = out.getvalue()
    encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
    for row in rows:
        assert "    " + encode(row) in [line.rstrip(",") for line in text.split("\n")]
    for name, count in counts.items():
        assert "      " + encode(name) + ": " + encode(count) in [line.rstrip(",") for line in text.split("\n")]
    assert json.loads(text)["lint"] == rows
