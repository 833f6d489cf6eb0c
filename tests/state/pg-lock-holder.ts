// A child process for the PostgreSQL lock test: takes the stack's lock for an apply, says so, and
// waits to be killed with SIGKILL (so it never releases).
import { PostgresStateStore } from '../../src/state/stores/postgres.js';

const store = new PostgresStateStore({ connectionString: process.env.PG_URL!, stack: process.env.PG_STACK! });
await store.lock({ operation: 'apply' });
process.stdout.write('locked\n');
setInterval(() => {}, 1000);
