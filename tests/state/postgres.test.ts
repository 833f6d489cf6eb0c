// PostgreSQL store against a real server: CONVERGE_TEST_PG_URL, else the file scripts/pg-test-env.sh
// writes. In CI a missing server fails; elsewhere the suite is skipped with a loud warning.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { pgTestUrl, unreachable } from '../helpers/pg-env.js';
import { describeStateStore } from '../conformance/state-store.js';
import { PostgresStateStore } from '../../src/state/stores/postgres.js';
import { StateLockedError } from '../../src/engine/errors.js';
import { recordResource } from '../../src/state/ops.js';
import { resource } from '../conformance/state-store.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const url = pgTestUrl();
const problem = await unreachable(url);

if (problem && process.env.CI === 'true') {
  describe('PostgresStateStore', () => {
    it('has a PostgreSQL server to test against (required in CI)', () => {
      throw new Error(`PostgreSQL is required in CI: ${problem}. Run scripts/pg-test-env.sh.`);
    });
  });
} else if (problem) {
  console.warn(
    `\n!!! SKIPPING PostgresStateStore tests: ${problem}.\n!!! Run scripts/pg-test-env.sh or set CONVERGE_TEST_PG_URL.\n`,
  );
  describe.skip('PostgresStateStore', () => {
    it('needs a server', () => {});
  });
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
                  (SELECT coalesce(json_agg(data), '[]') FROM converge_pending WHERE stack = $1)::text ||
                  (SELECT coalesce(json_agg(data), '[]') FROM converge_outputs WHERE stack = $1)::text AS t`,
          [stack],
        );
        return String(rows.rows[0].t).replace(/": "/g, '":"');
      },
      leaveDeadLock: async (holder) => {
        const s = new PostgresStateStore({ connectionString, stack });
        await s.read();
        await s.close();
        await admin.query('INSERT INTO converge_locks (stack, info) VALUES ($1, $2)', [stack, JSON.stringify(holder)]);
      },
      cleanup: async () => {
        await admin.query('DELETE FROM converge_stacks WHERE stack = $1', [stack]).catch(() => {});
        await admin.query('DELETE FROM converge_locks WHERE stack = $1', [stack]).catch(() => {});
        await admin.end();
      },
    };
  });

  const dropStack = async (stack: string) => {
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    await admin.query('DELETE FROM converge_stacks WHERE stack = $1', [stack]);
    await admin.query('DELETE FROM converge_locks WHERE stack = $1', [stack]);
    await admin.end();
  };

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

    it('writes commits queued while a group is in flight as one group, each durable when it resolves', async () => {
      const stack = `test-${randomBytes(6).toString('hex')}`;
      const flushes: number[] = [];
      const a = new PostgresStateStore({ connectionString, stack, onFlush: (n) => flushes.push(n) });
      const b = new PostgresStateStore({ connectionString, stack });
      try {
        await a.read();
        const durable: number[] = [];
        await Promise.all(
          Array.from({ length: 300 }, (_, i) =>
            a.commit(recordResource(i, resource(`r${i}`))).then(async () => {
              if (i % 50 === 49) durable.push(Object.keys((await b.read()).resources).length);
            }),
          ),
        );
        expect(flushes.reduce((x, y) => x + y, 0)).toBe(300);
        expect(flushes.length).toBeLessThan(300);
        expect(Math.max(...flushes)).toBeGreaterThan(1);
        // what another connection reads after a commit resolved holds that commit
        durable.forEach((n, k) => expect(n).toBeGreaterThanOrEqual(50 * (k + 1)));
        const s = await b.read();
        expect(s.serial).toBe(300);
        expect(Object.keys(s.resources)).toHaveLength(300);
      } finally {
        await a.close();
        await b.close();
        await dropStack(stack);
      }
    });

    it('refuses a stale commit inside a group alone and writes the rest', async () => {
      const stack = `test-${randomBytes(6).toString('hex')}`;
      const a = new PostgresStateStore({ connectionString, stack });
      try {
        await a.read();
        const results = await Promise.allSettled([
          a.commit(recordResource(0, resource('one'))),
          a.commit(recordResource(0, resource('stale'))),
          a.commit(recordResource(1, resource('two'))),
        ]);
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect((results[1] as PromiseRejectedResult).reason).toMatchObject({
          code: 'CONVERGE_STATE_CONFLICT',
          expectedSerial: 0,
          actualSerial: 1,
        });
        const b = new PostgresStateStore({ connectionString, stack });
        const s = await b.read();
        await b.close();
        expect(s.serial).toBe(2);
        expect(Object.keys(s.resources).sort()).toEqual(['one', 'two']);
      } finally {
        await a.close();
        await dropStack(stack);
      }
    });

    it('writes each commit on its own when maxCommitGroup is 1', async () => {
      const stack = `test-${randomBytes(6).toString('hex')}`;
      const flushes: number[] = [];
      const a = new PostgresStateStore({ connectionString, stack, maxCommitGroup: 1, onFlush: (n) => flushes.push(n) });
      try {
        await a.read();
        await Promise.all(Array.from({ length: 20 }, (_, i) => a.commit(recordResource(i, resource(`r${i}`)))));
        expect(flushes).toEqual(Array(20).fill(1));
      } finally {
        await a.close();
        await dropStack(stack);
      }
    });

    it('warns when the last holder was killed without releasing the lock, naming its pid and operation', async () => {
      const stack = `test-${randomBytes(6).toString('hex')}`;
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(new URL('./pg-lock-holder.ts', import.meta.url))],
        {
          env: { ...process.env, PG_URL: connectionString, PG_STACK: stack },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const s = new PostgresStateStore({ connectionString, stack });
      try {
        await new Promise<void>((resolve, reject) => {
          child.stdout!.on('data', (d) => {
            if (String(d).includes('locked')) resolve();
          });
          child.on('exit', () => reject(new Error('the lock holder exited early')));
        });
        const held = await s.lock({ operation: 'plan' }).catch((e) => e);
        expect(held).toMatchObject({ code: 'CONVERGE_STATE_LOCKED', pid: child.pid, operation: 'apply' });
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
        const lock = await s.lock({ operation: 'plan', timeoutMs: 10_000 });
        expect(lock.warnings).toHaveLength(1);
        expect(lock.warnings[0]).toContain(`pid ${child.pid} `);
        expect(lock.warnings[0]).toContain(' apply ');
        await lock.release();
      } finally {
        child.kill('SIGKILL');
        await s.close();
        await dropStack(stack);
      }
    });

    it('rejects a schema that is not a plain identifier', () => {
      expect(() => new PostgresStateStore({ connectionString, stack: 's', schema: 'x"; drop' })).toThrow(TypeError);
    });
  });
}
