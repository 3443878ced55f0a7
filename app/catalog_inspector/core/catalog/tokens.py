"""What a catalog costs in a model's context: tokens per tool, per list and per catalog, counted offline.

The encoding is OpenAI's `o200k_base` (GPT-4o and later), run by `tiktoken`. Its
merge ranks ship with this package (`data/o200k_base.ranks.gz`, written from
js-tiktoken's form of the same table, MIT, by `packaging/make_token_table.py`; the
test suite rebuilds OpenAI's `o200k_base.tiktoken` from it and checks its published
SHA-256), so nothing is downloaded, at run time or ever: tiktoken's own loader would
fetch the table from the network on first use.

What is counted is what a host sends a model, not the wire JSON: for a tool its
`name`, `title`, `description`, `inputSchema` and `outputSchema` (those it has, in
that order) as compact JSON; for the items of the other lists the item as sent less
`_meta` and `icons` (hosts do not put either in a prompt; an icon's `data:` URI would
outweigh the rest). Hosts wrap tools in their own framing (a few tokens a tool,
different per host): the counts are the catalog's share, comparable between walks.

`total` is the tools list: what every host pays before the first message. The other
lists are counted (`lists`) but are not in `total`: hosts show prompts and resources
to the user and send the chosen one only.

A tool is counted in parts that the encoding is known to split at (`ToolCounter`):
the part up to its `inputSchema` key, then each schema with what follows it. Schemas
repeat across a catalog (generated servers share a few shapes), and a part seen
before is not encoded again: the counts are those of the whole text, exactly (the
test suite checks it on arbitrary tools, hostile text included).

Qt-free. The encoding itself runs in tiktoken's Rust code without the GIL; a
tool's JSON is a few microseconds of Python with it, so the app counts between
its events (`count_snapshot_steps`), after loading the table behind its window at
start-up (the one part that holds the GIL for long: ~0.2 s, once).
"""

from __future__ import annotations

import gzip
import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from itertools import accumulate, islice, pairwise, starmap
from typing import TYPE_CHECKING, Any

from catalog_inspector.core.catalog.lists import LIST_KINDS, LIST_NAMES
from catalog_inspector.core.json_encode import one_shot
from catalog_inspector.core.steps import EVERY, Steps, run_whole

if TYPE_CHECKING:
    import tiktoken

    from catalog_inspector.core.catalog.snapshot import Snapshot

__all__ = [
    "ENCODING",
    "SCHEMA_FIELDS",
    "TokenCount",
    "ToolCounter",
    "count_items",
    "count_snapshot",
    "count_snapshot_steps",
    "count_texts",
    "delta_words",
    "encoding",
    "encoding_ready",
    "host_text",
    "tool_parts",
    "preload",
    "preload_encoding",
    "token_words",
]

ENCODING = "o200k_base"
DATA_FILE = "o200k_base.ranks.gz"
TOOL_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema")
SCHEMA_FIELDS = TOOL_FIELDS[3:]  # a tool's text may be cut just before the `":` after each (`ToolCounter`)
_HEAD_FIELDS = TOOL_FIELDS[:3]
LEFT_OUT = frozenset({"_meta", "icons"})  # of the other lists' items: never in a prompt
PIECE = 32_768  # characters counted at once (see `count_texts`)
LOAD_POLITE_EVERY = 2_000  # ranks made between two lets-go of the GIL (~1 ms: the window's thread waits no longer)
COUNT_EVERY = 32  # items counted a step (about 0.7 ms of rich tools)
NEAR = 1_024  # how far back from a cut a space is looked for
KEPT_PARTS = 4_096  # schema parts a ToolCounter remembers (then it starts again: a catalog of unique schemas)
KEPT_PART_CHARS = 16_384  # a longer part is counted each time (what it costs to encode dwarfs a lookup anyway)

_lock = threading.Lock()
_loaded: list[tiktoken.Encoding] = []  # the one encoding, once loaded (a list: no `global` rebinding)


