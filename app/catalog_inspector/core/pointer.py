"""RFC 6901 JSON pointers, both ways: the one place `~` and `/` are escaped and unescaped."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["pointer_of", "pointer_parts"]


def pointer_parts(pointer: str) -> list[str] | None:
    """The reference tokens of an RFC 6901 pointer ("" → []), or None when it is not one: `pointer_of` undone."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        return None
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]


def pointer_of(path: Iterable[str | int]) -> str:
    """The RFC 6901 JSON pointer for a path of keys and indices (`~` and `/` escaped)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)
