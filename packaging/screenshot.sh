#!/usr/bin/env bash
# Takes the README's pictures of the real window under Xvfb, with the app's own bundled demo servers:
#   resources/screenshot.png        a rejected refresh (duplicate name), its failed attempt's timeline
#   resources/screenshot-drift.png  the Drift tab after the drifting demo server's second walk
#   resources/screenshot-call.png   the Call tab after a test call whose result breaks its output schema
#   resources/screenshot-dark.png   (second run, `--dark`) the drifting demo server's marks in a dark palette
# packaging/screenshot_driver.py drives the window through its own methods and waits for its states.
# Needs `make screenshot-deps` (Xvfb) and the .venv from `make run` or `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v xvfb-run >/dev/null; then
  echo "screenshot.sh: xvfb-run not found; run \`make screenshot-deps\` first" >&2
  exit 1
fi
unset QT_QPA_PLATFORM WAYLAND_DISPLAY
works=()
trap 'rm -rf "${works[@]}"' EXIT
for mode in "" --dark; do
  work=$(mktemp -d /tmp/new-user.XXXXXX)  # its name shows in the sidebar's "No configuration at …"
  works+=("$work")
  # A new user's directories for each run: no servers.json (so the bundled demo set), no history, no settings.
  export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache" XDG_STATE_HOME="$work/state"
  xvfb-run -a -s "-screen 0 1600x1000x24" timeout 180 .venv/bin/python packaging/screenshot_driver.py $mode resources
done