def _table(packed: bytes) -> tuple[dict[str, Any], dict[bytes, int]]:
    """The shipped table (`packaging/make_token_table.py`): its head (pattern, special tokens) and the ranks.

    gzip of one JSON line, then a byte per token (its length, in rank order), then the tokens' bytes.
    """
    head_line, _, body = gzip.decompress(packed).partition(b"\n")
    head = json.loads(head_line)
    count = int(head["count"])
    # Each token's bounds in `body`, made as they are taken: a list of them would be 7 MB more at the load's peak.
    bounds = pairwise(accumulate(body[:count], initial=count))
    tokens = map(body.__getitem__, starmap(slice, bounds))
    ranks: dict[bytes, int] = {}
    for start in range(0, count, LOAD_POLITE_EVERY):  # the window's thread gets the GIL between two runs
        ranks.update(
            zip(islice(tokens, LOAD_POLITE_EVERY), range(start, min(start + LOAD_POLITE_EVERY, count)), strict=True)
        )
        time.sleep(0)
    return head, ranks


def encoding() -> tiktoken.Encoding:
    """The o200k_base encoding, loaded from the package's own data on first use (~0.2 s), then kept."""
    with _lock:
        if not _loaded:
            import tiktoken

            head, ranks = _table(resources.files("catalog_inspector").joinpath("data", DATA_FILE).read_bytes())
            loaded = tiktoken.Encoding(
                ENCODING, pat_str=head["pat_str"], mergeable_ranks=ranks, special_tokens=head["special_tokens"]
            )
            # The Rust core has its own copy; the encoding keeps the dict only to be pickled, which it never is
            # here. 25 MB that a walk's pages and the document can use instead (a 10,000-tool snapshot's peak).
            loaded._mergeable_ranks = {}
            del ranks
            _loaded.append(loaded)
        return _loaded[0]


def encoding_ready() -> bool:
    """Whether the encoding is loaded (a count now takes no time to load it, and does not wait for a load)."""
    return bool(_loaded)


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


# NaN from a server (the SDK's parser takes it) still counts: as the text a host would print.
_compact = one_shot(ensure_ascii=False, separators=(",", ":"), default=str)


def host_text(list_name: str, item: Mapping[str, Any]) -> str:
    """The text of one item as a host would send it to a model (see the module docstring)."""
    if list_name == "tools":
        sent = {key: item[key] for key in TOOL_FIELDS if key in item}
    else:
        sent = {key: value for key, value in item.items() if key not in LEFT_OUT}
    return _compact(sent)


class ToolCounter:
    """Counts tools as `count_items("tools", …)` does, a part at a time, remembering the schema parts it has seen.

    A tool's text is `{"name":…,"inputSchema":…,"outputSchema":…}`; it is cut just before the `":` that follows
    each schema key. o200k_base first splits a text into pieces by its pattern, then encodes each piece alone,
    and a piece never spans these cuts: the character before one is the key's last letter, `a`, and a run of
    letters ends at a `"` (only an apostrophe could carry it on); the pattern has no look-behind, so what
    follows a cut is split as it would be at the start of a text. So the whole text's count is the sum of its
    parts' counts. A text over PIECE characters is counted whole, as `count_texts` does (its cuts differ).

    Attributes:
        parts: a schema part's text (`":{…},"outputSchema`) → its tokens, at most KEPT_PARTS of them.
    """

    def __init__(self) -> None:
        self.parts: dict[str, int] = {}
        self._encode = encoding().encode_ordinary

    def count(self, tool: Mapping[str, Any]) -> int:
        return self.count_parts(tool_parts(tool))

    def count_parts(self, texts: Sequence[str]) -> int:
        """The tokens of a tool given as its `tool_parts`."""
        if sum(map(len, texts)) > PIECE:
            return count_texts(["".join(texts)])[0]
        tokens = len(self._encode(texts[0]))
        for text in texts[1:]:
            known = self.parts.get(text)
            if known is None:
                known = len(self._encode(text))
                if len(text) <= KEPT_PART_CHARS:
                    if len(self.parts) >= KEPT_PARTS:
                        self.parts.clear()
                    self.parts[text] = known
            tokens += known
        return tokens

    def counts(self, tools: Iterable[Mapping[str, Any]]) -> list[int]:
        return [self.count(tool) for tool in tools]

    def counts_steps(self, tools: Iterable[Mapping[str, Any]]) -> Steps[list[int]]:
        """`counts` in small steps (`core.steps`): COUNT_EVERY tools or PIECE characters a step, and a longer tool a
        piece a step (a tool with a 1 MiB description took 90-260 ms to count: as long a stall of the window)."""
        counts: list[int] = []
        step = _Step()
        for tool in tools:
            parts = tool_parts(tool)
            length = sum(map(len, parts))
            if length > PIECE:
                counts.append((yield from _text_steps(self._encode, "".join(parts))))
            else:
                counts.append(self.count_parts(parts))
            if step.full(length):
                yield
        return counts


