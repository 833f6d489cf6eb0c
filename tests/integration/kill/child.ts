// The kill test's child: applies a scenario's second stack against the Civo simulator living in the
// parent, with the file or PostgreSQL store, printing a line per engine event; the parent SIGKILLs it.
//
// KILL_TEAR=mark|note with KILL_TEAR_TYPE=<token> (file store only) kills it from inside instead, in
// the middle of writing a pending record: the journal write that holds the first create record of
// that type (mark: the record as first written, before anything was noted; note: the record
// rewritten with the ids that existed, just before the request) puts every record before it and half
// of its bytes in the journal, then the process SIGKILLs itself before the write returns. What it
// tore is printed first ("torn <json>"), so the parent can check that no create request followed.
import { writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
// Imported from their modules (not the index), so a child on the file store never loads pg.
import { Engine } from '../../../src/engine/engine.js';
import { FileStateStore } from '../../../src/state/stores/file.js';
import { provb } from '../../../src/providers/b/index.js';
import { stacksOf, type Scenario } from './stacks.js';

const env = process.env;

type Pending = { kind?: string; type?: string; name?: string; existing?: unknown; inputs?: unknown };
type Patch = { op: string; path: unknown[]; value?: Pending };

/** The journal records of one write (`<length> <crc32> <json>\n` each), with where each starts and ends. */
function recordsIn(buf: Buffer): { start: number; end: number; patches: Patch[] }[] {
  const out: { start: number; end: number; patches: Patch[] }[] = [];
  let at = 0;
  while (at < buf.length) {
    const m = /^(\d{1,12}) [0-9a-f]{8} /.exec(buf.toString('latin1', at, at + 32));
    if (!m) return [];
    const bodyAt = at + m[0].length;
    const end = bodyAt + Number(m[1]) + 1;
    const rec = JSON.parse(buf.toString('utf8', bodyAt, end - 1)) as { patches?: Patch[] };
    out.push({ start: at, end, patches: rec.patches ?? [] });
    at = end;
  }
  return out;
}

/** Wraps FileHandle.write so that the write of the chosen pending record is torn by a SIGKILL. */
async function tearOnWrite(mode: 'mark' | 'note', type: string): Promise<void> {
  const probe = await open(process.execPath, 'r');
  const proto = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
  await probe.close();
  const write = proto.write;
  proto.write = async function (this: unknown, ...args: unknown[]) {
    const buf = args[0];
    if (args.length === 1 && Buffer.isBuffer(buf)) {
      for (const r of recordsIn(buf)) {
        const p = r.patches.find(
          (x) =>
            x.op === 'add' &&
            x.path[0] === 'pending' &&
            x.value?.kind === 'create' &&
            x.value.type === type &&
            (mode === 'mark' ? x.value.existing === null : Array.isArray(x.value.existing)),
        );
        if (!p) continue;
        const cut = r.start + Math.floor((r.end - r.start) / 2);
        writeSync(
          1,
          `torn ${JSON.stringify({ name: p.value!.name, inputs: p.value!.inputs, bytes: cut - r.start })}\n`,
        );
        await write.call(this, buf.subarray(0, cut));
        process.kill(process.pid, 'SIGKILL');
        await new Promise(() => {});
      }
    }
    return write.apply(this, args);
  };
}

if (env.KILL_TEAR) await tearOnWrite(env.KILL_TEAR as 'mark' | 'note', env.KILL_TEAR_TYPE!);

const state =
  env.KILL_STORE === 'pg'
    ? new (await import('../../../src/state/stores/postgres.js')).PostgresStateStore({
        connectionString: env.CONVERGE_TEST_PG_URL!,
        stack: env.KILL_STACK!,
      })
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
// A plan can fail too under injected faults (its refresh and its credential check read through
// them): it is made again, up to three times, as an operator would, so the apply the trial means to
// kill does run; a failed apply is an outcome the parent's recovery must cope with.
let plan: Awaited<ReturnType<typeof engine.plan>> | undefined;
for (let attempt = 1; !plan && attempt <= 3; attempt++)
  plan = await engine.plan(after).catch((e: unknown) => {
    process.stderr.write(`plan failed (attempt ${attempt}): ${String(e)}\n`);
    return undefined;
  });
if (plan) await engine.apply(plan).catch((e: unknown) => process.stderr.write(`apply failed: ${String(e)}\n`));
await state.close?.();
process.stdout.write('done\n');
// Idle keep-alive sockets to the simulator would keep the process for seconds more.
process.exit(0);
