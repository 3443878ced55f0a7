"""The call panel's read-only parts: the result as the server sent it, the rounds of the server's questions, the
server's log messages for the call, and the call history."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.calls import REQUEST_LOGS, Block, CallRecord, Round, describe_result
from catalog_inspector.core.text import visible
from catalog_inspector.ui.accessible import described, named
from catalog_inspector.ui.batch import Batcher
from catalog_inspector.ui.keyboard import follow_layout
from catalog_inspector.ui.models.roles import tooltip
from catalog_inspector.ui.presenters.questions import ROUND_HEADERS, round_rows
from catalog_inspector.ui.widgets.column_fit import ElasticColumns
from catalog_inspector.ui.widgets.images import clear_row, pixmap_of
from catalog_inspector.ui.widgets.panes import plain_text_view, set_capped_text
from catalog_inspector.ui.widgets.tables import compact_table

__all__ = ["CallHistoryView", "CallLogView", "ResultView", "RoundsTable"]

PREVIEW = 240  # pixels of an image preview's longer side
HISTORY_HEADERS = ("Time", "Kind", "Name", "Outcome", "Duration")
ELASTIC_MINIMUM = 60  # a column that shares the table's width is never narrower (the table scrolls sideways then)
ROWS_SHOWN = 200  # questions of one request listed (the rounds cap keeps far fewer)
ROUNDS_HEIGHT = 170  # pixels the rounds table takes at most (it scrolls beyond)
LOGS_HEIGHT = 130  # pixels the call's log messages take (they scroll beyond)
LOGS_BATCH_MS = 100  # a call that floods its log is shown a batch per interval, never a repaint per message
QUESTION_TEXT = (
    "The server's last answer asked for input again (input_required): it is not a result. "
    "Its questions are in the rounds below; the raw JSON is in the next tab."
)


def _preview(block: Block) -> QPixmap | None:
    return pixmap_of(block.image, PREVIEW) if block.image is not None else None


class ResultView(QTabWidget):
    """A result: readable (`callResult`, with image previews) and raw (`callRaw`). An image Qt cannot decode says
    so in the text; each resource link (up to `LINKS`) gets a button (`resultLink:N`) that asks for it to be read.

    Signals:
        link_chosen(object): the person asked to read a resource link (the link as sent: `{uri, name, …}`).
    """

    link_chosen = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = plain_text_view("callResult", self)
        self.text.setPlaceholderText("The result of a call shows here, as the server sent it.")
        self.raw = plain_text_view("callRaw", self)
        self.images = QWidget(self)
        self.images.setObjectName("callImages")
        self._image_row = QHBoxLayout(self.images)
        self._image_row.setContentsMargins(0, 0, 0, 0)
        self._image_row.addStretch(1)
        self.links = QWidget(self)
        self.links.setObjectName("resultLinks")
        self._link_row = QHBoxLayout(self.links)
        self._link_row.setContentsMargins(0, 0, 0, 0)
        self._link_row.addStretch(1)
        self.links.hide()
        readable = QWidget(self)
        layout = QVBoxLayout(readable)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.images)
        layout.addWidget(self.links)
        layout.addWidget(self.text, 1)
        self.addTab(readable, "Result")
        self.addTab(self.raw, "Raw JSON")
        self.setTabToolTip(0, "The answer as text, with its images and resource links")  # each tab's description
        self.setTabToolTip(1, "The answer's JSON as the server sent it")
        self.images.hide()

    def show_result(self, result: dict[str, Any] | None, kind: str = "tool") -> None:
        if result is not None and result.get("resultType") == "input_required":
            self.show_question(result)
            return
        blocks = describe_result(result, kind)
        previews = [_preview(block) for block in blocks]
        texts = [
            block.text if block.image is None or preview is not None else _undecodable(block.text)
            for block, preview in zip(blocks, previews, strict=True)
        ]
        set_capped_text(self.text, "\n\n".join(texts))
        set_capped_text(self.raw, json.dumps(result, indent=2, ensure_ascii=False) if result is not None else "")
        self._show_images([preview for preview in previews if preview is not None])
        self._show_links([block.link for block in blocks if block.link is not None])

    def show_question(self, result: dict[str, Any]) -> None:
        """An input_required answer that ended the request (rounds cap, a refused answer): never shown as a result."""
        set_capped_text(self.text, QUESTION_TEXT)
        set_capped_text(self.raw, json.dumps(result, indent=2, ensure_ascii=False))
        self._show_images([])
        self._show_links([])

    def clear_result(self) -> None:
        self.text.clear()
        self.raw.clear()
        self._show_images([])
        self._show_links([])

    def image_count(self) -> int:
        return self._image_row.count() - 1

    def _show_images(self, pixmaps: Sequence[QPixmap]) -> None:
        clear_row(self._image_row)
        for pixmap in pixmaps:
            label = QLabel(self.images)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setPixmap(pixmap)
            self._image_row.insertWidget(self._image_row.count() - 1, label)
        self.images.setVisible(self.image_count() > 0)

    def _show_links(self, links: Sequence[dict[str, Any]]) -> None:
        clear_row(self._link_row)
        for number, link in enumerate(links):
            name = link.get("name")
            button = QPushButton(f"Read {visible(name if isinstance(name, str) and name else link['uri'], 60)}")
            button.setObjectName(f"resultLink:{number}")
            button.setToolTip(tooltip(f"resources/read of {link['uri']} on this server, in the Resources tab"))
            button.clicked.connect(lambda _checked=False, link=link: self.link_chosen.emit(link))
            named(button, "", described("Read it on this server, in the Resources tab:", str(link["uri"])))
            self._link_row.insertWidget(self._link_row.count() - 1, button)
        self.links.setVisible(bool(links))
        follow_layout(self.links)  # made after the window: Tab reaches them above the result


def _undecodable(text: str) -> str:
    """An image's line, for one Qt could not decode (a corrupt file, or not the format it claims)."""
    return f"{text[:-1]}; could not be decoded]" if text.endswith("]") else f"{text} (could not be decoded)"


