"""A task as data: its statuses read from either era's Task object, kept once each and bounded, the poll's wait
within its floor and ceiling, a tool's task support as it declares it."""

from __future__ import annotations

import math

from catalog_inspector.core.calls import TaskLog, TaskState, poll_delay, task_support
from catalog_inspector.core.calls.tasks import MAX_STATES, POLL_CEILING_S, POLL_DEFAULT_S, POLL_FLOOR_S


def test_the_wait_between_polls_is_the_servers_within_a_floor_and_a_ceiling() -> None:
    assert poll_delay(500) == 0.5
    assert poll_delay(0) == POLL_FLOOR_S and poll_delay(-5) == POLL_FLOOR_S  # never a spin
    assert poll_delay(3_600_000) == POLL_CEILING_S
    for nonsense in (None, "500", True, math.inf, math.nan, [500]):
        assert poll_delay(nonsense) == POLL_DEFAULT_S


def test_a_status_is_read_from_each_eras_task_object_as_plain_bounded_text() -> None:
    legacy = TaskState.of({"status": "working", "statusMessage": "a\u202eb", "pollInterval": 250}, "legacy", "get", 1)
    assert (legacy.status, legacy.poll_interval_ms) == ("working", 250.0)
    assert legacy.message is not None and "\u202e" not in legacy.message  # a direction override is shown, not obeyed
    modern = TaskState.of({"status": "completed", "pollIntervalMs": 10, "pollInterval": 99}, "modern", "get", 2)
    assert modern.poll_interval_ms == 10.0  # each era's own field
    odd = TaskState.of({"status": 7, "statusMessage": ["x"], "pollIntervalMs": True}, "modern", "notification", 3)
    assert (odd.status, odd.message, odd.poll_interval_ms) == ("(none)", None, None)
    assert TaskState.of({"status": "x" * 1000}, "modern", "get", 0).status.startswith("x" * 100)
    assert len(TaskState.of({"status": "x" * 1000}, "modern", "get", 0).status) < 200


def test_the_log_keeps_each_change_once_and_at_most_its_bound_the_newest_last() -> None:
    heard: list[int] = []
    log = TaskLog(on_change=lambda changed: heard.append(len(changed.states)))
    working = TaskState("working", "step 1")
    assert log.put(working) and not log.put(TaskState("working", "step 1", source="notification"))
    assert log.put(TaskState("working", "step 2"))
    assert [s.message for s in log.states] == ["step 1", "step 2"] and heard == [1, 2]
    for step in range(3, MAX_STATES + 50):
        log.put(TaskState("working", f"step {step}"))
    assert len(log.states) == MAX_STATES and log.states[0].message == "step 1"
    assert log.states[-1].message == f"step {MAX_STATES + 49}" and log.dropped == 49  # 249 states, 200 kept
    log.put_progress(3, 4, "three")
    log.mark_cancel_sent()
    log.said("one")
    log.said("two")
    record = log.record()
    assert record.to_json()["progress"] == {"progress": 3, "total": 4, "message": "three"}
    assert record.cancel_sent and record.note == "one; two" and record.status == "working"
    document = record.to_json()
    assert set(document) == {"id", "era", "statuses", "statuses_dropped", "progress", "cancel_sent", "note"}
    assert set(document["statuses"][0]) == {"status", "message", "poll_interval_ms", "source", "at_ms"}


def test_a_progress_that_is_not_a_finite_number_is_left_out_so_the_document_stays_json() -> None:
    import json

    log = TaskLog()
    log.put_progress(1, 4, "one")
    log.put_progress(math.nan, 4, "nan")
    log.put_progress(math.inf, None, "inf")
    assert log.record().to_json()["progress"] == {"progress": 1, "total": 4, "message": "one"}
    log.put_progress(2, math.inf, "two")
    assert log.record().to_json()["progress"] == {"progress": 2, "total": None, "message": "two"}
    json.dumps(log.record().to_json(), allow_nan=False)  # what the CLI writes: it must not raise


def test_a_tools_task_support_is_what_it_declares() -> None:
    assert task_support({"execution": {"taskSupport": "required"}}) == "required"
    assert task_support({"execution": {"taskSupport": "sometimes"}}) == "sometimes"  # said as sent, judged elsewhere
    assert task_support({}) is None and task_support({"execution": "required"}) is None
    assert task_support({"execution": {"taskSupport": 1}}) is None
