"""The app's semantic colours, resolved against the application palette, every text pair contrast-checked.

Each colour the UI draws is a `Shade`: a named role (`FAILURE`, `ADDED`, `PROBLEM` …) whose
value is its light-palette colour (today's look: `QColor(shade)` is still that colour) and
whose `Kind` says what it is drawn as:

- `TINT`: a background under the palette's own text (Text and WindowText);
- `INK`: text on the palette's surfaces (Base, AlternateBase, Window);
- `MARK`: a thin indicator that must stand out from those surfaces (a field's problem border);
- `LINE`: a frame's border around a tint (decoration);
- `SWATCH`: a state's colour square beside its words in the sidebar.

A light palette keeps the light colours; a dark one (its Window darker than its
WindowText) gets dark tints and light inks of the same hues. Either way each
colour is then checked with WCAG 2's contrast ratio (relative luminance) and its
lightness moved, the least that passes, until it meets its kind's minimum: 4.5:1
for text (a tint against the text drawn on it, an ink against every surface),
3:1 for marks and, in dark palettes, swatches. Lines have none. Light swatches
keep their colours as they are (the state is written beside them).

`Theme` follows the application palette (a call to `setPalette` or the desktop's
colour scheme changing): it forgets what it resolved and emits `changed`, after
which widgets set their style sheets again (`themed_style`) and models announce
their colours. Resolving is lazy and cached per palette: a paint asks a dict.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QWidget

from catalog_inspector.ui.contrast import contrast, ensure, from_hsl, hsl, luminance

__all__ = [
    "ADDED",
    "ASKING",
    "BREAKING",
    "CAUTION",
    "CAUTION_LINE",
    "CHANGED",
    "CONFIRM",
    "CONFIRM_LINE",
    "DIFF",
    "EXCLUDED_LINE",
    "FAILURE",
    "FAILURE_LINE",
    "FLAGGED",
    "INFO",
    "MINIMUM",
    "NOTICE",
    "NOTICE_LINE",
    "PROBLEM",
    "PROBLEM_MARK",
    "QUESTION",
    "QUESTION_LINE",
    "RELATED",
    "REMOVED",
    "SHADES",
    "SIGNIN",
    "SIGNIN_LINE",
    "STATE_BUSY",
    "STATE_FAILED",
    "STATE_IDLE",
    "STATE_LOST",
    "STATE_READY",
    "STATE_STALE",
    "UNUSUAL",
    "WARNING",
    "Kind",
    "Shade",
    "Theme",
    "brush",
    "color",
    "contrast",
    "css",
    "dark_palette",
    "frame_style",
    "ink_style",
    "luminance",
    "resolve",
    "surfaces",
    "text_colors",
    "theme",
    "themed_style",
]


class Kind(enum.Enum):
    TINT = "tint"  # a background; the palette's Text and WindowText are drawn on it
    INK = "ink"  # text drawn on the palette's Base, AlternateBase and Window
    MARK = "mark"  # a thin non-text indicator on those surfaces (WCAG 1.4.11: 3:1)
    LINE = "line"  # a frame's border around a tint: decoration, no minimum
    SWATCH = "swatch"  # a colour square beside words that say the same; 3:1 on Base in dark palettes


# The least contrast ratio each kind keeps with what it is drawn on or under (WCAG 2: 4.5 for text, 3 for marks).
MINIMUM = {Kind.TINT: 4.5, Kind.INK: 4.5, Kind.MARK: 3.0, Kind.LINE: 1.0, Kind.SWATCH: 3.0}


class Shade(str):
    """A named colour role: the string is its light-palette colour (`#rrggbb`), `kind` what it is drawn as.

    Attributes:
        name: the role's name, for messages and tests.
        kind: what the colour is drawn as (see `Kind`).
        on: tints an ink is drawn on as well as the palette's surfaces (a problem line inside a question).
        key: what resolving depends on besides the palette: shades with the same key get the same colour.
    """

    name: str
    kind: Kind
    on: tuple[Shade, ...]
    key: tuple[object, ...]

    def __new__(cls, light: str, kind: Kind, name: str, on: tuple[Shade, ...] = ()) -> Shade:
        shade = super().__new__(cls, light)
        shade.kind, shade.name, shade.on = kind, name, on
        shade.key = (light, kind, on)
        return shade

    def __repr__(self) -> str:
        return f"Shade({self.name}: {str.__repr__(self)}, {self.kind.value})"


_T, _I, _M, _L, _S = Kind.TINT, Kind.INK, Kind.MARK, Kind.LINE, Kind.SWATCH
# Backgrounds (the light ones are the colours the app has always used).
FAILURE = Shade("#fdecea", _T, "failure")  # a failed walk, a lost server, an unusable entry, a list that failed
NOTICE = Shade("#fff8e1", _T, "notice")  # a stale catalog, a launch waiting for consent, the config notice
INFO = Shade("#e8f0fe", _T, "info")  # drift to look at; an info-level change
SIGNIN = Shade("#e3f0fd", _T, "signin")  # a server waiting for a person to sign in
BREAKING = Shade("#ffd9d6", _T, "breaking")  # a breaking change; the page (and the name) that stopped a walk
WARNING = Shade("#fff0c2", _T, "warning")  # a warning-level change; a cache hint with a warning
RELATED = Shade("#ffe8b0", _T, "related")  # the page (and the name) that held a duplicated key's first copy
CONFIRM = Shade("#fff3e0", _T, "confirm")  # a call that waits for the person's OK
QUESTION = Shade("#f3f7ff", _T, "question")  # a server's question to the person
DIFF = Shade("#ffe0b2", _T, "diff")  # a line one duplicate definition has and the other lacks
# Frame borders around those backgrounds.
FAILURE_LINE = Shade("#d0b0b0", _L, "failure-line")
SIGNIN_LINE = Shade("#8fb3de", _L, "signin-line")
NOTICE_LINE = Shade("#e0d090", _L, "notice-line")
CAUTION_LINE = Shade("#d8c78f", _L, "caution-line")
EXCLUDED_LINE = Shade("#e57373", _L, "excluded-line")
CONFIRM_LINE = Shade("#e0b070", _L, "confirm-line")
QUESTION_LINE = Shade("#8fa8d8", _L, "question-line")
# Text colours.
ADDED = Shade("#2e7d32", _I, "added")  # a tool the last refresh added
CHANGED = Shade("#1565c0", _I, "changed")  # a tool the last refresh changed
REMOVED = Shade("#9e9e9e", _I, "removed")  # a removed tool's ghost (greyed; #9e9e9e itself is 2.7:1 on white)
FLAGGED = Shade("#c62828", _I, "flagged")  # a tool that differs from the approved catalog
UNUSUAL = Shade("#b35900", _I, "unusual")  # a name outside the plain characters
# What is wrong with a field, a file, an answer (the answer's inside a server's question).
PROBLEM = Shade("#b00020", _I, "problem", on=(QUESTION,))
CAUTION = Shade("#b35c00", _I, "caution", on=(QUESTION,))  # a warning about a URL before it is opened (a question)
PROBLEM_MARK = Shade("#d93025", _M, "problem-mark")  # the border of a field with a problem
# The sidebar's state squares.
STATE_IDLE = Shade("#9e9e9e", _S, "state-idle")  # not connected
STATE_BUSY = Shade("#1e88e5", _S, "state-busy")  # connecting, walking
STATE_READY = Shade("#43a047", _S, "state-ready")
STATE_STALE = Shade("#f9a825", _S, "state-stale")
STATE_FAILED = Shade("#e53935", _S, "state-failed")
STATE_LOST = Shade("#ef6c00", _S, "state-lost")
ASKING = Shade("#8e24aa", _S, "asking")  # a server waiting for the person's answer: unlike every state's

SHADES: tuple[Shade, ...] = tuple(value for value in dict(globals()).values() if isinstance(value, Shade))

_ROLES = QPalette.ColorRole
_GROUP = QPalette.ColorGroup.Active


def surfaces(palette: QPalette) -> tuple[QColor, ...]:
    """What inks and marks are drawn on: item views' rows (Base, AlternateBase) and windows (Window)."""
    return tuple(palette.color(_GROUP, role) for role in (_ROLES.Base, _ROLES.AlternateBase, _ROLES.Window))


