// An account's fleet budget (src/fleet/budget.ts) on the real PostgreSQL: which provider it paces,
// the waits it hands out once its burst is spent, and a 429 the vendor answered despite it putting
// the whole account in debt for the wait the answer asked, so the next request of any worker waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { accountBudget, setAccountLimit } from '../../src/fleet/budget.js';
import { ensureFleetSchema, fleetTables } from '../../src/fleet/schema.js';
import { dropSchema, pgUrl, schemaName } from './helpers.js';

const schema = schemaName('budget');
const t = fleetTables(schema);
let pool: pg.Pool;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: pgUrl, max: 2 });
  await ensureFleetSchema(pool, t);
});
afterAll(async () => {
  await pool?.end();
  await dropSchema(schema);
});

const limit = { provider: 'provb', perMinute: 600 };

describe("an account's fleet budget", () => {
  it('paces its provider only', () => {
    const b = accountBudget(pool, t, 'acme', limit, () => {});
    expect(b.covers('provb')).toBe(true);
    expect(b.covers('provc')).toBe(false);
    expect(accountBudget(pool, t, 'acme', { provider: null, perMinute: 600 }, () => {}).covers('provc')).toBe(true);
  });

  it('lets its burst through, then hands out waits of 1/rate, each one told', async () => {
    await setAccountLimit(pool, t, 'burst', { requestsPerMinute: 600, burst: 2, provider: 'provb' });
    const waits: number[] = [];
    const b = accountBudget(pool, t, 'burst', limit, (ms) => waits.push(ms));
    const told: string[] = [];
    for (let i = 0; i < 3; i++) await b.take('provb', undefined, (w) => told.push(w.message));
    expect(waits).toHaveLength(2); // the burst (2 x 0.95, floored: 1) spent, the rest wait
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[1]).toBeLessThanOrEqual(Math.ceil(1000 / (10 * 0.95)) * 2);
    expect(told[0]).toMatch(/account burst's fleet budget \(600 requests\/min across every worker\)/);
  });

  it("puts the whole account in debt for a 429's Retry-After: the next request of any worker waits it out", async () => {
    await setAccountLimit(pool, t, 'refused', { requestsPerMinute: 600, burst: 20, provider: 'provb' });
    const waits: number[] = [];
    const one = accountBudget(pool, t, 'refused', limit, () => {});
    const other = accountBudget(pool, t, 'refused', limit, (ms) => waits.push(ms));
    await one.take('provb', undefined, () => {});
    await one.refused('provb', 1500);
    const started = Date.now();
    await other.take('provb', undefined, () => {});
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1500);
    // a 429 of a provider it does not pace changes nothing: the next wait is one request's turn, not a minute
    await other.refused('provc', 60_000);
    await other.take('provb', undefined, () => {});
    expect(waits.length === 1 || waits[1]! < 1000).toBe(true);
  });
});
