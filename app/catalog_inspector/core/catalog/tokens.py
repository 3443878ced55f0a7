"""What a catalog costs in a model's context: tokens per tool, per list and per catalog, counted offline.

The encoding is OpenAI's `o200k_base` (GPT-4o and later), run by `tiktoken`. Its
merge ranks ship with this package (`data/o200k_base.json.gz`: js-tiktoken's
compact form of the same table, MIT; the test suite rebuilds OpenAI's
`o200k_base.tiktoken` from it and checks its published SHA-256), so nothing is
downloaded, at run time or ever: tiktoken's own loader would fetch the table from
the network on first use.

What is counted is what a host sends a model, not the wire JSON: for a tool its
`name`, `title`, `description`, `inputSchema` and `outputSchema` (those it has, in
that order) as compact JSON; for the items of the other lists the item as sent less
`_meta` and `icons` (hosts do not put either in a prompt; an icon's `data:` URI would
outweigh the rest). Hosts wrap tools in their own framing (a few tokens a tool,
different per host): the counts are the catalog's share, comparable between walks.

`total` is the tools list: what every host pays before the first message. The other
lists are counted (`lists`) but are not in `total`: hosts show prompts and resources
to the user and send the chosen one only.

Qt-free. The encoding itself runs in tiktoken's Rust code without the GIL; a
tool's JSON is a few microseconds of Python with it, so the app counts between
its events (`count_snapshot_steps`), after loading the table behind its window at
start-up (the one part that holds the GIL for long: ~0.2 s, once).
"""

from __future__ import annotations

import base64
import gzip
import json
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from catalog_inspector.core.catalog.lists import LIST_KINDS, LIST_NAMES
from catalog_inspector.core.steps import Steps, run_whole

if TYPE_CHECKING:
    import tiktoken

    from catalog_inspector.core.catalog.snapshot import Snapshot

__all__ = [
    "ENCODING",
    "TokenCount",
    "count_items",
    "count_snapshot",
    "count_snapshot_steps",
    "count_texts",
    "delta_words",
    "encoding",
    "host_text",
    "preload",
    "preload_encoding",
    "token_words",
]

ENCODING = "o200k_base"
DATA_FILE = "o200k_base.json.gz"
TOOL_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema")
LEFT_OUT = frozenset({"_meta", "icons"})  # of the other lists' items: never in a prompt
PIECE = 32_768  # characters counted at once (see `count_texts`)
LOAD_POLITE_EVERY = 2_000  # ranks read between two lets-go of the GIL (~0.5 ms; see `_polite`)
COUNT_EVERY = 32  # items counted a step (about 0.7 ms of rich tools)
NEAR = 1_024  # how far back from a cut a space is looked for

_lock = threading.Lock()
_loaded: list[tiktoken.Encoding] = []  # the one encoding, once loaded (a list: no `global` rebinding)


def _ranks(bpe_ranks: str) -> dict[bytes, int]:
    """js-tiktoken's ranks: lines of `! OFFSET TOKEN TOKEN …`, tokens base64, ranks counting up from OFFSET."""
    ranks: dict[bytes, int] = {}
    decode = base64.b64decode
    for line in bpe_ranks.split("\n"):
        if not line:
            continue
        _, offset, *tokens = line.split(" ")
        start = int(offset)
        for position, token in enumerate(_polite(tokens, LOAD_POLITE_EVERY)):
            ranks[decode(token)] = start + position
    return ranks


def encoding() -> tiktoken.Encoding:
    """The o200k_base encoding, loaded from the package's own data on first use (~0.2 s), then kept."""
    with _lock:
        if not _loaded:
            import tiktoken

            packed = resources.files("catalog_inspector").joinpath("data", DATA_FILE).read_bytes()
            data = json.loads(gzip.decompress(packed))
            _loaded.append(
                tiktoken.Encoding(
                    ENCODING,
                    pat_str=data["pat_str"],
                    mergeable_ranks=_ranks(data["bpe_ranks"]),
                    special_tokens=data["special_tokens"],
                )
            )
        return _loaded[0]


def preload_encoding() -> None:
    """Load the encoding now, on this thread (the app's start-up does it behind its window); never raises: a
    table that cannot be loaded is said by the first count."""
    try:
        encoding()
    except Exception:  # noqa: BLE001  # said where it matters: the count that needs it
        return


def preload() -> threading.Thread:
    """Start loading the encoding on a daemon thread (a command does this before its walk, which then hides it)."""
    thread = threading.Thread(target=encoding, name="token-encoding", daemon=True)
    thread.start()
    return thread


def host_text(list_name: str, item: Mapping[str, Any]) -> str:
    """The text of one item as a host would send it to a model (see the module docstring)."""
    if list_name == "tools":
        sent = {key: item[key] for key in TOOL_FIELDS if key in item}
    else:
        sent = {key: value for key, value in item.items() if key not in LEFT_OUT}
    # NaN from a server (the SDK's parser takes it) still counts: as the text a host would print.
    return json.dumps(sent, ensure_ascii=False, separators=(",", ":"), default=str)


