"""Results as plain text: every content kind described, images decoded within a cap, nothing fetched."""

from __future__ import annotations

import base64

from catalog_inspector.core.calls import FieldProblem, ResultVerdict
from catalog_inspector.core.calls.result_text import IMAGE_CAP, describe_result, verdict_words

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 20).decode()


def test_each_content_kind_has_its_words() -> None:
    result = {
        "content": [
            {"type": "text", "text": "hello\u202e"},
            {"type": "image", "mimeType": "image/png", "data": PNG},
            {"type": "audio", "mimeType": "audio/wav", "data": "AAAA"},
            {"type": "resource_link", "uri": "file:///etc/passwd", "name": "passwd"},
            {"type": "resource", "resource": {"uri": "demo://a", "mimeType": "text/plain", "text": "inner"}},
            {"type": "resource", "resource": {"uri": "demo://b", "blob": "AAAA"}},
        ],
        "structuredContent": {"n": 1},
    }
    blocks = describe_result(result)
    texts = [b.text for b in blocks]
    assert texts[0] == "hello\\u202e", "invisible characters are shown"
    assert blocks[1].image is not None and blocks[1].image.startswith(b"\x89PNG") and "image/png" in texts[1]
    assert "not played" in texts[2]
    assert "file:///etc/passwd" in texts[3] and "not opened" in texts[3]
    assert texts[4].endswith("inner") and "binary" in texts[5]
    assert texts[6] == 'Structured content:\n{\n  "n": 1\n}'


def test_an_image_over_the_cap_or_not_base64_is_described_not_decoded() -> None:
    huge = {"type": "image", "mimeType": "image/png", "data": "A" * (IMAGE_CAP * 2)}
    bad = {"type": "image", "mimeType": "image/png", "data": "not base64!"}
    blocks = describe_result({"content": [huge, bad]})
    assert blocks[0].image is None and "over the" in blocks[0].text
    assert blocks[1].image is None and "not valid base64" in blocks[1].text


def test_resources_and_prompts_read_as_text() -> None:
    read = describe_result({"contents": [{"uri": "demo://n", "mimeType": "text/plain", "text": "a note"}]}, "resource")
    assert read[0].text == "Embedded resource demo://n (text/plain):\na note"
    got = describe_result({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}, "prompt")
    assert got[0].text == "user: hi"


def test_verdict_words_name_each_problem_with_its_path_and_keyword() -> None:
    verdict = ResultVerdict("invalid", (FieldProblem("/count", "'many' is not of type 'integer'", "type"),))
    assert verdict_words(verdict).endswith("/count: 'many' is not of type 'integer' (type)")
    assert verdict_words(ResultVerdict("valid")).startswith("Output: valid")
    assert "over budget" in verdict_words(ResultVerdict("over_budget", detail="stopped after 2 s"))
