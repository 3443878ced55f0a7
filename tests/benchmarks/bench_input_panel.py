"""Benchmark: the GUI-thread work of showing a server's question in the input request panel.

What the window does when a question arrives (an `input_asked` signal): the panel
reads it and shows it: a form built from the requested schema (with its defaults),
the URL page, or the sampling page with the request as sent. The questions: the
asks demo's name and plan forms, a hostile flat form of 500 properties (the form
engine's field cap), a 32,000-character URL, and a sampling request near the 4 MB
input-request cap (200 messages of 20,000 characters). The check of the answer
runs in the sandbox, off the GUI thread, and is not timed here.

The baseline, measured in the same run, is the Call tab's own form for the same
schema (`CallForm.set_schema`: the engine the panel reuses), and a plain-text view
given the same text, with one repaint each. Prints a table; asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_input_panel.py [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QApplication, QPlainTextEdit

from catalog_inspector.core.calls import ELICIT, SAMPLE, InputAsk
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.demo.asks import NAME_SCHEMA, PLAN_SCHEMA
from catalog_inspector.runtime import ServerSupervisor
from catalog_inspector.runtime.asks import PendingAsk
from catalog_inspector.runtime.calldesk import CallDesk
from catalog_inspector.runtime.offload import Offload
from catalog_inspector.ui.presenters.answer import Answer
from catalog_inspector.ui.presenters.checks import Checks
from catalog_inspector.ui.presenters.questions import sampling_words
from catalog_inspector.ui.widgets.call_form import CallForm
from catalog_inspector.ui.widgets.input_panel import InputRequestPanel

BUDGET_MS = 16.0
WIDE = {"type": "object", "properties": {f"field_{n}": {"type": "string", "title": f"Field {n}"} for n in range(500)}}


def form(schema: Any) -> InputAsk:
    return InputAsk("k", ELICIT, {"mode": "form", "message": "Fill this in.", "requestedSchema": schema})


QUESTIONS: dict[str, InputAsk] = {
    "name form": form(NAME_SCHEMA),
    "plan form": form(PLAN_SCHEMA),
    "500-field form": form(WIDE),
    "32 KB URL": InputAsk(
        "u", ELICIT, {"mode": "url", "message": "Visit.", "url": "https://x.invalid/" + "a" * 32_000}
    ),
    "4 MB sampling": InputAsk(
        "s",
        SAMPLE,
        {"messages": [{"role": "user", "content": {"type": "text", "text": "w " * 10_000}}] * 200, "maxTokens": 9},
    ),
}


def timed(work: Callable[[], None], runs: int) -> float:
    app = QApplication.instance()
    assert app is not None
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        app.processEvents()  # the repaint it caused
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    app = QApplication([])
    loop = asyncio.new_event_loop()
    offload = Offload()
    supervisor = ServerSupervisor(ServerSpec(name="bench", command="true"), Limits())
    answer = Answer(supervisor, "tool", takes_idle=True)
    panel = InputRequestPanel(Checks(CallDesk([supervisor], offload, None)))
    panel.resize(700, 600)
    panel.show()
    panel.bind(answer)
    baseline_form, baseline_text = CallForm(), QPlainTextEdit()
    for widget in (baseline_form, baseline_text):
        widget.resize(700, 600)
        widget.show()

    def ask(question: InputAsk) -> Callable[[], None]:
        def work() -> None:
            pending = PendingAsk("bench", None, question, future=loop.create_future())
            supervisor.asks.pending[:] = [pending]
            supervisor.input_asked.emit(pending)  # what the window hears when a question arrives

        return work

    def baseline(question: InputAsk) -> Callable[[], None]:
        if question.method == SAMPLE:
            return lambda: baseline_text.setPlainText(sampling_words(question.params)[:200_000])
        if question.mode == "url":
            return lambda: baseline_text.setPlainText(question.url or "")
        return lambda: baseline_form.set_schema(question.requested_schema)

    print(f"{'question':<16} {'panel ms':>9} {'baseline ms':>12} {'ratio':>6}  (budget {BUDGET_MS:g} ms a frame)")
    for name, question in QUESTIONS.items():
        shown = timed(ask(question), runs)
        floor = timed(baseline(question), runs)
        print(f"{name:<16} {shown:>9.1f} {floor:>12.1f} {shown / floor if floor else float('inf'):>6.1f}")
    loop.run_until_complete(offload.aclose())
    loop.close()
    app.quit()


if __name__ == "__main__":
    main()
