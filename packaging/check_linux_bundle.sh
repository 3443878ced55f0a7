#!/usr/bin/env bash
# Proves a built Linux tarball works: installs it into a throwaway home, runs the installed app
# there, uninstalls it, and checks that nothing the installer placed is left.
#
# Usage: packaging/check_linux_bundle.sh [dist/mcp-catalog-inspector-VERSION-linux-ARCH.tar.gz]
#
# Checks, in order:
#   1. install then uninstall on an empty home leaves the home exactly as it was;
#   2. install: the .desktop entry is valid, its Exec is the installed app, the icons are in place;
#   3. the installed app opens (offscreen, no user config, so the bundled demo servers), walks the
#      first demo server with a demo server process that is the bundle itself, and saves the
#      accepted catalog; SIGTERM closes it with every server process gone;
#   4. the bundle's headless CLI walks a bundled demo server (`snapshot`) and makes test calls
#      whose arguments it checks against the tool's schema (`call`: valid, then invalid);
#   5. the bundle's sandbox worker, driven by the app's own Sandbox client (from .venv), validates,
#      stops a catastrophic pattern at its budget, and serves again from a fresh worker;
#   6. uninstall: only the app's own data (history, settings, cache) is left in the home.
# Needs: the tarball, python3 and .venv (`make`); desktop-file-validate is used if present.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tarball=${1:-$(ls -t dist/mcp-catalog-inspector-*-linux-*.tar.gz | head -n 1)}
name=mcp-catalog-inspector
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
export XDG_DATA_HOME=$HOME/.local/share XDG_CONFIG_HOME=$HOME/.config XDG_CACHE_HOME=$HOME/.cache
export XDG_STATE_HOME=$HOME/.local/state
unset XDG_DATA_DIRS XDG_CONFIG_DIRS
mkdir -p "$HOME"
step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }
tree() { (cd "$HOME" && find . -mindepth 1 | sort); }

tar -C "$tmp" -xzf "$tarball"
top=$tmp/$(basename "$tarball" .tar.gz)
app=$XDG_DATA_HOME/$name/app/$name

step "1. install, uninstall on an empty home: nothing left"
"$top/install.sh" > /dev/null
"$XDG_DATA_HOME/$name/app/uninstall.sh"
[ -z "$(tree)" ] || { tree; fail "the home is not empty after install + uninstall"; }
echo "ok: the home is empty again"

step "2. install"
"$top/install.sh"
desktop=$XDG_DATA_HOME/applications/$name.desktop
grep -qx "Exec=$app" "$desktop" || fail "Exec is not $app"
grep -qx "TryExec=$app" "$desktop" || fail "TryExec is not $app"
if command -v desktop-file-validate > /dev/null; then desktop-file-validate "$desktop" && echo "ok: desktop-file-validate"; fi
for size in 16 24 32 48 64 128 256 512; do
    [ -f "$XDG_DATA_HOME/icons/hicolor/${size}x${size}/apps/$name.png" ] || fail "no ${size}px icon"
done
[ -f "$XDG_DATA_HOME/icons/hicolor/scalable/apps/$name.svg" ] || fail "no scalable icon"
[ -L "$HOME/.local/bin/$name" ] || fail "no ~/.local/bin/$name"
echo "ok: $(wc -l < "$XDG_DATA_HOME/$name/app/install-manifest.txt") entries in the manifest; Exec=$app"

step "3. the installed app, offscreen, with the bundled demo servers"
QT_QPA_PLATFORM=offscreen "$app" > "$tmp/app.log" 2>&1 &
pid=$!
history=$XDG_DATA_HOME/$name/history
for _ in $(seq 1 600); do  # up to 60 s: the first demo server is selected and walked on start
    if [ -n "$(find "$history" -name '*.json' 2> /dev/null | head -n 1)" ]; then break; fi
    kill -0 "$pid" 2> /dev/null || { cat "$tmp/app.log"; fail "the app exited"; }
    sleep 0.1
