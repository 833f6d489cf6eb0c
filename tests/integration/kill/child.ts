// The kill test's child: applies a scenario's second stack against the Civo simulator living in the
// parent, with the file or PostgreSQL store, printing a line per event; the parent SIGKILLs it.
import { Engine, FileStateStore, PostgresStateStore } from '../../../src/index.js';
import { provb } from '../../../src/providers/b/index.js';
import { stacksOf, type Scenario } from './stacks.js';

const env = process.env;
const state =
  env.KILL_STORE === 'pg'
    ? new PostgresStateStore({ connectionString: env.CONVERGE_TEST_PG_URL!, stack: env.KILL_STACK! })
    : new FileStateStore(env.KILL_STATE!);
const engine = new Engine({
  providers: [provb({ token: env.KILL_TOKEN!, apiEndpoint: env.KILL_URL!, region: 'LON1', pollIntervalMs: 5 })],
  state,
  parallelism: 4,
  retry: { retries: 6, minTimeoutMs: 1, maxTimeoutMs: 5 },
  onEvent: (e) => {
    process.stdout.write(`event ${e.type}\n`);
  },
});
const [, after] = stacksOf(env.KILL_SCENARIO as Scenario);
await engine.apply(await engine.plan(after)).catch(() => {});
process.stdout.write('done\n');
await state.close?.();