def _pieces(text: str) -> Iterator[str]:
    """`text` in pieces of at most PIECE characters, each cut before a space where one is near (words, which the
    encoding splits at spaces anyway, stay whole)."""
    start = 0
    while len(text) - start > PIECE:
        cut = start + PIECE
        space = text.rfind(" ", cut - NEAR, cut)
        cut = space if space > start else cut
        yield text[start:cut]
        start = cut
    yield text[start:]


def count_texts(texts: Iterable[str]) -> list[int]:
    """Tokens of each text. One at a time: tiktoken's batch call spreads short texts over a thread pool that
    costs more than it saves (0.41 s against 0.14 s for 10,000 tools here).

    A text over PIECE characters is counted a piece at a time: one 2 MiB run without a break
    took 90 MB of tiktoken's working memory at once. The count is then exact but for the cuts
    (a token that spans one may count as two: a few tokens in a megabyte).
    """
    encode = encoding().encode_ordinary
    return [len(encode(text)) if len(text) <= PIECE else sum(len(encode(p)) for p in _pieces(text)) for text in texts]


@dataclass(frozen=True)
class TokenCount:
    """A catalog's cost in tokens.

    Attributes:
        total: the tools list (what a host pays before the first message).
        first_page: the tools of the first page (what a host that reads one page pays).
        tools: each tool's tokens by name, in catalog order.
        lists: each judged list's tokens (tools included); a list not walked whole is absent.
    """

    encoding: str
    total: int
    first_page: int
    tools: Mapping[str, int] = field(default_factory=dict)
    lists: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "encoding": self.encoding,
            "total": self.total,
            "first_page": self.first_page,
            "tools": dict(self.tools),
            "lists": dict(self.lists),
        }

    @classmethod
    def from_json(cls, data: Any) -> TokenCount | None:
        """A stored count, or None (absent, or from an encoding other than ours: not comparable)."""
        if not isinstance(data, dict) or data.get("encoding") != ENCODING:
            return None
        tools, lists = data.get("tools"), data.get("lists")
        try:
            return cls(
                ENCODING,
                int(data["total"]),
                int(data.get("first_page", 0)),
                {str(k): int(v) for k, v in tools.items()} if isinstance(tools, dict) else {},
                {str(k): int(v) for k, v in lists.items()} if isinstance(lists, dict) else {},
            )
        except (KeyError, TypeError, ValueError):
            return None


def _polite(items: Iterable[Any], every: int) -> Iterator[Any]:
    """`items`, with the GIL let go every `every` of them: a loop of Python on a worker thread otherwise gives it
    back only every 5 ms, and each wait of the window's thread is a stall."""
    for position, item in enumerate(items, 1):
        yield item
        if position % every == 0:
            time.sleep(0)


def count_items(list_name: str, items: Sequence[Mapping[str, Any]]) -> list[int]:
    return count_texts(host_text(list_name, item) for item in items)


def count_items_steps(list_name: str, items: Sequence[Mapping[str, Any]]) -> Steps[list[int]]:
    """`count_items` in small steps (`core.steps`): COUNT_EVERY items a step, well under a millisecond."""
    counts: list[int] = []
    for start in range(0, len(items), COUNT_EVERY):
        counts.extend(count_items(list_name, items[start : start + COUNT_EVERY]))
        yield
    return counts


def count_snapshot(snapshot: Snapshot) -> TokenCount | None:
    """The catalog's tokens, or None when its tools were not accepted (no catalog to count)."""
    return run_whole(count_snapshot_steps(snapshot))


def count_snapshot_steps(snapshot: Snapshot) -> Steps[TokenCount | None]:
    """`count_snapshot` in small steps (`core.steps`): the window counts between its events. A thread is no
    way here: a tool's JSON holds the GIL, and counting 10,000 tools on one stalled a refresh 40 ms."""
    if snapshot.status != "complete":
        return None
    tools = snapshot.tools
    key = LIST_KINDS["tools"].key_field
    per_tool: dict[str, int] = {}
    items = tools.items
    for start in range(0, len(items), COUNT_EVERY):
        chunk = items[start : start + COUNT_EVERY]
        for item, tokens in zip(chunk, count_items("tools", chunk), strict=True):
            per_tool[str(item.get(key))] = tokens
        yield
    first = tools.pages[0].names if tools.pages else ()
    lists = {"tools": sum(per_tool.values())}
    for name in LIST_NAMES[1:]:
        result = snapshot.lists[name]
        if result.judged:
            lists[name] = sum((yield from count_items_steps(name, result.items)))
    return TokenCount(ENCODING, lists["tools"], sum(per_tool.get(name, 0) for name in first), per_tool, lists)


def token_words(tokens: int) -> str:
    """`1,240 tokens` (`1 token`)."""
    return f"{tokens:,} token" + ("" if tokens == 1 else "s")


def delta_words(delta: int) -> str:
    """`+1,240 tokens`, `−12 tokens`, `±0 tokens`: a change in the cost, signed."""
    sign = "+" if delta > 0 else "−" if delta < 0 else "±"
    return sign + token_words(abs(delta))
