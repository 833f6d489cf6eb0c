// The `converge` command with plain (piped) output on the Civo simulator: exit codes, Markdown,
// JSON, graph, refresh-only, replace, targets that name nothing, import, state list/mv/rm,
// force-unlock, and no confirmation without a terminal answer.
import { describe, it, expect, afterAll } from 'vitest';
import type { CivoSimulator } from '../../src/providers/b/simulator/index.js';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { FileStateStore } from '../../src/index.js';
import { converge, simEnv } from './run.js';

const sims: CivoSimulator[] = [];
// The tests run at once (each has its own simulator and state directory): the simulators close at the end.
afterAll(async () => {
  for (const s of sims.splice(0)) await s.close();
});

async function applied() {
  const s = await simEnv();
  sims.push(s.sim);
  const r = await converge(['apply', '--auto-approve'], s.env);
  expect(r.code).toBe(0);
  return s;
}

describe.concurrent('converge (plain output)', () => {
  it('plans as Markdown, JSON and Mermaid, and exits 2 for changes only with --detailed-exitcode', async () => {
    const { sim, env } = await simEnv();
    sims.push(sim);
    const md = await converge(['plan', '--markdown'], env);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('**Plan: 3 to add, 0 to change, 0 to replace, 0 to destroy.**');
    expect(md.stdout.match(/<details>/g)).toHaveLength(3);
    const json = await converge(['plan', '--json', '--detailed-exitcode'], env);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ formatVersion: 1, mode: 'normal', summary: { create: 3 } });
    const graph = await converge(['graph'], env);
    expect(graph.code).toBe(0);
    expect(graph.stdout).toMatch(/^flowchart TD/);
    expect(graph.stdout).toContain(':::create');
  }, 180_000);

  it('refuses an unknown target with a suggestion (exit 1), and an apply nobody confirms', async () => {
    const { sim, env } = await simEnv();
    sims.push(sim);
    const typo = await converge(['plan', '--target', 'wbe'], env);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("did you mean 'web'");
    const unconfirmed = await converge(['apply'], env, 'no\n');
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toContain('Apply cancelled.');
    expect(sim.store.instances.size).toBe(0);
  }, 180_000);

  it('shows drift in a refresh-only plan and records it without changing the object; --replace plans a replacement', async () => {
    const { sim, env } = await applied();
    const inst = [...sim.store.instances.values()][0]!;
    inst.hostname = 'changed-outside';
    const ro = await converge(['plan', '--refresh-only', '--detailed-exitcode'], env);
    expect(ro.code).toBe(2);
    expect(ro.stdout).toContain('Objects changed outside converge');
    expect(ro.stdout).toContain('changed-outside');
    expect((await converge(['apply', '--refresh-only', '--auto-approve'], env)).code).toBe(0);
    expect(inst.hostname).toBe('changed-outside');
    const state = await new FileStateStore(env.WF_STATE!, {
      secretsPassphrase: env.CONVERGE_SECRETS_PASSPHRASE,
    }).read();
    expect(state.resources.web!.inputs.hostname).toBe('changed-outside');
    const rep = await converge(['plan', '--replace', 'fw', '--json'], env);
    expect(JSON.parse(rep.stdout).steps.find((s: { address: string }) => s.address === 'fw')).toMatchObject({
      action: 'replace',
      cause: 'replace_requested',
    });
  }, 180_000);

  it('state list, mv, rm and import', async () => {
    const { sim, env } = await applied();
    const list = await converge(['state', 'list'], env);
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['fw', 'net', 'web']);
    const netId = [...sim.store.networks.values()].find((n) => n.label === 'wf-net')!.id as string;
    expect((await converge(['state', 'mv', 'net', 'network'], env)).code).toBe(0);
    expect((await converge(['state', 'list'], env)).stdout).toContain('network\t');
    expect((await converge(['state', 'rm', 'network'], env)).code).toBe(0);
    expect(sim.store.networks.has(netId)).toBe(true);
    const imported = await converge(['import', 'net', netId], env);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(`Imported net (id ${netId})`);
    // fw and web still record their dependency under the moved name: only that is left to record.
    const planned = await converge(['plan', '--json', '--detailed-exitcode'], env);
    const after = JSON.parse(planned.stdout);
    expect(
      after.steps
        .filter((s: { action: string }) => s.action !== 'noop')
        .map((s: { address: string; cause: string }) => [s.address, s.cause]),
    ).toEqual([
      ['fw', 'options_changed'],
      ['web', 'options_changed'],
    ]);
    // Counted apart from provider changes; alone they still exit 2 (as Terraform's moves do).
    expect(after.summary).toMatchObject({ update: 0, stateOnly: 2 });
    expect(planned.code).toBe(2);
  }, 180_000);

  it('force-unlock releases a lock left by a holder that is gone, and refuses a live one without --force', async () => {
    const { env } = await applied();
    const store = new FileStateStore(env.WF_STATE!);
    const lock = await store.lock({ operation: 'apply' }); // held by this (live) test process
    const locked = await converge(['plan'], env);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain(lock.info.id);
    const refused = await converge(['force-unlock', lock.info.id], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Refused to force-unlock lock ${lock.info.id}`);
    expect(refused.stderr).toContain(`a process with pid ${process.pid} runs on this host`);
    expect(refused.stderr).toContain(`converge force-unlock --force ${lock.info.id}`);
    expect((await converge(['plan'], env)).code).toBe(1); // still held
    const forced = await converge(['force-unlock', '--force', lock.info.id], env);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('released (forced)');
    expect((await converge(['plan', '--detailed-exitcode'], env)).code).toBe(0);

    const gone = { id: 'gone-holder', pid: spawnSync(process.execPath, ['-e', '']).pid, host: hostname() };
    writeFileSync(
      `${env.WF_STATE!}.lock`,
      JSON.stringify({ ...gone, operation: 'apply', since: new Date().toISOString() }),
    );
    const released = await converge(['force-unlock', 'gone-holder'], env);
    expect(released.code).toBe(0);
    expect(released.stdout).toContain('Lock gone-holder released: its holder is gone.');
  }, 90_000);
});
