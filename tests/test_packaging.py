"""The desktop packaging agrees with the package: names, version, icons, the PyInstaller spec, the install scripts.

Fast and without a build: the bundle itself is built by `make bundle` and checked by
packaging/check_linux_bundle.sh.
"""

from __future__ import annotations

import configparser
import os
import shutil
import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import catalog_inspector
from catalog_inspector.core.launch import ENTRY_FLAGS

ROOT = Path(__file__).resolve().parents[1]
NAME = "mcp-catalog-inspector"
APP_ID = "io.github.mcp_catalog_inspector"
LINUX = ROOT / "packaging" / "linux"
DESKTOP = LINUX / f"{NAME}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"
SPEC = ROOT / "packaging" / "pyinstaller" / f"{NAME}.spec"
ICONS = ROOT / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def _desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_version_is_written_once_in_the_package_and_read_by_setuptools() -> None:
    project = _pyproject()
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "catalog_inspector.__version__"}


def test_the_desktop_entry_launches_the_app_by_its_script_name_with_its_icon() -> None:
    entry = _desktop_entry()
    scripts = _pyproject()["project"]["scripts"]
    assert entry["Type"] == "Application" and entry["Name"] == "MCP Catalog Inspector"
    assert entry["Exec"] == entry["TryExec"] == NAME and NAME in scripts  # install.sh makes them absolute
    assert entry["Icon"] == NAME and (ICONS / f"{NAME}.svg").is_file()
    assert entry["Terminal"] == "false"
    assert entry["StartupWMClass"] == NAME  # Qt's WM_CLASS instance: the executable's name
    assert entry["Categories"].endswith(";") and "Development" in entry["Categories"].split(";")
    assert entry["Keywords"].endswith(";") and entry["Comment"]


def test_the_metainfo_names_the_app_its_desktop_entry_and_the_package_version() -> None:
    component = ET.parse(METAINFO).getroot()
    assert component.get("type") == "desktop-application"
    assert component.findtext("id") == APP_ID and METAINFO.name == f"{APP_ID}.metainfo.xml"
    launchable = component.find("launchable")
    assert launchable is not None and launchable.get("type") == "desktop-id" and launchable.text == DESKTOP.name
    assert component.findtext("provides/binary") == NAME
    assert component.findtext("project_license") == "MIT"
    releases = component.findall("releases/release")
    assert releases and releases[0].get("version") == catalog_inspector.__version__, "add a <release> for this version"


@pytest.mark.parametrize("size", SIZES)
def test_every_icon_size_exists_at_its_size(size: int) -> None:
    path = ICONS / "hicolor" / f"{size}x{size}" / "apps" / f"{NAME}.png"
    assert _png_size(path) == (size, size)


