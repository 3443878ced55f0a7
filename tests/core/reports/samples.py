"""Server reports the report tests share: an ordinary run, a failed one, and server text meant to break out."""

from __future__ import annotations

from catalog_inspector.core.reports import Finding, ServerReport

# Each tries a different way out of the format it lands in: Markdown tables and links, raw HTML, XML
# CDATA ends, controls XML cannot hold, direction overrides, GitHub's mentions and references.
HOSTILE = (
    "a | b || c",
    "`tick` ``` ````",
    "<img src=x onerror=alert(1)>",
    "[link](javascript:alert(1))",
    "![img](https://x.example/y.png)",
    "<https://autolink.example> https://bare.example www.bare.example user@mail.example",
    "line one\nline two\r\n# heading\n- item\n| x | y |\n|---|---|",
    "]]> <script>alert(1)</script> <!-- c --> </details>",
    "controls \x00\x01\x08\x0b\x0c\x1b[31m\x7f\x85",
    "not XML \ufffe\uffff lone \ud800 surrogate",
    "bidi \u202eevil\u202c zero\u200bwidth",
    "@octocat @org/team #123 GH-7 owner/repo#9",
    "entities &lt;b&gt; &amp; &#60; &#x3c;",
    "*bold* _em_ ~~strike~~ \\ backslash \\| \\\\|",
    "astral 😀 𝕏 and tabs\tinside",
)
HOSTILE_TEXT = " ".join(HOSTILE)

HELP = "An array without `items` accepts any element."


def ordinary() -> ServerReport:
    """A complete walk of three tools: a lint warning, a removed tool, a note about tokens."""
    return ServerReport(
        server="files",
        command="check",
        status="complete",
        checks=("walk", "lint", "drift", "tokens"),
        items=("tools/read", "tools/write", "prompts/greet"),
        findings=(
            Finding("tokens", "token_growth", "note", "the tools grew by 12 tokens", rule_help="Token growth."),
            Finding("drift", "removed", "error", "tools/delete was removed", "tools/delete", "/tools/2"),
            Finding(
                "lint",
                "array_without_items",
                "warning",
                "property paths is an array without items",
                "tools/write",
                "/tools/1/inputSchema/properties/paths",
                HELP,
            ),
        ),
        tokens={
            "encoding": "o200k_base",
            "total": 1240,
            "first_page": 1000,
            "tools": {"read": 600, "write": 640},
            "baseline_total": 1228,
            "delta": 12,
        },
        snapshot_file="out/files snapshot.json",
        duration_s=1.25,
    )


def failed() -> ServerReport:
    """A walk that did not finish: no items, no findings, the reason."""
    return ServerReport(
        server="remote",
        command="check",
        status="failed",
        checks=("walk", "lint"),
        items=(),
        findings=(),
        error="connection refused by 127.0.0.1:9",
        duration_s=0.5,
    )


def hostile() -> ServerReport:
    """Every field a server can fill holds text that tries to break out."""
    return ServerReport(
        server=f"srv {HOSTILE_TEXT}",
        command="check",
        status="complete",
        checks=("lint",),
        items=tuple(f"tools/{text}" for text in HOSTILE),
        findings=tuple(
            Finding("lint", "bad_schema", "warning", f"message {text}", f"tools/{text}", f"/tools/{at}/{text}")
            for at, text in enumerate(HOSTILE)
        ),
        error=None,
    )


def shuffled_pairs(seeds: int = 5) -> list[list[ServerReport]]:
    """`[ordinary(), hostile()]` again and again, each time with its findings in another order and another
    duration: what every writer must write as the same text."""
    import dataclasses
    import random

    pairs = []
    for seed in range(seeds):
        rng = random.Random(seed)
        pair = []
        for report in (ordinary(), hostile()):
            findings = list(report.findings)
            rng.shuffle(findings)
            pair.append(dataclasses.replace(report, findings=tuple(findings), duration_s=rng.random()))
        pairs.append(pair)
    return pairs