done
saved=$(find "$history" -name '*.json' 2> /dev/null | head -n 1)
[ -n "$saved" ] || { cat "$tmp/app.log"; fail "no accepted catalog saved within 60 s"; }
children=$(pgrep -P "$pid" -a || true)
echo "$children" | grep -q -- "$app --run-demo-server --mode normal" || fail "no bundled demo server child: $children"
echo "ok: the app's children: $children"
echo "ok: accepted catalog saved: ${saved#"$HOME"/}"
python3 - "$saved" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
assert all(name in text for name in ("echo", "count_items", "delete_everything")), "tools missing from the snapshot"
print("ok: the saved snapshot has the demo's three tools")
EOF
demo_pids=$(pgrep -P "$pid" || true)
kill -TERM "$pid"
wait "$pid" && status=0 || status=$?
[ "$status" -eq 0 ] || { cat "$tmp/app.log"; fail "the app exited with $status on SIGTERM"; }
for child in $demo_pids; do ! kill -0 "$child" 2> /dev/null || fail "server process $child outlived the app"; done
echo "ok: SIGTERM closed the app (exit 0), no server process left"

step "4. the bundle's CLI: snapshot and call against a bundled demo server"
demo=(-- "$app" --run-demo-server --mode normal)
"$app" snapshot --out "$tmp/snapshot.json" "${demo[@]}"
python3 - "$tmp/snapshot.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
tools = [tool["name"] for tool in doc["tools"]]
assert doc["status"] == "complete" and tools == ["echo", "count_items", "delete_everything"], (doc["status"], tools)
print(f"ok: snapshot complete, {len(doc['pages'])} pages of tools, tools {tools}")
EOF
"$app" call echo --args '{"text": "hello from the bundle"}' "${demo[@]}" > "$tmp/call.json"
python3 - "$tmp/call.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["outcome"] == "ok" and doc["sent"] and not doc["output_errors"], doc
print(f"ok: call echo with valid arguments: sent, outcome ok, structured content {doc['result']['structuredContent']}")
EOF
"$app" call echo --args '{"text": 5, "repeat": 9}' "${demo[@]}" > "$tmp/invalid.json" && status=0 || status=$?
[ "$status" -eq 3 ] || fail "invalid arguments: exit $status, not 3"
python3 - "$tmp/invalid.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["outcome"] == "invalid_arguments" and not doc["sent"], doc["outcome"]
print(f"ok: call echo with invalid arguments: exit 3, not sent, argument errors {doc['argument_errors']}")
EOF

step "5. the bundle's sandbox worker, through the app's Sandbox client"
"$root/.venv/bin/python" - "$app" <<'EOF'
import sys, time
import anyio
from catalog_inspector.core.calls.sandbox import Sandbox

async def main() -> None:
    schema = {"type": "object", "properties": {"text": {"type": "string", "pattern": "^(a+)+$"}}, "required": ["text"]}
    async with Sandbox(command=[sys.argv[1], "--run-sandbox-worker"], prestart=True) as sandbox:
        good = await sandbox.validate(schema, {"text": "aaa"}, budget=2.0)
        assert good.failure is None and not good.problems, good
        bad = await sandbox.validate(schema, {"text": 5}, budget=2.0)
        assert [(p.pointer, p.keyword) for p in bad.problems] == [("/text", "type")], bad
        print(f"ok: valid arguments pass; invalid ones give {bad.problems[0].pointer} {bad.problems[0].keyword}: {bad.problems[0].message}")
        start = time.monotonic()
        slow = await sandbox.validate(schema, {"text": "a" * 40 + "!"}, budget=1.0)
        assert slow.failure is not None and str(slow.failure) == "over_budget", slow
        print(f"ok: a catastrophic pattern is stopped after {time.monotonic() - start:.1f} s ({slow.failure})")
        again = await sandbox.validate(schema, {"text": "a"}, budget=2.0)
        assert again.failure is None and not again.problems, again
        print("ok: a fresh worker serves the next call")

anyio.run(main)
EOF

step "6. uninstall: only the app's own data is left"
"$XDG_DATA_HOME/$name/app/uninstall.sh"
left=$(tree | grep -v -E "^\./\.local/share/$name/(history|calls)(/|$)|^\./\.config/$name(/|$)|^\./\.cache/$name(/|$)" \
    | grep -v -x -E '\./\.local|\./\.local/share|\./\.local/share/'"$name"'|\./\.config|\./\.cache' || true)
[ -z "$left" ] || { echo "$left"; fail "the uninstall left these behind"; }
echo "ok: left only the app's data:"
tree | sed 's/^/    /' | grep -E -v '/history/.+/|/sessions/' || true
echo
echo "All checks passed."