def test_the_scalable_icon_and_the_packages_window_icon_are_the_source_svg() -> None:
    source = (ICONS / f"{NAME}.svg").read_bytes()
    assert (ICONS / "hicolor" / "scalable" / "apps" / f"{NAME}.svg").read_bytes() == source
    package_copy = Path(catalog_inspector.__file__).with_name("icons") / f"{NAME}.svg"
    assert package_copy.read_bytes() == source, "run packaging/make_icons.py"
    assert "icons/*.svg" in _pyproject()["tool"]["setuptools"]["package-data"]["catalog_inspector"]
    assert (ROOT / "packaging" / "windows" / f"{NAME}.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"


def test_the_token_table_is_package_data() -> None:
    # A wheel without it cannot count tokens (and tiktoken alone would go to the network for it).
    from fnmatch import fnmatch

    from catalog_inspector.core.catalog.tokens import DATA_FILE

    patterns = _pyproject()["tool"]["setuptools"]["package-data"]["catalog_inspector"]
    assert any(fnmatch(f"data/{DATA_FILE}", pattern) for pattern in patterns)
    assert (Path(catalog_inspector.__file__).parent / "data" / DATA_FILE).is_file()


def test_the_pyinstaller_spec_names_every_entry_point_and_lazy_import() -> None:
    spec = SPEC.read_text()
    assert '"app" / "catalog_inspector" / "__main__.py"' in spec
    for module, flag in ENTRY_FLAGS.items():
        helper = f"{module}.__main__" if (ROOT / "app" / Path(*module.split(".")) / "__main__.py").exists() else module
        assert f'"{helper}"' in spec, f"{helper} is imported by name only: it must be a hidden import"
        assert flag in spec
    assert '"catalog_inspector.cli"' in spec
    for package in ("mcp", "mcp_types", "httpx2"):
        assert f'collect_submodules("{package}"' in spec
    for dependency in ("rfc8785", "json5"):
        assert f'"{dependency}"' in spec
    assert 'copy_metadata("mcp")' in spec  # the About box reads the SDK's version
    assert "exclude_binaries=True" in spec and "COLLECT(" in spec  # one folder
    assert "console=False" in spec  # windowed


def test_the_scripts_parse_and_are_executable() -> None:
    for script, shell in (
        (LINUX / "install.sh", "sh"),
        (LINUX / "uninstall.sh", "sh"),
        (ROOT / "packaging" / "build_linux.sh", "bash"),
        (ROOT / "packaging" / "check_linux_bundle.sh", "bash"),
    ):
        assert os.access(script, os.X_OK), f"{script} is not executable"
        out = subprocess.run([shell, "-n", str(script)], capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, out.stderr


def _fake_release(top: Path) -> None:
    """The tarball's layout as build_linux.sh makes it, with a shell script for the bundle."""
    app = top / NAME
    app.mkdir(parents=True)
    (app / NAME).write_text("#!/bin/sh\necho bundle\n")
    (app / NAME).chmod(0o755)
    (app / "_internal").mkdir()
    for folder, source in (("applications", DESKTOP), ("metainfo", METAINFO)):
        (top / "share" / folder).mkdir(parents=True)
        shutil.copy(source, top / "share" / folder)
    shutil.copytree(ICONS / "hicolor", top / "share" / "icons" / "hicolor")
    for script in ("install.sh", "uninstall.sh"):
        shutil.copy(LINUX / script, top / script)


def _tree(root: Path) -> set[str]:
    return {str(path.relative_to(root)) for path in root.rglob("*")}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux install scripts")
def test_install_places_the_app_with_an_absolute_quoted_exec_and_uninstall_takes_back_exactly_that(
    tmp_path: Path,
) -> None:
    top = tmp_path / "release"
    _fake_release(top)
    home = tmp_path / "home dir"  # a space: Exec must be quoted
    data = home / ".local" / "share"
    (data / NAME / "history").mkdir(parents=True)  # the app's own data, there before the install
    (data / NAME / "history" / "kept.json").write_text("{}")
    before = _tree(home)
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_DATA_HOME": str(data)}

    out = subprocess.run([str(top / "install.sh")], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    app = data / NAME / "app" / NAME
    desktop = (data / "applications" / f"{NAME}.desktop").read_text()
    assert f'Exec="{app}"' in desktop.splitlines() and f"TryExec={app}" in desktop.splitlines()
    assert (data / "icons" / "hicolor" / "512x512" / "apps" / f"{NAME}.png").is_file()
    assert (data / "metainfo" / METAINFO.name).is_file()
    assert os.readlink(home / ".local" / "bin" / NAME) == str(app)
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(
            ["desktop-file-validate", str(data / "applications" / f"{NAME}.desktop")], capture_output=True, text=True
        )
        assert check.returncode == 0, check.stdout + check.stderr

    again = subprocess.run([str(top / "install.sh")], env=env, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0, again.stderr  # an upgrade over the same version

    out = subprocess.run(
        [str(data / NAME / "app" / "uninstall.sh")], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert _tree(home) == before  # the history stays; every file and directory the install made is gone


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux install scripts")
def test_install_never_replaces_a_command_of_the_same_name_and_uninstall_leaves_it(tmp_path: Path) -> None:
    top = tmp_path / "release"
    _fake_release(top)
    home = tmp_path / "home"
    other = home / ".local" / "bin" / NAME
    other.parent.mkdir(parents=True)
    other.write_text("#!/bin/sh\n# a pip --user install\n")
    env = {"PATH": os.environ["PATH"], "HOME": str(home)}
    for script in (top / "install.sh", home / ".local" / "share" / NAME / "app" / "uninstall.sh"):
        out = subprocess.run([str(script)], env=env, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert other.read_text() == "#!/bin/sh\n# a pip --user install\n"
    assert not (home / ".local" / "share" / NAME).exists()
