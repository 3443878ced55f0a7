"""What a call, read or prompt result says, as plain text a person can read; images as bounded bytes.

Everything here is untrusted server output: text is made visible (control and
format characters escaped) and bounded; images are decoded from their base64
data only (never fetched from a URL) and only up to a byte cap; audio and
resources are described, not played or opened (a resource link is offered to be read, by the window, on the
same server). A block's annotations (audience, priority, lastModified) are said under it.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import wave
from dataclasses import dataclass, replace
from typing import Any

from catalog_inspector.core.text import visible

__all__ = ["IMAGE_CAP", "LINKS", "Block", "annotation_words", "describe_result", "verdict_words"]

IMAGE_CAP = 8 * 1024 * 1024  # decoded bytes of one image preview
TEXT_CAP = 200_000  # characters of one text block shown
IMAGES = 8  # previews per result; the rest are described
LINKS = 8  # resource links per result offered to be read; the rest are described


@dataclass(frozen=True)
class Block:
    """One piece of a result: `text` always; `image` (decoded bytes) and `mime` for a previewable image; `link`
    for a resource link that may be read (`{uri, name, …}` as sent, the URI a string)."""

    kind: str
    text: str
    image: bytes | None = None
    mime: str = ""
    link: dict[str, Any] | None = None


def annotation_words(annotations: Any) -> str:
    """A block's annotations in words ("" for none): who it is for, how much it matters, when it changed."""
    if not isinstance(annotations, dict):
        return ""
    parts = []
    audience = annotations.get("audience")
    if isinstance(audience, list) and audience:
        parts.append("for " + " and ".join(visible(str(who), 40) for who in audience[:4]))
    priority = annotations.get("priority")
    if isinstance(priority, int | float) and not isinstance(priority, bool):
        parts.append(f"priority {priority:g}" + (" (out of 0 to 1)" if not 0 <= priority <= 1 else ""))
    modified = annotations.get("lastModified")
    if isinstance(modified, str):
        parts.append(f"last modified {visible(modified, 60)}")
    return f"({' · '.join(parts)})" if parts else ""


def _size(n: int) -> str:
    return f"{n:,} bytes" if n < 1024 else f"{n / 1024:,.1f} KiB" if n < 1024 * 1024 else f"{n / 1048576:,.1f} MiB"


def _decoded(data: Any) -> tuple[bytes | None, str]:
    """The bytes of base64 `data` if within the cap, else None and why."""
    if not isinstance(data, str):
        return None, "no data"
    if len(data) * 3 // 4 > IMAGE_CAP:
        return None, f"about {_size(len(data) * 3 // 4)}, over the {_size(IMAGE_CAP)} preview cap"
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None, "its data is not valid base64"
    return raw, _size(len(raw))


