// forceUnlock on the PostgreSQL store: a holder whose session still holds the advisory lock is alive
// and refused (the error names the session) unless forced, which ends that session and drops the
// row; a holder whose session is gone is released with no question; an id that holds nothing is refused.
// Needs a server (CONVERGE_TEST_PG_URL): fails in CI without one, skips loudly elsewhere.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { Engine, LockHolderAliveError, PostgresStateStore, StateLockedError } from 'converge';
import { pgTestUrl, unreachable } from '../helpers/pg-env.js';
import { TestCloud, testProvider } from '../helpers/test-provider.js';
import { thing } from '../helpers/builders.js';

const url = pgTestUrl();
const problem = await unreachable(url);
if (problem && process.env.CI === 'true') throw new Error(`PostgreSQL is required in CI: ${problem}`);
if (problem) console.warn(`\n!!! SKIPPING PostgreSQL force-unlock test: ${problem}\n`);

describe.skipIf(!!problem)('forceUnlock on PostgresStateStore', () => {
  it('refuses a holder whose session is connected (naming it) unless forced, then ends that session', async () => {
    const stack = `wf-unlock-${randomBytes(4).toString('hex')}`;
    const holder = new PostgresStateStore({ connectionString: url!, stack });
    const store = new PostgresStateStore({ connectionString: url!, stack });
    const engine = new Engine({ providers: [testProvider(new TestCloud())], state: store });
    try {
      const held = await holder.lock({ operation: 'apply' });
      await expect(engine.plan([thing('a')])).rejects.toBeInstanceOf(StateLockedError);
      await expect(engine.forceUnlock('not-a-lock')).rejects.toMatchObject({ code: 'CONVERGE_LOCK_NOT_FOUND' });
      const alive = await engine.forceUnlock(held.info.id).catch((e) => e);
      expect(alive).toBeInstanceOf(LockHolderAliveError);
      expect(alive).toMatchObject({ lockId: held.info.id, pid: process.pid, liveness: 'alive', operation: 'apply' });
      expect(alive.session.backendPid).toBeGreaterThan(0);
      expect(alive.session.applicationName).toBe(`converge:apply:${process.pid}@${held.info.host}`.slice(0, 63));
      expect(alive.message).toContain(`backend pid ${alive.session.backendPid}`);
      await expect(engine.plan([thing('a')])).rejects.toBeInstanceOf(StateLockedError); // still held
      await engine.forceUnlock(held.info.id, { force: true });
      await expect(engine.plan([thing('a')])).resolves.toBeDefined();
      await held.release().catch(() => {});
    } finally {
      await holder.close();
      await store.close();
    }
  });

  it('releases with no question a lock whose session is gone (its row left behind)', async () => {
    const stack = `wf-unlock-${randomBytes(4).toString('hex')}`;
    const holder = new PostgresStateStore({ connectionString: url!, stack });
    const store = new PostgresStateStore({ connectionString: url!, stack });
    const admin = new pg.Client({ connectionString: url! });
    await admin.connect();
    try {
      const held = await holder.lock({ operation: 'apply' });
      const alive = (await store.forceUnlock(held.info.id).catch((e) => e)) as LockHolderAliveError;
      expect(alive).toBeInstanceOf(LockHolderAliveError);
      // the holder's connection dies (a crashed runner): the advisory lock goes with it, the row stays
      await admin.query('SELECT pg_terminate_backend($1)', [alive.session!.backendPid]);
      for (let i = 0; i < 50; i++) {
        const r = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [alive.session!.backendPid]);
        if (r.rowCount === 0) break;
        await new Promise((res) => setTimeout(res, 20));
      }
      await expect(store.forceUnlock(held.info.id)).resolves.toBe(true);
      const rows = await admin.query('SELECT 1 FROM converge_locks WHERE stack = $1', [stack]);
      expect(rows.rowCount).toBe(0);
      await held.release().catch(() => {});
    } finally {
      await holder.close().catch(() => {});
      await store.close();
      await admin.query('DELETE FROM converge_stacks WHERE stack = $1', [stack]).catch(() => {});
      await admin.end();
    }
  });
});
