// A child process for the crash tests: plans and applies CRASH_COUNT creates of disk objects with
// a FileStateStore (or, with CRASH_PG_URL, a PostgresStateStore on stack CRASH_PG_STACK, which
// groups commits), printing "applying" when apply starts; the test kills it with SIGKILL. In race
// mode it waits for the lock and plans again when another process moved the state on.
import { Engine, FileStateStore, PostgresStateStore, StalePlanError } from '../../../src/index.js';
import { decls, diskProvider } from './disk-provider.js';

const env = process.env;
const store = env.CRASH_PG_URL
  ? new PostgresStateStore({ connectionString: env.CRASH_PG_URL, stack: env.CRASH_PG_STACK! })
  : new FileStateStore(env.CRASH_STATE!);
const engine = new Engine({
  providers: [diskProvider(env.CRASH_REMOTE!, { createDelayMs: () => Math.random() * 2 })],
  state: store,
  parallelism: 10,
  lockTimeout: Number(env.CRASH_LOCK_TIMEOUT_MS ?? 0),
});
for (let attempt = 0; ; attempt++) {
  const plan = await engine.plan(decls(Number(env.CRASH_COUNT ?? 200)), { refresh: true });
  try {
    process.stdout.write('applying\n');
    await engine.apply(plan);
    break;
  } catch (e) {
    if (!(e instanceof StalePlanError) || attempt > 20) throw e;
  }
}
await store.close();
process.stdout.write('done\n');
