"""JSON Schema checks of call arguments and results against a tool's own schemas, in process.

Validators are built with an empty `referencing.Registry()`: a `$ref` resolves
inside the schema document or not at all, never over the network. The draft is
the one the schema's `$schema` names, 2020-12 when it names none (or one
jsonschema does not know).

Everything here runs in the calling thread with no time limit: an untrusted
`pattern` can backtrack for minutes. `core.calls.sandbox` runs these same functions in
a worker process it can kill; this module is also what that worker executes, so
both give the same problems for the same input.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from catalog_inspector.core.pointer import pointer_of, pointer_parts

if TYPE_CHECKING:  # jsonschema is imported by the first validation, not with the window (`runtime.engine`)
    from jsonschema import SchemaError
    from jsonschema.exceptions import ValidationError as SchemaViolation
    from jsonschema.protocols import Validator
    from referencing.exceptions import Unresolvable

__all__ = [
    "default_draft",
    "Failure",
    "FieldProblem",
    "ResultVerdict",
    "Validation",
    "build_validator",
    "check_result",
    "output_to_check",
    "pointer_of",
    "pointer_parts",
    "prepare",
    "problems_of",
    "validate",
    "validate_with",
    "validator_class",
    "verdict_of",
]

# Below this nesting a RecursionError is blamed on the schema (a `$ref` loop); above it,
# on the instance. jsonschema spends a few frames per level, so the default recursion
# limit of 1000 runs out somewhere past 200 levels of a legitimately recursive schema.
DEEP_INSTANCE = 64


class Failure(enum.StrEnum):
    """Why a validation produced no list of problems."""

    BAD_SCHEMA = "bad_schema"  # the schema is not valid against its metaschema, or loops on itself
    UNRESOLVABLE_REF = "unresolvable_ref"  # a $ref points outside the document (never fetched) or nowhere
    TOO_LARGE = "too_large"  # the schema or instance is over the size cap or nested too deeply: refused
    OVER_BUDGET = "over_budget"  # the sandbox worker ran past its time budget and was killed
    CRASHED = "crashed"  # the sandbox worker died, failed to start, or broke its protocol

    @property
    def heading(self) -> str:
        """A few words for a label ("Schema too slow to check")."""
        return _FAILURE_HEADINGS[self]


_FAILURE_HEADINGS = {
    Failure.BAD_SCHEMA: "Invalid schema",
    Failure.UNRESOLVABLE_REF: "Unresolvable $ref",
    Failure.TOO_LARGE: "Too large to check",
    Failure.OVER_BUDGET: "Schema too slow to check",
    Failure.CRASHED: "Validation worker crashed",
}


@dataclass(frozen=True)
class FieldProblem:
    """One violation: where (an RFC 6901 JSON pointer into the instance), what, and which keyword failed."""

    pointer: str
    message: str
    keyword: str = ""


@dataclass(frozen=True)
class Validation:
    """The outcome of validating one instance against one schema.

    Attributes:
        problems: the violations, ordered by position in the instance (empty when valid or failed).
        failure: why there is no verdict on the instance, or None when there is one.
        detail: words for the failure (or for cut problems), for people.
        truncated: more problems were found than reported.
    """

    problems: tuple[FieldProblem, ...] = ()
    failure: Failure | None = None
    detail: str = ""
    truncated: bool = False

    @property
    def valid(self) -> bool:
        """The instance was checked and nothing is wrong with it."""
        return self.failure is None and not self.problems


def default_draft() -> type[Validator]:
    """2020-12: jsonschema's own fallback is "the latest draft it knows", which moves with upgrades;
    MCP says schemas without `$schema` are 2020-12, so that is pinned here."""
    from jsonschema import Draft202012Validator

    draft: type[Validator] = Draft202012Validator
    return draft


def validator_class(schema: Any) -> type[Validator]:
    """The validator class for the draft `schema` declares (2020-12 when it names none or one unknown)."""
    from jsonschema import SchemaError
    from jsonschema.validators import validator_for

    if isinstance(schema, dict):
        declared = schema.get("$schema")
        if declared is not None and not isinstance(declared, str):
            # validator_for would crash on it (unhashable, or not a string); it is a schema fault.
            raise SchemaError(f"$schema must be a string, not {type(declared).__name__}")
        cls: type[Validator] = validator_for(schema, default=default_draft())
        return cls
    # A boolean is a schema; anything else is not, and the default draft's metaschema says so.
    return default_draft()


def build_validator(schema: Any) -> Validator:
    """A validator for `schema` (its own draft, 2020-12 by default) that never fetches anything.

    Raises:
        SchemaError: the schema itself is not valid JSON Schema.
        RecursionError: the schema is nested too deeply to check.
    """
    from referencing import Registry

    cls = validator_class(schema)
    cls.check_schema(schema)
    validator: Validator = cls(schema, registry=Registry())
    return validator


def _position(error: SchemaViolation) -> tuple[tuple[int, int, str], ...]:
    # Indices compare as numbers ("/items/2" before "/items/10"); at any one level the
    # parts are all indices (an array) or all keys (an object).
    return tuple((0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in error.absolute_path)


def _problems(
    validator: Validator, instance: Any, limit: int | None = None, message_limit: int | None = None
) -> tuple[list[FieldProblem], bool]:
    """Problems of `instance` in instance order, at most `limit` of them, and whether more were found."""
    errors: list[SchemaViolation] = []
    truncated = False
    for error in validator.iter_errors(instance):
        if limit is not None and len(errors) >= limit:
            truncated = True  # stop here: counting the rest could take as long as finding them
            break
        errors.append(error)
    errors.sort(key=_position)  # stable: problems at one position keep the schema's keyword order
    problems = []
    for error in errors:
        message = error.message
        if message_limit is not None and len(message) > message_limit:
            message = message[:message_limit] + f"… [{len(message) - message_limit:,} more characters]"
        problems.append(FieldProblem(pointer_of(error.absolute_path), message, str(error.validator)))
    return problems, truncated


def problems_of(schema: Any, instance: Any) -> list[FieldProblem]:
    """Every violation of `schema` by `instance`, in instance order.

    Raises:
        SchemaError: the schema is invalid.
        Unresolvable: a `$ref` points outside the schema document.
        RecursionError: a `$ref` loop, or nesting deeper than the interpreter follows.
    """
    return _problems(build_validator(schema), instance)[0]


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in `value` (iteratively: the value may be deeper than the stack)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in children)
    return deepest


def _schema_failure(exc: SchemaError | Unresolvable | RecursionError, instance: Any = None) -> Validation:
    from jsonschema import SchemaError
    from referencing.exceptions import Unresolvable

    if isinstance(exc, SchemaError):
        where = f" (at {exc.json_path})" if exc.path else ""
        return Validation(failure=Failure.BAD_SCHEMA, detail=f"not valid JSON Schema{where}: {exc.message}")
    if isinstance(exc, Unresolvable):
        # `exc.ref`, not str(exc): PointerToNowhere's text quotes the whole schema.
        ref = str(getattr(exc, "ref", ""))[:500]
        detail = f"an unresolvable $ref {ref!r} (only references inside the schema resolve; none is fetched)"
        return Validation(failure=Failure.UNRESOLVABLE_REF, detail=detail)
    depth = _depth(instance)
    if depth > DEEP_INSTANCE:
        return Validation(
            failure=Failure.TOO_LARGE, detail=f"nested {depth} levels deep, deeper than validation can follow"
        )
    return Validation(failure=Failure.BAD_SCHEMA, detail="the schema refers to itself without end ($ref loop)")


def prepare(schema: Any) -> Validator | Validation:
    """A validator for `schema`, or the classified reason there is none."""
    from jsonschema import SchemaError

    try:
        return build_validator(schema)
    except SchemaError as exc:
        return _schema_failure(exc)
    except RecursionError:
        return Validation(failure=Failure.TOO_LARGE, detail="the schema is nested too deeply to check")
    except (ValueError, OverflowError) as exc:  # a `$schema` like "http://[" that is no URI at all
        return Validation(
            failure=Failure.BAD_SCHEMA, detail=f"not valid JSON Schema: {type(exc).__name__}: {exc}"[:500]
        )


def validate_with(
    validator: Validator, instance: Any, *, limit: int | None = None, message_limit: int | None = None
) -> Validation:
    """Validate `instance`, classifying what the schema does wrong along the way instead of raising.

    Args:
        limit: report at most this many problems (`truncated` says there were more).
        message_limit: cut longer messages (they quote the instance, which may be megabytes).
    """
    from referencing.exceptions import Unresolvable

    try:
        problems, truncated = _problems(validator, instance, limit, message_limit)
    except (Unresolvable, RecursionError) as exc:
        return _schema_failure(exc, instance)
    except (re.error, OverflowError, ValueError) as exc:  # a `pattern` the regex engine refuses: a{4294967296}
        detail = f"not valid JSON Schema: a keyword could not be applied ({type(exc).__name__}: {exc})"[:500]
        return Validation(failure=Failure.BAD_SCHEMA, detail=detail)
    detail = f"only the first {len(problems)} problems are shown" if truncated else ""
    return Validation(tuple(problems), detail=detail, truncated=truncated)


def validate(schema: Any, instance: Any, *, limit: int | None = None, message_limit: int | None = None) -> Validation:
    """`validate_with` on a fresh validator for `schema`: every outcome classified, nothing raised."""
    prepared = prepare(schema)
    if isinstance(prepared, Validation):
        return prepared
    return validate_with(prepared, instance, limit=limit, message_limit=message_limit)


Verdict = Literal[
    "valid",
    "invalid",
    "no_schema",
    "missing_structured_content",
    "tool_error",
    "bad_schema",
    "too_large",
    "over_budget",
    "crashed",
]
# valid                       the structured content matches the output schema
# invalid                     it does not; `problems` say where
# no_schema                   the tool declares no output schema: nothing to check
# missing_structured_content  the tool declares one but the result carries no structuredContent
# tool_error                  isError: true; a failed tool's output is not checked
# bad_schema                  the output schema is invalid, loops on itself or has an unresolvable $ref
# too_large                   the content or schema is over the size cap or nested too deeply: not checked
# over_budget                 checking took longer than its time budget (a slow `pattern`, say): stopped
# crashed                     the sandbox's worker process died while checking


@dataclass(frozen=True)
class ResultVerdict:
    """How a call result compares with the tool's declared output schema."""

    verdict: Verdict
    problems: tuple[FieldProblem, ...] = ()
    detail: str = ""


