"""Every severity rule's reason, word for word: what the drift view and `diff`/`check` print for each kind of change.

One row per rule of core/severity.py, with the whole change list it yields; each
diff also has to apply (`changes` checks that), so a row pins ops and pointers too.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from catalog_inspector.core.drift.diff import ABSENT, Change, apply_changes, describe_pointer
from tests.core.drift.diff_cases import BREAKING, INFO, WARNING, changes, obj, prompt, tool

Row = tuple[str, dict[str, Any], dict[str, Any], list[tuple[str, str, Any, str]]]


def out(schema: Any = None, **fields: Any) -> dict[str, Any]:
    """A tool with an output schema (and the default input schema)."""
    return tool(outputSchema=schema, **fields) if schema is not None else tool(**fields)


def without(item: dict[str, Any], field: str) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k != field}


SCHEMA_ROWS: dict[str, Row] = {
    "pattern property": (
        "tools", tool({"patternProperties": {"^x": {"type": "string"}}}), tool({"patternProperties": {"^x": {"type": "integer"}}}),
        [("inputSchema", "/patternProperties/^x/type", BREAKING, "input property '{^x}' retyped from string to integer")],
    ),
    "definition added": (
        "tools", tool(obj({}, **{"$defs": {"A": {}}})), tool(obj({}, **{"$defs": {"A": {}, "B": {"type": "string"}}})),
        [("inputSchema", "/$defs/B", INFO, "definition 'B' added")],
    ),
    "definition removed": (
        "tools", tool(obj({}, **{"$defs": {"A": {}, "B": {}}})), tool(obj({}, **{"$defs": {"B": {}}})),
        [("inputSchema", "/$defs/A", WARNING, "definition 'A' removed")],
    ),
    "old-style definition replaced": (
        "tools", tool(obj({}, definitions={"A": {}})), tool(obj({}, definitions={"A": True})),
        [("inputSchema", "/definitions/A", WARNING, "definition 'A' changed")],
    ),
    "old-style definition added": (
        "tools", tool(obj({}, definitions={"A": {}})), tool(obj({}, definitions={"A": {}, "B": {}})),
        [("inputSchema", "/definitions/B", INFO, "definition 'B' added")],
    ),
    "$defs added": (
        "tools", tool(obj({})), tool(obj({}, **{"$defs": {"A": {}}})),
        [("inputSchema", "/$defs", INFO, "$defs added to the input schema")],
    ),
    "definitions added": (
        "tools", tool(obj({})), tool(obj({}, definitions={"A": {}})),
        [("inputSchema", "/definitions", INFO, "definitions added to the input schema")],
    ),
    "$defs removed": (
        "tools", tool(obj({}, **{"$defs": {"A": {}}})), tool(obj({})),
        [("inputSchema", "/$defs", WARNING, "'$defs' of the input schema removed: {\"A\": {}} → absent")],
    ),
    "another schema map's entry added": (
        "tools", tool(obj({}, dependentSchemas={"a": {}})), tool(obj({}, dependentSchemas={"a": {}, "b": {"required": ["c"]}})),
        [("inputSchema", "/dependentSchemas/b", WARNING,
          "input property 'dependentSchemas.b' added: absent → {\"required\": [\"c\"]}")],
    ),
    "tuple item removed": (
        "tools", tool(obj({"p": {"prefixItems": [{"type": "string"}, {"type": "integer"}]}})),
        tool(obj({"p": {"prefixItems": [{"type": "string"}]}})),
        [("inputSchema", "/properties/p/prefixItems/1", WARNING, "input property 'p[1]' removed: {\"type\": \"integer\"} → absent")],
    ),
    "tuple item added under items": (
        "tools", tool(obj({"p": {"items": [{"type": "string"}]}})), tool(obj({"p": {"items": [{"type": "string"}, {"type": "integer"}]}})),
        [("inputSchema", "/properties/p/items/1", WARNING, "input property 'p[1]' added: absent → {\"type\": \"integer\"}")],
    ),
    "a schema under not": (
        "tools", tool(obj({}, **{"not": {"type": "string"}})), tool(obj({}, **{"not": {"type": "integer"}})),
        [("inputSchema", "/not/type", BREAKING, "input property '<not>' retyped from string to integer")],
    ),
    "a schema under unevaluatedProperties": (
        "tools", tool(obj({}, unevaluatedProperties={"type": "string"})), tool(obj({}, unevaluatedProperties={"type": "integer"})),
        [("inputSchema", "/unevaluatedProperties/type", BREAKING, "input property '*' retyped from string to integer")],
    ),
    "inside an unknown keyword": (
        "tools", tool(obj({"x": {"x-ui": {"widget": "a"}}})), tool(obj({"x": {"x-ui": {"widget": "b"}}})),
        [("inputSchema", "/properties/x/x-ui/widget", WARNING, "'x-ui/widget' of input property 'x' changed")],
    ),
    "a title keyword": (
        "tools", tool(obj({"x": {"title": "a"}})), tool(obj({"x": {"title": "b"}})),
        [("inputSchema", "/properties/x/title", WARNING, "title of input property 'x' changed")],
    ),
    "an output keyword": (
        "tools", out(obj({"a": {"maxLength": 3}})), out(obj({"a": {"maxLength": 2}})),
        [("outputSchema", "/properties/a/maxLength", WARNING, "'maxLength' of output property 'a' changed: 3 → 2")],
    ),
    "a pattern replaced": (
        "tools", tool(obj({"v": {"pattern": "^a"}})), tool(obj({"v": {"pattern": "^b"}})),
        [("inputSchema", "/properties/v/pattern", BREAKING, "input property 'v' must now match pattern \"^b\" (was \"^a\")")],
    ),
    "a pattern removed": (
        "tools", tool(obj({"v": {"pattern": "^a"}})), tool(obj({"v": {}})),
        [("inputSchema", "/properties/v/pattern", INFO, "input property 'v' no longer has to match pattern \"^a\"")],
    ),
    "a pattern added": (
        "tools", tool(obj({"v": {}})), tool(obj({"v": {"pattern": "^a"}})),
        [("inputSchema", "/properties/v/pattern", BREAKING, "input property 'v' must now match pattern \"^a\"")],
    ),
    "anyOf added as a keyword": (
        "tools", tool(obj({"v": {}})), tool(obj({"v": {"anyOf": [{"type": "string"}]}})),
        [("inputSchema", "/properties/v/anyOf", BREAKING, "input property 'v' must now match anyOf [{\"type\": \"string\"}]")],
    ),
    "a maximum raised": (
        "tools", tool(obj({"v": {"maximum": 3}})), tool(obj({"v": {"maximum": 5}})),
        [("inputSchema", "/properties/v/maximum", INFO, "maximum of input property 'v' raised from 3 to 5")],
    ),
    "a bound that is not a number": (
        "tools", tool(obj({"v": {"maximum": 3}})), tool(obj({"v": {"maximum": "4"}})),
        [("inputSchema", "/properties/v/maximum", WARNING, "maximum of input property 'v' changed from 3 to \"4\"")],
    ),
    "an enum that is not a list": (
        "tools", tool(obj({"v": {"enum": ["a"]}})), tool(obj({"v": {"enum": "a"}})),
        [("inputSchema", "/properties/v/enum", WARNING, "enum of input property 'v' changed from [\"a\"] to \"a\"")],
    ),
    "enum values dropped: the first five, each cut at 30 characters": (
        "tools", tool(obj({"v": {"enum": ["a" * 40, 1, 2, 3, 4, 5, 6]}})), tool(obj({"v": {"enum": [6]}})),
        [("inputSchema", "/properties/v/enum", BREAKING, "input property 'v' no longer accepts \"" + "a" * 28 + "…, 1, 2, 3, 4")],
    ),
    "enum values gained: the first five, each cut at 30 characters": (
        "tools", tool(obj({"v": {"enum": [6]}})), tool(obj({"v": {"enum": [6, "a" * 40, 1, 2, 3, 4, 5]}})),
        [("inputSchema", "/properties/v/enum", INFO, "input property 'v' now also accepts \"" + "a" * 28 + "…, 1, 2, 3, 4")],
    ),
    "enum values compared whatever their keys' order": (
        "tools", tool(obj({"v": {"enum": [{"b": 1, "a": 2}]}})), tool(obj({"v": {"enum": [{"a": 2, "b": 1}, "x"]}})),
        [("inputSchema", "/properties/v/enum", INFO, "input property 'v' now also accepts \"x\"")],
    ),
    "enum reordered": (
        "tools", tool(obj({"v": {"enum": ["a", "b"]}})), tool(obj({"v": {"enum": ["b", "a"]}})),
        [("inputSchema", "/properties/v/enum", INFO, "enum of input property 'v' reordered")],
    ),
    "a value of 60 characters is shown whole": (
        "tools", tool(obj({"d": {"default": "x" * 58}})), tool(obj({"d": {}})),
        [("inputSchema", "/properties/d/default", WARNING, f"'default' of input property 'd' removed: \"{'x' * 58}\" → absent")],
    ),
    "a longer value is cut to 59 and an ellipsis": (
        "tools", tool(obj({"d": {"default": "x" * 59}})), tool(obj({"d": {"default": "é"}})),
        [("inputSchema", "/properties/d/default", WARNING, f"'default' of input property 'd' changed: \"{'x' * 58}… → \"é\"")],
    ),
    "an object value is shown with sorted keys": (
        "tools", tool(obj({"d": {"default": {"b": 1, "a": 2}}})), tool(obj({"d": {}})),
        [("inputSchema", "/properties/d/default", WARNING, "'default' of input property 'd' removed: {\"a\": 2, \"b\": 1} → absent")],
    ),
}  # fmt: skip

OPENNESS_ROWS: dict[str, Row] = {
    "a property closed": (
        "tools", tool(obj({"x": True})), tool(obj({"x": False})),
        [("inputSchema", "/properties/x", BREAKING, "input property 'x' now rejects every value")],
    ),
    "a property opened": (
        "tools", tool(obj({"x": False})), tool(obj({"x": True})),
        [("inputSchema", "/properties/x", INFO, "input property 'x' now accepts any value")],
    ),
    "a closed property given a schema": (
        "tools", tool(obj({"x": False})), tool(obj({"x": {"type": "string"}})),
        [("inputSchema", "/properties/x", INFO, "input property 'x' now allows more")],
    ),
    "an open property given a schema": (
        "tools", tool(obj({"x": True})), tool(obj({"x": {"type": "string"}})),
        [("inputSchema", "/properties/x", BREAKING, "input property 'x' now has to match a schema")],
    ),
    "a property that is no schema": (
        "tools", tool(obj({"x": True})), tool(obj({"x": 3})),
        [("inputSchema", "/properties/x", WARNING, "input property 'x' changed from true to 3")],
    ),
    "a property open both ways": (
        "tools", tool(obj({"x": True})), tool(obj({"x": {}})),
        [("inputSchema", "/properties/x", WARNING, "input property 'x' changed from true to {}")],
    ),
    "an output property replaced": (
        "tools", out(obj({"x": {"type": "string"}})), out(obj({"x": True})),
        [("outputSchema", "/properties/x", BREAKING, "output property 'x' retyped from {\"type\": \"string\"} to true")],
    ),
    "extra output properties closed": (
        "tools", out(obj({}, additionalProperties=True)), out(obj({}, additionalProperties=False)),
        [("outputSchema", "/additionalProperties", WARNING, "output property '*' changed: true → false")],
    ),
    "extra input properties allowed again": (
        "tools", tool(obj({}, additionalProperties={"type": "string"})), tool(obj({}, additionalProperties=True)),
        [("inputSchema", "/additionalProperties", INFO, "the input schema now accepts extra properties")],
    ),
    "extra input properties closed": (
        "tools", tool(obj({})), tool(obj({}, unevaluatedProperties=False)),
        [("inputSchema", "/unevaluatedProperties", BREAKING, "the input schema now rejects extra properties")],
    ),
    "extra input properties set to no schema": (
        "tools", tool(obj({}, additionalProperties=True)), tool(obj({}, additionalProperties=2)),
        [("inputSchema", "/additionalProperties", WARNING, "the input schema changed from true to 2")],
    ),
    "an output branch removed": (
        "tools", out(obj({"v": {"anyOf": [{}, {}]}})), out(obj({"v": {"anyOf": [{}]}})),
        [("outputSchema", "/properties/v/anyOf/1", WARNING, "anyOf branch 1 of output property 'v' removed")],
    ),
    "an allOf branch removed": (
        "tools", tool(obj({"v": {"allOf": [{}, {"minimum": 1}]}})), tool(obj({"v": {"allOf": [{}]}})),
        [("inputSchema", "/properties/v/allOf/1", INFO, "allOf branch 1 of input property 'v' removed")],
    ),
    "a branch replaced by no schema": (
        "tools", tool(obj({"v": {"anyOf": [{}, {"type": "string"}]}})), tool(obj({"v": {"anyOf": [{}, True]}})),
        [("inputSchema", "/properties/v/anyOf/1", WARNING, "input property 'v.anyOf[1]' changed: {\"type\": \"string\"} → true")],
    ),
    "an output property added": (
        "tools", out(obj({})), out(obj({"x": {}})),
        [("outputSchema", "/properties/x", INFO, "output property 'x' added")],
    ),
}  # fmt: skip

TYPE_AND_REQUIRED_ROWS: dict[str, Row] = {
    "an output type dropped": (
        "tools", out(obj({"v": {"type": "string"}})), out(obj({"v": {}})),
        [("outputSchema", "/properties/v/type", BREAKING, "output property 'v' no longer restricted to type string")],
    ),
    "an input type dropped": (
        "tools", tool(obj({"v": {"type": ["string", "null"]}})), tool(obj({"v": {}})),
        [("inputSchema", "/properties/v/type", INFO, "input property 'v' no longer restricted to type [string, null]")],
    ),
    "an input type set": (
        "tools", tool(obj({"v": {}})), tool(obj({"v": {"type": ["string", "null"]}})),
        [("inputSchema", "/properties/v/type", BREAKING, "input property 'v' now restricted to type [string, null]")],
    ),
    "a type that is no type name": (
        "tools", tool(obj({"v": {"type": "string"}})), tool(obj({"v": {"type": 3}})),
        [("inputSchema", "/properties/v/type", WARNING, "type of input property 'v' changed from string to 3")],
    ),
    "a type widened": (
        "tools", tool(obj({"v": {"type": "string"}})), tool(obj({"v": {"type": ["string", "null"]}})),
        [("inputSchema", "/properties/v/type", INFO, "type of input property 'v' widened from string to [string, null]")],
    ),
    "a union traded for another": (
        "tools", tool(obj({"v": {"type": ["string", "integer"]}})), tool(obj({"v": {"type": ["integer", "boolean"]}})),
        [("inputSchema", "/properties/v/type", BREAKING, "input property 'v' retyped from [string, integer] to [integer, boolean]")],
    ),
    "required that is no list": (
        "tools", tool(obj({"a": {}}, required=["a"])), tool(obj({"a": {}}, required="a")),
        [("inputSchema", "/required", WARNING, "required of the input schema changed from [\"a\"] to \"a\"")],
    ),
    "two inputs newly required": (
        "tools", tool(obj({"a": {}, "b": {}})), tool(obj({"a": {}, "b": {}}, required=["a", "b"])),
        [("inputSchema", "/required", BREAKING, "new required input properties 'a', 'b'")],
    ),
    "two inputs no longer required": (
        "tools", tool(obj({"a": {}, "b": {}}, required=["a", "b"])), tool(obj({"a": {}, "b": {}})),
        [("inputSchema", "/required", INFO, "input properties 'a', 'b' no longer required")],
    ),
    "two outputs no longer required": (
        "tools", out(obj({"a": {}, "b": {}}, required=["a", "b"])), out(obj({"a": {}, "b": {}})),
        [("outputSchema", "/required", BREAKING, "output properties 'a', 'b' no longer required: results may omit it")],
    ),
    "two outputs newly required": (
        "tools", out(obj({"a": {}, "b": {}})), out(obj({"a": {}, "b": {}}, required=["a", "b"])),
        [("outputSchema", "/required", INFO, "output properties 'a', 'b' now required")],
    ),
    "required reordered": (
        "tools", tool(obj({"a": {}, "b": {}}, required=["a", "b"])), tool(obj({"a": {}, "b": {}}, required=["b", "a"])),
        [("inputSchema", "/required", INFO, "required of the input schema reordered")],
    ),
    "properties replaced by no map": (
        "tools", tool(obj({"a": {}})), tool({"type": "object", "properties": True}),
        [("inputSchema", "/properties", WARNING, "properties of the input schema changed")],
    ),
    "empty properties removed": (
        "tools", tool(obj({})), tool({"type": "object"}),
        [("inputSchema", "/properties", INFO, "properties of the input schema removed")],
    ),
    "five required properties added at once": (
        "tools", tool({"type": "object"}), tool(obj({n: {} for n in "abcde"}, required=list("abcde"))),
        [
            ("inputSchema", "/properties", BREAKING, "new required input property 'a'; new required input property 'b'; "
             "new required input property 'c' and 2 more"),
            ("inputSchema", "/required", BREAKING, "new required input properties 'a', 'b', 'c', 'd', 'e'"),
        ],
    ),
    "four optional properties added at once": (
        "tools", tool({"type": "object"}), tool(obj({n: {} for n in "abcd"})),
        [("inputSchema", "/properties", INFO, "optional input property 'a' added; optional input property 'b' added; "
          "optional input property 'c' added and 1 more")],
    ),
    "three optional properties added at once": (
        "tools", tool({"type": "object"}), tool(obj({n: {} for n in "abc"})),
        [("inputSchema", "/properties", INFO, "optional input property 'a' added; optional input property 'b' added; "
          "optional input property 'c' added")],
    ),
    "two properties removed at once": (
        "tools", tool(obj({"a": {}, "b": {}})), tool({"type": "object"}),
        [("inputSchema", "/properties", BREAKING, "input property 'a' removed; input property 'b' removed")],
    ),
    "output properties added at once": (
        "tools", out({"type": "object"}), out(obj({"a": {}})),
        [("outputSchema", "/properties", INFO, "output property 'a' added")],
    ),
}  # fmt: skip

FIELD_ROWS: dict[str, Row] = {
    "a resource's key": (
        "resources", {"uri": "a", "name": "n"}, {"uri": "b", "name": "n"},
        [("uri", "", BREAKING, "uri changed from \"a\" to \"b\": callers address the item by it")],
    ),
    "a MIME type": (
        "resources", {"uri": "a", "name": "n", "mimeType": "text/plain"}, {"uri": "a", "name": "n", "mimeType": "text/html"},
        [("mimeType", "", WARNING, "MIME type changed from \"text/plain\" to \"text/html\"")],
    ),
    "a resource's name": (
        "resources", {"uri": "a", "name": "n"}, {"uri": "a", "name": "m"},
        [("name", "", WARNING, "name changed from \"n\" to \"m\"")],
    ),
    "a size removed": (
        "resources", {"uri": "a", "name": "n", "size": 1}, {"uri": "a", "name": "n"},
        [("size", "", INFO, "size removed")],
    ),
    "deep inside _meta": (
        "tools", tool(_meta={"a/b": {"c": 1}}), tool(_meta={"a/b": {"c": 2}}),
        [("_meta", "/a~1b/c", INFO, "_meta changed at /a~1b/c")],
    ),
    "a prompt's _meta": (
        "prompts", {"name": "p", "_meta": {"a": 1}}, {"name": "p", "_meta": {"a": 2}},
        [("_meta", "/a", INFO, "_meta changed at /a")],
    ),
    "a tool's field named arguments": (
        "tools", tool(arguments=[1]), tool(arguments=[2]),
        [("arguments", "", INFO, "arguments changed")],
    ),
    "a resource's annotations": (
        "resources", {"uri": "u", "name": "n", "annotations": {"priority": 1}},
        {"uri": "u", "name": "n", "annotations": {"priority": 2}},
        [("annotations", "/priority", INFO, "annotations changed at /priority")],
    ),
    "an output schema added": (
        "tools", tool(), out(obj({})),
        [("outputSchema", "", INFO, "output schema added: results are now described")],
    ),
    "an output schema replaced": (
        "tools", out(obj({})), out(True),
        [("outputSchema", "", BREAKING, "output schema changed: callers reading structured results lose their contract")],
    ),
    "an input schema removed": (
        "tools", tool(), without(tool(), "inputSchema"),
        [("inputSchema", "", BREAKING, "input schema removed: the tool no longer says what it accepts")],
    ),
    "an input schema added": (
        "tools", without(tool(), "inputSchema"), tool(),
        [("inputSchema", "", WARNING, "input schema added")],
    ),
}  # fmt: skip

ANNOTATION_ROWS: dict[str, Row] = {
    "a nested annotation": (
        "tools", tool(annotations={"x": {"y": 1}}), tool(annotations={"x": {"y": 2}}),
        [("annotations", "/x/y", WARNING, "annotation 'x/y' changed: 1 → 2")],
    ),
    "annotations removed: the risky flip first": (
        "tools", tool(annotations={"readOnlyHint": False, "destructiveHint": False}), tool(),
        [("annotations", "", WARNING, "now destructive: destructiveHint false → absent (default true); "
          "readOnlyHint false → absent (default false), the same in effect (annotations removed)")],
    ),
    "annotations added: a flip the same in effect comes after a real one": (
        "tools", tool(), tool(annotations={"readOnlyHint": True, "destructiveHint": True}),
        [("annotations", "", WARNING, "now read-only: readOnlyHint absent (default false) → true; "
          "destructiveHint absent (default true) → true, the same in effect (annotations added)")],
    ),
    "annotations added without hints": (
        "tools", tool(), tool(annotations={"title": "A"}),
        [("annotations", "", WARNING, "annotations added")],
    ),
    "annotations replaced by no object": (
        "tools", tool(annotations={"readOnlyHint": True}), tool(annotations="x"),
        [("annotations", "", WARNING, "no longer read-only: readOnlyHint true → absent (default false) (annotations changed)")],
    ),
    "a hint that is no boolean": (
        "tools", tool(annotations={"readOnlyHint": True}), tool(annotations={"readOnlyHint": "yes"}),
        [("annotations", "/readOnlyHint", WARNING, "no longer read-only: readOnlyHint true → \"yes\"")],
    ),
}  # fmt: skip

ARGUMENT_ROWS: dict[str, Row] = {
    "an argument's title": (
        "prompts", prompt({"name": "a", "title": "x"}), prompt({"name": "a", "title": "y"}),
        [("arguments", "/0/title", WARNING, "title of argument 'a' changed")],
    ),
    "an argument's unknown field": (
        "prompts", prompt({"name": "a", "x": 1}), prompt({"name": "a", "x": 2}),
        [("arguments", "/0/x", INFO, "x of argument 'a' changed")],
    ),
    "required: false dropped": (
        "prompts", prompt({"name": "a", "required": False}), prompt({"name": "a"}),
        [("arguments", "/0/required", INFO, "required of argument 'a' changed, the same in effect")],
    ),
    "a field of an argument that came in a rename": (
        "prompts", prompt({"name": "a"}), prompt({"name": "b", "description": "d"}),
        [
            ("arguments", "/0/name", BREAKING, "argument 'a' renamed to 'b'"),
            ("arguments", "/0/description", INFO, "description of argument 'b', which was added or removed"),
        ],
    ),
    "two arguments trading places": (
        "prompts", prompt({"name": "a"}, {"name": "b"}), prompt({"name": "b"}, {"name": "a"}),
        [
            ("arguments", "/0/name", INFO, "argument 'a' moved; argument 'b' moved"),
            ("arguments", "/1/name", INFO, "argument 'a' moved; argument 'b' moved"),
        ],
    ),
    "arguments trading places, one with a new description": (
        "prompts", prompt({"name": "a", "description": "x"}, {"name": "b"}), prompt({"name": "b"}, {"name": "a", "description": "y"}),
        [
            ("arguments", "/0/name", WARNING, "description of argument 'a' changed"),
            ("arguments", "/0/description", INFO, "description of argument 'b' changed, the same in effect"),
            ("arguments", "/1/name", WARNING, "description of argument 'a' changed"),
            ("arguments", "/1/description", WARNING, "description of argument 'a' changed"),
        ],
    ),
    "arguments added, one required": (
        "prompts", {"name": "p"}, {"name": "p", "arguments": [{"name": "a", "required": True}, {"name": "b"}]},
        [("arguments", "", BREAKING, "new required argument 'a'")],
    ),
    "arguments removed": (
        "prompts", {"name": "p", "arguments": [{"name": "a"}, {"name": "b"}]}, {"name": "p"},
        [("arguments", "", BREAKING, "argument 'a' removed; argument 'b' removed")],
    ),
    "arguments replaced by no list": (
        "prompts", {"name": "p", "arguments": [{"name": "a"}]}, {"name": "p", "arguments": "x"},
        [("arguments", "", BREAKING, "argument 'a' removed")],
    ),
    "no arguments either way": (
        "prompts", {"name": "p", "arguments": []}, {"name": "p", "arguments": {}},
        [("arguments", "", INFO, "arguments changed")],
    ),
    "an argument replaced by no object": (
        "prompts", {"name": "p", "arguments": [{"name": "a"}]}, {"name": "p", "arguments": ["a"]},
        [("arguments", "/0", BREAKING, "argument 'a' removed")],
    ),
    "an argument newly required with a new description": (
        "prompts", prompt({"name": "a", "description": "x"}), prompt({"name": "a", "description": "y", "required": True}),
        [
            ("arguments", "/0/description", WARNING, "description of argument 'a' changed"),
            ("arguments", "/0/required", BREAKING, "argument 'a' now required"),
        ],
    ),
    "a repeated argument name: the first wins": (
        "prompts", prompt({"name": "a", "description": "1"}, {"name": "a", "description": "2"}),
        prompt({"name": "a", "description": "1"}, {"name": "a", "description": "3"}),
        [("arguments", "/1/description", INFO, "description of argument 'a' changed, the same in effect")],
    ),
}  # fmt: skip

ROWS = SCHEMA_ROWS | OPENNESS_ROWS | TYPE_AND_REQUIRED_ROWS | FIELD_ROWS | ANNOTATION_ROWS | ARGUMENT_ROWS


@pytest.mark.parametrize(("list_name", "old", "new", "expected"), ROWS.values(), ids=ROWS.keys())
def test_each_rule_gives_its_severity_and_its_reason_in_words(
    list_name: str, old: dict[str, Any], new: dict[str, Any], expected: list[tuple[str, str, Any, str]]
) -> None:
    found = changes(old, new, list_name)
    assert [(c.field, c.pointer, c.severity, c.reason) for c in found] == expected


@pytest.mark.parametrize(
    ("field", "pointer", "words"),
    [
        ("description", "", "description"),
        ("annotations", "/title", "annotations /title"),
        ("inputSchema", "", "the input schema"),
        ("inputSchema", "/properties/x/x-ui/widget", "input property 'x', keyword 'x-ui/widget'"),
        ("outputSchema", "/not/type", "output property '<not>', keyword 'type'"),
    ],
)
def test_a_pointer_reads_in_words(field: str, pointer: str, words: str) -> None:
    assert describe_pointer(field, pointer) == words


def test_absent_reads_as_itself_and_survives_pickling_and_copying_as_itself() -> None:
    change = Change("title", "", "add", ABSENT, "T", INFO, "title added")
    assert repr(ABSENT) == "ABSENT"
    assert pickle.loads(pickle.dumps(change)).old is ABSENT
    assert copy.deepcopy(change).old is ABSENT


def test_a_change_whose_pointer_is_no_json_pointer_does_not_apply() -> None:
    change = Change("inputSchema", "properties/x", "remove", {}, ABSENT, BREAKING, "input property 'x' removed")
    with pytest.raises(ValueError, match="^not a JSON pointer: 'properties/x'$"):
        apply_changes(tool(obj({"x": {}})), [change])
