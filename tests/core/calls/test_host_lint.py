"""Tool-level lint names the host whose rule a name or description breaks, the parameters without words, and the
parameters a docstring documents that the schema lacks — never a word of prose taken for a parameter."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_inspector.core.calls import HOST_RULES, HostRule, LintCode, LintIssue, lint_tools, tool_issues
from catalog_inspector.core.calls.host_lint import MAX_UNKNOWN, documented_names

WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "The city"},
        "units": {"type": "string", "enum": ["metric", "imperial"], "description": "Units"},
    },
    "required": ["city"],
}


def tool(name: str = "get_weather", description: str = "Weather for a city.", schema: Any = None) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": WEATHER if schema is None else schema}


def codes(found: list[LintIssue]) -> list[tuple[str, str]]:
    return [(str(issue.code), issue.pointer) for issue in found]


def hosts(found: list[LintIssue], code: LintCode) -> list[str]:
    return [issue.message.split(":")[0] for issue in found if issue.code is code]


def test_a_tool_every_host_takes_has_no_issues() -> None:
    assert tool_issues(tool()) == []
    assert lint_tools([tool()], False) == {}


# -- undocumented parameters ---------------------------------------------------------------------


def test_a_parameter_without_a_description_is_found_at_its_property() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}, "a/b~c": {"type": "integer"},
              "blank": {"type": "string", "description": "  "}, "units": {"description": "Units"}}}  # fmt: skip
    found = tool_issues(tool(schema=schema))
    assert codes(found) == [
        ("undocumented_parameter", "/inputSchema/properties/city"),
        ("undocumented_parameter", "/inputSchema/properties/a~1b~0c"),
        ("undocumented_parameter", "/inputSchema/properties/blank"),
    ]
    assert "'city' has no description" in found[0].message


def test_a_parameter_described_by_its_definition_is_documented_and_nested_ones_are_not_asked() -> None:
    schema = {
        "type": "object",
        "properties": {
            "color": {"$ref": "#/$defs/Color"},
            "old": {"$ref": "#/definitions/Old"},
            "bare": {"$ref": "#/$defs/Bare"},
            "address": {"type": "object", "description": "Where", "properties": {"street": {"type": "string"}}},
            "anything": True,  # a boolean subschema: that code's to report
        },
        "$defs": {"Color": {"enum": ["red"], "description": "A color"}, "Bare": {"type": "string"}},
        "definitions": {"Old": {"type": "string", "description": "Draft 7 style"}},
    }
    assert codes(tool_issues(tool(schema=schema))) == [("undocumented_parameter", "/inputSchema/properties/bare")]


# -- documented names the schema lacks -------------------------------------------------------------

FASTMCP = """Get the weather for a city.

    Args:
        city: The city name, e.g. "Paris".
        units (str): "metric" or "imperial".
            Defaults to metric: most of the world uses it.

    Returns:
        forecast: a dict of readings.
    """


def test_a_fastmcp_docstring_whose_args_match_the_schema_is_clean() -> None:
    assert tool_issues(tool(description=FASTMCP)) == []
    assert [name for name, _ in documented_names(FASTMCP)] == ["city", "units"]


def test_a_documented_parameter_the_schema_lacks_is_found_once_at_the_description() -> None:
    text = FASTMCP.replace("units (str)", "country (str)") + "\n    Args:\n        country: again\n"
    found = tool_issues(tool(description=text))
    assert codes(found) == [("description_names_unknown_parameter", "/description")]
    assert "'country' (Args:)" in found[0].message and "does not have" in found[0].message


JSDOC = "/**\n * Search.\n * @param query the words\n * @param {number} limit how many\n * @param [page] which\n"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Search.\n\nArguments:\n  query: words\n  limit (int, optional): how many\n", ["query", "limit"]),
        ("Search.\nParameters:\n- query: words\n- `limit`: how many\nThe rest is prose: see.", ["query", "limit"]),
        ("Search.\n\n  Params:\n      query: words\n\n      limit: how many\n", ["query", "limit"]),
        (JSDOC, ["query", "limit", "page"]),
        (
            "Search.\n\n:param query: words\n:param int limit: how many\n:parameter page: which",
            ["query", "limit", "page"],
        ),
    ],
)
def test_each_docstring_form_names_its_parameters(text: str, names: list[str]) -> None:
    assert [name for name, _ in documented_names(text)] == names
    found = tool_issues(tool(description=text))
    assert [issue.code for issue in found] == [LintCode.DESCRIPTION_NAMES_UNKNOWN_PARAMETER] * len(names)


@pytest.mark.parametrize(
    "text",
    [
        "Args: none. Parameters: a city and its units.",  # a header is a line of its own
        "The parameters:\ncity and units, as described.",  # prose that happens to end a line with a colon
        "Use @param to document a parameter; :param: too.",  # the tags count only at the start of a line
        "Note: the query is sent as-is.\nExample: search query: cats",  # no section
        "Returns:\n    forecast: a dict\n    country: its country",  # a section, but not of parameters
        "Args:\nquery: not indented under the header, so not an entry",
        "Args:\n    city: the city\n\nExample call: forecast: sunny",  # prose after the section ended
        "Args:\n    city: the city\n        Note: continues the entry, never an entry of its own",
        "Args:\n    city: the city\n    ctx: the MCP context FastMCP injects\n    **kwargs: the rest",
        "Args:\n    opts.size: a nested field (not a top-level name)\n    page: past the line that ended the list",
        "Args:\n    city: the city\nSee also: the weather service",
        "Args:\n- city: the city\nTip: bullets at the header's level end at the first line that is not one",
    ],
)
def test_ordinary_prose_that_mentions_the_words_names_no_parameter(text: str) -> None:
    assert tool_issues(tool(description=text)) == [], list(documented_names(text))


def test_the_context_fastmcp_injects_is_skipped_and_the_parameters_after_it_still_read() -> None:
    text = "Args:\n    ctx: the MCP context (not in the schema)\n    city: the city\n    country: its country"
    assert [name for name, _ in documented_names(text)] == ["city", "country"]
    assert [i.message.split("'")[1] for i in tool_issues(tool(description=text))] == ["country"]


def test_documented_names_are_reported_up_to_their_bound() -> None:
    text = "Args:\n" + "".join(f"    p{i}: x\n" for i in range(3 * MAX_UNKNOWN))  # under every length limit
    found = tool_issues(tool(description=text))
    assert len(found) == MAX_UNKNOWN and all(i.code is LintCode.DESCRIPTION_NAMES_UNKNOWN_PARAMETER for i in found)


def test_an_input_schema_that_is_not_a_schema_is_left_to_the_schema_lint() -> None:
    assert tool_issues(tool(description=FASTMCP, schema=[1, 2])) == []


# -- names against the hosts' rules -----------------------------------------------------------------


def test_a_dotted_name_is_rejected_by_each_host_whose_rule_it_breaks() -> None:
    found = tool_issues(tool(name="weather.get"))
    assert hosts(found, LintCode.TOOL_NAME_REJECTED) == [
        "Claude API (Claude Code)",
        "Claude Desktop / claude.ai",
        "OpenAI (ChatGPT, Codex, the API)",
        "Cursor",
        "VS Code",
    ], "the spec and Gemini allow a dot"
    assert all(issue.pointer == "/name" for issue in found)
    openai = next(issue.message for issue in found if issue.message.startswith("OpenAI"))
    assert openai.startswith(
        "OpenAI (ChatGPT, Codex, the API): names must match ^[a-zA-Z0-9_-]{1,64}$ (this one has a '.')"
    )
    assert "HTTP 400" in openai


def test_a_long_name_is_rejected_by_the_hosts_with_a_shorter_limit() -> None:
    found = tool_issues(tool(name="n" * 70))
    assert hosts(found, LintCode.TOOL_NAME_REJECTED) == [
        "Claude Desktop / claude.ai",
        "OpenAI (ChatGPT, Codex, the API)",
        "Gemini API",
        "Cursor",
    ]
    assert "(this one is 70 characters)" in found[0].message
    assert "129 characters" in tool_issues(tool(name="n" * 129))[0].message, "over the spec's 128 as well"


def test_invisible_and_odd_characters_are_named_so_they_can_be_seen() -> None:
    found = tool_issues(tool(name="echo\u200b tool/x"))
    spec = found[0].message
    assert spec.startswith("MCP 2025-11-25:") and "(this one has U+200B, ' ' and '/')" in spec
    assert "\u200b" not in " ".join(issue.message for issue in found)
    assert "is empty" in tool_issues(tool(name=""))[0].message


def test_cursor_counts_the_server_name_with_the_tools() -> None:
    name = "x" * 50

    def cursor(server: str | None, length: int = 50) -> list[str]:
        found = tool_issues(tool(name="x" * length), server)
        return [issue.message for issue in found if "server name + tool name" in issue.message]

    assert cursor(None) == [] and cursor("files") == []
    assert cursor("a-long-server-name") == [
        "Cursor: server name + tool name must be under 60 characters "
        "(this one is 68 characters with the server name 'a-long-server-name') — filters the tool out"
    ]
    assert "59 characters on its own: no server name fits" in cursor(None, 59)[0]
    assert cursor("x", 58) == [] and cursor("xx", 58) != []
    assert [i.code for i in lint_tools([tool(name=name)], False, server="a-long-server-name")["x" * 50]] == [
        LintCode.TOOL_NAME_REJECTED
    ]


PATTERN = re.compile(r"\^\[(?P<chars>[^\]]+)\]\{1,(?P<limit>\d+)\}\$")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aZ09_-.:/ é\u200b", max_size=140) | st.text(max_size=8))
def test_a_host_is_named_exactly_when_its_own_pattern_refuses_the_name(name: str) -> None:
    # The oracle is the pattern the host wrote, compiled from the rule's words, not the lint's character classes.
    found = tool_issues(tool(name=name))
    named = [issue.message for issue in found if issue.code is LintCode.TOOL_NAME_REJECTED]
    for rule in HOST_RULES:
        pattern = PATTERN.search(rule.rule)
        if pattern is None:
            continue
        refused = re.fullmatch(f"[{pattern['chars']}]{{1,{pattern['limit']}}}", name) is None
        assert any(message.startswith(f"{rule.host}: {rule.rule} ") for message in named) == refused, rule.host


# -- descriptions against the hosts' limits ---------------------------------------------------------


def test_a_long_description_is_too_long_for_each_host_whose_limit_it_passes() -> None:
    assert tool_issues(tool(description="w" * 1024)) == []
    found = tool_issues(tool(description="w" * 1025))
    assert codes(found) == [("description_too_long", "/description")]
    assert found[0].message.startswith("OpenAI (ChatGPT, Codex, the API): function descriptions may be at most 1,024")
    assert "(this one is 1,025)" in found[0].message
    assert hosts(tool_issues(tool(description="w" * 2049)), LintCode.DESCRIPTION_TOO_LONG) == [
        "OpenAI (ChatGPT, Codex, the API)",
        "Claude Code",
    ]


def test_the_host_table_says_for_each_rule_who_what_how_much_and_where() -> None:
    assert all(isinstance(rule, HostRule) for rule in HOST_RULES)
    assert {rule.field for rule in HOST_RULES} == {"name", "description"}
    for rule in HOST_RULES:
        assert rule.host and rule.rule and rule.effect and rule.source, rule
        assert rule.limit is not None or rule.allowed, "a rule limits something"
        assert rule.field == "name" or not rule.allowed
    assert {rule.host for rule in HOST_RULES} >= {"MCP 2025-11-25", "Cursor", "VS Code", "Gemini API", "Claude Code"}


# -- the whole tool, as the catalog lint sees it ---------------------------------------------------------


def test_lint_tools_puts_the_tool_level_issues_first_then_each_schemas() -> None:
    bad = {
        "name": "files.list",
        "description": "List files.\n\nArgs:\n    path: where\n    depth: how deep\n",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "array"}}},
        "outputSchema": {"type": "object", "properties": {"n": {"enum": [1, "1"]}}},
    }
    found = lint_tools([bad], False)["files.list"]
    assert [(str(i.code), i.pointer) for i in found if i.code is not LintCode.TOOL_NAME_REJECTED] == [
        ("description_names_unknown_parameter", "/description"),
        ("undocumented_parameter", "/inputSchema/properties/path"),
        ("array_without_items", "/inputSchema/properties/path"),
        ("mixed_enum_types", "/outputSchema/properties/n/enum"),
    ]
    assert found[0].code is LintCode.TOOL_NAME_REJECTED and found[0].pointer == "/name"


def test_a_whole_catalog_lints_in_tens_of_microseconds_a_tool() -> None:
    catalog = [tool(name=f"tool_{n}", description=FASTMCP) for n in range(2000)]
    started = time.perf_counter()
    assert lint_tools(catalog, False) == {}
    assert (time.perf_counter() - started) / len(catalog) < 500e-6, "a loose bound: tens of µs on a quiet machine"


def test_a_huge_description_is_read_only_up_to_its_bound() -> None:
    text = "Args:\n" + "    name: a parameter\n" * 200_000 + "    late: past the bound\n"
    started = time.perf_counter()
    found = tool_issues(tool(description=text))
    assert time.perf_counter() - started < 2
    assert [issue.message for issue in found if "'late'" in issue.message] == []
    assert {issue.code for issue in found} == {
        LintCode.DESCRIPTION_TOO_LONG,
        LintCode.DESCRIPTION_NAMES_UNKNOWN_PARAMETER,
    }


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["properties", "description", "$ref", "$defs", "x"]) | st.text(max_size=3), inner,
                      max_size=3),
    max_leaves=20,
)  # fmt: skip
WORDS = st.sampled_from(["Args:", "  x: y", "- a:", "@param q", ":param int z:", "\n", "Params:\n    a (b): c", " "])


@settings(max_examples=300, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "name": JSON | st.text(max_size=70),
            "description": JSON | st.lists(WORDS, max_size=8).map("\n".join),
            "inputSchema": JSON,
        },
    ),
    st.none() | st.text(max_size=20),
)
def test_any_tool_object_is_linted_without_raising(found_tool: dict[str, Any], server: str | None) -> None:
    issues = tool_issues(found_tool, server)
    assert all(isinstance(i, LintIssue) and i.pointer.startswith("/") for i in issues)
    assert all(len(i.message) <= 301 for i in issues)
    assert isinstance(lint_tools([found_tool], False, server=server), dict)
