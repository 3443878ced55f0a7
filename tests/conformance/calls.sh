#!/bin/sh
# The client side of the conformance scenarios that are not about sign-in: one or more `call`s of
# the inspector's CLI against the scenario's server ($1), answering what it asks from an answers
# file. Each run walks the catalog first and makes its call on that session, as a user's script would.
here=$(cd "$(dirname "$0")/../.." && pwd)
url=$1
cli="$here/.venv/bin/mcp-catalog-inspector"
answers=$(mktemp)
trap 'rm -f "$answers"' EXIT
case "$MCP_CONFORMANCE_SCENARIO" in
  tools_call)
    exec "$cli" call add_numbers --args '{"a": 2, "b": 3}' --url "$url" ;;
  elicitation-sep1034-client-defaults)
    # A 2025-11-25 server (initialize only); "accept" with no content sends the requested schema's defaults.
    echo '{"elicitation": [{"action": "accept"}]}' >"$answers"
    exec "$cli" call test_client_elicitation_defaults --answers "$answers" --protocol-era legacy --url "$url" ;;
  sep-2322-client-request-state)
    echo '{"elicitation": [{"match": "confirm", "action": "accept", "content": {"confirmed": true}}]}' >"$answers"
    status=0
    for tool in test_mrtr_echo_state test_mrtr_no_state test_mrtr_unrelated test_mrtr_no_result_type; do
      "$cli" call "$tool" --answers "$answers" --url "$url" || status=$?
    done
    exit $status ;;
  http-standard-headers|http-custom-headers|http-invalid-tool-headers)
    # The scenario names the calls to make (context.toolCalls, or the valid tool of invalid-tool-headers);
    # standard-headers also wants a prompts/get and a resources/read. A tool a conforming client must
    # drop is refused by `call` itself (excluded_tool).
    "$here/.venv/bin/python" - "$cli" "$url" <<'PY'
import json, os, subprocess, sys
cli, url = sys.argv[1], sys.argv[2]
context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
# --send-invalid: the scenario's own arguments are sent as given (a null where a boolean is declared, say).
runs = [
    ["call", c["name"], "--send-invalid", "--args", json.dumps(c.get("arguments") or {})]
    for c in context.get("toolCalls", [])
]
scenario = os.environ["MCP_CONFORMANCE_SCENARIO"]
if scenario == "http-invalid-tool-headers":
    # The valid tool is called; an invalid one is refused by `call` (excluded_tool), never sent.
    runs = runs or [["call", "valid_tool", "--args", '{"region": "us-west1"}'],
                    ["call", "invalid_space_in_name", "--args", '{"value": "x"}']]
if scenario == "http-standard-headers":
    runs = runs or [["call", "test_headers"]]
    runs += [["prompt", "test_prompt"], ["read", "test://resource"]]
for run in runs:
    subprocess.run([cli, *run, "--url", url], stdout=subprocess.DEVNULL, check=False)
PY
    ;;
  initialize)
    # A server of the older era only (initialize, removed in 2026-07-28): the default era discovers, falls
    # back to initialize, and walks; the handshake is what is checked.
    exec "$cli" snapshot --url "$url" ;;
  request-metadata|json-schema-ref-no-deref)
    # request-metadata answers the first request -32022 and expects a retry with a supported version;
    # ref-no-deref lists a tool whose schema $refs a canary URL that must never be fetched (we never fetch).
    exec "$cli" snapshot --url "$url" ;;
  sse-retry|json-schema-2020-12-preservation)
    # sse-retry: a 2025-11-25 server closes the call's stream with a retry field; the SDK's transport
    # reconnects with Last-Event-ID. 2020-12-preservation: the focal tool's inputSchema is sent back
    # verbatim to the echo tool (the one whose only argument is `schema`), as the walk recorded it.
    "$here/.venv/bin/python" - "$cli" "$url" <<'PY'
import json, os, subprocess, sys
cli, url = sys.argv[1], sys.argv[2]
walk = subprocess.run([cli, "snapshot", "--url", url], capture_output=True, text=True, check=False)
tools = json.loads(walk.stdout)["tools"] if walk.stdout else []
echo = next((t for t in tools if set(t.get("inputSchema", {}).get("properties", {})) == {"schema"}), None)
if echo is None:
    runs = [["call", tool["name"]] for tool in tools]
else:
    focal = next(t for t in tools if t is not echo)
    runs = [["call", echo["name"], "--args", json.dumps({"schema": focal["inputSchema"]})]]
status = 0
for run in runs:
    status = subprocess.run([cli, *run, "--url", url], stdout=subprocess.DEVNULL, check=False).returncode or status
sys.exit(status)
PY
    ;;
  *)
    echo "calls.sh: no client for scenario $MCP_CONFORMANCE_SCENARIO" >&2
    exit 2 ;;
esac
