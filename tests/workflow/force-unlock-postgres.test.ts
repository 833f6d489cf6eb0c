// forceUnlock on the PostgreSQL store: the holder's session is ended (freeing its advisory lock)
// and its row dropped, so the next operation gets the lock; an id that holds nothing is refused.
// Needs a server (CONVERGE_TEST_PG_URL): fails in CI without one, skips loudly elsewhere.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Engine, PostgresStateStore, StateLockedError } from 'converge';
import { pgTestUrl, unreachable } from '../helpers/pg-env.js';
import { TestCloud, testProvider } from '../helpers/test-provider.js';
import { thing } from '../helpers/builders.js';

const url = pgTestUrl();
const problem = await unreachable(url);
if (problem && process.env.CI === 'true') throw new Error(`PostgreSQL is required in CI: ${problem}`);
if (problem) console.warn(`\n!!! SKIPPING PostgreSQL force-unlock test: ${problem}\n`);

describe.skipIf(!!problem)('forceUnlock on PostgresStateStore', () => {
  it('releases a lock held by another session and refuses an unknown id', async () => {
    const stack = `wf-unlock-${randomBytes(4).toString('hex')}`;
    const holder = new PostgresStateStore({ connectionString: url!, stack });
    const store = new PostgresStateStore({ connectionString: url!, stack });
    const engine = new Engine({ providers: [testProvider(new TestCloud())], state: store });
    try {
      const held = await holder.lock({ operation: 'apply' });
      await expect(engine.plan([thing('a')])).rejects.toBeInstanceOf(StateLockedError);
      await expect(engine.forceUnlock('not-a-lock')).rejects.toMatchObject({ code: 'CONVERGE_LOCK_NOT_FOUND' });
      await engine.forceUnlock(held.info.id);
      await expect(engine.plan([thing('a')])).resolves.toBeDefined();
      await held.release().catch(() => {});
    } finally {
      await holder.close();
      await store.close();
    }
  });
});
