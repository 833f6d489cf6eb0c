// Where tests find PostgreSQL: CONVERGE_TEST_PG_URL, else the file scripts/pg-test-env.sh writes
// (/tmp/converge-pg-env); and why it cannot be used, when it cannot (CI fails on it, elsewhere the
// tests that need it are skipped loudly).
import { readFileSync } from 'node:fs';
import pg from 'pg';

export function pgTestUrl(): string | undefined {
  if (process.env.CONVERGE_TEST_PG_URL) return process.env.CONVERGE_TEST_PG_URL;
  try {
    return /^CONVERGE_TEST_PG_URL=(.+)$/m.exec(readFileSync('/tmp/converge-pg-env', 'utf8'))?.[1]?.trim();
  } catch {
    return undefined;
  }
}

/** Why the server at `url` cannot be used, or undefined when it answers. */
export async function unreachable(url: string | undefined): Promise<string | undefined> {
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