def text_colors(palette: QPalette) -> tuple[QColor, ...]:
    """What is drawn on tints: item views' text (Text) and labels' (WindowText)."""
    return tuple(palette.color(_GROUP, role) for role in (_ROLES.Text, _ROLES.WindowText))


def _is_dark(palette: QPalette) -> bool:
    window = palette.color(_GROUP, _ROLES.Window)
    return luminance(window) < luminance(palette.color(_GROUP, _ROLES.WindowText))


def _dark_start(shade: Shade, palette: QPalette) -> QColor:
    """The dark palette's first guess for `shade`: the same hue, as dark as a tint or as light as an ink."""
    hue, saturation, light = hsl(QColor(str(shade)))
    window_light = hsl(palette.color(_GROUP, _ROLES.Window))[2]
    if shade.kind is Kind.TINT:  # a paler light tint stays the fainter dark one: warning and related stay apart
        return from_hsl(hue, min(saturation, 0.45), window_light + 0.03 + (1.0 - light) * 0.6)
    if shade.kind is Kind.LINE:
        return from_hsl(hue, min(saturation, 0.4), window_light + 0.2)
    if shade.kind is Kind.SWATCH:
        return QColor(str(shade))
    return from_hsl(hue, saturation, max(light, 1.0 - light))  # inks and marks: lightness mirrored


