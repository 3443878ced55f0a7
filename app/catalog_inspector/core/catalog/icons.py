"""Icons (`icons` on tools, prompts, resources and the server), judged without fetching or drawing anything unsafe.

Only a `data:` URI of PNG, JPEG, GIF or WebP under `ICON_BYTES` is given to the window to decode (it decodes
with Qt's allocation limit); its bytes must be what its type says. An SVG is described, never rendered (it is a
document that can reference anything); an `https:` icon is listed by its URL and never fetched. Plain data.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any, Literal

from catalog_inspector.core.text import visible

__all__ = ["ICON_BYTES", "ICONS", "Icon", "icons_of", "icon_words"]

ICON_BYTES = 256 * 1024  # decoded bytes of one icon given to the decoder
ICONS = 8  # icons of one item looked at
RASTERS = {
    "image/png": b"\x89PNG\r\n\x1a\n",
    "image/jpeg": b"\xff\xd8\xff",
    "image/gif": b"GIF8",
    "image/webp": b"RIFF",
}

IconKind = Literal["raster", "svg", "remote", "refused"]


@dataclass(frozen=True)
class Icon:
    """One icon as judged: `raster` (with `data`, to be decoded), `svg` (described), `remote` (listed by URL),
    or `refused` (and why, in `note`)."""

    kind: IconKind
    mime: str
    source: str  # how the icon is named in words: its URL, or `data:` and its size
    note: str = ""
    data: bytes | None = None
    sizes: str = ""


def _sniffed(mime: str, data: bytes) -> bool:
    magic = RASTERS[mime]
    return data.startswith(magic) and (mime != "image/webp" or data[8:12] == b"WEBP")


def _data_icon(src: str, declared: str, sizes: str) -> Icon:
    header, _, payload = src[5:].partition(",")
    mime = (header.split(";")[0].strip().lower() or declared).lower()
    size = len(payload) * 3 // 4
    words = f"data:, about {size:,} bytes"
    if mime == "image/svg+xml":
        return Icon("svg", mime, words, "an SVG: described, never drawn", sizes=sizes)
    if mime not in RASTERS:
        return Icon(
            "refused", mime, words, f"{visible(mime, 60) or 'no type'} is not PNG, JPEG, GIF or WebP", sizes=sizes
        )
    if not header.endswith(";base64"):
        return Icon("refused", mime, words, "not base64 data", sizes=sizes)
    if size > ICON_BYTES:
        return Icon("refused", mime, words, f"over the {ICON_BYTES // 1024} KiB icon cap", sizes=sizes)
    try:
        data = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        return Icon("refused", mime, words, "its data is not valid base64", sizes=sizes)
    if not _sniffed(mime, data):
        return Icon("refused", mime, words, f"its bytes are not {mime}", sizes=sizes)
    return Icon("raster", mime, f"data:, {len(data):,} bytes", data=data, sizes=sizes)


def icons_of(item: Any) -> list[Icon]:
    """The item's icons (at most `ICONS`), judged; [] when it has none."""
    icons = item.get("icons") if isinstance(item, dict) else None
    found = []
    for icon in icons[:ICONS] if isinstance(icons, list) else ():
        if not isinstance(icon, dict) or not isinstance(icon.get("src"), str):
            found.append(Icon("refused", "", "?", "not an object with a src string"))
            continue
        src, declared = icon["src"], str(icon.get("mimeType") or "")
        sizes = icon.get("sizes")
        said = visible(", ".join(str(s) for s in sizes[:4]), 60) if isinstance(sizes, list) else ""
        if src.startswith("data:"):
            found.append(_data_icon(src, declared, said))
        elif src.startswith("https://") or src.startswith("http://"):
            found.append(Icon("remote", declared, visible(src, 300), "listed by its URL, never fetched", sizes=said))
        else:
            found.append(Icon("refused", declared, visible(src, 120), "not a data: or https: URI", sizes=said))
    return found


def icon_words(icons: list[Icon], drawn: bool = True) -> list[str]:
    """Detail lines for an item's icons ([] for none); `drawn`: the safe ones are drawn above the lines."""
    if not icons:
        return []
    lines = [f"Icons: {len(icons)}"]
    for icon in icons:
        kind = icon.mime or "no type"
        sizes = f" {icon.sizes}" if icon.sizes else ""
        safe = "shown above" if drawn else "checked raster data, safe to draw"
        shown = safe if icon.kind == "raster" else icon.note
        lines.append(f"    {visible(kind, 60)}{sizes} ({icon.source}): {shown}")
    return lines
