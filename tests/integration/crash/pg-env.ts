// Where the crash tests find PostgreSQL: CONVERGE_TEST_PG_URL, else the file scripts/pg-test-env.sh
// writes; and whether it answers (a reason when it does not).
import { readFileSync } from 'node:fs';
import pg from 'pg';

export function crashPgUrl(): string | undefined {
  if (process.env.CONVERGE_TEST_PG_URL) return process.env.CONVERGE_TEST_PG_URL;
  try {
    return /^CONVERGE_TEST_PG_URL=(.+)$/m.exec(readFileSync('/tmp/converge-pg-env', 'utf8'))?.[1].trim();
  } catch {
    return undefined;
  }
}

export async function pgProblem(url: string | undefined): Promise<string | undefined> {
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

export async function dropPgStack(url: string, stack: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('DELETE FROM converge_stacks WHERE stack = $1', [stack]);
    await c.query('DELETE FROM converge_locks WHERE stack = $1', [stack]);
  } finally {
    await c.end();
  }
}
