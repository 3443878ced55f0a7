"""WCAG 2 contrast (relative luminance) and the least change of lightness that reaches a ratio: Qt's QColor only."""

from __future__ import annotations

import colorsys

from PySide6.QtGui import QColor

__all__ = ["contrast", "ensure", "from_hsl", "hsl", "luminance", "worst"]


def luminance(color: QColor) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0 black … 1 white)."""

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) + 0.0722 * linear(color.blueF())


def contrast(first: QColor, second: QColor) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (same) … 21 (black on white)."""
    a, b = luminance(first), luminance(second)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def hsl(color: QColor) -> tuple[float, float, float]:
    """Hue, saturation and lightness, each 0 … 1."""
    hue, light, saturation = colorsys.rgb_to_hls(color.redF(), color.greenF(), color.blueF())
    return hue, saturation, light


def from_hsl(hue: float, saturation: float, light: float) -> QColor:
    """The 8-bit colour nearest to hue, saturation and lightness (each clamped to 0 … 1)."""
    red, green, blue = colorsys.hls_to_rgb(hue, min(max(light, 0.0), 1.0), min(max(saturation, 0.0), 1.0))
    return QColor(round(red * 255), round(green * 255), round(blue * 255))  # what is painted: 8 bits a channel


def worst(color: QColor, against: tuple[QColor, ...]) -> float:
    """The least contrast `color` has with any of `against`."""
    return min(contrast(color, other) for other in against)


def ensure(color: QColor, against: tuple[QColor, ...], minimum: float) -> QColor:
    """`color`, or the colour of its hue and saturation nearest in lightness that keeps `minimum` against all of
    `against`; black or white when no lightness does."""
    if worst(color, against) >= minimum:
        return color
    hue, saturation, light = hsl(color)
    for step in range(1, 101):
        for direction in (1, -1):
            candidate = from_hsl(hue, saturation, light + direction * step / 100)
            if worst(candidate, against) >= minimum:
                return candidate
    return max((QColor(0, 0, 0), QColor(255, 255, 255)), key=lambda extreme: worst(extreme, against))
