"""A resource template filled in: every RFC 6570 level (the RFC's own examples, section 3.2), its variables as
fields with what each operator does, empty fields left undefined, lists, and templates that cannot be used."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog_inspector.core.calls.uri_templates import MAX_TEMPLATE, MAX_VARIABLES, expand_template, template_form

# RFC 6570, 3.2: var := "value", hello := "Hello World!", path := "/foo/bar", list := red,green,blue,
# keys := semi=;, dot=., comma=, (the list and the keys given as a person types them: comma-separated).
VALUES = {
    "var": "value",
    "hello": "Hello World!",
    "path": "/foo/bar",
    "x": "1024",
    "y": "768",
    "list": "red,green,blue",
}
RFC_EXAMPLES = [
    ("{var}", "value"),  # level 1
    ("{hello}", "Hello%20World%21"),
    ("{+path}/here", "/foo/bar/here"),  # level 2: reserved expansion
    ("here?ref={+path}", "here?ref=/foo/bar"),
    ("X{#var}", "X#value"),  # fragment expansion
    ("map?{x,y}", "map?1024,768"),  # level 3
    ("{+x,hello,y}", "1024,Hello%20World!,768"),
    ("X{.var}", "X.value"),
    ("{/var,x}/here", "/value/1024/here"),
    ("{;x,y}", ";x=1024;y=768"),
    ("{?x,y}", "?x=1024&y=768"),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{var:3}", "val"),  # level 4: prefix
    ("{/list*}", "/red/green/blue"),  # explode: a list
    ("{?list*}", "?list=red&list=green&list=blue"),
]


@pytest.mark.parametrize(("template", "expected"), RFC_EXAMPLES)
def test_every_level_expands_as_rfc_6570_says(template: str, expected: str) -> None:
    form = template_form(template)
    assert form.problem is None
    assert expand_template(form, VALUES) == expected


def test_each_variable_is_a_field_once_in_order_with_what_its_operator_does() -> None:
    form = template_form("file:///{+path}{?q,lang}{#frag}/{x:3}/{list*}{&q}")
    assert [v.name for v in form.variables] == ["path", "q", "lang", "frag", "x", "list"]
    hints = {v.name: v.hint for v in form.variables}
    assert hints["path"] == "reserved characters kept (/ ? # …)"
    assert hints["q"] == "a query: ?name=value"
    assert hints["x"] == "percent-encoded; only the first 3 characters are used"
    assert hints["list"] == "a list: values separated by commas, each percent-encoded"


def test_an_empty_field_leaves_its_variable_undefined() -> None:
    form = template_form("demo://search{?q,lang}{#section}")
    assert expand_template(form, {}) == "demo://search"
    assert expand_template(form, {"lang": "en", "q": ""}) == "demo://search?lang=en"


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ("demo://{id", "the expression opened at character 8 is never closed"),
        ("demo://id}", "a '}' at character 10 closes no expression"),
        ("demo://{a{b}}", "a '{' at character 10 opens an expression inside another"),
        ("demo://{}", "an empty expression '{}' at character 8"),
        (42, "the template has no uriTemplate string"),
        ("x" * (MAX_TEMPLATE + 1), f"the template is over {MAX_TEMPLATE:,} characters: not read"),
    ],
)
def test_a_template_that_cannot_be_filled_in_says_why(template: object, problem: str) -> None:
    form = template_form(template)
    assert form.problem == problem and form.variables == ()


def test_more_variables_than_fields_are_offered_is_said_and_the_first_ones_kept() -> None:
    template = "".join(f"{{v{n}}}" for n in range(MAX_VARIABLES + 5))
    form = template_form(template)
    assert len(form.variables) == MAX_VARIABLES and form.problem == f"{MAX_VARIABLES + 5} variables: the first 64 shown"


@given(st.text(max_size=60))
def test_any_value_stays_inside_its_segment(value: str) -> None:
    # Whatever a person types, a simple expansion is percent-encoded: it can never add a path segment or a query.
    uri = expand_template(template_form("demo://users/{user}/notes"), {"user": value})
    assert uri.startswith("demo://users/") and uri.endswith("/notes")
    assert "?" not in uri and "#" not in uri and uri.count("/") == 4
