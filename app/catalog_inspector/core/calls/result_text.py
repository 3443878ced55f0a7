"""What a call, read or prompt result says, as plain text a person can read; images as bounded bytes.

Everything here is untrusted server output: text is made visible (control and
format characters escaped) and bounded; images are decoded from their base64
data only (never fetched from a URL) and only up to a byte cap; audio and
resources are described, not played or opened.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

from catalog_inspector.core.text import visible

__all__ = ["IMAGE_CAP", "Block", "describe_result", "verdict_words"]

IMAGE_CAP = 8 * 1024 * 1024  # decoded bytes of one image preview
TEXT_CAP = 200_000  # characters of one text block shown
IMAGES = 8  # previews per result; the rest are described


@dataclass(frozen=True)
class Block:
    """One piece of a result: `text` always; `image` (decoded bytes) and `mime` for a previewable image."""

    kind: str
    text: str
    image: bytes | None = None
    mime: str = ""


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


def _block(item: Any, images: int) -> Block:
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
        raw, words = _decoded(item.get("data"))
        return Block(
            "audio", f"[audio, {visible(str(item.get('mimeType', '')), 100) or 'no MIME type'}, {words}; not played]"
        )
    if kind == "resource_link":
        name = visible(str(item.get("name", "")), 300)
        uri = visible(str(item.get("uri", "?")), 500)
        description = item.get("description")
        extra = f": {visible(description, 500)}" if isinstance(description, str) else ""
        return Block("resource_link", f"[resource link {name} → {uri} (not opened){extra}]")
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
    images = 0
    for item in result.get("content") or []:
        block = _block(item, images)
        images += block.image is not None
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
