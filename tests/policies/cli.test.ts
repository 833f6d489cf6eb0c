// The command and policies (issue 27): a stack module declares `policies`; `converge plan` shows the
// "Policy checks" section and exits 1 when a mandatory policy fails; `converge apply` refuses such a
// plan before asking or changing anything (exit 1), applies one with advisory findings only, and a
// saved plan is checked again when it is applied.
import { afterEach, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import { startSimulator, type CivoSimulator } from 'converge/providers/b/simulator';

const fixture = fileURLToPath(new URL('./fixtures/stack-policies.ts', import.meta.url));
const KEYS = ['WF_SIM_URL', 'WF_SIM_TOKEN', 'WF_STATE', 'WF_POLICY_LEVEL', 'WF_SAFE'] as const;
const outer = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
let sim: CivoSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  for (const k of KEYS)
    if (outer[k] === undefined) delete process.env[k];
    else process.env[k] = outer[k];
});

async function start(env: Partial<Record<(typeof KEYS)[number], string>>) {
  sim = await startSimulator();
  const dir = mkdtempSync(join(tmpdir(), 'converge-policy-cli-'));
  Object.assign(process.env, { WF_SIM_URL: sim.url, WF_SIM_TOKEN: sim.token, WF_STATE: join(dir, 'state.json') }, env);
  return { sim, dir };
}

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: false,
    color: false,
    stdout: new PassThrough() as unknown as NodeJS.WriteStream,
  };
  const code = await main(['--stack', fixture, ...args], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('converge plan/apply with policies', () => {
  it('plan shows a mandatory failure and exits 1; apply refuses before changing anything', async () => {
    const { sim, dir } = await start({ WF_POLICY_LEVEL: 'mandatory' });
    const [networks, firewalls] = [sim.store.networks.size, sim.store.firewalls.size];
    const plan = await cli('plan', '--out', join(dir, 'plan.json'));
    expect(plan.code).toBe(1);
    expect(plan.out).toContain('Policy checks:');
    expect(plan.out).toContain(
      "[mandatory] civo-no-ssh-from-world: fw.createDefaultRules: the API's default rules open SSH (port 22) to 0.0.0.0/0",
    );
    expect(plan.err).toContain('1 mandatory policy failed');
    const apply = await cli('apply', '--auto-approve');
    expect(apply.code).toBe(1);
    expect(apply.err).toContain('apply will refuse this plan');
    const saved = await cli('apply', join(dir, 'plan.json'));
    expect(saved.code).toBe(1);
    expect(saved.err).toContain('mandatory policy failed; nothing was changed');
    expect([sim.store.networks.size, sim.store.firewalls.size]).toEqual([networks, firewalls]);
  }, 30_000);

  it('applies a plan whose findings are advisory, and one that passes', async () => {
    const { sim } = await start({ WF_POLICY_LEVEL: 'advisory' });
    const firewalls = sim.store.firewalls.size;
    const plan = await cli('plan');
    expect(plan.code).toBe(0);
    expect(plan.out).toContain('[advisory] civo-no-ssh-from-world');
    expect((await cli('apply', '--auto-approve')).code).toBe(0);
    expect(sim.store.firewalls.size).toBe(firewalls + 1);
    process.env.WF_SAFE = '1';
    process.env.WF_POLICY_LEVEL = 'mandatory';
    const safe = await cli('apply', '--auto-approve');
    expect(safe.code).toBe(0);
    expect(safe.out).not.toContain('Policy checks');
  }, 30_000);
});
