// Provider budgets across the fleet: one token bucket per account in the fleet's schema, which every
// request of every run of the account's stacks draws from, in any worker process. A draw is one
// UPDATE that refills the bucket for the time since the last draw and takes a token, going into
// debt when none is left: the debt says how long this request waits (its turn is reserved, so
// waiters never race or poll), and a wait given up (the run cancelled) pays its token back. Each
// wait is the run's WaitEvent (reason rate_limit) and a `budget_wait` event of this process. A 429
// the vendor answers anyway (requests bunched by a loaded machine) puts the bucket in debt for the
// wait it asked: every worker's next request of the account waits, where each run's own client
// halving its rate (what it does alone) left the runs that saw one crawling at half their share.
import type pg from 'pg';
import type { SharedBudget } from '../engine/provider/shared-budget.js';
import { abortReason } from '../engine/abort.js';
import type { FleetTables } from './schema.js';
import { prepared } from '../state/stores/postgres-schema.js';

/** An account's limit, as {@link Fleet.limitAccount} takes it. */
export type AccountLimit = {
  /** The vendor's limit for the account, in requests per minute. */
  readonly requestsPerMinute: number;
  /** Requests that may go at once after a quiet spell; default one second's worth (at least 1). */
  readonly burst?: number;
  /** The provider whose requests it counts ('provb'); default every HTTP request of the account's runs. */
  readonly provider?: string;
};

/** Share of the limit aimed at, so jitter on the wire does not turn the last request of a window into a 429. */
export const HEADROOM = 0.95;

export async function setAccountLimit(
  pool: pg.Pool,
  t: FleetTables,
  account: string,
  limit: AccountLimit | null,
): Promise<void> {
  if (typeof account !== 'string' || account === '') throw new TypeError('Expected `account` to be a non-empty string');
  if (limit === null) {
    await pool.query(`DELETE FROM ${t.accounts} WHERE account = $1`, [account]);
    return;
  }
  const rpm = limit?.requestsPerMinute;
  if (!(typeof rpm === 'number' && Number.isFinite(rpm) && rpm > 0))
    throw new TypeError('Expected `requestsPerMinute` to be a number above 0');
  if (limit.burst !== undefined && !(Number.isInteger(limit.burst) && limit.burst >= 1))
    throw new TypeError('Expected `burst` to be an integer from 1 and up');
  const perSecond = (rpm / 60) * HEADROOM;
  const burst = Math.max(1, Math.floor((limit.burst ?? Math.max(1, rpm / 60)) * HEADROOM));
  await pool.query(
    `INSERT INTO ${t.accounts} (account, provider, per_minute, per_second, burst, tokens) VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (account) DO UPDATE SET provider = $2, per_minute = $3, per_second = $4, burst = $5,
       tokens = LEAST(${t.accounts}.tokens, $5)`,
    [account, limit.provider ?? null, rpm, perSecond, burst],
  );
}

/** The account's limit as stored, if it has one. */
export async function accountLimit(
  pool: pg.Pool,
  t: FleetTables,
  account: string,
): Promise<{ readonly provider: string | null; readonly perMinute: number } | undefined> {
  const r = await pool.query<{ provider: string | null; per_minute: number }>(
    `SELECT provider, per_minute FROM ${t.accounts} WHERE account = $1`,
    [account],
  );
  return r.rows[0] ? { provider: r.rows[0].provider, perMinute: r.rows[0].per_minute } : undefined;
}

/** The bucket's tokens refilled for the time since its last draw (`at`), up to its burst. */
const REFILLED = 'LEAST(burst, tokens + per_second * GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - at)))';

/** The shared budget of one run of an account's stack. */
export function accountBudget(
  pool: pg.Pool,
  t: FleetTables,
  account: string,
  limit: { readonly provider: string | null; readonly perMinute: number },
  onWait: (waitMs: number) => void,
): SharedBudget {
  const covers = (provider: string) => limit.provider === null || provider === limit.provider;
  return {
    covers,
    async refused(provider, retryAfterMs) {
      if (!covers(provider)) return;
      // the bucket refilled to now, then in debt for the wait asked: whoever draws next waits it out
      await pool
        .query(
          `UPDATE ${t.accounts} SET at = clock_timestamp(), tokens = LEAST(${REFILLED}, -per_second * $2::float8)
           WHERE account = $1`,
          [account, (retryAfterMs ?? 1000) / 1000],
        )
        .catch(() => {}); // the 429 is retried and paced by this run's client either way
    },
    async take(provider, signal, tell) {
      if (!covers(provider)) return;
      if (signal?.aborted) throw abortReason(signal);
      const r = await pool.query<{ tokens: number; per_second: number }>(
        prepared(
          `UPDATE ${t.accounts} SET at = clock_timestamp(), tokens = ${REFILLED} - 1
         WHERE account = $1 RETURNING tokens, per_second`,
          [account],
        ),
      );
      const row = r.rows[0];
      if (!row || row.tokens >= 0) return; // limit removed meanwhile, or a token was there
      const waitMs = Math.ceil((-row.tokens / row.per_second) * 1000);
      onWait(waitMs);
      tell({
        waitMs,
        message: `waiting for account ${account}'s fleet budget (${limit.perMinute} requests/min across every worker): ${waitMs} ms`,
      });
      try {
        await sleep(waitMs, signal);
      } catch (e) {
        await pool.query(`UPDATE ${t.accounts} SET tokens = tokens + 1 WHERE account = $1`, [account]).catch(() => {});
        throw e;
      }
    },
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
