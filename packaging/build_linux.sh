#!/usr/bin/env bash
# Builds the Linux desktop bundle: a PyInstaller one-folder app, packed with its desktop entry,
# AppStream metadata, icons and install/uninstall scripts into
#     dist/mcp-catalog-inspector-<version>-linux-<arch>.tar.gz
#
# Usage: packaging/build_linux.sh          (or `make bundle`)
# Environment:
#   PYTHON      the Python to build with (3.11+, built with a shared libpython); default python3
#   BUILD_VENV  the build venv, made on first use and reused; default build/bundle-venv
#   NICE        niceness of the PyInstaller run; default 10
#
# The build venv holds the app installed from this tree (not editable: the bundle must not
# depend on the tree) with its runtime dependencies only, and PyInstaller. Everything this
# writes is under build/ and dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${PYTHON:-python3}
venv=${BUILD_VENV:-build/bundle-venv}
niceness=${NICE:-10}
work=build/pyinstaller
name=mcp-catalog-inspector
start=$(date +%s)

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
fi
# `.` is always rebuilt and reinstalled, so the bundle has the tree's current code.
"$venv/bin/python" -m pip install --quiet "pyinstaller>=6.10,<7" "$root"
# The installed copy, not the tree (which is not on the path from here).
version=$(cd / && "$root/$venv/bin/python" -c 'import catalog_inspector; print(catalog_inspector.__version__)')
arch=$(uname -m)
release=$name-$version-linux-$arch

rm -rf "$work/dist"
nice -n "$niceness" "$venv/bin/pyinstaller" --noconfirm --clean --log-level WARN \
    --distpath "$work/dist" --workpath "$work/build" packaging/pyinstaller/$name.spec

# The tarball: one top folder with the app, its desktop files and the scripts.
stage=build/stage/$release
rm -rf build/stage
mkdir -p "$stage/share/applications" "$stage/share/metainfo" "$stage/share/icons"
cp -a "$work/dist/$name" "$stage/$name"
cp packaging/linux/$name.desktop "$stage/share/applications/"
cp packaging/linux/io.github.mcp_catalog_inspector.metainfo.xml "$stage/share/metainfo/"
cp -a resources/icons/hicolor "$stage/share/icons/"
install -m 0755 packaging/linux/install.sh packaging/linux/uninstall.sh "$stage/"
cp LICENSE "$stage/"
cat > "$stage/README.txt" <<EOF
MCP Catalog Inspector $version for Linux ($arch)

Install for this user (no root needed):   ./install.sh
Then open it from the desktop's menu, or run:  ~/.local/share/$name/app/$name
Uninstall:  ~/.local/share/$name/app/uninstall.sh   (or ./uninstall.sh from here)

Run it in place without installing:  ./$name/$name
Headless commands: ./$name/$name snapshot|diff|check|call --help
EOF

mkdir -p dist
rm -f "dist/$release.tar.gz"
tar -C build/stage --owner=0 --group=0 -czf "dist/$release.tar.gz" "$release"

end=$(date +%s)
# The smoke test of what was just built: offscreen, in a throwaway home, the real start-up, a walk of a
# bundled demo server and a test call judged in the bundle's sandbox worker. A failure fails the build.
echo "self-test of the bundle:"
"$stage/$name/$name" --self-test | sed 's/^/    /'
echo "bundle:  $stage/$name ($(du -sh "$stage/$name" | cut -f1))"
echo "tarball: dist/$release.tar.gz ($(du -h "dist/$release.tar.gz" | cut -f1))"
echo "built in $((end - start)) s"
