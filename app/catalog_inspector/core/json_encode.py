"""One JSON encoder kept for many small values: `JSONEncoder(**options).encode`, without its cost per call.

`JSONEncoder.encode` makes its C encoder anew for every value it is given, and for values
as small as a tool or a lint row that is much of the call: a snapshot document encodes one
per line, 300,000 of them at 100,000 tools (written to a file, the tools took 0.65 s and
the lint rows 0.58 s by `encode`, 0.46 s each with one C encoder kept). `one_shot` keeps the C encoder
that `encode` would make, with the same arguments, and answers exactly as `encode` does
(tests compare them on any JSON value).
"""

from __future__ import annotations

import json
import json.encoder
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["JsonLines", "line_text", "one_shot"]


def one_shot(**options: Any) -> Callable[[Any], str]:
    """`json.JSONEncoder(**options).encode`, its C encoder made once (where there is one and no indent)."""
    encoder = json.JSONEncoder(**options)
    make = getattr(json.encoder, "c_make_encoder", None)  # the C accelerator, where the interpreter has it
    if make is None or encoder.indent is not None:
        return encoder.encode
    strings = json.encoder.encode_basestring_ascii if encoder.ensure_ascii else json.encoder.encode_basestring

    def made() -> Callable[[Any, int], list[str]]:
        return make(
            {} if encoder.check_circular else None,
            encoder.default,
            strings,
            encoder.indent,
            encoder.key_separator,
            encoder.item_separator,
            encoder.sort_keys,
            encoder.skipkeys,
            encoder.allow_nan,
        )

    # The circular check's markers are the encoder's own state: each thread has its encoder (an export on a worker
    # thread and a count on the window's may encode the same objects at once).
    local = threading.local()

    def encode(value: Any) -> str:
        if isinstance(value, str):
            return strings(value)
        chunks = getattr(local, "chunks", None)
        if chunks is None:
            chunks = local.chunks = made()
        try:
            return "".join(chunks(value, 0))
        except BaseException:
            local.chunks = None  # its markers may still hold what was being encoded: the next value gets fresh ones
            raise

    return encode


class JsonLines(list[str]):
    """Values given as their JSON texts already (`line_text`'s), one a line of a document: its writer writes them
    as they are."""


# A value as one line of a document the app writes (the snapshot's tools, lint rows, pages): what `JsonLines` hold.
line_text = one_shot(ensure_ascii=False, allow_nan=False)
