// State operations: list, show (secrets redacted), rm (forget, object untouched), mv (rename and
// dependencies follow), each under the lock and journaled; forceUnlock for a lock whose holder is
// gone, on the memory and file stores (a live holder, or one that cannot be checked: only forced).
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Engine,
  FileStateStore,
  LockHolderAliveError,
  MemoryStateStore,
  StateLockedError,
  ValidationError,
} from 'converge';
import { setup, thing } from '../helpers/builders.js';
import { TestCloud, testProvider } from '../helpers/test-provider.js';

/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

const ref = (r: string) => ({ '@converge': 'ref', resource: r, path: 'address' });

async function applied() {
  const s = setup();
  await s.engine.apply(
    await s.engine.plan([thing('net'), thing('web', { peer: ref('net'), password: 'hunter2-password' })]),
  );
  return s;
}

describe('state operations', () => {
  it('lists every record with its type and id', async () => {
    const { engine } = await applied();
    const list = await engine.stateList();
    expect(list.map((e) => e.address)).toEqual(['net', 'web']);
    expect(list[0]).toMatchObject({ type: 'test:index/thing:Thing', id: expect.stringMatching(/^thing-/) });
  });

  it('shows one record with secret inputs and outputs redacted', async () => {
    const { engine } = await applied();
    const r = await engine.stateShow('web');
    expect(r.inputs.password).toEqual({ '@converge': 'sensitive' });
    expect(r.outputs.token).toEqual({ '@converge': 'sensitive' });
    expect(JSON.stringify(r)).not.toContain('hunter2-password');
  });

  it('rm forgets the record without deleting the object, as one journaled change', async () => {
    const { engine, cloud } = await applied();
    const before = (await engine.state()).serial;
    cloud.calls = [];
    expect(await engine.stateRm(['web'])).toEqual(['web']);
    const state = await engine.state();
    expect(state.resources.web).toBeUndefined();
    expect(state.serial).toBe(before + 1);
    expect(cloud.count('thing')).toBe(2);
    expect(cloud.calls).toEqual([]);
  });

  it('rm of an address not in the state is a ValidationError with a suggestion, changing nothing', async () => {
    const { engine } = await applied();
    const serial = (await engine.state()).serial;
    const err = await engine.stateRm(['wbe']).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues[0]).toMatchObject({ code: 'unknown_name', suggestion: 'web' });
    expect((await engine.state()).serial).toBe(serial);
  });

  it('mv renames the record and the dependencies that name it; the next plan under the new name has no changes', async () => {
    const { engine, cloud } = await applied();
    await engine.stateMv('net', 'network');
    const state = await engine.state();
    expect(state.resources.net).toBeUndefined();
    expect(state.resources.network!.name).toBe('network');
    expect(state.resources.web!.dependencies).toEqual(['network']);
    cloud.calls = [];
    const plan = await engine.plan([
      thing('network', { name: 'net' }),
      thing('web', { peer: ref('network'), password: 'hunter2-password' }),
    ]);
    expect(plan.hasChanges).toBe(false);
  });

  it('mv onto a name already in the state is refused', async () => {
    const { engine } = await applied();
    await expect(engine.stateMv('net', 'web')).rejects.toMatchObject({ code: 'CONVERGE_VALIDATION' });
  });

  it('mv refuses a new name with a newline or another control character, before taking the lock', async () => {
    const { engine, store } = await applied();
    const err = await engine.stateMv('net', 'net\nx').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CONVERGE_VALIDATION', issues: [{ resource: 'net\nx', path: ['to'] }] });
    expect((err as Error).message).toContain('a newline');
    expect((await store.read()).resources.net).toBeDefined();
  });

  it('rm and mv wait for the lock: refused while another operation holds it', async () => {
    const { engine, store } = await applied();
    const lock = await store.lock({ operation: 'apply' });
    await expect(engine.stateRm(['web'])).rejects.toBeInstanceOf(StateLockedError);
    await expect(engine.stateMv('web', 'w2')).rejects.toBeInstanceOf(StateLockedError);
    await lock.release();
  });

  it('forceUnlock releases a memory lock by its id (its holder is this process: only with force), and refuses an id that holds nothing', async () => {
    const store = new MemoryStateStore();
    const engine = new Engine({ providers: [testProvider(new TestCloud())], state: store });
    const held = await store.lock({ operation: 'apply' });
    const err = await engine.stateRm(['x']).catch((e) => e);
    expect(err).toBeInstanceOf(StateLockedError);
    await expect(engine.forceUnlock('not-a-lock')).rejects.toMatchObject({ code: 'CONVERGE_LOCK_NOT_FOUND' });
    await expect(engine.forceUnlock(err.lockId)).rejects.toMatchObject({
      code: 'CONVERGE_LOCK_HOLDER_ALIVE',
      liveness: 'alive',
      pid: process.pid,
    });
    await engine.forceUnlock(err.lockId, { force: true });
    expect(err.lockId).toBe(held.info.id);
    await expect(engine.plan([thing('a')])).resolves.toBeDefined();
  });

  it('forceUnlock removes a file lock left by a holder that is gone, with no question', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'converge-wf-')), 'state.json');
    const engine = new Engine({ providers: [testProvider(new TestCloud())], state: new FileStateStore(path) });
    await engine.plan([thing('a')]); // makes the directory
    const dead = {
      id: 'dead-holder',
      pid: deadPid(),
      host: hostname(),
      operation: 'apply',
      since: new Date().toISOString(),
    };
    writeFileSync(`${path}.lock`, JSON.stringify(dead));
    await engine.forceUnlock('dead-holder');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('forceUnlock refuses a file lock whose holder runs (this process) or is on another host, unless forced', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'converge-wf-')), 'state.json');
    const store = new FileStateStore(path);
    const engine = new Engine({ providers: [testProvider(new TestCloud())], state: new FileStateStore(path) });
    const held = await store.lock({ operation: 'apply' });
    const alive = await engine.forceUnlock(held.info.id).catch((e) => e);
    expect(alive).toBeInstanceOf(LockHolderAliveError);
    expect(alive).toMatchObject({
      lockId: held.info.id,
      pid: process.pid,
      host: hostname(),
      liveness: 'alive',
      operation: 'apply',
    });
    expect(alive.message).toContain(`a process with pid ${process.pid} runs on this host`);
    expect(alive.message).toContain(`converge force-unlock --force ${held.info.id}`);
    await expect(engine.plan([thing('a')])).rejects.toBeInstanceOf(StateLockedError); // still held
    await engine.forceUnlock(held.info.id, { force: true });
    await expect(engine.plan([thing('a')])).resolves.toBeDefined();

    const remote = {
      id: 'remote-holder',
      pid: 4242,
      host: 'build-7.example',
      operation: 'apply',
      since: new Date().toISOString(),
    };
    writeFileSync(`${path}.lock`, JSON.stringify(remote));
    const unknown = await engine.forceUnlock('remote-holder').catch((e) => e);
    expect(unknown).toMatchObject({ code: 'CONVERGE_LOCK_HOLDER_ALIVE', liveness: 'unknown', host: 'build-7.example' });
    expect(unknown.message).toContain('runs on another host (build-7.example)');
    await engine.forceUnlock('remote-holder', { force: true });
    await expect(engine.plan([thing('a')])).resolves.toBeDefined();
  });
});
