#!/usr/bin/env bash
# The fleet tests' full run: tests/fleet/ with CONVERGE_FLEET_FULL=1, which adds the cases npm test
# leaves out because they wait out pg-boss's 10 s minimum heartbeat (a SIGKILLed worker's run
# retried by another worker and finished by crash recovery). Repeats the whole run `rounds` times
# (default 1), stopping at the first failure.
#
#   scripts/fleet-trials.sh [rounds]        (npm run trials:fleet)
#
# Environment: CONVERGE_TEST_PG_URL (else /tmp/converge-pg-env, written by scripts/pg-test-env.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CONVERGE_TEST_PG_URL:-}" ] && [ -f /tmp/converge-pg-env ]; then
  set -a
  # shellcheck disable=SC1091
  . /tmp/converge-pg-env
  set +a
fi
rounds="${1:-1}"
for ((i = 1; i <= rounds; i++)); do
  echo "[fleet-trials] round $i of $rounds"
  CONVERGE_FLEET_FULL=1 npx vitest run tests/fleet/
done
