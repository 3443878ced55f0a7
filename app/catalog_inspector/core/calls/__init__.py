"""Test calls as data and checks: outcomes and reports, the form from a schema, validation, the sandbox, lint, history.

Holds `answers` (the answers file of a script), `asking` (what a server asked during a request and how it was answered, round by round), `outcome` (the layer a call stopped at, in words), `replay` (a call's answers kept as an answers file, given
again on a re-run), `report` (one call as an
`mcp-call-result/1` document with its exit code), `store` (call history and named
argument sets on disk), `form` and `form_resolve` (a form from an untrusted input
schema), `validation` (JSON Schema checks, nothing fetched), `sandbox` and
`sandbox_worker` (validation in a process that can be stopped), `result_text` (a
result as plain text) and `lint` (what a strict host would reject in a schema).
No SDK: `session` sends the requests. Imports `catalog`, `config` and core's shared modules.
"""

from __future__ import annotations

from catalog_inspector.core.calls.answers import (
    AnswerRules,
    AnswersError,
    RuleAnswerer,
    answer_by_rules,
    parse_answers,
)
from catalog_inspector.core.calls.asking import (
    ELICIT,
    KNOWN_METHODS,
    LIST_ROOTS,
    MAX_REQUEST_STATE_BYTES,
    MAX_ROUNDS,
    SAMPLE,
    URL_ELICITATION_REQUIRED,
    Answerer,
    ContentCheck,
    Era,
    InputAnswer,
    InputAsk,
    Round,
    RoundLog,
    accept,
    cancel,
    check_content_in_process,
    checking_with,
    closed,
    decline,
    elicitation_schema_problems,
    last_user_text,
    merge_round,
    reject,
    reply,
    roots_answer,
    schema_defaults,
    unanswerable,
    url_elicitations,
    with_defaults,
)
from catalog_inspector.core.calls.form import (
    FormField,
    build_form,
    empty_value,
    fits,
    pick_branch,
)
from catalog_inspector.core.calls.lint import (
    exclusion_issues,
    lint_schema,
    lint_tools,
    lint_words,
)
from catalog_inspector.core.calls.outcome import (
    OUTCOMES,
    CallOutcome,
    Judge,
    Layer,
    Outcome,
    find_tool,
    judge_in_process,
    layer_of,
)
from catalog_inspector.core.calls.replay import (
    ANSWERS_FILE,
    answers_document,
    command_with_answers,
    kept_rounds,
    replay_answer,
)
from catalog_inspector.core.calls.report import (
    CallError,
    CallReport,
    argument_problems,
    catalog_failed,
    counted,
    not_sent,
    report_of,
)
from catalog_inspector.core.calls.result_text import (
    Block,
    describe_result,
    verdict_words,
)
from catalog_inspector.core.calls.sandbox import (
    Sandbox,
)
from catalog_inspector.core.calls.store import (
    CallRecord,
    CallStore,
    call_command,
    capped,
)
from catalog_inspector.core.calls.validation import (
    Failure,
    FieldProblem,
    ResultVerdict,
    Validation,
    output_to_check,
    validate,
    verdict_of,
)

__all__ = [
    "AnswerRules",
    "AnswersError",
    "RuleAnswerer",
    "answer_by_rules",
    "parse_answers",
    "ELICIT",
    "KNOWN_METHODS",
    "LIST_ROOTS",
    "MAX_REQUEST_STATE_BYTES",
    "MAX_ROUNDS",
    "SAMPLE",
    "URL_ELICITATION_REQUIRED",
    "Answerer",
    "ContentCheck",
    "Era",
    "InputAnswer",
    "InputAsk",
    "Round",
    "RoundLog",
    "accept",
    "cancel",
    "check_content_in_process",
    "checking_with",
    "closed",
    "decline",
    "elicitation_schema_problems",
    "last_user_text",
    "merge_round",
    "reject",
    "reply",
    "roots_answer",
    "schema_defaults",
    "unanswerable",
    "url_elicitations",
    "with_defaults",
    "ANSWERS_FILE",
    "answers_document",
    "command_with_answers",
    "kept_rounds",
    "replay_answer",
    "Block",
    "CallError",
    "CallOutcome",
    "CallRecord",
    "CallReport",
    "CallStore",
    "Failure",
    "FieldProblem",
    "FormField",
    "Judge",
    "OUTCOMES",
    "Layer",
    "Outcome",
    "ResultVerdict",
    "Sandbox",
    "Validation",
    "argument_problems",
    "build_form",
    "call_command",
    "capped",
    "catalog_failed",
    "counted",
    "describe_result",
    "empty_value",
    "find_tool",
    "fits",
    "judge_in_process",
    "layer_of",
    "exclusion_issues",
    "lint_schema",
    "lint_tools",
    "lint_words",
    "not_sent",
    "output_to_check",
    "pick_branch",
    "report_of",
    "validate",
    "verdict_of",
    "verdict_words",
]
