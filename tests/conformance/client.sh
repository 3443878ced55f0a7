#!/bin/sh
# The client the conformance runner starts for each scenario: the inspector's own CLI (auth/* here,
# the others in calls.sh).
# The runner appends the server URL as the last argument and passes the scenario's context in
# MCP_CONFORMANCE_CONTEXT (JSON; auth/pre-registration brings client_id and client_secret).
# `call` walks the catalog and then calls the scenario's tool: auth/scope-step-up asks for
# more scope on tools/call only.
here=$(cd "$(dirname "$0")/../.." && pwd)
for url; do :; done
case "$MCP_CONFORMANCE_SCENARIO" in
  auth/*|"") ;;
  *) exec "$here/tests/conformance/calls.sh" "$url" ;;  # the scenarios of test calls and servers that ask
esac
set -- call test-tool --oauth-open fetch --no-store \
  --oauth-client-metadata-url https://conformance-test.local/client-metadata.json
credentials=$("$here/.venv/bin/python" -c '
import json, os, shlex
context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
if context.get("client_id"):
    print(shlex.join(["--oauth-client-id", context["client_id"]]
                     + (["--oauth-client-secret", context["client_secret"]] if context.get("client_secret") else [])))
')
eval "set -- \"\$@\" $credentials"
exec "$here/.venv/bin/mcp-catalog-inspector" "$@" --url "$url"
