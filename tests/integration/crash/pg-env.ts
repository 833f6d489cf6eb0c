// Where the crash tests find PostgreSQL: CONVERGE_TEST_PG_URL, else the file scripts/pg-test-env.sh
// writes; and whether it answers (a reason when it does not).
import pg from 'pg';

export { pgTestUrl as crashPgUrl, unreachable as pgProblem } from '../../helpers/pg-env.js';

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
