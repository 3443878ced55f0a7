"""What the detail pane says about a resource, a resource template or a prompt: every field, in plain text.

The layout follows the tools tab's detail (`tools_pane.tool_detail`): the fields one
per line, the description, a prompt's arguments, then the object as the server sent
it. Everything here is server text: each field is made visible (`core.text.visible`)
and bounded, and the whole is capped again where it is shown (`set_capped_text`).
"""

from __future__ import annotations

import json
from typing import Any

from catalog_inspector.core.catalog import icon_words, icons_of, ui_words
from catalog_inspector.core.text import visible
from catalog_inspector.ui.widgets.panes import DISPLAY_CAP

__all__ = ["item_detail"]

FIELD = 2_000  # characters of a one-line field (a name, a MIME type, an annotation)
ARGUMENT_TEXT = 4_000  # characters of one prompt argument's description
ARGUMENTS = 200  # prompt arguments listed; the others are counted
ANNOTATIONS = 50  # annotation keys listed
INDENT = "    "

# Per list kind: (label, field) of the one-line fields, the key field first (always shown).
HEADER_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "resources": (("URI", "uri"), ("Name", "name"), ("Title", "title"), ("MIME type", "mimeType"), ("Size", "size")),
    "resource_templates": (
        ("URI template", "uriTemplate"),
        ("Name", "name"),
        ("Title", "title"),
        ("MIME type", "mimeType"),
    ),
    "prompts": (("Name", "name"), ("Title", "title")),
}


def _one_line(value: Any, limit: int = FIELD) -> str:
    """A field on one line: a string as it is, anything else as compact JSON; hidden characters escaped."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return visible(text, limit)


def _size(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,} bytes"
    return _one_line(value)


def _header(list_name: str, item: dict[str, Any]) -> list[str]:
    fields = HEADER_FIELDS[list_name]
    key_label, key_field = fields[0]
    # The key reads whole (a URI is what a user copies): bounded only by the view's cap.
    key = item.get(key_field)
    lines = [f"{key_label}: {_one_line(key, DISPLAY_CAP) if key_field in item else '(missing)'}"]
    for label, field in fields[1:]:
        if field in item:
            lines.append(f"{label}: {_size(item[field]) if field == 'size' else _one_line(item[field])}")
    return lines


def _annotations(item: dict[str, Any]) -> list[str]:
    if "annotations" not in item:
        return []
    annotations = item["annotations"]
    if not isinstance(annotations, dict):
        return [f"Annotations: {_one_line(annotations)}"]
    lines = ["Annotations:" if annotations else "Annotations: none"]
    for key, value in list(annotations.items())[:ANNOTATIONS]:
        if isinstance(value, list) and all(isinstance(v, str) for v in value):  # audience: ["user", "assistant"]
            shown = visible(", ".join(value), FIELD)
        else:
            shown = _one_line(value)
        lines.append(f"{INDENT}{visible(str(key), FIELD)}: {shown}")
    if len(annotations) > ANNOTATIONS:
        lines.append(f"{INDENT}… and {len(annotations) - ANNOTATIONS:,} more (in the JSON below)")
    return lines


def _argument(position: int, argument: Any) -> list[str]:
    if not isinstance(argument, dict):
        return [f"{INDENT}argument {position} is not an object: {_one_line(argument)}"]
    required = "required" if argument.get("required") is True else "optional"
    name = _one_line(argument["name"]) if "name" in argument else "(no name)"
    lines = [f"{INDENT}{name} ({required})"]
    if "title" in argument:
        lines.append(f"{INDENT * 2}Title: {_one_line(argument['title'])}")
    description = argument.get("description")
    if isinstance(description, str):
        text = visible(description, ARGUMENT_TEXT, keep_newlines=True)
        lines.extend(f"{INDENT * 2}{line}" for line in text.split("\n"))
    elif "description" in argument:
        lines.append(f"{INDENT * 2}Description: {_one_line(description)}")
    return lines


def _arguments(item: dict[str, Any]) -> list[str]:
    arguments = item.get("arguments")
    if arguments is None or arguments == []:
        return ["Arguments: none"]
    if not isinstance(arguments, list):
        return [f"Arguments: not a list: {_one_line(arguments)}"]
    required = sum(1 for a in arguments if isinstance(a, dict) and a.get("required") is True)
    lines = [f"Arguments: {len(arguments):,} ({required:,} required)"]
    for position, argument in enumerate(arguments[:ARGUMENTS], 1):
        lines.extend(_argument(position, argument))
    if len(arguments) > ARGUMENTS:
        lines.append(f"{INDENT}… and {len(arguments) - ARGUMENTS:,} more (in the JSON below)")
    return lines


def item_detail(list_name: str, item: dict[str, Any]) -> str:
    """The detail text of a resource, resource template or prompt (`list_name` as in `LIST_KINDS`)."""
    lines = _header(list_name, item)
    lines.extend(_annotations(item))
    if list_name == "resources":
        lines.extend(ui_words(item, "resources"))
    lines.extend(icon_words(icons_of(item)))
    lines.append("")
    description = item.get("description")
    if isinstance(description, str):
        lines.append(visible(description, DISPLAY_CAP, keep_newlines=True))
    else:
        lines.append("(no description)" if description is None else f"Description: {_one_line(description)}")
    if list_name == "prompts":
        lines.append("")
        lines.extend(_arguments(item))
    lines.append("")
    lines.append("As the server sent it:")
    # json.dumps escapes line breaks inside strings: the raw ones left are the indentation.
    lines.append(visible(json.dumps(item, indent=2, ensure_ascii=False), DISPLAY_CAP, keep_newlines=True))
    return "\n".join(lines)
