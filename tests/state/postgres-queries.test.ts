// The PostgreSQL store never hands a connection a query while another runs on it: pg queues such
// a query with a DeprecationWarning ("Calling client.query() when the client is already executing a
// query", removed in pg 9). Every query of every pg client is watched while one store is driven from
// every side at once: reads, grouped commits, a whole write, compaction, its lock taken and released,
// another store's lock attempt and force-unlock, and close() with a lock still held.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { pgTestUrl, unreachable } from '../helpers/pg-env.js';
import { PostgresStateStore } from '../../src/state/stores/postgres.js';
import { recordResource, emptyState } from '../../src/state/ops.js';
import { resource } from '../conformance/state-store.js';

const url = pgTestUrl();
const problem = await unreachable(url);
if (problem && process.env.CI === 'true') throw new Error(`PostgreSQL is required in CI: ${problem}`);
if (problem) console.warn(`\n!!! SKIPPING PostgreSQL query-order test: ${problem}\n`);

type Query = (...args: unknown[]) => unknown;
const proto = pg.Client.prototype as unknown as { query: Query };
const original = proto.query;
const inFlight = new WeakMap<object, number>();
const overlaps: string[] = [];
const warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(w.message);

beforeAll(() => {
  process.on('warning', onWarning);
  proto.query = function (this: object, ...args: unknown[]) {
    const n = inFlight.get(this) ?? 0;
    if (n > 0) overlaps.push(String(typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text));
    inFlight.set(this, n + 1);
    const done = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
    const r = original.apply(this, args) as unknown;
    if (r && typeof (r as Promise<unknown>).then === 'function') (r as Promise<unknown>).then(done, done);
    else done();
    return r;
  };
});
afterAll(() => {
  proto.query = original;
  process.off('warning', onWarning);
});

describe.skipIf(!!problem)('PostgresStateStore query order', () => {
  it('issues one query at a time on each connection, however it is driven', async () => {
    const stack = `q-order-${randomBytes(4).toString('hex')}`;
    const store = new PostgresStateStore({ connectionString: url!, stack, secretsPassphrase: '' });
    const other = new PostgresStateStore({ connectionString: url!, stack, secretsPassphrase: '' });
    const admin = new pg.Client({ connectionString: url! });
    await admin.connect();
    try {
      for (let round = 0; round < 3; round++) {
        const base = (await store.read()).serial;
        const lock = await store.lock({ operation: 'apply' });
        const work: Promise<unknown>[] = [];
        for (let i = 0; i < 40; i++) {
          work.push(store.commit(recordResource(base + i, resource(`r${round}-${i}`))));
          if (i % 5 === 0) work.push(store.read());
        }
        work.push(
          other.lock({ operation: 'plan' }).then(
            (l) => l.release(),
            () => undefined,
          ),
        );
        work.push(other.forceUnlock('not-a-lock', { force: true }).catch(() => undefined));
        work.push(store.compact());
        await Promise.all(work);
        await lock.release();
        const s = await store.read();
        expect(s.serial).toBe(base + 40);
        await store.write({ ...emptyState(s.lineage), serial: s.serial + 1 }, s.serial);
      }
      await store.lock({ operation: 'apply' }); // left held: close() releases it
    } finally {
      await store.close();
      await other.close();
      await admin.query('DELETE FROM converge_stacks WHERE stack = $1', [stack]).catch(() => {});
      await admin.query('DELETE FROM converge_locks WHERE stack = $1', [stack]).catch(() => {});
      await admin.end();
    }
    expect(overlaps).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