def _resource_words(resource: Any) -> str:
    if not isinstance(resource, dict):
        return "an embedded resource (malformed)"
    uri = visible(str(resource.get("uri", "?")), 500)
    mime = visible(str(resource.get("mimeType", "unknown type")), 100)
    if isinstance(resource.get("text"), str):
        return f"Embedded resource {uri} ({mime}):\n{visible(resource['text'], TEXT_CAP, keep_newlines=True)}"
    blob = resource.get("blob")
    size = _size(len(blob) * 3 // 4) if isinstance(blob, str) else "no data"
    return f"Embedded resource {uri} ({mime}, binary, about {size}; not shown)"


def _block(item: Any, images: int, links: int = LINKS) -> Block:
    """One content block, with its annotations said under it."""
    block = _bare_block(item, images, links)
    said = annotation_words(item.get("annotations")) if isinstance(item, dict) else ""
    return replace(block, text=f"{block.text}\n{said}") if said else block


def _duration(raw: bytes) -> str:
    """A WAV's length from its header (", 1.50 s"); "" for other formats, which are not parsed."""
    try:
        with wave.open(io.BytesIO(raw)) as sound:
            frames, rate = sound.getnframes(), sound.getframerate()
    except (wave.Error, EOFError, ValueError, OSError):
        return ""
    return f", {frames / rate:.2f} s" if rate > 0 else ""


def _bare_block(item: Any, images: int, links: int) -> Block:
    if not isinstance(item, dict):
        return Block("unknown", f"[a content block that is not an object: {visible(json.dumps(item)[:200])}]")
    kind = str(item.get("type", "?"))
    if kind == "text":
        return Block("text", visible(str(item.get("text", "")), TEXT_CAP, keep_newlines=True))
    if kind == "image":
        mime = str(item.get("mimeType", ""))
        raw, words = _decoded(item.get("data"))
        label = f"[image, {visible(mime, 100) or 'no MIME type'}, {words}]"
        return Block("image", label, raw if images < IMAGES else None, mime)
    if kind == "audio":
        mime = str(item.get("mimeType", ""))
        raw, words = _decoded(item.get("data"))
        length = _duration(raw) if raw is not None else ""
        return Block("audio", f"[audio, {visible(mime, 100) or 'no MIME type'}, {words}{length}; not played]")
    if kind == "resource_link":
        name = visible(str(item.get("name", "")), 300)
        uri = item.get("uri")
        description = item.get("description")
        extra = f": {visible(description, 500)}" if isinstance(description, str) else ""
        where = visible(uri, 500) if isinstance(uri, str) else "no URI"
        link = item if isinstance(uri, str) and links < LINKS else None
        said = "not opened; it can be read from this server" if link is not None else "not opened"
        return Block("resource_link", f"[resource link {name} → {where} ({said}){extra}]", link=link)
    if kind == "resource":
        return Block("resource", _resource_words(item.get("resource")))
    return Block(kind, f"[a {visible(kind, 60)} block: {visible(json.dumps(item, ensure_ascii=False)[:300])}]")


def describe_result(result: dict[str, Any] | None, kind: str = "tool") -> list[Block]:
    """The blocks of a result: a tool's content and structured content, a resource's contents, a prompt's messages."""
    if result is None:
        return []
    blocks: list[Block] = []
    if kind == "resource":
        for content in result.get("contents") or []:
            blocks.append(Block("resource", _resource_words(content)))
        return blocks or [Block("empty", "(the resource has no contents)")]
    if kind == "prompt":
        if isinstance(result.get("description"), str):
            blocks.append(Block("text", f"Description: {visible(result['description'], 2000, keep_newlines=True)}"))
        for message in result.get("messages") or []:
            role = visible(str(message.get("role", "?")), 40) if isinstance(message, dict) else "?"
            content = message.get("content") if isinstance(message, dict) else None
            inner = _block(content, 0)
            blocks.append(Block(inner.kind, f"{role}: {inner.text}", inner.image, inner.mime))
        return blocks or [Block("empty", "(the prompt has no messages)")]
    images = links = 0
    for item in result.get("content") or []:
        block = _block(item, images, links)
        images += block.image is not None
        links += block.link is not None
        blocks.append(block)
    if "structuredContent" in result:
        pretty = json.dumps(result["structuredContent"], indent=2, ensure_ascii=False)
        blocks.append(Block("structured", "Structured content:\n" + visible(pretty, TEXT_CAP, keep_newlines=True)))
    return blocks or [Block("empty", "(the result has no content)")]


def verdict_words(verdict: Any) -> str:
    """The output-schema verdict in words (a ResultVerdict, or None when the call got no result)."""
    if verdict is None:
        return "Output: not checked (no result)."
    name = verdict.verdict
    if name == "valid":
        return "Output: valid against the accepted catalog's output schema."
    if name == "no_schema":
        return "Output: the tool declares no output schema; nothing to check."
    if name == "tool_error":
        return "Output: not checked (the tool reported an error)."
    if name == "invalid":
        lines = [
            f"  {problem.pointer or '(root)'}: {visible(problem.message, 300)} ({problem.keyword})"
            for problem in verdict.problems[:50]
        ]
        more = f"\n  … and {len(verdict.problems) - 50} more" if len(verdict.problems) > 50 else ""
        return "Output violates the accepted catalog's output schema:\n" + "\n".join(lines) + more
    return f"Output: {name.replace('_', ' ')} — {visible(verdict.detail, 500)}"
