"""Token counts of a catalog: the shipped o200k_base table, what is counted, offline."""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
from importlib import resources

from catalog_inspector.core.catalog import ListResult, PageRecord, Snapshot
from catalog_inspector.core.catalog.tokens import (
    DATA_FILE,
    ENCODING,
    PIECE,
    TokenCount,
    _ranks,
    count_snapshot,
    count_texts,
    delta_words,
    encoding,
    host_text,
)
from tests.helpers import ROOT

# OpenAI's published SHA-256 of o200k_base.tiktoken (tiktoken_ext/openai_public.py, `expected_hash`).
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


def test_the_shipped_table_is_openais_o200k_base() -> None:
    data = json.loads(gzip.decompress(resources.files("catalog_inspector").joinpath("data", DATA_FILE).read_bytes()))
    ranks = _ranks(data["bpe_ranks"])
    import base64

    rebuilt = "".join(
        f"{base64.b64encode(token).decode()} {rank}\n" for token, rank in sorted(ranks.items(), key=lambda kv: kv[1])
    )
    assert hashlib.sha256(rebuilt.encode()).hexdigest() == O200K_SHA256
    assert data["special_tokens"] == {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}


def test_known_counts() -> None:
    assert encoding().name == ENCODING
    assert encoding().encode_ordinary("hello world") == [24912, 2375]
    assert count_texts(["", "hello world", "<|endoftext|>"]) == [0, 2, 7]  # a special token in text is plain text


def test_counting_needs_no_network(tmp_path) -> None:
    # A fresh interpreter where every socket fails and tiktoken's cache is empty: the table must come from the package.
    script = (
        "import socket\n"
        "def refuse(*a, **k): raise OSError('network is off in this test')\n"
        "socket.socket = refuse; socket.create_connection = refuse; socket.getaddrinfo = refuse\n"
        "from catalog_inspector.core.catalog.tokens import count_texts\n"
        "print(count_texts(['hello world', 'Ünïcödé ✓']))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "app"), "TIKTOKEN_CACHE_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith("[2, ")
    assert list(tmp_path.iterdir()) == []  # nothing was cached (nothing fetched)


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
