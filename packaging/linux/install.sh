#!/bin/sh
# Installs MCP Catalog Inspector for the current user, from the unpacked tarball it sits in.
#
#   ./install.sh
#
# Where things go (XDG base directories; nothing needs root):
#   $XDG_DATA_HOME/mcp-catalog-inspector/app/            the app (the one-folder bundle) and uninstall.sh
#   $XDG_DATA_HOME/applications/mcp-catalog-inspector.desktop   the menu entry, Exec = the absolute path
#   $XDG_DATA_HOME/icons/hicolor/<size>/apps/mcp-catalog-inspector.{png,svg}
#   $XDG_DATA_HOME/metainfo/io.github.mcp_catalog_inspector.metainfo.xml
#   ~/.local/bin/mcp-catalog-inspector                  a symlink for the terminal, only if that name is free
# XDG_DATA_HOME defaults to ~/.local/share. Every file placed outside the app folder is listed in
# the app folder's install-manifest.txt, which uninstall.sh reads: it removes exactly those.
# The app keeps its own data (history, calls) in $XDG_DATA_HOME/mcp-catalog-inspector/ beside
# app/; neither script touches it. Installing again replaces the app folder (an upgrade).
set -eu

name=mcp-catalog-inspector
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
case $data in /*) ;; *) echo "install.sh: XDG_DATA_HOME must be an absolute path, not '$data'" >&2; exit 2 ;; esac
bindir=$HOME/.local/bin
dest=$data/$name/app
manifest=$dest/install-manifest.txt

if [ ! -x "$here/$name/$name" ] || [ ! -d "$here/share" ]; then
    echo "install.sh: run me from the unpacked tarball (no $here/$name/$name here)" >&2
    exit 2
fi

# An earlier install (an upgrade): remove what it placed first, so nothing of it lingers.
if [ -f "$manifest" ]; then
    "$dest/uninstall.sh" --quiet
fi
if [ -e "$dest" ]; then
    echo "install.sh: $dest exists and is not an install of this app; move it away first" >&2
    exit 1
fi

# The manifest: "d DIR" for each directory this made, "f FILE" for each file (or link) it placed.
# It is collected here and copied into the app folder at the end, or on any failure once that
# folder exists, so that uninstall.sh can always take back what a broken install left.
log=$(mktemp)
trap 'if [ -d "$dest" ]; then cp "$log" "$manifest"; fi; rm -f "$log"' EXIT

makedirs() {  # makedirs DIR: mkdir -p, listing each directory it creates, outermost first
    missing=""
    d=$1
    while [ ! -d "$d" ]; do
        missing="$d
$missing"
        d=$(dirname "$d")
    done
    printf '%s' "$missing" | while IFS= read -r made; do
        [ -n "$made" ] || continue
        mkdir "$made"
        printf 'd %s\n' "$made" >> "$log"
    done
}

place() {  # place SOURCE TARGET: copy one file and list it
    makedirs "$(dirname "$2")"
    cp "$1" "$2"
    printf 'f %s\n' "$2" >> "$log"
}

makedirs "$data/$name"
staging=$data/$name/.app-installing
rm -rf "$staging"
cp -R "$here/$name" "$staging"
cp "$here/uninstall.sh" "$staging/uninstall.sh"
chmod 0755 "$staging/uninstall.sh"
mv "$staging" "$dest"

# Exec= quoting (Desktop Entry spec, "The Exec key"): a path with other characters than these
# is double-quoted with \ " ` $ escaped inside; then, as for any string value (TryExec too),
# every \ is doubled; a literal % is written %%.
exec_path=$dest/$name
try_value=$(printf '%s' "$exec_path" | sed -e 's/\\/\\\\/g')
case $exec_path in
    *[!A-Za-z0-9/._+-]*)
        quoted=$(printf '%s' "$exec_path" | sed -e 's/[\\"`$]/\\&/g' -e 's/\\/\\\\/g' -e 's/%/%%/g')
        exec_value="\"$quoted\""
        ;;
    *) exec_value=$exec_path ;;
esac
for_sed() { printf '%s' "$1" | sed 's/[|&\\]/\\&/g'; }
desktop=$data/applications/$name.desktop
makedirs "$data/applications"
sed -e "s|^Exec=.*|Exec=$(for_sed "$exec_value")|" -e "s|^TryExec=.*|TryExec=$(for_sed "$try_value")|" \
    "$here/share/applications/$name.desktop" > "$desktop"
printf 'f %s\n' "$desktop" >> "$log"

place "$here/share/metainfo/io.github.mcp_catalog_inspector.metainfo.xml" \
    "$data/metainfo/io.github.mcp_catalog_inspector.metainfo.xml"
for icon in $(cd "$here/share/icons" && find hicolor -type f | sort); do
    place "$here/share/icons/$icon" "$data/icons/$icon"
done

# A name for the terminal, unless one is there already (a pip install, say): never overwrite it.
if [ ! -e "$bindir/$name" ] && [ ! -L "$bindir/$name" ]; then
    makedirs "$bindir"
    ln -s "$dest/$name" "$bindir/$name"
    printf 'f %s\n' "$bindir/$name" >> "$log"
fi

# Caches: refresh those that exist; never create one (uninstall would then leave it behind).
if [ -f "$data/icons/hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null 2>&1; then
    gtk-update-icon-cache -f -t -q "$data/icons/hicolor" || true
fi
if [ -f "$data/applications/mimeinfo.cache" ] && command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$data/applications" || true
fi

echo "Installed MCP Catalog Inspector in $dest"
echo "It is in the desktop's menu (Development); from a terminal: $dest/$name"
echo "Uninstall: $dest/uninstall.sh"
