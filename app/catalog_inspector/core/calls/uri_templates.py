"""A resource template filled in: its RFC 6570 variables as fields, and the URI they expand to.

The expansion is `uritemplate`'s (every level of RFC 6570: reserved `{+var}` and fragment `{#var}` expansion,
the label, path, parameter and query operators, `{var:3}` prefixes and `{var*}` lists). The SDK's own
`UriTemplate` is the server's: it refuses templates it could not route back (two multi-segment variables,
prefixes), which a client must still be able to fill in. The template is server text: bounded before it is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_TEMPLATE",
    "MAX_VARIABLES",
    "OPERATOR_WORDS",
    "TemplateForm",
    "TemplateVariable",
    "expand_template",
    "template_form",
]

MAX_TEMPLATE = 8_192  # characters of a template read; a longer one is refused, not cut
MAX_VARIABLES = 64  # fields offered; more is a problem the form names

# What each operator does to a value, in words for the field's hint.
OPERATOR_WORDS = {
    "": "percent-encoded",
    "+": "reserved characters kept (/ ? # …)",
    "#": "a fragment: # then the value, reserved characters kept",
    ".": "a label: . then the value",
    "/": "a path segment: / then the value",
    ";": "a path parameter: ;name=value",
    "?": "a query: ?name=value",
    "&": "a query continued: &name=value",
}


@dataclass(frozen=True)
class TemplateVariable:
    """One variable of a template, in the order it first appears.

    Attributes:
        name: the variable's name.
        operator: its expression's operator ("" for simple string expansion, `+`, `#`, `.`, `/`, `;`, `?`, `&`).
        explode: `{var*}`: the value is a list, each element expanded on its own.
        prefix: `{var:N}`: only the first N characters are used (None: the whole value).
    """

    name: str
    operator: str
    explode: bool = False
    prefix: int | None = None

    @property
    def hint(self) -> str:
        """What a person types and what becomes of it, in a few words."""
        words = OPERATOR_WORDS.get(self.operator, "expanded")
        if self.explode:
            words = f"a list: values separated by commas, each {words}"
        if self.prefix is not None:
            words += f"; only the first {self.prefix} characters are used"
        return words


@dataclass(frozen=True)
class TemplateForm:
    """What a template offers to be filled in: its variables, and why it cannot be used as sent (or None)."""

    template: str
    variables: tuple[TemplateVariable, ...] = ()
    problem: str | None = None


def template_form(template: object) -> TemplateForm:
    """The fields of a resource template's `uriTemplate` (a problem instead for one that is not a usable template)."""
    if not isinstance(template, str):
        return TemplateForm("", problem="the template has no uriTemplate string")
    if len(template) > MAX_TEMPLATE:
        return TemplateForm(template[:80], problem=f"the template is over {MAX_TEMPLATE:,} characters: not read")
    problem = _braces_problem(template)
    if problem is not None:
        return TemplateForm(template, problem=problem)
    from uritemplate import URITemplate  # imported when a template is first filled in

    variables: dict[str, TemplateVariable] = {}
    for expression in URITemplate(template).variables:
        operator = str(expression.operator.value)
        for name, modifiers in expression.variables:
            if name not in variables:
                prefix = modifiers.get("prefix")
                variables[name] = TemplateVariable(
                    name, operator, bool(modifiers.get("explode")), prefix if isinstance(prefix, int) else None
                )
    found = tuple(variables.values())
    if len(found) > MAX_VARIABLES:
        return TemplateForm(template, found[:MAX_VARIABLES], f"{len(found)} variables: the first {MAX_VARIABLES} shown")
    return TemplateForm(template, found)


def expand_template(form: TemplateForm, values: Mapping[str, str]) -> str:
    """The URI the template expands to with `values` (by variable name). An empty value leaves its variable
    undefined (RFC 6570 drops it, with its operator's prefix); a list variable's value is split at commas."""
    from uritemplate import URITemplate

    given: dict[str, Any] = {}  # uritemplate's own value type, narrower than its annotations say
    for variable in form.variables:
        value = values.get(variable.name, "")
        if value == "":
            continue
        given[variable.name] = [part.strip() for part in value.split(",")] if variable.explode else value
    return str(URITemplate(form.template).expand(given))


def _braces_problem(template: str) -> str | None:
    """Why the braces do not pair up into expressions (None when they do); uritemplate reads such text as literal."""
    depth_at = -1
    for position, char in enumerate(template):
        if char == "{":
            if depth_at >= 0:
                return f"a '{{' at character {position + 1} opens an expression inside another"
            depth_at = position
        elif char == "}":
            if depth_at < 0:
                return f"a '}}' at character {position + 1} closes no expression"
            if position == depth_at + 1:
                return f"an empty expression '{{}}' at character {depth_at + 1}"
            depth_at = -1
    if depth_at >= 0:
        return f"the expression opened at character {depth_at + 1} is never closed"
    return None
