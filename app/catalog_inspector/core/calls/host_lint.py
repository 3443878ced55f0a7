"""Tool-level lint: what a host would refuse, or a model misread, in the parts of a tool that are not schemas.

`core.calls.lint` walks a tool's schemas; this reads the tool object around them:

- `tool_name_rejected`, `description_too_long`: the name and the description against
  each host's rule in `HOST_RULES`, one issue per rule broken, naming the host;
- `undocumented_parameter`: a top-level input property with no description;
- `description_names_unknown_parameter`: a parameter the description documents that
  the input schema lacks. Only docstring forms count, never words in prose: an
  `Args:` / `Arguments:` / `Parameters:` / `Params:` line followed by indented
  `name:`, `name (type):` or `- name:` lines (what FastMCP copies from a Google-style
  docstring), and lines that start with `@param name` or `:param name:`.

Untrusted input, bounded: a description is read for names up to `MAX_SCAN` characters,
and at most `MAX_PARAMETERS` properties and `MAX_UNKNOWN` documented names are reported.
Qt-free, synchronous and cheap (a few µs a tool): the app lints whole catalogs with it
on the GUI thread, in slices (`lint.lint_tools`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

from catalog_inspector.core.calls.lint import MESSAGE_LIMIT, LintCode, LintIssue
from catalog_inspector.core.pointer import pointer_of

__all__ = [
    "HOST_RULES",
    "MAX_PARAMETERS",
    "MAX_SCAN",
    "MAX_UNKNOWN",
    "HostRule",
    "documented_names",
    "tool_issues",
    "undocumented_issues",
]

MAX_SCAN = 20_000  # characters of a description read for documented parameter names
MAX_PARAMETERS = 1_000  # top-level input properties checked for a description
MAX_UNKNOWN = 20  # documented names the schema lacks, reported per tool


@dataclass(frozen=True)
class HostRule:
    """One host's rule for a tool's name or description, with what the host does and where that is written.

    Attributes:
        host: who applies it, as people know it ("OpenAI (ChatGPT, Codex, the API)").
        field: the part of the tool it applies to: "name" or "description".
        rule: the rule in words, with the host's own pattern where it gives one.
        limit: the most characters allowed (for `counts_server`: the server's name and the tool's together);
            None: the rule is about characters only.
        effect: what the host does with a tool outside the rule ("refuses the request (HTTP 400)").
        source: where the rule is documented, or where the host was seen applying it.
        allowed: the characters allowed, as the inside of a regular-expression class ("" for any).
        counts_server: the limit counts the server's name as well as the tool's (Cursor).
    """

    host: str
    field: str
    rule: str
    limit: int | None
    effect: str
    source: str
    allowed: str = ""
    counts_server: bool = False


HOST_RULES: tuple[HostRule, ...] = (
    # The spec's guidance (SHOULD, not MUST): 1-128 characters of A-Z a-z 0-9 _ - . ("Tool Names").
    HostRule(
        "MCP 2025-11-25",
        "name",
        "names SHOULD be 1-128 characters of A-Z a-z 0-9 _ - .",
        128,
        "outside the spec's guidance: hosts may refuse it",
        "modelcontextprotocol/modelcontextprotocol docs/specification/2025-11-25/server/tools.mdx, Tool Names",
        "A-Za-z0-9_.-",
    ),
    # The Messages API's own 400 quotes the pattern: "tools.16.custom.name: String should match pattern
    # '^[a-zA-Z0-9_-]{1,128}$'" (2025-08 and since); it was {1,64} in early 2025
    # (modelcontextprotocol/typescript-sdk#413, inngest/agent-kit#108).
    HostRule(
        "Claude API (Claude Code)",
        "name",
        "names must match ^[a-zA-Z0-9_-]{1,128}$",
        128,
        "refuses every request that lists the tool (HTTP 400)",
        "the API's 400 in modelcontextprotocol/modelcontextprotocol#1345 (2025-08), github/copilot-cli#1879 (2026-03)",
        "a-zA-Z0-9_-",
    ),
    # Claude Desktop and claude.ai still hold remote tools to 64: "tools.0.FrontendRemoteMcpToolDefinition.name:
    # String should match pattern '^[a-zA-Z0-9_-]{1,64}$'".
    HostRule(
        "Claude Desktop / claude.ai",
        "name",
        "names must match ^[a-zA-Z0-9_-]{1,64}$",
        64,
        "refuses the request (HTTP 400)",
        "malloydata/publisher#543 (2025-12), AutomateLab-tech/citation-intelligence#1, mattt/iMCP#71",
        "a-zA-Z0-9_-",
    ),
    # OpenAI's function name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64";
    # the API's 400s: "Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'" (Codex, a dotted MCP
    # tool name) and "Expected a string with maximum length 64".
    HostRule(
        "OpenAI (ChatGPT, Codex, the API)",
        "name",
        "names must match ^[a-zA-Z0-9_-]{1,64}$",
        64,
        "refuses the request (HTTP 400)",
        "platform.openai.com function calling reference; openai/codex#8174, microsoft/foundry-dev-tools#201",
        "a-zA-Z0-9_-",
    ),
    # Gemini API FunctionDeclaration.name: "Must be a-z, A-Z, 0-9, or contain underscores, colons, dots, and dashes,
    # with a maximum length of 64". (Vertex AI's reference adds "must start with a letter or an underscore";
    # not checked here, the Gemini API's does not say it.)
    HostRule(
        "Gemini API",
        "name",
        "names must be 1-64 characters of a-z A-Z 0-9 _ . : -",
        64,
        "refuses the request (400 INVALID_ARGUMENT)",
        "ai.google.dev Gemini API reference, FunctionDeclaration.name (generativelanguage v1beta)",
        "a-zA-Z0-9_.:-",
    ),
    # Cursor's MCP settings list "meta.index - Tool name must only contain alphanumeric characters and underscores"
    # and filter the tool out. Hyphenated names (kebab-case tools) are listed and called, so '-' is allowed here:
    # reports disagree on it, and a lint that cries wolf is not read.
    HostRule(
        "Cursor",
        "name",
        "names may only contain letters, digits, '_' and '-'",
        None,
        "filters the tool out",
        "webstudio-is/webstudio#5960 (2026-07), dcc-mcp/dcc-mcp-core#663, bavix/gripmock#875",
        "a-zA-Z0-9_-",
    ),
    # "g: GOOGLESHEETS_SPREADSHEETS_VALUES_BATCH_CLEAR_BY_DATA_FILTER - Combined server and tool name length (60)
    # exceeds 60 characters": a combined 60 is filtered out already, so the two must stay under 60.
    HostRule(
        "Cursor",
        "name",
        "server name + tool name must be under 60 characters",
        59,
        "filters the tool out",
        "ComposioHQ/composio#2788 (2026-02), awslabs/mcp#1283, executeautomation/mcp-playwright#145",
        counts_server=True,
    ),
    # VS Code (Copilot Chat), McpServer._normalizeTool: `toolInvalidCharRe = /[^a-z0-9_-]/gi`, a warning "Tools names
    # may only contain [a-z0-9_-]" and every other character replaced with '_'. (The id it shows the model is also
    # cut to 64 with its "mcp_<server>_" prefix, McpToolName.MaxLength; the tool still works, so not checked.)
    HostRule(
        "VS Code",
        "name",
        "names may only contain [a-z0-9_-] (either case)",
        None,
        "renames it: each other character becomes '_' (the model sees another name)",
        "microsoft/vscode src/vs/workbench/contrib/mcp/common/mcpServer.ts, McpServer._normalizeTool",
        "a-zA-Z0-9_-",
    ),
    # "Invalid 'tools[13].function.description': string too long. Expected a string with maximum length 1024".
    HostRule(
        "OpenAI (ChatGPT, Codex, the API)",
        "description",
        "function descriptions may be at most 1,024 characters",
        1024,
        "refuses the request (HTTP 400)",
        "the API's 400 in getsentry/sentry-mcp#106 (2025-04), microsoft/genaiscript#1381, OpenHands/OpenHands#4838",
    ),
    # Claude Code's MCP docs, "For MCP server authors": "Claude Code truncates tool descriptions and server
    # instructions at 2KB each"; 2048 characters in the binary since v2.1.84 (anthropics/claude-code#41593).
    HostRule(
        "Claude Code",
        "description",
        "tool descriptions are kept to 2,048 characters",
        2048,
        "cuts the rest off before the model sees it",
        "code.claude.com/docs/en/mcp (For MCP server authors); anthropics/claude-code#41593, #81268",
    ),
)

# The characters outside each rule's class, found in one pass each.
_OUTSIDE = {rule: re.compile(f"[^{rule.allowed}]") for rule in HOST_RULES if rule.allowed}
# What every name rule allows, worked out from the table: most names are made of it and short, and pass at once.
_EVERYWHERE = re.compile(
    "[" + re.escape("".join(c for c in map(chr, range(128)) if not any(p.match(c) for p in _OUTSIDE.values()))) + "]+"
)
_SHORTEST = min(rule.limit for rule in HOST_RULES if rule.field == "name" and rule.limit is not None)
_DESCRIPTION_LIMITS = tuple(
    (rule, rule.limit) for rule in HOST_RULES if rule.field == "description" and rule.limit is not None
)
_SHORTEST_DESCRIPTION = min(limit for _, limit in _DESCRIPTION_LIMITS)  # within it, no description rule applies

_SECTION = re.compile(r"[ \t]*(Args|Arguments|Parameters|Params)[ \t]*:[ \t]*", re.IGNORECASE)
_ENTRY = re.compile(r"([ \t]*)([-*][ \t]+)?`?([A-Za-z_][A-Za-z0-9_]*)`?[ \t]*(?:\([^()\n]*\))?[ \t]*:(?:[ \t]|$)")
_TAG = re.compile(
    r"^[ \t]*(?:\*[ \t]*)?(?:@param(?:[ \t]+\{[^}\n]*\})?[ \t]+\[?(?P<at>[A-Za-z_][A-Za-z0-9_]*)(?![\w.])"
    r"|:(?:param|parameter|arg|argument)[ \t]+(?:[^\s:]+[ \t]+)?(?P<colon>[A-Za-z_][A-Za-z0-9_]*)[ \t]*:)",
    re.MULTILINE,
)
_HINT = re.compile(r"arg|param", re.IGNORECASE)  # no docstring form without one of these: most texts stop here
# Section words an entry line can look like ("Returns:"): the parameters have ended.
_SECTION_WORDS = frozenset({
    "Returns", "Return", "Raises", "Yields", "Examples", "Example", "Note", "Notes", "Warning", "See", "Todo",
})  # fmt: skip
# Parameters docstrings name that schemas never have: the method's own, the Context FastMCP injects (and leaves
# out of the schema), the catch-alls. Skipped, not reported.
_INJECTED = frozenset({"self", "cls", "ctx", "context", "args", "kwargs"})


def _cut(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "…"


def _character(char: str) -> str:
    """A character in words that show it, even an invisible one ('.', ' ', U+200B)."""
    return repr(char) if char.isascii() and char.isprintable() else f"U+{ord(char):04X}"


def _outside_words(name: str, outside: re.Pattern[str]) -> str:
    """'has a '.'', 'has '.', '/' and U+200B' (at most three named), or '' when every character is allowed."""
    found: list[str] = []
    for match in outside.finditer(name):
        if match.group() not in found:
            found.append(match.group())
            if len(found) > 3:
                break
    words = [_character(char) for char in found[:3]] + (["more"] if len(found) > 3 else [])
    if not words:
        return ""
    return f"has a {words[0]}" if len(words) == 1 else f"has {', '.join(words[:-1])} and {words[-1]}"


def _name_issue(rule: HostRule, name: str, server: str | None) -> LintIssue | None:
    """The issue for one host rule the name breaks, or None."""
    parts: list[str] = []
    outside = _OUTSIDE.get(rule)
    if outside is not None:
        if not name:
            parts.append("is empty")
        elif words := _outside_words(name, outside):
            parts.append(words)
    if rule.limit is not None and rule.counts_server:
        if server and len(server) + len(name) > rule.limit:
            parts.append(f"is {len(server) + len(name):,} characters with the server name {server!r}")
        elif not server and 1 + len(name) > rule.limit:  # the server's name unknown: not even one character fits
            parts.append(f"is {len(name):,} characters on its own: no server name fits")
    elif rule.limit is not None and len(name) > rule.limit:
        parts.append(f"is {len(name):,} characters")
    if not parts:
        return None
    message = _cut(f"{rule.host}: {rule.rule} (this one {' and '.join(parts)}) — {rule.effect}")
    return LintIssue(LintCode.TOOL_NAME_REJECTED, "/name", message)


def _section_names(lines: list[str], start: int, header: int) -> tuple[int, list[str]]:
    """The names of one docstring section's entries from `lines[start]` on, and where the section ended.

    Entries share one indentation (the first entry's), deeper lines continue an entry, and
    blank lines are skipped. The section ends at a line less indented, at one that is not an
    entry, and at an entry of the other style (`- name:` bullets, plain `name:` lines indented
    under the header): so prose after a parameter list is never read as parameters.
    """
    found: list[str] = []
    level: int | None = None
    bullets = False
    index = start
    while index < len(lines):
        line = lines[index]
        indent = len(line) - len(line.lstrip(" \t"))
        if not line.strip() or (level is not None and indent > level):
            index += 1
            continue
        match = _ENTRY.match(line)
        if match is None or (level is not None and (indent < level or (match[2] is not None) != bullets)):
            break
        if level is None:
            bullets = match[2] is not None
            if indent < header or (indent == header and not bullets):
                break
            level = indent
        if match[3] in _SECTION_WORDS:
            break
        if match[3] not in _INJECTED:
            found.append(match[3])
        index += 1
    return index, found


def documented_names(description: str) -> Iterator[tuple[str, str]]:
    """The parameter names a description documents in docstring forms, each with the form ("Args:", "@param").

    Reads the first MAX_SCAN characters; names repeat if documented twice.
    """
    text = description[:MAX_SCAN]
    if _HINT.search(text) is None:
        return
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        header = _SECTION.fullmatch(lines[index])
        if header is None:
            index += 1
            continue
        indent = len(lines[index]) - len(lines[index].lstrip(" \t"))
        index, names = _section_names(lines, index + 1, indent)
        yield from ((name, header[1] + ":") for name in names)
    for match in _TAG.finditer(text):
        name = match["at"] or match["colon"]
        if name not in _INJECTED:
            yield name, "@param" if match["at"] else ":param"


def _unknown_issues(description: str, schema: Any) -> list[LintIssue]:
    if not isinstance(schema, Mapping):
        return []  # not a schema: the schema lint says so
    if _HINT.search(description, 0, MAX_SCAN) is None:
        return []  # `documented_names` would find none (most tools: asked first, once a tool, on every page)
    known = schema.get("properties")
    known = known if isinstance(known, Mapping) else {}
    issues: list[LintIssue] = []
    seen: set[str] = set()
    for name, form in documented_names(description):
        if name in known or name in seen:
            continue
        seen.add(name)
        message = f"the description documents a parameter {name!r} ({form}) that the input schema does not have"
        issues.append(LintIssue(LintCode.DESCRIPTION_NAMES_UNKNOWN_PARAMETER, "/description", _cut(message)))
        if len(issues) >= MAX_UNKNOWN:
            break
    return issues


def _described(prop: Mapping[str, Any], schema: Mapping[str, Any]) -> bool:
    """Whether a property has a description, its own or (for a bare local `$ref`) its definition's."""
    words = prop.get("description")
    if isinstance(words, str) and words.strip():
        return True
    ref = prop.get("$ref")
    for prefix in ("#/$defs/", "#/definitions/"):  # what pydantic writes for a model or an enum parameter
        if isinstance(ref, str) and ref.startswith(prefix) and "/" not in ref[len(prefix) :]:
            defs = schema.get(prefix[2:-1])
            key = ref[len(prefix) :].replace("~1", "/").replace("~0", "~")
            target = defs.get(key) if isinstance(defs, Mapping) else None
            words = target.get("description") if isinstance(target, Mapping) else None
            return isinstance(words, str) and bool(words.strip())
    return False


def undocumented_issues(schema: Any) -> list[LintIssue]:
    """An input schema's top-level properties without a description (`undocumented_parameter`), in its order."""
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(props, Mapping):
        return []
    return [
        LintIssue(
            LintCode.UNDOCUMENTED_PARAMETER,
            pointer_of(("inputSchema", "properties", name)),
            _cut(f"the parameter {name!r} has no description: the model has only its name to go by"),
        )
        for name, prop in islice(props.items(), MAX_PARAMETERS)
        if isinstance(prop, Mapping) and not _described(prop, schema)  # `true`/`false`: boolean_subschema's
    ]


def tool_issues(tool: Mapping[str, Any], server: str | None = None, parameters: bool = True) -> list[LintIssue]:
    """The tool-level issues of one tool object, with pointers into the tool.

    Order: the name's (`/name`, one per host rule broken, in `HOST_RULES` order), then the
    description's (`/description`: too long for a host, then documented names the schema
    lacks), then the undocumented parameters (`/inputSchema/properties/<name>`, in the
    schema's order). `server`: the server's name as hosts show it (Cursor counts it);
    None assumes the shortest. A part that is missing or of the wrong type is skipped
    (the walk and the schema lint judge those). Never raises on any JSON value.
    `parameters=False` leaves out the last part, which depends on the input schema alone
    (`undocumented_issues`: a caller that lints each distinct schema once caches it).
    """
    issues: list[LintIssue] = []
    name, description, schema = tool.get("name"), tool.get("description"), tool.get("inputSchema")
    if isinstance(name, str) and not (len(name) + len(server or "x") <= _SHORTEST and _EVERYWHERE.fullmatch(name)):
        for rule in HOST_RULES:
            if rule.field == "name" and (issue := _name_issue(rule, name, server)) is not None:
                issues.append(issue)
    if isinstance(description, str):
        if len(description) > _SHORTEST_DESCRIPTION:
            for rule, limit in _DESCRIPTION_LIMITS:
                if len(description) > limit:
                    words = f"{rule.host}: {rule.rule} (this one is {len(description):,}) — {rule.effect}"
                    issues.append(LintIssue(LintCode.DESCRIPTION_TOO_LONG, "/description", _cut(words)))
        issues.extend(_unknown_issues(description, schema))
    if parameters:
        issues.extend(undocumented_issues(schema))
    return issues
