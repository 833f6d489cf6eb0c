// The PostgreSQL server secrets tests scan: CONVERGE_TEST_PG_URL, else /tmp/converge-pg-env (written
// by scripts/pg-test-env.sh). `pgProblem` says why it cannot be used; CI fails on it, elsewhere the
// test is skipped loudly.
import { readFileSync } from 'node:fs';
import pg from 'pg';

function pgTestUrl(): string | undefined {
  if (process.env.CONVERGE_TEST_PG_URL) return process.env.CONVERGE_TEST_PG_URL;
  try {
    return /^CONVERGE_TEST_PG_URL=(.+)$/m.exec(readFileSync('/tmp/converge-pg-env', 'utf8'))?.[1]?.trim();
  } catch {
    return undefined;
  }
}

async function problemWith(url: string | undefined): Promise<string | undefined> {
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

export const pgUrl = pgTestUrl();
export const pgProblem = await problemWith(pgUrl);