def resolve(shade: Shade, palette: QPalette) -> QColor:
    """`shade`'s colour in `palette` (see the module docstring)."""
    dark = _is_dark(palette)
    start = _dark_start(shade, palette) if dark else QColor(str(shade))
    if shade.kind is Kind.TINT:
        return ensure(start, text_colors(palette), MINIMUM[Kind.TINT])
    if shade.kind is Kind.SWATCH:
        return ensure(start, (palette.color(_GROUP, _ROLES.Base),), MINIMUM[Kind.SWATCH]) if dark else start
    if shade.kind is Kind.LINE:
        return start
    tints = tuple(resolve(tint, palette) for tint in shade.on)
    return ensure(start, surfaces(palette) + tints, MINIMUM[shade.kind])


def _key(palette: QPalette) -> tuple[int, ...]:
    """What resolving depends on: a palette with the same colours resolves the same."""
    roles = (_ROLES.Window, _ROLES.WindowText, _ROLES.Base, _ROLES.AlternateBase, _ROLES.Text)
    return tuple(palette.color(_GROUP, role).rgba() for role in roles)


class Theme(QObject):
    """The semantic colours for the application palette of now, resolved on first use and kept until it changes.

    One per application (`theme()`). It listens to the application's palette and
    the desktop's colour scheme; a change that moves any colour it depends on
    clears what it resolved and emits `changed` (at once, inside `setPalette`).

    Attributes:
        dark: whether the palette is dark (its Window darker than its WindowText).

    Signals:
        changed(): the palette changed: colours asked for now are the new palette's.
    """

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._colors: dict[tuple[object, ...], QColor] = {}
        self._brushes: dict[tuple[object, ...], QBrush] = {}
        self._css: dict[tuple[object, ...], str] = {}
        self._palette = QGuiApplication.palette()
        self._key = _key(self._palette)
        self.dark = _is_dark(self._palette)
        app = QCoreApplication.instance()
        if isinstance(app, QGuiApplication):
            # QGuiApplication.paletteChanged is deprecated in C++ in favour of ApplicationPaletteChange
            # events, but those reach the application object only: catching them takes an event filter
            # on the application, which Python would run for every event of every object.
            app.paletteChanged.connect(self._on_app_palette_changed)
            app.styleHints().colorSchemeChanged.connect(self._on_style_hints_color_scheme_changed)

    def color(self, shade: Shade) -> QColor:
        key = shade.key
        color = self._colors.get(key)
        if color is None:
            color = self._colors[key] = resolve(shade, self._palette)
        return color

    def brush(self, shade: Shade) -> QBrush:
        key = shade.key
        brush = self._brushes.get(key)
        if brush is None:
            brush = self._brushes[key] = QBrush(self.color(shade))
        return brush

    def css(self, shade: Shade) -> str:
        """`#rrggbb`, for style sheets."""
        key = shade.key
        name = self._css.get(key)
        if name is None:
            name = self._css[key] = self.color(shade).name()
        return name

    def refresh(self) -> None:
        """Take the application palette again; emit `changed` if a colour the shades depend on moved."""
        palette = QGuiApplication.palette()
        key = _key(palette)
        if key == self._key:
            return
        self._palette, self._key, self.dark = palette, key, _is_dark(palette)
        self._colors.clear()
        self._brushes.clear()
        self._css.clear()
        self.changed.emit()

    def _on_app_palette_changed(self, _palette: QPalette) -> None:
        self.refresh()

    def _on_style_hints_color_scheme_changed(self, _scheme: Qt.ColorScheme) -> None:
        self.refresh()  # the desktop's scheme changes the palette too, unless the app set its own


_theme: Theme | None = None


def theme() -> Theme:
    """The application's theme (made on first use, a child of the application)."""
    global _theme
    app = QCoreApplication.instance()
    if _theme is None or not shiboken6.isValid(_theme) or _theme.parent() is not app:
        _theme = Theme(app)
    return _theme


