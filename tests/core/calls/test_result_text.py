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


def _wav(seconds: float) -> str:
    from catalog_inspector.demo.apps import wav

    return base64.b64encode(wav(seconds)).decode()


def test_a_blocks_annotations_are_said_under_it() -> None:
    annotated = {
        "type": "text",
        "text": "for the model",
        "annotations": {"audience": ["assistant"], "priority": 0.25, "lastModified": "2026-11-30T10:00:00Z"},
    }
    odd = {"type": "text", "text": "odd", "annotations": {"audience": ["user", "assistant"], "priority": 7}}
    texts = [block.text for block in describe_result({"content": [annotated, odd, {"type": "text", "text": "bare"}]})]
    assert texts[0] == "for the model\n(for assistant · priority 0.25 · last modified 2026-11-30T10:00:00Z)"
    assert texts[1] == "odd\n(for user and assistant · priority 7 (out of 0 to 1))"
    assert texts[2] == "bare", "no annotations, no line"


def test_audio_is_described_with_its_type_size_and_a_wavs_length() -> None:
    blocks = describe_result({"content": [{"type": "audio", "mimeType": "audio/wav", "data": _wav(1.5)}]})
    assert blocks[0].text == "[audio, audio/wav, 11.8 KiB, 1.50 s; not played]"
    mp3 = describe_result({"content": [{"type": "audio", "mimeType": "audio/mpeg", "data": "SUQz"}]})
    assert mp3[0].text == "[audio, audio/mpeg, 3 bytes; not played]", "a length only where the header is read"


def test_a_resource_link_is_offered_to_be_read_up_to_a_bound() -> None:
    from catalog_inspector.core.calls.result_text import LINKS

    links = [{"type": "resource_link", "uri": f"demo://notes/{n}", "name": f"note-{n}"} for n in range(LINKS + 2)]
    blocks = describe_result({"content": [*links, {"type": "resource_link", "name": "no uri"}]})
    offered = [block.link for block in blocks if block.link is not None]
    assert offered == links[:LINKS], "the link as sent, for the window to read"
    assert "(not opened; it can be read from this server)" in blocks[0].text
    assert blocks[LINKS].link is None and blocks[LINKS].text.endswith("(not opened)]")
    assert blocks[-1].link is None and "no URI" in blocks[-1].text
