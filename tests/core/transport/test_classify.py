"""The error classifier, branch by branch: what each kind of exception becomes (kind, words, page, code, details).

Exceptions here are the real ones the SDK, pydantic, anyio and the OS raise; an
HTTP library's errors are recognised by class name, so classes of those names stand in.
"""

from __future__ import annotations

from typing import Any

import anyio
import pydantic
import pytest
from mcp.shared.exceptions import MCPError

from catalog_inspector.core.errors import ErrorInfo, ErrorKind, WalkFailed, make_error
from catalog_inspector.core.transport.classify import TOO_DEEP, classify, too_deep


def named(name: str, base: type[Exception] = Exception) -> type[Exception]:
    return type(name, (base,), {})


def validation_error(document: str) -> pydantic.ValidationError:
    with pytest.raises(pydantic.ValidationError) as caught:
        pydantic.TypeAdapter(Any).validate_json(document)
    return caught.value


# --- the SDK's own errors and the server's ------------------------------------------------------


def test_the_sdks_request_timeout_is_a_timeout_on_its_page() -> None:
    error = classify(MCPError(-32001, "Request 'tools/list' timed out"), page=4)
    assert isinstance(error, WalkFailed)
    assert error.info == ErrorInfo(
        ErrorKind.TIMEOUT, "no answer within the request timeout (Request 'tools/list' timed out)", 4
    )


@pytest.mark.parametrize(
    ("code", "message", "kind", "words"),
    [
        (-32000, "Connection closed", ErrorKind.CONNECTION, "the connection to the server closed"),
        (-32000, "SSE stream ended without a response", ErrorKind.CONNECTION,
         "the server's event stream ended without a response"),
        (-32601, "Not Found", ErrorKind.CONNECTION, "HTTP 404 Not Found: is the URL the MCP endpoint?"),
        (-32600, "Session terminated", ErrorKind.CONNECTION, "the server ended the HTTP session (404)"),
        (-32603, "Server returned an error response", ErrorKind.CONNECTION,
         "the server answered with an HTTP error status"),
        (-32700, "Failed to parse JSON response: x\nrecursion limit exceeded at line 1", ErrorKind.PROTOCOL,
         f"the server sent a response {TOO_DEEP}"),
        (-32700, "Failed to parse SSE message: bad\ninput", ErrorKind.PROTOCOL,
         "malformed HTTP response: Failed to parse SSE message: bad\ninput"),
        (-32600, "Unexpected content type: text/html", ErrorKind.PROTOCOL,
         "malformed HTTP response: Unexpected content type: text/html"),
        (-32000, "SSE stream failed: Server-sent event exceeded the 4096 byte limit.", ErrorKind.SIZE_LIMIT,
         "an event on the server's stream exceeded the 4096-byte cap"),
        (-32000, "SSE stream failed: over the 4096-byte cap", ErrorKind.CONNECTION,
         "the server's event stream failed: over the 4096-byte cap"),
        (-32600, "Redirect to http://h.test/\u202emcp not followed; use that URL as the endpoint", ErrorKind.CONNECTION,
         "the server redirected to http://h.test/\\u202emcp instead of answering: not followed"),
        (-32600, "server answered a request with 202 Accepted", ErrorKind.PROTOCOL,
         "the server answered a request with 202 Accepted, which says no answer will follow"),
    ],
)  # fmt: skip
def test_each_error_the_sdk_makes_up_has_its_own_kind_and_words(
    code: int, message: str, kind: ErrorKind, words: str
) -> None:
    assert classify(MCPError(code, message), page=2).info == ErrorInfo(kind, words, 2)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (-32001, "Request 'tools/list' timed out after 5 s"),  # the wording must match whole
        (-32000, "Request 'tools/list' timed out"),  # the SDK's wording under another code
        (-32000, "Connection closed by peer"),
        (-32603, "Not Found"),
        (-32700, "Unexpected content type: text/html"),
        (-32603, "SSE stream failed: x"),  # the SDK's wording under another code
        (-32000, "Redirect to http://h.test/ not followed"),
    ],
)
def test_a_server_error_that_only_resembles_the_sdks_own_is_the_servers(code: int, message: str) -> None:
    error = classify(MCPError(code, message, {"retry": False}), page=1)
    assert error.info == ErrorInfo(
        ErrorKind.SERVER_ERROR, f"the server answered with an error: {message}", 1, code,
        details={"code": code, "message": message, "data": {"retry": False}},
    )  # fmt: skip


# --- what pydantic, the OS and anyio raise ------------------------------------------------------


def test_a_malformed_response_names_the_first_problems_place_and_words() -> None:
    class Item(pydantic.BaseModel):
        tags: list[int]

    class Page(pydantic.BaseModel):
        tools: list[Item]

    with pytest.raises(pydantic.ValidationError) as caught:
        Page.model_validate({"tools": [{"tags": [1]}, {"tags": ["x", "y"]}]})
    error = classify(caught.value, page=5)
    expected = (
        "malformed response: tools.1.tags.0: Input should be a valid integer, unable to parse string as an integer"
    )
    assert error.info == ErrorInfo(ErrorKind.PROTOCOL, expected, 5)


