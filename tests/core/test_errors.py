"""Classification unwraps ExceptionGroups and keeps the four error layers apart."""

from __future__ import annotations

import pydantic
import pytest
from mcp.shared.exceptions import MCPError

from catalog_inspector.core.errors import ErrorKind, WalkFailed, WalkRejected, make_error
from catalog_inspector.core.transport import classify


def test_nested_exception_groups_are_unwrapped_to_the_real_cause() -> None:
    closed = MCPError(-32000, "Connection closed")
    real = MCPError(-32602, "bad cursor")
    error = classify(BaseExceptionGroup("outer", [ExceptionGroup("inner", [closed, real])]), page=3)
    assert error.kind is ErrorKind.SERVER_ERROR
    assert (error.info.page, error.info.code) == (3, -32602)


def test_a_classified_leaf_wins_over_everything_else() -> None:
    rejected = make_error(ErrorKind.DUPLICATE_NAME, "dup", 2)
    assert classify(ExceptionGroup("g", [RuntimeError("noise"), rejected])) is rejected


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (MCPError(-32001, "Request 'tools/list' timed out"), ErrorKind.TIMEOUT),
        (MCPError(-32000, "Connection closed"), ErrorKind.CONNECTION),
        (MCPError(-32603, "boom"), ErrorKind.SERVER_ERROR),
        (MCPError(-32000, "a server's own -32000"), ErrorKind.SERVER_ERROR),
        (FileNotFoundError(2, "No such file", "srv"), ErrorKind.CONNECTION),
        (TimeoutError(), ErrorKind.TIMEOUT),
    ],
)
def test_each_layer_has_its_kind(exc: BaseException, kind: ErrorKind) -> None:
    assert classify(exc).kind is kind


def test_a_model_validation_error_is_a_protocol_error() -> None:
    class Tool(pydantic.BaseModel):
        inputSchema: dict  # noqa: N815

    with pytest.raises(pydantic.ValidationError) as caught:
        Tool.model_validate({})
    error = classify(caught.value, page=1)
    assert error.kind is ErrorKind.PROTOCOL and "inputSchema" in error.info.message


def test_rejections_and_failures_are_distinct_types() -> None:
    assert isinstance(make_error(ErrorKind.PAGE_LIMIT, "x"), WalkRejected)
    assert isinstance(make_error(ErrorKind.TIMEOUT, "x"), WalkFailed)


def test_a_servers_own_minus_32001_stays_a_server_error_with_its_code() -> None:
    error = classify(MCPError(-32001, "upstream gateway timed out"))
    assert error.kind is ErrorKind.SERVER_ERROR and error.info.code == -32001


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (MCPError(-32601, "Not Found"), ErrorKind.CONNECTION),
        (MCPError(-32603, "Server returned an error response"), ErrorKind.CONNECTION),
        (MCPError(-32700, "Failed to parse JSON response: bad"), ErrorKind.PROTOCOL),
        (MCPError(-32600, "Unexpected content type: text/html"), ErrorKind.PROTOCOL),
        (MCPError(-32601, "Method not found"), ErrorKind.SERVER_ERROR),
    ],
)
def test_errors_the_sdk_makes_up_for_http_failures_are_not_server_answers(exc: MCPError, kind: ErrorKind) -> None:
    assert classify(exc).kind is kind
