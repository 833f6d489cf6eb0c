// State operations: list, show (secrets redacted), rm (forget, object untouched), mv (rename and
// dependencies follow), each under the lock and journaled; forceUnlock for a lock whose holder is
// gone, on the memory and file stores.
import { describe, it, expect } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, FileStateStore, MemoryStateStore, StateLockedError, ValidationError } from 'converge';
import { setup, thing } from '../helpers/builders.js';
import { TestCloud, testProvider } from '../helpers/test-provider.js';

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

  it('rm and mv wait for the lock: refused while another operation holds it', async () => {
    const { engine, store } = await applied();
    const lock = await store.lock({ operation: 'apply' });
    await expect(engine.stateRm(['web'])).rejects.toBeInstanceOf(StateLockedError);
    await expect(engine.stateMv('web', 'w2')).rejects.toBeInstanceOf(StateLockedError);
    await lock.release();
  });

  it('forceUnlock releases a memory lock by its id, and refuses an id that holds nothing', async () => {
    const store = new MemoryStateStore();
    const engine = new Engine({ providers: [testProvider(new TestCloud())], state: store });
    const held = await store.lock({ operation: 'apply' });
    const err = await engine.stateRm(['x']).catch((e) => e);
    expect(err).toBeInstanceOf(StateLockedError);
    await expect(engine.forceUnlock('not-a-lock')).rejects.toMatchObject({ code: 'CONVERGE_LOCK_NOT_FOUND' });
    await engine.forceUnlock(err.lockId);
    expect(err.lockId).toBe(held.info.id);
    await expect(engine.plan([thing('a')])).resolves.toBeDefined();
  });

  it('forceUnlock removes a file lock left by a holder that is gone', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'converge-wf-')), 'state.json');
    const store = new FileStateStore(path);
    const engine = new Engine({ providers: [testProvider(new TestCloud())], state: new FileStateStore(path) });
    const held = await store.lock({ operation: 'apply' });
    await expect(engine.plan([thing('a')])).rejects.toBeInstanceOf(StateLockedError);
    await engine.forceUnlock(held.info.id);
    await expect(engine.plan([thing('a')])).resolves.toBeDefined();
  });
});