def test_a_validation_error_without_problems_says_what_pydantic_says() -> None:
    empty = pydantic.ValidationError.from_exception_data("Page", [])
    assert classify(empty, page=0).info == ErrorInfo(ErrorKind.PROTOCOL, f"malformed response: : {empty}", 0)


@pytest.mark.parametrize(
    ("exc", "kind", "words"),
    [
        (TimeoutError(), ErrorKind.TIMEOUT, "the overall deadline ran out"),
        (FileNotFoundError(2, "No such file or directory", "srv"), ErrorKind.CONNECTION,
         "could not start the server: [Errno 2] No such file or directory: 'srv'"),
        (PermissionError(13, "Permission denied", "srv"), ErrorKind.CONNECTION,
         "could not start the server: [Errno 13] Permission denied: 'srv'"),
        (BrokenPipeError(32, "Broken pipe"), ErrorKind.CONNECTION, "connection failed: [Errno 32] Broken pipe"),
        (OSError("no route"), ErrorKind.CONNECTION, "connection failed: no route"),
        (EOFError("eof"), ErrorKind.CONNECTION, "connection failed: eof"),
        (anyio.ClosedResourceError(), ErrorKind.CONNECTION, "the connection to the server closed"),
        (anyio.BrokenResourceError(), ErrorKind.CONNECTION, "the connection to the server closed"),
        (anyio.EndOfStream(), ErrorKind.CONNECTION, "the connection to the server closed"),
        (RuntimeError("unexpected frame"), ErrorKind.PROTOCOL, "unexpected frame"),
        (ValueError("not JSON"), ErrorKind.PROTOCOL, "not JSON"),
    ],
)  # fmt: skip
def test_each_kind_of_local_failure_has_its_kind_and_words(exc: BaseException, kind: ErrorKind, words: str) -> None:
    assert classify(exc, page=3).info == ErrorInfo(kind, words, 3)


@pytest.mark.parametrize(
    "name",
    ["TransportError", "ReadTransportError", "ProxyHTTPError", "ConnectError", "RemoteProtocolError", "HTTPStatus"],
)
def test_an_http_librarys_errors_are_known_by_their_class_names(name: str) -> None:
    exc = named(name, RuntimeError)("refused")
    assert classify(exc, page=1).info == ErrorInfo(ErrorKind.CONNECTION, "HTTP transport failed: refused", 1)


@pytest.mark.parametrize("name", ["ConnectErrorWrapper", "NotHTTP", "ClosedResourceErrors"])
def test_a_name_that_only_contains_a_known_name_is_not_taken_for_it(name: str) -> None:
    assert classify(named(name)("x"), page=1).info == ErrorInfo(ErrorKind.CONNECTION, f"{name}: x", 1)


def test_anything_else_is_a_connection_failure_named_by_its_type() -> None:
    assert classify(KeyError("k"), page=6).info == ErrorInfo(ErrorKind.CONNECTION, "KeyError: 'k'", 6)
    assert classify(KeyError("k")).info.page is None


# --- groups: which leaf wins --------------------------------------------------------------------


def test_a_classified_leaf_is_returned_itself_even_after_others() -> None:
    rejected = make_error(ErrorKind.DUPLICATE_NAME, "dup", 2)
    group = ExceptionGroup("g", [anyio.ClosedResourceError(), ValueError("bad"), rejected])
    assert classify(group, page=9) is rejected


def test_the_first_leaf_that_is_more_than_a_closed_connection_wins() -> None:
    group = ExceptionGroup("g", [anyio.ClosedResourceError(), KeyError("k"), TimeoutError(), ValueError("bad")])
    assert classify(group, page=1).info == ErrorInfo(ErrorKind.TIMEOUT, "the overall deadline ran out", 1)


def test_when_every_leaf_is_a_connection_failure_the_first_classified_one_wins() -> None:
    group = ExceptionGroup("g", [KeyError("k"), OSError("no route"), anyio.ClosedResourceError()])
    assert classify(group, page=1).info == ErrorInfo(ErrorKind.CONNECTION, "connection failed: no route", 1)


def test_a_group_of_unknown_leaves_is_named_by_the_group() -> None:
    group = ExceptionGroup("two odd things", [KeyError("k"), LookupError("l")])
    assert classify(group, page=2).info == ErrorInfo(
        ErrorKind.CONNECTION, "ExceptionGroup: two odd things (2 sub-exceptions)", 2
    )


# --- JSON nested too deep -----------------------------------------------------------------------


def test_json_nested_past_the_parsers_limit_is_recognised_as_too_deep() -> None:
    assert too_deep(validation_error("[" * 300 + "]" * 300))


@pytest.mark.parametrize(
    "exc",
    [
        pydantic.ValidationError.from_exception_data("T", []),
        ValueError("recursion limit exceeded"),
    ],
)
def test_other_errors_are_not_taken_for_json_nested_too_deep(exc: Exception) -> None:
    assert not too_deep(exc)


def test_a_malformed_document_is_not_taken_for_one_nested_too_deep() -> None:
    assert not too_deep(validation_error("[1,"))
