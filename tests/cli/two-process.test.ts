// The library across processes against the Civo simulator: a plan made and saved in one process
// is applied by another exactly as saved; when the state moved on in between, the second process
// refuses it and nothing changes.
import { describe, it, expect, afterAll } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { CivoSimulator } from '../../src/providers/b/simulator/index.js';
import { run, simEnv, repo, converge } from './run.js';
import { expectValidPlanFile } from '../workflow/plan-schema.js';

const script = join(repo, 'tests/cli/fixtures/library-two-process.ts');
const sims: CivoSimulator[] = [];
// The tests run at once (each has its own simulator and state directory): the simulators close at the end.
afterAll(async () => {
  for (const s of sims.splice(0)) await s.close();
});

const last = (out: string) => JSON.parse(out.trim().split('\n').pop()!);

describe.concurrent('saved plans across processes (B simulator)', () => {
  it('plans and saves in one process, applies in a second one as saved', async () => {
    const { sim, env, dir } = await simEnv();
    sims.push(sim);
    const file = join(dir, 'plan.json');
    const planned = await run(script, ['plan', file], env);
    expect(last(planned.stdout)).toMatchObject({ ok: true, summary: { create: 3 } });
    expectValidPlanFile(readFileSync(file, 'utf8'));
    expect(sim.store.instances.size).toBe(0);
    const applied = await run(script, ['apply', file], env);
    expect(last(applied.stdout)).toEqual({ ok: true, succeeded: 3, publicIp: true });
    expect(applied.code).toBe(0);
    expect(sim.store.instances.size).toBe(1);
    const again = await converge(['plan', '--detailed-exitcode'], env);
    expect(again.code).toBe(0);
  }, 90_000);

  it('refuses in the second process a plan whose state moved on in between, and changes nothing', async () => {
    const { sim, env, dir } = await simEnv();
    sims.push(sim);
    const file = join(dir, 'plan.json');
    expect((await run(script, ['plan', file], env)).code).toBe(0);
    const moved = await converge(['apply', '--auto-approve', '--target', 'net'], env);
    expect(moved.code).toBe(0);
    const networks = sim.store.networks.size;
    const firewalls = sim.store.firewalls.size;
    const state = readFileSync(env.WF_STATE!, 'utf8');
    const applied = await run(script, ['apply', file], env);
    expect(applied.code).toBe(1);
    expect(last(applied.stdout)).toMatchObject({ ok: false, code: 'CONVERGE_STALE_PLAN' });
    expect(sim.store.instances.size).toBe(0);
    expect(sim.store.firewalls.size).toBe(firewalls);
    expect(sim.store.networks.size).toBe(networks);
    expect(readFileSync(env.WF_STATE!, 'utf8')).toBe(state);
  }, 90_000);
});
