"""Guards against Qt binding defects this app cannot live with."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    text = Signal(str)


def test_emitting_signals_does_not_leak_references_to_true(qapp) -> None:  # type: ignore[no-untyped-def]
    # PySide6 6.12.0 decrements True on every emit; the app emits one signal per
    # server stderr line and per page, so a long session would abort the process.
    emitter = _Emitter()
    received: list[str] = []
    emitter.text.connect(received.append)
    before = sys.getrefcount(True)
    for _ in range(200):
        emitter.text.emit("line")
    assert len(received) == 200
    assert sys.getrefcount(True) >= before - 5
