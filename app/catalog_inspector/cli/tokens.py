"""What the commands say about a catalog's cost in tokens: the deltas of `diff`/`check`, the budgets of `check`."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from catalog_inspector.core.catalog import ENCODING, Snapshot, TokenCount, count_snapshot, delta_words, token_words
from catalog_inspector.core.text import visible

SHOWN = 20  # tools named in the text report's token section (the largest changes first)


@dataclass(frozen=True)
class TokenDelta:
    """Two counts of the same server's catalog: the whole change and each tool's."""

    old: TokenCount
    new: TokenCount

    @property
    def delta(self) -> int:
        return self.new.total - self.old.total

    @property
    def growth(self) -> float | None:
        """The change in percent of the old total (None when the old catalog cost nothing)."""
        return self.delta * 100 / self.old.total if self.old.total else None

    def tools(self) -> dict[str, int]:
        """Each tool whose cost changed (added: its whole cost; removed: minus it), in the new catalog's order."""
        old, new = self.old.tools, self.new.tools
        changed = {name: tokens - old.get(name, 0) for name, tokens in new.items() if tokens != old.get(name)}
        changed.update({name: -tokens for name, tokens in old.items() if name not in new})
        return changed

    def to_json(self) -> dict[str, Any]:
        return {
            "encoding": ENCODING,
            "old": self.old.total,
            "new": self.new.total,
            "delta": self.delta,
            "first_page_old": self.old.first_page,
            "first_page_new": self.new.first_page,
            "tools": self.tools(),
        }

    def lines(self) -> list[str]:
        """The text report's token section: the totals, then the largest changes."""
        growth = f", {self.growth:+.1f}%" if self.growth is not None else ""
        lines = [
            f"Tokens ({ENCODING}): {self.old.total:,} → {self.new.total:,} ({delta_words(self.delta)}{growth}); "
            f"first page {self.old.first_page:,} → {self.new.first_page:,}"
        ]
        changed = sorted(self.tools().items(), key=lambda pair: -abs(pair[1]))
        lines.extend(f"  tools: {visible(name, 200)}: {delta_words(tokens)}" for name, tokens in changed[:SHOWN])
        if len(changed) > SHOWN:
            lines.append(f"  … and {len(changed) - SHOWN:,} more tools")
        return lines


def token_delta(old: Snapshot, new: Snapshot) -> TokenDelta | None:
    """Both catalogs counted (the files' own `tokens` are not trusted: recounted), or None without two catalogs."""
    before, after = count_snapshot(old), count_snapshot(new)
    if before is None or after is None:
        return None
    return TokenDelta(before, after)


def budget_failures(args: argparse.Namespace, count: TokenCount | None, delta: TokenDelta | None) -> list[str]:
    """Each token budget the catalog broke, as a line for stderr (none asked or none broken: empty)."""
    failures: list[str] = []
    limit = getattr(args, "max_tokens", None)
    if limit is not None and count is not None and count.total > limit:
        failures.append(f"tokens: the tools cost {token_words(count.total)} ({ENCODING}), over --max-tokens {limit:,}")
    growth = getattr(args, "max_token_growth", None)
    if growth is not None and delta is not None:
        grew = delta.growth
        if (grew is not None and grew > growth) or (grew is None and delta.new.total > 0):
            said = f"{grew:+.1f}%" if grew is not None else "from nothing"
            failures.append(
                f"tokens: the tools grew {said} ({delta.old.total:,} → {delta.new.total:,} {ENCODING}), "
                f"over --max-token-growth {growth:g}%"
            )
    return failures
