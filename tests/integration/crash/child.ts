// A child process for the crash tests: plans and applies CRASH_COUNT creates of disk objects with
// a FileStateStore, printing "applying" when apply starts; the test kills it with SIGKILL. In race
// mode it waits for the lock and plans again when another process moved the state on.
import { Engine, FileStateStore, StalePlanError } from '../../../src/index.js';
import { decls, diskProvider } from './disk-provider.js';

const env = process.env;
const engine = new Engine({
  providers: [diskProvider(env.CRASH_REMOTE!, { createDelayMs: () => Math.random() * 2 })],
  state: new FileStateStore(env.CRASH_STATE!),
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
process.stdout.write('done\n');
