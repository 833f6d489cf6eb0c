// PostgreSQL store against a real server: CONVERGE_TEST_PG_URL, else the file scripts/pg-test-env.sh
// writes. In CI a missing server fails; elsewhere the suite is skipped with a loud warning.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { describeStateStore } from '../conformance/state-store.js';
import { PostgresStateStore } from '../../src/state/stores/postgres.js';
import { StateLockedError } from '../../src/engine/errors.js';

export function pgTestUrl(): string | undefined {
  if (process.env.CONVERGE_TEST_PG_URL) return process.env.CONVERGE_TEST_PG_URL;
  try {
    const m = /^CONVERGE_TEST_PG_URL=(.+)$/m.exec(readFileSync('/tmp/converge-pg-env', 'utf8'));
    return m?.[1].trim();
  } catch {
    return undefined;
  }
}

async function reachable(url: string | undefined): Promise<string | undefined> {
  if (!url) return 'CONVERGE_TEST_PG_URL is not set and /tmp/converge-pg-env does not exist';
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return undefined;
  } catch (e) {
    return `cannot connect to ${url.replace(/:[^:@/]*@/, ':***@')}: ${(e as Error).message}`;
  } finally {
    await c.end().catch(() => {});
  }
}

const url = pgTestUrl();
const problem = await reachable(url);

if (problem && process.env.CI === 'true') {
  describe('PostgresStateStore', () => {
    it('has a PostgreSQL server to test against (required in CI)', () => {
      throw new Error(`PostgreSQL is required in CI: ${problem}. Run scripts/pg-test-env.sh.`);
    });
  });
} else if (problem) {
  console.warn(`\n!!! SKIPPING PostgresStateStore tests: ${problem}.\n!!! Run scripts/pg-test-env.sh or set CONVERGE_TEST_PG_URL.\n`);
  describe.skip('PostgresStateStore', () => { it('needs a server', () => {}); });
} else {
  const connectionString = url!;
  describeStateStore('PostgresStateStore', async () => {
    const stack = `test-${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    return {
      open: (o) => new PostgresStateStore({ connectionString, stack, ...o }),
      encryptsSecrets: true,
      rawText: async () => {
        const rows = await admin.query(
          `SELECT (SELECT coalesce(json_agg(data), '[]') FROM converge_resources WHERE stack = $1)::text ||
                  (SELECT coalesce(json_agg(data), '[]') FROM converge_pending WHERE stack = $1)::text AS t`, [stack]);
        return String(rows.rows[0].t).replace(/": "/g, '":"');
      },
      cleanup: async () => {
        await admin.query('DELETE FROM converge_stacks WHERE stack = $1', [stack]).catch(() => {});
        await admin.query('DELETE FROM converge_locks WHERE stack = $1', [stack]).catch(() => {});
        await admin.end();
      },
    };
  });

  describe('PostgresStateStore specifics', () => {
    it('keeps several stacks apart in one database, each with its own lock', async () => {
      const a = new PostgresStateStore({ connectionString, stack: `test-${randomBytes(6).toString('hex')}` });
      const b = new PostgresStateStore({ connectionString, stack: `test-${randomBytes(6).toString('hex')}` });
      try {
        const la = await a.lock({ operation: 'apply' });
        const lb = await b.lock({ operation: 'apply' });
        const { recordResource } = await import('../../src/state/ops.js');
        const { resource } = await import('../conformance/state-store.js');
        await a.read();
        await b.read();
        await a.commit(recordResource(0, resource('only-in-a')));
        expect(Object.keys((await a.read()).resources)).toEqual(['only-in-a']);
        expect((await b.read()).serial).toBe(0);
        await la.release();
        await lb.release();
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('uses a schema of its own when given one', async () => {
      const schema = `converge_t_${randomBytes(4).toString('hex')}`;
      const s = new PostgresStateStore({ connectionString, stack: 'x', schema });
      const admin = new pg.Client({ connectionString });
      await admin.connect();
      try {
        const { recordResource } = await import('../../src/state/ops.js');
        const { resource } = await import('../conformance/state-store.js');
        await s.read();
        await s.commit(recordResource(0, resource('r')));
        const r = await admin.query(`SELECT name FROM "${schema}".converge_resources WHERE stack = 'x'`);
        expect(r.rows).toEqual([{ name: 'r' }]);
      } finally {
        await s.close();
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      }
    });

    it("frees the lock when the holder's connection dies, and names a holder from pg_stat_activity when the lock row is gone", async () => {
      const stack = `test-${randomBytes(6).toString('hex')}`;
      const a = new PostgresStateStore({ connectionString, stack });
      const b = new PostgresStateStore({ connectionString, stack });
      const admin = new pg.Client({ connectionString });
      await admin.connect();
      try {
        const held = await a.lock({ operation: 'import' });
        await admin.query('DELETE FROM converge_locks WHERE stack = $1', [stack]);
        const err = await b.lock({ operation: 'apply' }).catch((e) => e);
        expect(err).toBeInstanceOf(StateLockedError);
        expect(err).toMatchObject({ pid: process.pid, host: held.info.host, operation: 'import' });
        // the holder "dies": its dedicated connection is terminated by the server
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'converge:import:%' AND datname = current_database()`,
        );
        const got = await b.lock({ operation: 'apply', timeoutMs: 5_000 });
        expect(got.info.operation).toBe('apply');
        await got.release();
        await held.release().catch(() => {});
      } finally {
        await a.close();
        await b.close();
        await admin.query('DELETE FROM converge_stacks WHERE stack = $1', [stack]);
        await admin.end();
      }
    });

    it('rejects a schema that is not a plain identifier', () => {
      expect(() => new PostgresStateStore({ connectionString, stack: 's', schema: 'x"; drop' })).toThrow(TypeError);
    });
  });
}
