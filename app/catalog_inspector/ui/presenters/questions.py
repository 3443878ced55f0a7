"""What the input request panel and the rounds table say about the server's questions, in words. No widgets.

Everything here is the server's text: each piece is made visible (hidden and
direction-changing characters written out) and bounded before it is shown.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from catalog_inspector.core.calls import ELICIT, LIST_ROOTS, SAMPLE, InputAnswer, InputAsk, Round
from catalog_inspector.core.text import visible
from catalog_inspector.runtime.asks import PendingAsk
from catalog_inspector.ui.signin import link_text

__all__ = [
    "ROUND_HEADERS",
    "asker_words",
    "content_problem",
    "kind_words",
    "message_words",
    "round_rows",
    "sampling_words",
]

MESSAGE_LIMIT = 4000  # characters of a question's message shown
PART_LIMIT = 2000  # characters of one part of a sampling request (a message, the system prompt)
CELL_LIMIT = 300
MESSAGES_SHOWN = 20  # the latest messages of a sampling request shown
TOOLS_SHOWN = 50
ROUND_HEADERS = ("Round", "Asked", "Key", "Message or URL", "Answer", "requestState", "Latency")
NO_MODEL = (
    "The inspector has no model: you are the model here. Write the reply the server would get, "
    "or reject the request (the server gets an error)."
)


def _sendable(value: Any) -> bool:
    if value is None or isinstance(value, str | bool | int | float):
        return True
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def content_problem(content: Any) -> str:
    """Why an elicitation's answer cannot be sent as it is ("" when it can): the spec lets its content hold only
    strings, numbers, booleans and lists of strings (null too), under string keys, whatever the requested schema
    says (a schema outside the spec's subset may ask for more)."""
    if not isinstance(content, dict):
        return "The answer must be a JSON object (its keys are the requested schema's properties)."
    bad = [key for key, value in content.items() if not _sendable(value)]
    if not bad:
        return ""
    keys = ", ".join(visible(repr(key), 80) for key in bad[:5])
    return (
        f"Not sendable: {keys} hold{'s' if len(bad) == 1 else ''} an object or a list of non-strings; an answer may "
        "only hold strings, numbers, booleans and lists of strings."
    )


def kind_words(ask: InputAsk) -> str:
    """`elicitation (form)`, `elicitation (URL)`, `sampling`, `roots`, or the method the server named."""
    if ask.method == ELICIT:
        return "elicitation (URL)" if ask.mode == "url" else "elicitation (form)"
    if ask.method == SAMPLE:
        return "sampling"
    if ask.method == LIST_ROOTS:
        return "roots"
    return visible(ask.method or "(no method)", 100)


def message_words(ask: InputAsk) -> str:
    """What the server says to the person (an elicitation's message, a sampling request's last user text)."""
    message = ask.message
    if not message:
        return "(the server sent no message with this question)"
    return visible(message, MESSAGE_LIMIT, keep_newlines=True)


def asker_words(pending: PendingAsk, rounds: Sequence[Round], waiting: int) -> str:
    """Which server asks, in which round and how, and how many more questions wait behind this one."""
    server = visible(pending.server, 120)
    ask = pending.ask
    where = f"round {rounds[-1].index}, " if rounds else ""
    if pending.ticket is None:
        how = "outside any call (the server's own request, protocol before 2026-07-28)"
    elif ask.era == "modern":
        how = f"{where}in an input_required answer under the key {visible(str(ask.key), 100)!r}"
    else:
        how = f"{where}the server's own request while the call runs (protocol before 2026-07-28)"
    more = waiting - 1
    behind = (
        f" · {more} more question{'s' if more != 1 else ''} wait{'s' if more == 1 else ''} after this one"
        if more > 0
        else ""
    )
    return f"“{server}” asks for input: {kind_words(ask)}, {how}{behind}"


def _content_words(content: Any) -> str:
    blocks = content if isinstance(content, list) else [content]
    words = []
    for block in blocks[:20]:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            words.append(visible(block["text"], PART_LIMIT, keep_newlines=True))
        else:
            mime = visible(str(block.get("mimeType", "")), 80)
            size = len(str(block.get("data", "")))
            words.append(f"({visible(str(kind), 40)}{', ' + mime if mime else ''}, {size:,} characters)")
    return "\n    ".join(words) or "(no content)"


def _json_words(value: Any, limit: int = PART_LIMIT) -> str:
    return visible(json.dumps(value, ensure_ascii=False), limit)


def sampling_words(params: dict[str, Any]) -> str:
    """A sampling request as sent: system prompt, messages, model preferences, limits, any tools offered."""
    lines = [NO_MODEL, ""]
    system = params.get("systemPrompt")
    if isinstance(system, str) and system:
        lines += ["System prompt:", "    " + visible(system, PART_LIMIT, keep_newlines=True), ""]
    messages = params.get("messages")
    messages = messages if isinstance(messages, list) else []
    lines.append(f"Messages ({len(messages)}):")
    if len(messages) > MESSAGES_SHOWN:  # the latest are the ones a reply answers
        lines.append(f"  … {len(messages) - MESSAGES_SHOWN} earlier messages not shown")
    for message in messages[-MESSAGES_SHOWN:]:
        if isinstance(message, dict):
            role = visible(str(message.get("role", "?")), 40)
            lines.append(f"  [{role}] {_content_words(message.get('content'))}")
    lines.append("")
    for key, title in (("modelPreferences", "Model preferences"), ("maxTokens", "Max tokens"),
                       ("temperature", "Temperature"), ("stopSequences", "Stop sequences"),
                       ("includeContext", "Include context"), ("toolChoice", "Tool choice"),
                       ("metadata", "Metadata")):  # fmt: skip
        if key in params:
            lines.append(f"{title}: {_json_words(params[key])}")
    tools = params.get("tools")
    if isinstance(tools, list):
        lines.append(f"Tools offered ({len(tools)}):")
        for tool in tools[:TOOLS_SHOWN]:
            if isinstance(tool, dict):
                name = visible(str(tool.get("name", "?")), 120)
                about = visible(str(tool.get("description", "")), 300)
                lines.append(f"  {name}" + (f" — {about}" if about else ""))
    else:
        lines.append("Tools offered: none")
    return "\n".join(lines)


def _answer_words(answer: InputAnswer | None) -> str:
    if answer is None:
        return "waiting…"
    words: str = answer.action
    if answer.unanswered:
        words += " (nobody answered)"
    if answer.problems:
        words += " (breaks the requested schema)"
    elif answer.error:
        words += f": {visible(answer.error, CELL_LIMIT)}"
    return words


def round_rows(rounds: Sequence[Round]) -> list[tuple[str, ...]]:
    """One row per question of each round (a round with none: one row), in `ROUND_HEADERS` order."""
    rows: list[tuple[str, ...]] = []
    for entry in rounds:
        state = f"{entry.request_state_bytes:,} B" if entry.request_state_bytes is not None else "—"
        latency = f"{entry.latency_ms:,.0f} ms"
        if not entry.requests:
            rows.append((str(entry.index), "requestState only", "—", "(no question: the request is sent again)",
                         "sent again", state, latency))  # fmt: skip
            continue
        for position, ask in enumerate(entry.requests):
            answer = entry.responses[position] if position < len(entry.responses) else None
            # A URL as the panel shows and opens it (ASCII host: a look-alike international name stays visible).
            said = link_text(ask.url) if ask.url is not None else ask.message
            rows.append((
                str(entry.index),
                kind_words(ask),
                visible(ask.key, 100) if ask.key is not None else "—",
                visible(said, CELL_LIMIT) if said else "",
                _answer_words(answer),
                state,
                latency,
            ))  # fmt: skip
    return rows
