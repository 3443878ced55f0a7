#!/usr/bin/env bash
# Takes resources/screenshot.png: the real window under Xvfb, after a rejected refresh.
# Needs `make screenshot-deps` (xvfb, imagemagick, xdotool) and the .venv from `make run`.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py="$PWD/.venv/bin/python"
cat > "$work/servers.json" <<JSON
{"mcpServers": {
  "demo: duplicate on refresh": {"command": "$py", "args": ["-m", "catalog_inspector.demo", "--mode", "refresh-duplicate", "--state", "$work/dup.json"]},
  "demo: clean catalog": {"command": "$py", "args": ["-m", "catalog_inspector.demo", "--mode", "normal"]},
  "demo: drifting catalog": {"command": "$py", "args": ["-m", "catalog_inspector.demo", "--mode", "drift", "--state", "$work/drift.json"]},
  "demo: flaky backend": {"command": "$py", "args": ["-m", "catalog_inspector.demo", "--mode", "flaky", "--state", "$work/flaky.json"]},
  "demo: cursor cycle": {"command": "$py", "args": ["-m", "catalog_inspector.demo", "--mode", "cycle"]}
}}
JSON
export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
xvfb-run -a -s "-screen 0 1440x900x24" bash -c '
  .venv/bin/mcp-catalog-inspector --config "$0/servers.json" &
  app=$!
  sleep 6
  # No window manager: click the Refresh button itself (top right of the window).
  xdotool mousemove 1265 46 click 1
  sleep 4
  import -window root "$1"
  kill -TERM $app
  wait $app
' "$work" "$PWD/resources/screenshot.png"
echo "wrote resources/screenshot.png"
