"""Test calls kept on disk per configured server: the call history (bounded) and named argument sets.

A server's files are named by `config.server_key` (its config entry, never what
it calls itself). Each file is small JSON, rewritten whole or not at all. The
arguments a user typed are kept as typed (they are the user's own test data),
cut to a size bound; nothing the server sent is kept but the outcome's words.
Plain file I/O: call it off the GUI thread.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from catalog_inspector.core.config import ServerSpec, server_key
from catalog_inspector.core.files import write_text_safely
from catalog_inspector.core.redact import redacted_args, redacted_url

__all__ = ["ARGUMENTS_CAP", "DEFAULT_CALLS", "CallRecord", "CallStore", "call_command"]

DEFAULT_CALLS = 200
ARGUMENTS_CAP = 64 * 1024  # characters of JSON arguments kept per call; bigger ones are not kept
FORMAT = "mcp-call-history/1"
ROUNDS_READ = 50  # rounds of one call read back (what is written is bounded by `core.calls.replay`)


@dataclass(frozen=True)
class CallRecord:
    """One test request as the history keeps it.

    Attributes:
        at: when it was sent (ISO 8601, UTC).
        kind: "tool", "resource" or "prompt"; `name` is the tool, URI or prompt.
        arguments: the arguments sent (None when they were over `ARGUMENTS_CAP`, see `arguments_cut`).
        outcome: how it ended, an `Outcome` word (`ok`, `jsonrpc_error`, `timeout` …; older files' layer
            words are read as the outcome they mean), and `verdict` the output verdict.
        summary: a line of words about the outcome.
        rounds: the server's questions and their answers, round by round (`Round.to_json`, the first few:
            `rounds_total` says how many there were).
        answers: what the person answered, as an answers file (`core.calls.replay`): a re-run gives them again.
    """

    at: str
    kind: str
    name: str
    arguments: Any
    outcome: str
    duration_ms: float
    verdict: str = ""
    summary: str = ""
    arguments_cut: bool = False
    rounds: tuple[dict[str, Any], ...] = ()
    rounds_total: int = 0
    answers: dict[str, Any] | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CallRecord:
        rounds, total, answers = data.get("rounds"), data.get("rounds_total"), data.get("answers")
        return cls(
            at=str(data.get("at", "")),
            kind=str(data.get("kind", "tool")),
            name=str(data.get("name", "")),
            arguments=data.get("arguments"),
            outcome=_outcome_word(str(data.get("outcome", ""))),
            duration_ms=float(data.get("duration_ms", 0.0)),
            verdict=str(data.get("verdict", "")),
            summary=str(data.get("summary", "")),
            arguments_cut=bool(data.get("arguments_cut", False)),
            rounds=tuple(r for r in rounds[:ROUNDS_READ] if isinstance(r, dict)) if isinstance(rounds, list) else (),
            rounds_total=total if isinstance(total, int) and not isinstance(total, bool) else 0,
            answers=answers if isinstance(answers, dict) else None,
        )


def _outcome_word(word: str) -> str:
    """Today's word for a stored outcome (a history written before outcomes had one table kept the layer)."""
    from catalog_inspector.core.calls.outcome import Outcome  # not at start: the store is made before the first frame

    outcome = Outcome.parse(word)
    return str(outcome) if outcome is not None else word


def capped(arguments: Any) -> tuple[Any, bool]:
    """The arguments to keep, and whether they were too large to keep."""
    try:
        size = len(json.dumps(arguments, ensure_ascii=False))
    except (TypeError, ValueError):
        return None, True
    return (None, True) if size > ARGUMENTS_CAP else (arguments, False)


def call_command(spec: ServerSpec, tool: str, arguments: Any, answers_file: str | None = None) -> str:
    """A `mcp-catalog-inspector call` command line that repeats this call (with `--answers FILE` when the server's
    questions are answered from a file). Secrets are left out (headers, env, a URL's credentials and query values,
    secret-looking arguments): they read `…`, to be filled in."""
    words = ["mcp-catalog-inspector", "call", tool, "--args", json.dumps(arguments, ensure_ascii=False)]
    if answers_file is not None:
        words += ["--answers", answers_file]
    if spec.transport == "stdio":
        words += ["--", spec.command, *redacted_args(spec.args)]
    else:
        words += ["--url", redacted_url(spec.url), *(["--sse"] if spec.transport == "sse" else [])]
    return shlex.join(words)


class CallStore:
    """Every server's call history and argument sets under `root`.

    Attributes:
        keep: calls kept per server (the oldest go first).
    """

    def __init__(self, root: Path, keep: int = DEFAULT_CALLS) -> None:
        self.root = root
        self.keep = max(1, keep)

    def _file(self, spec: ServerSpec, suffix: str) -> Path:
        return self.root / f"{server_key(spec)}.{suffix}.json"

    def _read(self, path: Path) -> Any:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # none yet, or damaged: start again rather than refuse to work

    # -- history ----------------------------------------------------------------
    def history(self, spec: ServerSpec) -> list[CallRecord]:
        """The server's calls, oldest first."""
        data = self._read(self._file(spec, "calls"))
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("calls"), list):
            return []
        return [CallRecord.from_json(item) for item in data["calls"] if isinstance(item, dict)]

    def record(self, spec: ServerSpec, record: CallRecord) -> list[CallRecord]:
        """Add a call (the oldest beyond `keep` go); returns the history now."""
        calls = [*self.history(spec), record][-self.keep :]
        document = {"format": FORMAT, "calls": [asdict(call) for call in calls]}
        write_text_safely(self._file(spec, "calls"), lambda handle: json.dump(document, handle, ensure_ascii=False))
        return calls

    # -- named argument sets ------------------------------------------------------
    def argument_sets(self, spec: ServerSpec) -> dict[str, dict[str, Any]]:
        """Tool name → {set name → arguments}."""
        data = self._read(self._file(spec, "argument-sets"))
        if not isinstance(data, dict):
            return {}
        return {str(tool): dict(sets) for tool, sets in data.items() if isinstance(sets, dict)}

    def save_set(self, spec: ServerSpec, tool: str, name: str, arguments: Any) -> dict[str, dict[str, Any]]:
        sets = self.argument_sets(spec)
        sets.setdefault(tool, {})[name] = arguments
        self._write_sets(spec, sets)
        return sets

    def delete_set(self, spec: ServerSpec, tool: str, name: str) -> dict[str, dict[str, Any]]:
        sets = self.argument_sets(spec)
        if name in sets.get(tool, {}):
            del sets[tool][name]
            if not sets[tool]:
                del sets[tool]
            self._write_sets(spec, sets)
        return sets

    def _write_sets(self, spec: ServerSpec, sets: dict[str, dict[str, Any]]) -> None:
        write_text_safely(
            self._file(spec, "argument-sets"), lambda handle: json.dump(sets, handle, ensure_ascii=False, indent=1)
        )
