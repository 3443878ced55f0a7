#!/bin/sh
# Uninstalls MCP Catalog Inspector for the current user: removes exactly what install.sh placed.
#
#   ~/.local/share/mcp-catalog-inspector/app/uninstall.sh [--quiet]
#   ./uninstall.sh [--quiet]            (from the unpacked tarball: the install under $XDG_DATA_HOME)
#
# It reads the app folder's install-manifest.txt: each file listed ("f PATH") is removed, then the
# app folder, then each directory install.sh created ("d PATH"), innermost first, if it is empty.
# The app's own data beside the app folder (history and saved calls in
# $XDG_DATA_HOME/mcp-catalog-inspector/) and its settings (~/.config/mcp-catalog-inspector/)
# are the user's and stay; delete them by hand to forget everything.
set -eu

name=mcp-catalog-inspector
quiet=false
[ "${1:-}" = "--quiet" ] && quiet=true
say() { $quiet || echo "$@"; }

here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$here/install-manifest.txt" ]; then
    dest=$here  # run from the installed app folder
else
    data=${XDG_DATA_HOME:-$HOME/.local/share}
    dest=$data/$name/app
fi
manifest=$dest/install-manifest.txt
if [ ! -f "$manifest" ]; then
    say "MCP Catalog Inspector is not installed here (no $manifest)"
    exit 0
fi
case $dest in
    */$name/app) ;;
    *) echo "uninstall.sh: refusing to remove $dest: not an app folder of $name" >&2; exit 1 ;;
esac

while IFS= read -r line; do
    path=${line#f }
    case $line in
        f\ *)
            if [ -L "$path" ]; then
                # The terminal's symlink: removed only while it still points at this install.
                [ "$(readlink "$path")" = "$dest/$name" ] && rm -f "$path"
            elif [ -f "$path" ]; then
                rm -f "$path"
            fi
            ;;
    esac
done < "$manifest"

dirs=$(sed -n 's/^d //p' "$manifest")
rm -rf "$dest"
# Innermost first: the manifest lists them outermost first.
printf '%s\n' "$dirs" | sed '1!G;h;$!d' | while IFS= read -r dir; do
    [ -n "$dir" ] && rmdir "$dir" 2>/dev/null || true
done

data_dir=$(dirname "$dest")
if [ -f "$data_dir/../icons/hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null 2>&1; then
    gtk-update-icon-cache -f -t -q "$data_dir/../icons/hicolor" || true
fi
if [ -f "$data_dir/../applications/mimeinfo.cache" ] && command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$data_dir/../applications" || true
fi
say "Uninstalled MCP Catalog Inspector from $dest"