class CallHistoryView(QTableWidget):
    """The server's calls, newest first (`callHistory`); the selected one can be re-run or copied."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(HISTORY_HEADERS), parent)
        self.setObjectName("callHistory")
        self.setHorizontalHeaderLabels(list(HISTORY_HEADERS))
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        compact_table(self, QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.columns = ElasticColumns(self, (2, 3), ELASTIC_MINIMUM)  # the name and the outcome share the rest
        self._records: list[CallRecord] = []

    def show_records(self, records: Sequence[CallRecord]) -> None:
        """Show `records` (oldest first, as kept) newest first."""
        self._records = list(reversed(records))
        self.setRowCount(len(self._records))
        for row, record in enumerate(self._records):
            cells = (
                record.at[:19].replace("T", " "),
                record.kind,
                visible(record.name, 200),
                record.outcome
                + (f" · output {record.verdict}" if record.verdict not in ("", "valid", "no_schema") else "")
                + (
                    f" · {record.rounds_total} round{'s' if record.rounds_total != 1 else ''}"
                    if record.rounds_total
                    else ""
                ),
                f"{record.duration_ms:,.0f} ms",
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)  # item text is literal, never rich
                if column == 3 and record.summary:
                    item.setToolTip(tooltip(record.summary))
                self.setItem(row, column, item)
        self.columns.refit()

    def selected_record(self) -> CallRecord | None:
        rows = self.selectionModel().selectedRows()
        return self._records[rows[0].row()] if rows and 0 <= rows[0].row() < len(self._records) else None


class CallLogView(QWidget):
    """The server's log messages for the call (`callLogs`: plain text, one line each, the latest `REQUEST_LOGS`);
    hidden while there are none. Lines arriving during the call are appended a batch per `LOGS_BATCH_MS`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("Log messages the server sent for this call:", self)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.text = plain_text_view("callLogs", self)
        self.text.setMaximumBlockCount(REQUEST_LOGS + 1)  # and the line that says how many were let go
        self.text.setFixedHeight(LOGS_HEIGHT)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.text)
        self._batch: Batcher[str] = Batcher(self._append, LOGS_BATCH_MS, keep_last=REQUEST_LOGS, parent=self)
        self.hide()

    def show_lines(self, lines: Sequence[str]) -> None:
        """Show these lines instead of what is shown (a new call, or a call's end)."""
        self._batch.clear()
        self.text.setPlainText("\n".join(lines))
        self.setVisible(bool(lines))

    def add_lines(self, lines: Sequence[str]) -> None:
        self._batch.extend(lines)

    def _append(self, lines: list[str]) -> None:
        skipped = self._batch.dropped
        if skipped:
            lines = [
                f"[… {skipped:,} log messages skipped: the server sent them faster than they can be shown]",
                *lines,
            ]
        self.text.appendPlainText("\n".join(lines))
        self.show()


class RoundsTable(QTableWidget):
    """A request's rounds: one row per question the server asked (round, kind, key, message or URL, the answer,
    the requestState's size, the server's latency); hidden while there are none."""

    def __init__(self, object_name: str, parent: QWidget | None = None) -> None:
        super().__init__(0, len(ROUND_HEADERS), parent)
        self.setObjectName(object_name)
        self.setHorizontalHeaderLabels(list(ROUND_HEADERS))
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        compact_table(self, QAbstractItemView.SelectionBehavior.SelectRows)
        self.columns = ElasticColumns(self, (2, 3, 4), ELASTIC_MINIMUM)  # the key, the message, the answer share
        self.hide()

    def show_rounds(self, rounds: Sequence[Round]) -> None:
        rows = round_rows(rounds)[:ROWS_SHOWN]
        self.setRowCount(len(rows))
        for row, cells in enumerate(rows):
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)  # item text is literal, never rich
                if column == 3 and text:
                    item.setToolTip(tooltip(text))
                self.setItem(row, column, item)
        self.columns.refit()
        self.setVisible(bool(rows))
        # As tall as its rows (a few), never taller than ROUNDS_HEIGHT: the answer above keeps the room.
        header = self.horizontalHeader().height()
        body = sum(self.rowHeight(row) for row in range(min(len(rows), 6)))
        scrollbar = self.horizontalScrollBar().sizeHint().height()
        self.setFixedHeight(min(ROUNDS_HEIGHT, header + body + scrollbar + 2 * self.frameWidth() + 2))
