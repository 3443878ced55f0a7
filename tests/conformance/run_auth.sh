#!/bin/sh
# Runs the MCP conformance suite's client scenarios (auth/*, test calls, servers that ask) against the inspector's CLI
# (tests/conformance/client.sh) and prints one line per scenario and a summary.
#
#   tests/conformance/run_auth.sh [SCENARIO...]     (`make conformance` installs the suite first)
#
# The suite and Node 22 come from npm into $CONF_DIR (default .conformance/, see the Makefile);
# nothing is installed system-wide. Without arguments it runs REQUIRED and then EXTRA; the exit
# status is 1 if any scenario of REQUIRED (or of the ones named) failed. Each scenario's full
# output is kept in $CONF_DIR/logs/, the suite's checks in $CONF_DIR/results/.
here=$(cd "$(dirname "$0")/../.." && pwd)
conf=${CONF_DIR:-$here/.conformance}
bin=$conf/node_modules/.bin
if [ ! -x "$bin/conformance" ] || [ ! -x "$bin/node" ]; then
  echo "the conformance suite is not installed in $conf: run make conformance" >&2
  exit 2
fi
PATH=$bin:$PATH
export PATH

REQUIRED="auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3
  auth/basic-cimd auth/scope-from-www-authenticate auth/scope-from-scopes-supported
  auth/scope-omitted-when-undefined auth/scope-step-up auth/scope-retry-limit
  auth/token-endpoint-auth-basic auth/token-endpoint-auth-post auth/token-endpoint-auth-none
  auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback
  tools_call elicitation-sep1034-client-defaults sep-2322-client-request-state
  http-standard-headers http-custom-headers http-invalid-tool-headers
  initialize sse-retry request-metadata json-schema-ref-no-deref json-schema-2020-12-preservation"
EXTRA="auth/pre-registration auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported
  auth/authorization-server-migration auth/iss-supported auth/iss-not-advertised auth/iss-supported-missing
  auth/iss-wrong-issuer auth/iss-unexpected auth/iss-normalized auth/metadata-issuer-mismatch"

if [ $# -gt 0 ]; then required=$*; extra=""; else required=$REQUIRED; extra=$EXTRA; fi
mkdir -p "$conf/logs"
echo "conformance $(conformance --version 2>/dev/null), node $(node --version), client: tests/conformance/client.sh"
printf '%-46s %-8s %s\n' scenario result checks
failed=0
passed=0
count=0
run() {
  scenario=$1
  log=$conf/logs/$(echo "$scenario" | tr / _).log
  conformance client --command "$here/tests/conformance/client.sh" --scenario "$scenario" \
    -o "$conf/results" >"$log" 2>&1
  checks=$(grep -a -o 'Passed: [0-9]*/[0-9]*, [0-9]* failed, [0-9]* warnings' "$log" | tail -n 1)
  if grep -a -q 'OVERALL: PASSED' "$log"; then result=PASSED; else result=FAILED; fi
  printf '%-46s %-8s %s\n' "$scenario" "$result" "${checks:-(no checks: see $log)}"
  count=$((count + 1))
  [ "$result" = PASSED ] && passed=$((passed + 1))
  [ "$result" = PASSED ]
}
for scenario in $required; do run "$scenario" || failed=1; done
for scenario in $extra; do run "$scenario" || true; done
echo "$passed of $count scenarios passed$([ $failed = 0 ] || echo '; a required one failed')"
exit $failed
