"""A log message as data: plain text, bounded; a request's list keeps the latest."""

from __future__ import annotations

import json
import math
from datetime import datetime

from catalog_inspector.core.calls import LogList, LogMessage
from catalog_inspector.core.calls.logs import DATA_LIMIT, LOGGER_LIMIT, data_text

WHEN = datetime(2026, 7, 28, 9, 5, 3, 42_000).astimezone()  # local time
AT = WHEN.timestamp()


def test_data_is_plain_text_a_string_as_sent_anything_else_as_compact_json() -> None:
    assert data_text("<b>hi</b>\n") == "<b>hi</b>\n"
    assert data_text({"error": "failed", "port": 5432}) == '{"error":"failed","port":5432}'
    assert data_text(["ü", None, True]) == '["ü",null,true]'
    assert data_text(math.nan) == "NaN"


def test_data_and_logger_are_cut_with_a_word_on_how_much_went() -> None:
    message = LogMessage.of("info", "L" * 1000, "x" * 10_000, AT)
    assert message.data == "x" * DATA_LIMIT + f"… [{10_000 - DATA_LIMIT:,} more characters]"
    assert message.logger == "L" * LOGGER_LIMIT + f"… [{1000 - LOGGER_LIMIT:,} more characters]"
    big = LogMessage.of("info", None, {"rows": list(range(5000))}, AT)
    assert big.data.startswith('{"rows":[0,1,2') and len(big.data) < DATA_LIMIT + 40


def test_a_line_has_time_level_logger_and_data_and_stays_one_line() -> None:
    assert LogMessage.of("warning", "db", "a\nb\rc", AT).line() == "09:05:03.042 [warning] db: a\\nb\\rc"
    assert LogMessage.of("error", None, {"k": 1}, AT).line() == '09:05:03.042 [error] {"k":1}'


def test_the_document_form_names_level_logger_and_data() -> None:
    document = LogMessage.of("notice", None, [1], AT).to_json()
    assert document == {"at": WHEN.isoformat(timespec="milliseconds"), "level": "notice", "logger": None, "data": "[1]"}
    json.dumps(document, allow_nan=False)


def test_a_request_keeps_its_latest_messages_and_counts_the_rest() -> None:
    kept = LogList(limit=3)
    for n in range(10):
        kept.add(LogMessage.of("info", None, str(n), AT))
    assert [m.data for m in kept.kept()] == ["7", "8", "9"] and kept.dropped == 7
