"""Token counts of a catalog: the shipped o200k_base table, what is counted, offline."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import subprocess
import sys
from collections import Counter
from importlib import resources

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_inspector.core.catalog import ListResult, PageRecord, Snapshot
from catalog_inspector.core.catalog.tokens import (
    DATA_FILE,
    ENCODING,
    KEPT_PARTS,
    PIECE,
    TokenCount,
    ToolCounter,
    _table,
    count_items,
    count_snapshot,
    count_snapshot_steps,
    count_texts,
    delta_words,
    encoding,
    host_text,
    tool_parts,
)
from catalog_inspector.core.steps import EVERY
from tests.helpers import ROOT, steps_taken

# OpenAI's published SHA-256 of o200k_base.tiktoken (tiktoken_ext/openai_public.py, `expected_hash`).
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


def test_the_shipped_table_is_openais_o200k_base() -> None:
    head, ranks = _table(resources.files("catalog_inspector").joinpath("data", DATA_FILE).read_bytes())
    rebuilt = "".join(
        f"{base64.b64encode(token).decode()} {rank}\n" for token, rank in sorted(ranks.items(), key=lambda kv: kv[1])
    )
    assert hashlib.sha256(rebuilt.encode()).hexdigest() == O200K_SHA256
    assert head["encoding"] == ENCODING and head["count"] == len(ranks) == 199_998
    assert head["special_tokens"] == {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}
    # tiktoken's own o200k_base pattern (tiktoken_ext/openai_public.py), which ToolCounter's cuts rely on.
    assert head["pat_str"].startswith("[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*")
    assert "(?<" not in head["pat_str"]  # no look-behind: what follows a cut is split as at a text's start


def test_the_table_is_written_by_the_packaging_script(tmp_path) -> None:
    # packaging/make_token_table.py turns js-tiktoken's form into the shipped table: the same bytes again.
    head, ranks = _table(resources.files("catalog_inspector").joinpath("data", DATA_FILE).read_bytes())
    tokens = sorted(ranks, key=ranks.__getitem__)
    lines = [f"! {start} " + " ".join(base64.b64encode(t).decode() for t in tokens[start : start + 1000])
             for start in range(0, len(tokens), 1000)]  # fmt: skip
    source = tmp_path / "o200k_base.json.gz"
    form = {"pat_str": head["pat_str"], "special_tokens": head["special_tokens"], "bpe_ranks": "\n".join(lines)}
    source.write_bytes(gzip.compress(json.dumps(form).encode()))
    out = tmp_path / "out"
    script = ROOT / "packaging" / "make_token_table.py"
    proc = subprocess.run(
        [sys.executable, str(script), str(source), "--out", str(out)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == resources.files("catalog_inspector").joinpath("data", DATA_FILE).read_bytes()


def test_known_counts() -> None:
    assert encoding().name == ENCODING
    assert encoding().encode_ordinary("hello world") == [24912, 2375]
    assert count_texts(["", "hello world", "<|endoftext|>"]) == [0, 2, 7]  # a special token in text is plain text


def test_counting_needs_no_network_and_keeps_no_python_copy_of_the_table(tmp_path) -> None:
    # A fresh interpreter where every socket fails and tiktoken's cache is empty: the table must come from the package.
    # Once loaded, the table lives in tiktoken's Rust core alone: the 25 MB of Python objects it was built from are
    # gone (a 10,000-tool snapshot's peak memory).
    script = (
        "import gc, socket, tracemalloc\n"
        "def refuse(*a, **k): raise OSError('network is off in this test')\n"
        "socket.socket = refuse; socket.create_connection = refuse; socket.getaddrinfo = refuse\n"
        "from catalog_inspector.core.catalog.tokens import count_texts\n"
        "tracemalloc.start()\n"
        "print(count_texts(['hello world', 'Ünïcödé ✓']))\n"
        "gc.collect()\n"
        "print(tracemalloc.get_traced_memory()[0])\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "app"), "TIKTOKEN_CACHE_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    counts, kept = proc.stdout.split()[:-1], int(proc.stdout.split()[-1])
    assert " ".join(counts).startswith("[2, ")
    assert list(tmp_path.iterdir()) == []  # nothing was cached (nothing fetched)
    assert kept < 4_000_000, f"{kept:,} bytes of Python objects kept after the load"


def test_a_tool_counts_what_a_host_sends() -> None:
    tool = {
        "name": "echo",
        "description": "Echo",
        "inputSchema": {"type": "object"},
        "_meta": {"x": "y" * 1000},
        "icons": [{"src": "data:image/png;base64," + "A" * 5000}],
        "annotations": {"readOnlyHint": True},
    }
    assert host_text("tools", tool) == '{"name":"echo","description":"Echo","inputSchema":{"type":"object"}}'
    resource = {"uri": "file:///a", "name": "a", "_meta": {"k": 1}, "icons": []}
    assert host_text("resources", resource) == '{"uri":"file:///a","name":"a"}'


def _page(index: int, names: tuple[str, ...]) -> PageRecord:
    return PageRecord(index, None, None, len(names), names, 10, 1.0)


def _snapshot(tools: list[dict], pages: tuple[PageRecord, ...], status: str = "complete") -> Snapshot:
    lists = {
        "tools": ListResult("complete", tuple(tools), pages),
        "resources": ListResult("complete", ({"uri": "file:///a", "name": "alpha"},)),
        "resource_templates": ListResult("failed"),
        "prompts": ListResult("not_offered"),
    }
    return Snapshot(status, None, {}, {}, None, lists)  # type: ignore[arg-type]


def test_a_catalog_counts_per_tool_first_page_and_list() -> None:
    tools = [{"name": f"t{n}", "description": "word " * n, "inputSchema": {"type": "object"}} for n in range(1, 5)]
    pages = (_page(0, ("t1", "t2")), _page(1, ("t3", "t4")))
    count = count_snapshot(_snapshot(tools, pages))
    assert count is not None
    each = count_texts(host_text("tools", tool) for tool in tools)
    assert count.tools == {"t1": each[0], "t2": each[1], "t3": each[2], "t4": each[3]}
    assert count.total == sum(each) and count.first_page == each[0] + each[1]
    assert each == sorted(each) and len(set(each)) == 4  # longer descriptions cost more
    # A list not walked whole is not counted; one not offered counts nothing.
    assert set(count.lists) == {"tools", "resources", "prompts"} and count.lists["prompts"] == 0
    assert count.lists["tools"] == count.total and count.lists["resources"] > 0
    assert TokenCount.from_json(json.loads(json.dumps(count.to_json()))) == count


def test_the_window_counts_a_huge_item_a_piece_a_step_and_many_long_ones_a_few_a_step() -> None:
    # One step is what the window runs between two of its events: a 1 MiB description counted in one took 90-260 ms.
    huge = {"name": "huge", "description": "word " * (1 << 18), "inputSchema": {"type": "object"}}
    long = [{"name": f"long{n}", "description": "x " * (PIECE // 8)} for n in range(40)]  # a quarter of a piece
    snapshot = _snapshot([huge, *long], (_page(0, ("huge", *(tool["name"] for tool in long))),))
    taken, count = steps_taken(count_snapshot_steps(snapshot))
    assert count == count_snapshot(snapshot) and count is not None
    assert count.tools["huge"] == count_items("tools", [huge])[0] and count.tools["long0"] > PIECE // 8
    assert taken >= (1 << 20) // PIECE + 40 // 4, "a piece of the huge one a step, four long ones a step"


def test_no_step_of_the_window_s_count_goes_over_a_few_hundred_tools() -> None:
    # Each tool's name is read as its count is filed: 40 ms in one step at 100,000 tools when all were filed at once.
    step = [0]
    read_in: list[int] = []

    class Tool(dict):  # type: ignore[type-arg]
        def get(self, key: object, default: object = None) -> object:
            read_in.append(step[0])
            return super().get(key, default)

    tools = [Tool(name=f"t{n}", inputSchema={"type": "object"}) for n in range(5_000)]
    steps = count_snapshot_steps(_snapshot(tools, (_page(0, ("t0",)),)))
    try:
        while True:
            next(steps)
            step[0] += 1
    except StopIteration as done:
        assert len(done.value.tools) == 5_000
    assert max(Counter(read_in).values()) <= EVERY, "a step files at most EVERY tools' counts"


def test_no_catalog_no_count() -> None:
    assert count_snapshot(_snapshot([], (), status="failed")) is None


def test_a_stored_count_of_another_encoding_is_not_ours() -> None:
    assert TokenCount.from_json({"encoding": "cl100k_base", "total": 3}) is None
    assert TokenCount.from_json({"encoding": ENCODING, "total": "many"}) is None
    assert TokenCount.from_json(None) is None


def test_delta_words() -> None:
    assert delta_words(1240) == "+1,240 tokens"
    assert delta_words(-1) == "−1 token"
    assert delta_words(0) == "±0 tokens"


def test_a_huge_text_is_counted_in_pieces_all_but_exactly() -> None:
    words = " ".join(f"word{n}" for n in range(20_000))  # ~170,000 characters: several pieces, cut at spaces
    assert len(words) > 4 * PIECE
    whole = len(encoding().encode_ordinary(words))
    assert count_texts([words]) == [whole]
    solid = "x" * (3 * PIECE + 5)  # no space to cut at: cut hard, a token or so off per cut at most
    exact = len(encoding().encode_ordinary(solid))
    assert abs(count_texts([solid])[0] - exact) <= 3


# Text a server may send: every kind of character the pattern tells apart, the JSON escapes, apostrophes (a
# letter run can take one on), letters right where a cut falls, and ones that render alike.
_TEXT = st.text(
    st.sampled_from([*"aZ'\"\\:{},[] \n\t\r/09Ωǅ\u0301\u200b٣😀"]) | st.characters(), max_size=16
) | st.sampled_from(["inputSchema", "'s", "x'LL", "Schema'", '"inputSchema":', "\r\n", "   "])
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)
_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")
_TOOLS = st.dictionaries(st.sampled_from(_FIELDS), _JSON, max_size=6)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(tools=st.lists(_TOOLS, min_size=1, max_size=6))
def test_a_tool_counted_in_parts_counts_as_its_whole_text(tools: list[dict]) -> None:
    # The oracle is the encoding of the whole text, as tiktoken makes it; the counter remembers parts across tools.
    counter = ToolCounter()
    for tool in tools:
        assert "".join(tool_parts(tool)) == host_text("tools", tool)
        assert counter.count(tool) == len(encoding().encode_ordinary(host_text("tools", tool)))
    assert counter.counts(tools) == count_items("tools", tools)


def test_schema_parts_are_remembered_and_the_memory_is_bounded() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string", "description": "what to look for"}}}
    tools = [{"name": f"t{n}", "description": f"tool {n}", "inputSchema": schema} for n in range(50)]
    counter = ToolCounter()
    assert counter.counts(tools) == count_items("tools", tools)
    assert list(counter.parts) == [tool_parts(tools[0])[1]]  # one schema, encoded once
    many = [{"name": "t", "inputSchema": {"type": "object", "title": str(n)}} for n in range(KEPT_PARTS + 10)]
    assert counter.counts(many) == count_items("tools", many)
    assert len(counter.parts) <= KEPT_PARTS


def test_a_huge_tool_is_counted_whole_as_count_texts_does() -> None:
    tool = {"name": "big", "description": "word " * PIECE, "inputSchema": {"type": "object"}}
    assert ToolCounter().count(tool) == count_items("tools", [tool])[0]
