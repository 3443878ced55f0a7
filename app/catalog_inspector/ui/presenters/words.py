"""What the window says about a server, in words: the banner's content, a walk a timeline offers, a failure's
lines, the command line. Plain functions and frozen data over core types; no Qt, no runtime.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from catalog_inspector.core.catalog import LIST_KINDS, PageRecord, Snapshot, unimplemented_words
from catalog_inspector.core.config import STOP_BUDGETS, Limits, ServerSpec
from catalog_inspector.core.errors import (
    AUTH_STEPS,
    ErrorInfo,
    auth_step,
    code_words,
    last_words,
    reason,
    transport_hint,
)
from catalog_inspector.core.redact import redacted_args, redacted_url
from catalog_inspector.core.text import visible

__all__ = [
    "Banner",
    "Walk",
    "clock",
    "command_line",
    "describe_failure",
    "detail_line",
    "list_mark",
    "list_notice",
    "server_words",
    "walk_limits",
]

MESSAGE_LIMIT = 600
STDERR_WIDTH = 200
COMMAND_LIMIT = 2000  # the subtitle is cut to the window's width; its tooltip shows this much
TRANSPORT_WORDS = {"stdio": "stdio", "http": "Streamable HTTP", "sse": "legacy SSE"}

BannerKind = Literal["none", "failure", "stale", "lost", "drift", "consent", "entry", "signin"]


@dataclass(frozen=True)
class Banner:
    """The status banner's content: hidden (`none`), or a text with one button.

    `text` is the whole message, one fact per line: the first line is the title, the
    second the detail the banner shows beneath it (both cut to its width); the lines
    after those are shown when the user asks for the whole message.
    """

    kind: BannerKind = "none"
    text: str = ""
    button: str = ""
    button_enabled: bool = False
    error_kind: str | None = None  # the ErrorKind behind a failure or a lost session
    url: str = ""  # `signin`: the authorization URL, as shown, copied and opened (`ui.signin.link_text`)

    @property
    def title(self) -> str:
        return self.text.partition("\n")[0]

    @property
    def detail(self) -> str:
        return self.text.partition("\n")[2].partition("\n")[0]


@dataclass(frozen=True)
class Walk:
    """One walk a timeline can show: a label, the runtime's page sequence, whether it still grows."""

    label: str
    pages: Sequence[PageRecord]
    live: bool = False
    kind: Literal["live", "failed", "accepted"] = "accepted"  # what a person's choice of walk remembers
    related: frozenset[int] = frozenset()  # pages that hold the first copy of the key that stopped the walk
    hints_required: bool = False  # the walk's revision asks every page for cache hints (2026-07-28)
    limits: Limits | None = None  # the walk's budgets (the line of the one that stopped it is drawn)


def walk_limits(limits: Limits, error: ErrorInfo | None) -> Limits:
    """The budgets a walk ran under, with the one its error says ran out as the error says it (the entry may
    have been edited since the walk)."""
    name = STOP_BUDGETS.get(str(error.kind)) if error is not None else None
    budget = error.details.get("budget") if error is not None else None
    if name is None or not isinstance(budget, int) or isinstance(budget, bool):
        return limits
    return replace(limits, **{name: budget})


def server_words(error: ErrorInfo) -> str:
    """The server's own last stderr lines, when a process exited (a missing API key, a traceback), in the CLI's
    words (`core.errors.last_words`), a line each."""
    words = last_words(error.details, STDERR_WIDTH, multiline=True)
    return words[:1].upper() + words[1:]


def detail_line(error: ErrorInfo) -> str:
    """The line under a heading: what to try, if anything, then what happened in words the heading has not said.

    The advice comes first: when the line is cut to a narrow banner, it is what stays. A sign-in's
    failure names its step in the heading (`describe_failure`): the line is its cause.
    """
    text = visible(error.message if auth_step(error) else reason(error), MESSAGE_LIMIT)
    hint = transport_hint(error, app=True)
    return f"{hint}: {text}" if hint else text


def describe_failure(error: ErrorInfo, status: str) -> str:
    """What a person can act on, one fact per line: the title (verdict, kind, where, the JSON-RPC code by name),
    the reason, where the traceback is, the server's last words."""
    verdict = "Rejected" if status == "rejected" else "Failed"
    kind = LIST_KINDS.get(error.list_name or "tools", LIST_KINDS["tools"])
    where = ""
    if error.page is not None:
        where = f" on page {error.page} of {kind.plural}"
    elif error.list_name and error.list_name != "tools":
        where = f" while listing {kind.plural}"
    said = code_words(error)
    code = f" — {said.text}" if said is not None else ""
    step = auth_step(error)
    if step is not None:
        where = f" at the {step} step ({AUTH_STEPS[step]})"
    lines = [f"{verdict}: {error.kind.heading}{where}{code}", detail_line(error)]
    cause = error.details.get("cause") if step is not None else None
    if isinstance(cause, str):
        lines.append(f"Cause: {visible(cause, 64)} (the word scripts see in the error's details).")
    if error.details.get("traceback"):
        lines.append("The traceback is in the Server & log tab.")
    words = server_words(error)
    if words:
        lines.append(words)
    return "\n".join(lines)


def command_line(spec: ServerSpec) -> str:
    """How the server is reached, as one would type it: a shell-quoted command line, or the URL; no secrets."""
    if spec.transport == "stdio":
        target = shlex.join([spec.command, *redacted_args(spec.args)])
    else:
        target = redacted_url(spec.url)
    return visible(f"{TRANSPORT_WORDS.get(spec.transport, spec.transport)}: {target}", COMMAND_LIMIT)


def clock(moment: datetime | None) -> str:
    return f"{moment:%H:%M:%S}" if moment is not None else "?"


def list_notice(catalog: Snapshot | None, list_name: str) -> tuple[str, str]:
    """What a list's tab says of that list on its own, as (state, text): `failed` or `rejected` (the catalog was
    accepted for its tools, this list was not), `unimplemented` (a finding about the server), `not_offered`, or
    `none` with no text (the list was walked whole, or no catalog is shown)."""
    if catalog is None:
        return "none", ""
    listed, kind = catalog.lists[list_name], LIST_KINDS[list_name]
    if listed.status in ("failed", "rejected") and listed.error is not None:
        lines = [
            f"{kind.title}: not accepted",
            describe_failure(replace(listed.error, list_name=list_name), listed.status),
            f"The tools and every other list walked whole were accepted; no {kind.plural} are shown from this walk. "
            "Refresh walks every list again.",
        ]
        return listed.status, "\n".join(lines)
    if listed.status == "unimplemented":
        text = (
            f"Finding: {unimplemented_words(list_name)}: it answered -32601 (method not found) to the first page.\n"
            f"There are no {kind.plural} to show, and a host sees none either; the rest of the catalog is unaffected."
        )
        return "unimplemented", text
    if listed.status == "not_offered":
        return "not_offered", f"The server does not offer {kind.plural} (it declares no {kind.capability} capability)."
    return "none", ""


def list_mark(catalog: Snapshot) -> str:
    """The sidebar's words for the lists of an accepted catalog that were not accepted ("" when none)."""
    return " · ".join(f"⚠ {LIST_KINDS[name].plural} {catalog.lists[name].status}" for name in catalog.partial)
