"""The words the input request panel and the rounds table show about a server's questions: every piece of the
server's text made visible and bounded, a URL shown as it would be opened, what an answer may hold."""

from __future__ import annotations

from catalog_inspector.core.calls import ELICIT, SAMPLE, InputAsk, Round, accept, cancel
from catalog_inspector.runtime.asks import PendingAsk
from catalog_inspector.ui.elicit_url import url_facts
from catalog_inspector.ui.presenters.questions import (
    asker_words,
    content_problem,
    message_words,
    round_rows,
    sampling_words,
)

HIDDEN = "safe\u202etxt.exe\u200b"


class _Done:
    def done(self) -> bool:
        return False


def test_a_servers_message_shows_its_hidden_characters_and_is_bounded() -> None:
    ask = InputAsk("k", ELICIT, {"mode": "form", "message": f"<b>Name?</b> {HIDDEN}\n" + "x" * 10_000})
    words = message_words(ask)
    assert words.startswith("<b>Name?</b> safe\\u202etxt.exe\\u200b\n") and len(words) < 4100
    pending = PendingAsk(f"srv{HIDDEN}", object(), ask, future=_Done())  # type: ignore[arg-type]
    said = asker_words(pending, [], 3)
    assert said.startswith("“srvsafe\\u202etxt.exe\\u200b” asks for input: elicitation (form), in an input_required")
    assert said.endswith("2 more questions wait after this one")


def test_a_sampling_request_is_shown_whole_in_bounded_parts_latest_messages_first_kept() -> None:
    huge = {"role": "user", "content": {"type": "text", "text": "w" * 1_000_000}}
    params = {
        "messages": [huge] * 199 + [{"role": "user", "content": [{"type": "image", "data": "AA==", "mimeType": "x"}]}],
        "systemPrompt": HIDDEN,
        "maxTokens": 9,
        "tools": [{"name": f"t{HIDDEN}", "description": "d"}],
    }
    words = sampling_words(params)
    assert len(words) < 60_000 and "180 earlier messages not shown" in words
    assert words.rstrip().endswith("t" + "safe\\u202etxt.exe\\u200b — d")
    assert "[user] (image, x, 4 characters)" in words and "Max tokens: 9" in words and "no model" in words


def test_an_answer_holds_only_what_the_spec_lets_it() -> None:
    assert content_problem({"a": "x", "b": 1, "c": True, "d": ["x"], "e": None, "f": 1.5}) == ""
    assert "'nested' holds an object" in content_problem({"nested": {"a": 1}})
    assert content_problem(["not", "an", "object"]).startswith("The answer must be a JSON object")


def test_a_url_is_shown_as_opened_and_only_https_or_loopback_http_opens() -> None:
    assert url_facts("https://consent.example.invalid/a").target is not None
    assert url_facts("http://127.0.0.1:9/cb").target is not None and url_facts("http://localhost/x").target is not None
    for refused, why in (
        ("javascript:alert(1)", "its scheme is javascript:"),
        ("file:///etc/passwd", "its scheme is file:"),
        ("data:text/html,<script>x</script>", "its scheme is data:"),
        ("http://example.com/x", "http to example.com, which is not this machine"),
        ("http://127.0.0.1.example.com/x", "not this machine"),
    ):
        facts = url_facts(refused)
        assert facts.target is None and why in facts.refusal, refused
    lookalike = url_facts("https://аррӏе.com/\u202elogin")
    assert lookalike.host == "xn--80ak6aa92e.com" and lookalike.decoded == "аррӏе.com"
    assert lookalike.shown == "https://xn--80ak6aa92e.com/%E2%80%AElogin", "no raw bidi character in what is shown"


def test_each_question_is_a_row_with_its_answer_and_a_state_only_round_too() -> None:
    name = InputAsk("name", ELICIT, {"mode": "form", "message": f"Name {HIDDEN}"})
    page = InputAsk(None, ELICIT, {"mode": "url", "message": "Go", "url": "https://аррӏе.com/"})
    summary = InputAsk("s", SAMPLE, {"messages": []})
    rows = round_rows(
        [
            Round(1, "modern", (name, summary), (accept(name, {"name": "x"}),), 233, 4.4),
            Round(2, "modern", (), (), 251, 3.0),
            Round(3, "legacy", (page,), (cancel(page, unanswered=True),)),
        ]
    )
    assert rows == [
        ("1", "elicitation (form)", "name", "Name safe\\u202etxt.exe\\u200b", "accept", "233 B", "4 ms"),
        ("1", "sampling", "s", "", "waiting…", "233 B", "4 ms"),
        ("2", "requestState only", "—", "(no question: the request is sent again)", "sent again", "251 B", "3 ms"),
        ("3", "elicitation (URL)", "—", "https://xn--80ak6aa92e.com/", "cancel (nobody answered)", "—", "0 ms"),
    ]
