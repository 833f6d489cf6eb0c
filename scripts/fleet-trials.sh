#!/usr/bin/env bash
# The fleet tests' full run: tests/fleet/ with CONVERGE_FLEET_FULL=1, which adds the cases npm test
# leaves out because they wait out pg-boss's 10 s minimum heartbeat (a SIGKILLed worker's run
# retried by another worker and finished by crash recovery), and makes the kill trial
# (tests/fleet/kill.test.ts) full size: 20 stacks of 20-50 networks planned, applied and destroyed
# by 3 worker processes while 100 of them are SIGKILLed at seeded random moments and replaced; its
# figures are printed after each round. Repeats the whole run `rounds` times (default 1), stopping
# at the first failure; each round takes the next seed.
#
#   scripts/fleet-trials.sh [rounds]        (npm run trials:fleet)
#
# Environment: CONVERGE_TEST_PG_URL (else /tmp/converge-pg-env, written by scripts/pg-test-env.sh);
# CONVERGE_FLEET_KILL_SEED (first seed, default 20251127), CONVERGE_FLEET_KILLS (default 100),
# CONVERGE_FLEET_KILL_STACKS (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CONVERGE_TEST_PG_URL:-}" ] && [ -f /tmp/converge-pg-env ]; then
  set -a
  # shellcheck disable=SC1091
  . /tmp/converge-pg-env
  set +a
fi
rounds="${1:-1}"
seed="${CONVERGE_FLEET_KILL_SEED:-20251127}"
for ((i = 1; i <= rounds; i++)); do
  echo "[fleet-trials] round $i of $rounds (seed $((seed + i - 1)))"
  CONVERGE_FLEET_FULL=1 CONVERGE_FLEET_KILL_SEED=$((seed + i - 1)) npx vitest run tests/fleet/
  echo "[fleet-trials] kill trial figures:"
  cat node_modules/.cache/converge-fleet/kill-trial.json
done
