"""Work written as steps: run whole, or a slice at a time."""

from __future__ import annotations

from catalog_inspector.core.steps import Steps, advance, run_whole


def _counting(steps: int, ran: list[int]) -> Steps[str]:
    for i in range(steps):
        ran.append(i)
        yield
    return f"{steps} steps"


def test_run_whole_runs_every_step_and_returns_the_result() -> None:
    ran: list[int] = []
    assert run_whole(_counting(5, ran)) == "5 steps" and ran == [0, 1, 2, 3, 4]


def test_a_slice_with_no_time_left_runs_one_step_so_work_always_moves_on() -> None:
    ran: list[int] = []
    steps = _counting(3, ran)
    assert advance(steps, 0.0) == (False, None, 1) and ran == [0]
    assert advance(steps, 0.0) == (False, None, 1) and ran == [0, 1]
    assert advance(steps, 0.0) == (False, None, 1) and ran == [0, 1, 2]
    assert advance(steps, 0.0) == (True, "3 steps", 0), "the step after the last one ends it with its result"


def test_a_slice_with_time_to_spare_runs_to_the_end() -> None:
    ran: list[int] = []
    assert advance(_counting(100, ran), 60.0) == (True, "100 steps", 100) and len(ran) == 100


def test_work_without_a_yield_ends_in_its_first_slice() -> None:
    def at_once() -> Steps[int]:
        return 7
        yield  # a generator all the same

    assert advance(at_once(), 0.0) == (True, 7, 0)