def tool_parts(tool: Mapping[str, Any]) -> list[str]:
    """`host_text("tools", tool)` cut before the `":` after each schema key (`ToolCounter`); joined, the same text.

    The part after the first holds the schema (`":{…}}` or `":{…},"outputSchema`): one text per schema's JSON.
    """
    # `_compact` of the name, title and description less its closing brace (`{"name":…` or `{`), a value at a time
    # (a string is one call of the encoder's string function): a dict made and encoded per tool took twice as long.
    text, comma = "{", ""
    for key in _HEAD_FIELDS:
        if key in tool:
            text += comma + '"' + key + '":' + _compact(tool[key])
            comma = ","
    parts: list[str] = []
    for key in SCHEMA_FIELDS:
        if key in tool:
            parts.append(text + ("," if len(text) > 1 else "") + '"' + key)
            text = '":' + _compact(tool[key])
    parts.append(text + "}")
    return parts


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


class _Step:
    """What one step of the window's count has taken: it is full at COUNT_EVERY items or PIECE characters."""

    def __init__(self) -> None:
        self.size = self.taken = 0

    def full(self, size: int) -> bool:
        """One more item of `size` characters counted: whether the step is full (the next one starts empty)."""
        self.size, self.taken = self.size + size, self.taken + 1
        if self.size < PIECE and self.taken < COUNT_EVERY:
            return False
        self.size = self.taken = 0
        return True


def _text_steps(encode: Callable[[str], list[int]], text: str) -> Steps[int]:
    """The tokens of `text` as `count_texts` counts it, a piece a step when it is over PIECE characters."""
    if len(text) <= PIECE:
        return len(encode(text))
    total = 0
    for piece in _pieces(text):
        yield
        total += len(encode(piece))
    return total


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


def count_items(list_name: str, items: Sequence[Mapping[str, Any]]) -> list[int]:
    return count_texts(host_text(list_name, item) for item in items)


def count_items_steps(list_name: str, items: Sequence[Mapping[str, Any]]) -> Steps[list[int]]:
    """`count_items` in small steps (`core.steps`): COUNT_EVERY items or PIECE characters a step (well under a
    millisecond), and a longer item a piece a step."""
    encode = encoding().encode_ordinary
    counts: list[int] = []
    step = _Step()
    for item in items:
        text = host_text(list_name, item)
        counts.append((yield from _text_steps(encode, text)))
        if step.full(len(text)):
            yield
    return counts


def count_snapshot(snapshot: Snapshot, tool_counts: Sequence[int] | None = None) -> TokenCount | None:
    """The catalog's tokens, or None when its tools were not accepted (no catalog to count).

    `tool_counts`: each tool's count, in catalog order, made beforehand (as the pages came: `core.calls.PageWork`).
    """
    return run_whole(count_snapshot_steps(snapshot, tool_counts))


def count_snapshot_steps(snapshot: Snapshot, tool_counts: Sequence[int] | None = None) -> Steps[TokenCount | None]:
    """`count_snapshot` in small steps (`core.steps`): the window counts between its events. A thread is no
    way here: a tool's JSON holds the GIL, and counting 10,000 tools on one stalled a refresh 40 ms."""
    if snapshot.status != "complete":
        return None
    tools = snapshot.tools
    key = LIST_KINDS["tools"].key_field
    per_tool: dict[str, int] = {}
    items = tools.items
    counts = tool_counts if tool_counts is not None else (yield from ToolCounter().counts_steps(items))
    for start in range(0, len(items), EVERY):  # each tool's count by name: 40 ms in one step at 100,000 tools
        names = (str(item.get(key)) for item in items[start : start + EVERY])
        per_tool.update(zip(names, counts[start : start + EVERY], strict=True))
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
