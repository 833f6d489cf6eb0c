#!/usr/bin/env bash
# The kill test's full run (tests/integration/kill.test.ts): 200 trials per action kind (create,
# update, delete-first and create-first replacement, delete, mixed: 1,200 in all, half on the file
# store and half on PostgreSQL) and a torn journal tail for each type that notes what existed
# before its create, both kinds of record (30). Prints the per-kind and per-type figures ('cannot
# tell', never sent, adopted, made nothing) and the totals; every trial's outcome also goes to a
# log as it finishes.
#
#   scripts/kill-trials.sh [trials per kind]        (npm run trials:kill)
#
# Environment: CONVERGE_TEST_PG_URL (else /tmp/converge-pg-env, written by scripts/pg-test-env.sh);
# CONVERGE_KILL_CONCURRENCY (default 2) and CONVERGE_KILL_NICE (default 5), gentle on a small
# machine; CONVERGE_KILL_TRIAL_LIMIT_MS (default 300000: a trial over it has hung);
# CONVERGE_KILL_SEED; CONVERGE_KILL_LOG (default /tmp/converge-kill-trials.log). A failing trial is
# printed with its number; CONVERGE_KILL_ONLY=<n>[,<n>...] with the same seed runs just those again.
set -euo pipefail
cd "$(dirname "$0")/.."

per_kind=${1:-200}
if [ -z "${CONVERGE_TEST_PG_URL:-}" ] && [ -f /tmp/converge-pg-env ]; then
  set -a
  # shellcheck disable=SC1091
  . /tmp/converge-pg-env
  set +a
fi
if [ -z "${CONVERGE_TEST_PG_URL:-}" ]; then
  echo "[kill-trials] CONVERGE_TEST_PG_URL is not set and /tmp/converge-pg-env does not exist: run scripts/pg-test-env.sh (as root) first" >&2
  exit 1
fi

export CONVERGE_KILL_TRIALS=$((per_kind * 6))
export CONVERGE_KILL_TEARS=${CONVERGE_KILL_TEARS:-30}
export CONVERGE_KILL_CONCURRENCY=${CONVERGE_KILL_CONCURRENCY:-2}
export CONVERGE_KILL_LOG=${CONVERGE_KILL_LOG:-/tmp/converge-kill-trials.log}
# A trial over this has hung; generous, as the run shares the machine for hours.
export CONVERGE_KILL_TRIAL_LIMIT_MS=${CONVERGE_KILL_TRIAL_LIMIT_MS:-300000}
: >"$CONVERGE_KILL_LOG"
echo "[kill-trials] $CONVERGE_KILL_TRIALS trials ($per_kind per kind) and $CONVERGE_KILL_TEARS torn tails, $CONVERGE_KILL_CONCURRENCY at a time; progress in $CONVERGE_KILL_LOG"
exec nice -n "${CONVERGE_KILL_NICE:-5}" npx vitest run tests/integration/kill.test.ts --reporter=verbose
