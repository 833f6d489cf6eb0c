// Shared by the fleet tests: a schema of the test's own on the test PostgreSQL (dropped at the end),
// stack module files for named stacks, the worker child bundled for other processes, and waiting
// for a run to reach a status.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../helpers/node-bundle.js';
import pg from 'pg';
import type { Fleet, Run, RunStatus } from '../../src/fleet/index.js';
import { pgTestUrl } from '../helpers/pg-env.js';

/** This folder (by import.meta.url: the bench imports this file outside vitest, where __dirname is not defined). */
const here = fileURLToPath(new URL('.', import.meta.url));

export const pgUrl = pgTestUrl();

export function schemaName(tag: string): string {
  return `fleet_${tag}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.query(`DROP SCHEMA IF EXISTS "${schema}_queue" CASCADE`);
  } finally {
    await c.end();
  }
}

/** Writes one module file per stack name (importing tests/fleet/stack.ts, or `source` when given); the directory. */
export async function stackFiles(names: readonly string[], source = join(here, 'stack.ts')): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-fleet-'));
  for (const n of names)
    await writeFile(
      join(dir, `${n}.${source.endsWith('.mjs') ? 'mjs' : 'ts'}`),
      `import { makeStack } from ${JSON.stringify(source)};\nexport default makeStack(${JSON.stringify(n)}, ${JSON.stringify(dir)});\n`,
    );
  return dir;
}

/** Polls the run until its status is one of `want` (or the limit passes). */
export async function waitRun(fleet: Fleet, id: string, want: readonly RunStatus[], limitMs = 20_000): Promise<Run> {
  const end = Date.now() + limitMs;
  for (;;) {
    const r = await fleet.run(id);
    if (want.includes(r.status)) return r;
    if (Date.now() > end)
      throw new Error(`run ${id} is ${r.status} (${r.errorCode ?? ''} ${r.errorMessage ?? ''}), not ${want.join('|')}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Bundles the worker child and the test stack into `out` (worker-child.mjs, stack.mjs), for worker processes. */
export async function bundleWorkerChild(out: string): Promise<void> {
  // split: the worker and the stacks it loads share one copy of the engine and its packages
  await bundleForNode([join(here, 'worker-child.ts'), join(here, 'stack.ts')], out);
}
