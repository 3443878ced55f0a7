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
  *)
    echo "calls.sh: no client for scenario $MCP_CONFORMANCE_SCENARIO" >&2
    exit 2 ;;
esac
