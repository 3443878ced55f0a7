"""JSON Schema checks of call arguments and results against a tool's own schemas.

Validators are built with an empty `referencing.Registry()`: a `$ref` resolves
inside the schema document or not at all, never over the network.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from jsonschema import SchemaError
from jsonschema.exceptions import ValidationError as SchemaViolation
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing import Registry
from referencing.exceptions import Unresolvable

__all__ = ["FieldProblem", "ResultVerdict", "build_validator", "check_result", "problems_of"]


@dataclass(frozen=True)
class FieldProblem:
    """One violation: where (a JSON pointer into the instance) and what."""

    pointer: str
    message: str


def _pointer(error: SchemaViolation) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in error.absolute_path)


def build_validator(schema: Any) -> Validator:
    """A validator for `schema` that never fetches anything.

    Raises:
        SchemaError: the schema itself is not valid JSON Schema.
    """
    cls = validator_for(schema)
    cls.check_schema(schema)
    validator: Validator = cls(schema, registry=Registry())
    return validator


def problems_of(schema: Any, instance: Any) -> list[FieldProblem]:
    """Every violation of `schema` by `instance`, ordered by pointer.

    Raises:
        SchemaError: the schema is invalid.
        Unresolvable: a `$ref` points outside the schema document.
    """
    validator = build_validator(schema)
    found = [FieldProblem(_pointer(e), e.message) for e in validator.iter_errors(instance)]
    return sorted(found, key=lambda p: p.pointer)


Verdict = Literal["valid", "invalid", "no_schema", "missing_structured_content", "tool_error", "bad_schema"]


@dataclass(frozen=True)
class ResultVerdict:
    """How a call result compares with the tool's declared output schema."""

    verdict: Verdict
    problems: tuple[FieldProblem, ...] = ()
    detail: str = ""


def check_result(tool: dict[str, Any], result: dict[str, Any]) -> ResultVerdict:
    """Check a raw `CallToolResult` against the output schema of `tool` (a raw tool object)."""
    if result.get("isError") is True:
        return ResultVerdict("tool_error", detail="the tool reported isError: true; its output is not checked")
    schema = tool.get("outputSchema")
    if schema is None:
        return ResultVerdict("no_schema")
    if "structuredContent" not in result:
        return ResultVerdict("missing_structured_content", detail="the tool has an output schema but sent no structuredContent")
    try:
        problems = problems_of(schema, result["structuredContent"])
    except SchemaError as exc:
        return ResultVerdict("bad_schema", detail=f"the output schema is not valid JSON Schema: {exc.message}")
    except Unresolvable as exc:
        return ResultVerdict("bad_schema", detail=f"the output schema has an unresolvable $ref: {exc}")
    except RecursionError:
        return ResultVerdict("bad_schema", detail="the output schema refers to itself without end ($ref loop)")
    if problems:
        return ResultVerdict("invalid", tuple(problems))
    return ResultVerdict("valid")
