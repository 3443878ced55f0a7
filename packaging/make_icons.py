"""Render the app icon's PNGs (and the Windows .ico) from resources/icons/mcp-catalog-inspector.svg.

Run with the project's venv after changing the SVG, and commit what it writes:

    .venv/bin/python packaging/make_icons.py

It uses Qt's own SVG renderer (PySide6.QtSvg, already a dependency), so nothing
else needs to be installed. It writes:

- resources/icons/hicolor/<N>x<N>/apps/mcp-catalog-inspector.png for the sizes
  desktops look for, and hicolor/scalable/apps/ with the SVG itself (the tree
  that packaging/linux/install.sh copies into the user's icon theme);
- app/catalog_inspector/icons/mcp-catalog-inspector.svg, the package's copy that
  the app sets as its window icon (package data, so it ships in the wheel and the
  bundle; tests/test_packaging.py checks that it is the same file);
- packaging/windows/mcp-catalog-inspector.ico (16–256 px) for a Windows build.

`--check` writes nothing and exits 1 if any of those files is missing or differs
from what would be written.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = "mcp-catalog-inspector"
SOURCE = ROOT / "resources" / "icons" / f"{NAME}.svg"
HICOLOR = ROOT / "resources" / "icons" / "hicolor"
PACKAGE_COPY = ROOT / "app" / "catalog_inspector" / "icons" / f"{NAME}.svg"
ICO = ROOT / "packaging" / "windows" / f"{NAME}.ico"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def _render(renderer: object, size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter

    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)  # type: ignore[attr-defined]
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.convertToFormat(QImage.Format.Format_ARGB32).save(buffer, "PNG")
    return bytes(data.data())


def _ico(pngs: dict[int, bytes]) -> bytes:
    """An .ico holding PNG images (Windows Vista and later read PNG entries at every size)."""
    import struct

    header = struct.pack("<HHH", 0, 1, len(ICO_SIZES))
    offset = 6 + 16 * len(ICO_SIZES)
    entries, blobs = b"", b""
    for size in ICO_SIZES:
        png = pngs[size]
        side = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset + len(blobs))
        blobs += png
    return header + entries + blobs


def outputs() -> dict[Path, bytes]:
    """Every file this script writes, with its content."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    svg = SOURCE.read_bytes()
    renderer = QSvgRenderer(str(SOURCE))
    if not renderer.isValid():
        raise SystemExit(f"{SOURCE}: Qt cannot render this SVG")
    pngs = {size: _render(renderer, size) for size in SIZES}
    files = {HICOLOR / f"{size}x{size}" / "apps" / f"{NAME}.png": png for size, png in pngs.items()}
    files[HICOLOR / "scalable" / "apps" / f"{NAME}.svg"] = svg
    files[PACKAGE_COPY] = svg
    files[ICO] = _ico(pngs)
    del app
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail if a file is missing or stale")
    args = parser.parse_args()
    stale = []
    for path, content in outputs().items():
        if path.exists() and path.read_bytes() == content:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'} {path.relative_to(ROOT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