def output_to_check(tool: dict[str, Any], result: dict[str, Any]) -> tuple[Any, Any] | ResultVerdict:
    """The output schema and structured content to validate, or the verdict that needs no validation."""
    if result.get("isError") is True:
        return ResultVerdict("tool_error", detail="the tool reported isError: true; its output is not checked")
    schema = tool.get("outputSchema")
    if schema is None:
        return ResultVerdict("no_schema")
    if "structuredContent" not in result:
        return ResultVerdict(
            "missing_structured_content", detail="the tool has an output schema but sent no structuredContent"
        )
    return schema, result["structuredContent"]


def verdict_of(validation: Validation) -> ResultVerdict:
    """The verdict on a call result whose structured content was validated with `validation`."""
    failure, detail = validation.failure, validation.detail
    if failure is None:
        if validation.problems:
            return ResultVerdict("invalid", validation.problems, detail)
        return ResultVerdict("valid")
    if failure is Failure.BAD_SCHEMA:
        return ResultVerdict("bad_schema", detail=f"the output schema is invalid: {detail}")
    if failure is Failure.UNRESOLVABLE_REF:
        return ResultVerdict("bad_schema", detail=f"the output schema has {detail}")
    if failure is Failure.TOO_LARGE:
        return ResultVerdict("too_large", detail=f"not checked: {detail}")
    if failure is Failure.OVER_BUDGET:
        return ResultVerdict("over_budget", detail=f"checking was stopped: {detail}")
    return ResultVerdict("crashed", detail=f"not checked: {detail}")


def check_result(tool: dict[str, Any], result: dict[str, Any]) -> ResultVerdict:
    """Check a raw `CallToolResult` against the output schema of `tool` (a raw tool object), in process."""
    target = output_to_check(tool, result)
    if isinstance(target, ResultVerdict):
        return target
    schema, content = target
    return verdict_of(validate(schema, content))