def color(shade: Shade) -> QColor:
    """`shade` in the application palette of now."""
    return theme().color(shade)


def brush(shade: Shade) -> QBrush:
    """`shade` as an item model's brush (one shared QBrush per shade and palette)."""
    return theme().brush(shade)


def css(shade: Shade) -> str:
    """`shade` as a style sheet colour (`#rrggbb`)."""
    return theme().css(shade)


def frame_style(selector: str, background: Shade, line: Shade) -> str:
    """A style sheet rule giving `selector` a tinted background and a one-pixel border."""
    return f"{selector} {{ background: {css(background)}; border: 1px solid {css(line)}; }}"


def ink_style(shade: Shade, selector: str = "") -> str:
    """A style sheet giving text the colour `shade` (for `selector`, or the widget it is set on)."""
    rule = f"color: {css(shade)};"
    return f"{selector} {{ {rule} }}" if selector else rule


class _Restyler(QObject):
    """Sets its parent widget's style sheet again when the theme changes (goes with the widget).

    A hidden widget is restyled when it is next shown, not at once: a style sheet set on
    a frame repolishes everything inside it (an input request panel: ~15 ms each, and
    every list tab holds one), and most styled frames are hidden at any time.
    """

    def __init__(self, widget: QWidget, style: Callable[[], str]) -> None:
        super().__init__(widget)
        self.style = style
        self._stale = False  # the theme changed while the widget was hidden
        theme().changed.connect(self._on_theme_changed)

    def restyle(self, style: Callable[[], str]) -> None:
        self.style = style
        self._set_fresh()

    def _set_fresh(self) -> None:
        widget = self.parent()
        if not isinstance(widget, QWidget):
            return
        if self._stale:
            self._stale = False
            widget.removeEventFilter(self)
        text = self.style()
        if widget.styleSheet() != text:  # set again, the same sheet polishes the widget and its children anew
            widget.setStyleSheet(text)

    def _on_theme_changed(self) -> None:
        widget = self.parent()
        if not isinstance(widget, QWidget) or widget.isVisible():
            self._set_fresh()
        elif not self._stale:
            self._stale = True
            widget.installEventFilter(self)  # only until it is shown: no cost per event otherwise

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and self._stale:  # before its first paint
            self._set_fresh()
        return False


def themed_style(widget: QWidget, style: Callable[[], str]) -> None:
    """Give `widget` the style sheet `style()` makes, now and again after every palette change (a hidden widget:
    when it is next shown).

    Calling it again on the same widget replaces the style (one restyler per widget).
    """
    restyler = widget.findChild(_Restyler, options=Qt.FindChildOption.FindDirectChildrenOnly)
    if restyler is None:
        _Restyler(widget, style)._set_fresh()
    else:
        restyler.restyle(style)


def dark_palette() -> QPalette:
    """A dark palette for the Fusion style (the screenshots' and the tests' dark mode)."""
    palette = QPalette()
    colors = {
        _ROLES.Window: "#2d2d30",
        _ROLES.WindowText: "#e8e8e8",
        _ROLES.Base: "#1e1e1e",
        _ROLES.AlternateBase: "#262629",
        _ROLES.ToolTipBase: "#3a3a3d",
        _ROLES.ToolTipText: "#e8e8e8",
        _ROLES.PlaceholderText: "#9a9a9a",
        _ROLES.Text: "#e8e8e8",
        _ROLES.Button: "#3a3a3d",
        _ROLES.ButtonText: "#e8e8e8",
        _ROLES.BrightText: "#ff6b6b",
        _ROLES.Light: "#4a4a4e",
        _ROLES.Midlight: "#3e3e42",
        _ROLES.Mid: "#2a2a2d",
        _ROLES.Dark: "#1a1a1c",
        _ROLES.Shadow: "#000000",
        _ROLES.Highlight: "#2f65ca",
        _ROLES.HighlightedText: "#ffffff",
        _ROLES.Link: "#6fa8ff",
        _ROLES.LinkVisited: "#c39bff",
    }
    for role, name in colors.items():
        palette.setColor(role, QColor(name))
    disabled = QPalette.ColorGroup.Disabled
    for role in (_ROLES.WindowText, _ROLES.Text, _ROLES.ButtonText):
        palette.setColor(disabled, role, QColor("#7f7f7f"))
    palette.setColor(disabled, _ROLES.Highlight, QColor("#4a4a4e"))
    return palette
