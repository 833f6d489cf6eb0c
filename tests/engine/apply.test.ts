import { describe, expect, it } from 'vitest';
import { ref, ApplyError, StalePlanError, TimeoutError, MemoryStateStore, MemoryLocation, type Event } from 'converge';
import { markPending } from '../../src/state/ops.js';
import { setup, thing, blob } from '../helpers/builders.js';

describe('apply', () => {
  it('creates resources after everything they reference and records outputs', async () => {
    const { engine, cloud } = setup();
    const result = await engine.apply(await engine.plan([thing('b', { peer: ref('a', 'address') }), thing('a')]));
    expect(result.succeeded.map((s) => s.address).sort()).toEqual(['a', 'b']);
    const b = [...cloud.objects.values()].find((o) => o.inputs.name === 'b')!;
    expect(b.inputs.peer).toBe('a.example');
    expect(result.outputs.b).toMatchObject({ address: 'b.example' });
  });

  it('runs independent steps concurrently up to parallelism', async () => {
    const { engine, cloud } = setup({ parallelism: 3 });
    cloud.latencyMs = 5;
    let active = 0;
    let peak = 0;
    const plan = await engine.plan(Array.from({ length: 12 }, (_, i) => thing(`t${i}`)));
    await engine.apply(plan, {
      onEvent: (e) => {
        if (e.type === 'step_start') peak = Math.max(peak, ++active);
        if (e.type === 'step_finish') active--;
      },
    });
    expect(peak).toBe(3);
    expect(cloud.count('thing')).toBe(12);
  });

  it('deletes in reverse dependency order', async () => {
    const { engine, cloud } = setup();
    await engine.apply(
      await engine.plan([
        thing('a'),
        thing('b', { peer: ref('a', 'address') }),
        thing('c', { peer: ref('b', 'address') }),
      ]),
    );
    cloud.calls.length = 0;
    await engine.apply(await engine.plan([], { refresh: false }));
    const ids = new Map([...[1, 2, 3]].map((n) => [`thing-${n}`, n]));
    expect(cloud.calls.filter((c) => c.op === 'delete').map((c) => ids.get(c.id!))).toEqual([3, 2, 1]);
  });

  it('keeps going after a failed step, skips its dependents and reports all in ApplyError', async () => {
    const { engine, cloud } = setup();
    cloud.failCreate.set('a', { times: 99, status: 400 });
    const plan = await engine.plan([thing('a'), thing('b', { peer: ref('a', 'address') }), thing('c')]);
    const err = await engine.apply(plan).catch((e) => e);
    expect(err).toBeInstanceOf(ApplyError);
    const r = (err as ApplyError).result;
    expect(r.failed.map((f) => f.address)).toEqual(['a']);
    expect(r.skipped).toEqual([
      { address: 'b', action: 'create', because: { kind: 'dependency-failed', address: 'a' } },
    ]);
    expect(r.succeeded.map((s) => s.address)).toEqual(['c']);
    const state = await engine.state();
    expect(Object.keys(state.resources)).toEqual(['c']);
    expect(Object.keys(state.pending)).toEqual([]);
  });

  it('throws StalePlanError and changes nothing when the state moved on', async () => {
    const { engine, cloud } = setup();
    const p1 = await engine.plan([thing('a')]);
    const p2 = await engine.plan([thing('b')]);
    await engine.apply(p1);
    const err = await engine.apply(p2).catch((e) => e);
    expect(err).toBeInstanceOf(StalePlanError);
    expect(err).toMatchObject({ planSerial: 0, stateSerial: p1.serial + 2 });
    expect(cloud.count('thing')).toBe(1);
  });

  it("does not retry a provider call itself: a transient failure fails the step once (wire retries are the HTTP kit's)", async () => {
    const { engine, cloud, events } = setup();
    cloud.failCreate.set('a', { times: 1, status: 429 });
    const err = await engine.apply(await engine.plan([thing('a')])).catch((e) => e);
    expect(err).toBeInstanceOf(ApplyError);
    expect(cloud.calls.filter((c) => c.op === 'create')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(0);
    expect(Object.keys((await engine.state()).pending)).toEqual([]);
  });

  it('looks for the object before retrying a create whose outcome is unknown, so nothing is made twice', async () => {
    const { engine, cloud } = setup();
    cloud.failCreate.set('a', { times: 1, status: 502, afterCreate: true });
    await engine.apply(await engine.plan([thing('a')]));
    expect(cloud.count('thing')).toBe(1);
    expect(cloud.calls.filter((c) => c.op === 'find')).toHaveLength(1);
    const state = await engine.state();
    expect(state.resources.a!.id).toBe([...cloud.objects.keys()][0]);
  });

  it('aborts a step at its timeout with a TimeoutError naming resource, operation and limit', async () => {
    const { engine, cloud } = setup();
    cloud.hangCreate.add('a');
    const err = await engine
      .apply(await engine.plan([thing('a', {}, { timeouts: { create: '20ms' } })]))
      .catch((e) => e);
    const cause = (err as ApplyError).result.failed[0]!.error;
    expect(cause).toBeInstanceOf(TimeoutError);
    expect(cause).toMatchObject({ address: 'a', operation: 'create', limitMs: 20 });
    // After the timeout find looked and saw no object: nothing was made, so the pending record goes.
    expect(cloud.calls.filter((c) => c.op === 'find')).toHaveLength(1);
    expect(Object.values((await engine.state()).pending)).toHaveLength(0);
  });

  it('replaces delete-first by default and create-first with createBeforeDestroy', async () => {
    const { engine, cloud } = setup({ parallelism: 1 });
    await engine.apply(await engine.plan([thing('a'), thing('b')]));
    cloud.calls.length = 0;
    await engine.apply(
      await engine.plan([thing('a', { region: 'us' }), thing('b', { region: 'us' }, { createBeforeDestroy: true })], {
        refresh: false,
      }),
    );
    const seq = cloud.calls.filter((c) => c.op !== 'read').map((c) => `${c.op}:${c.id ?? ''}`);
    // a (thing-1): delete, then create. b (thing-2): create, then delete.
    expect(seq).toEqual(['delete:thing-1', 'create:', 'create:', 'delete:thing-2']);
    const state = await engine.state();
    expect(Object.keys(state.resources).sort()).toEqual(['a', 'b']);
    expect(cloud.count('thing')).toBe(2);
    expect(state.resources.b!.id).not.toBe('thing-2');
  });

  it('emits typed events for each step with elapsed times', async () => {
    const { engine, events } = setup();
    await engine.apply(await engine.plan([thing('a')]));
    const types = events.map((e: Event) => e.type);
    expect(types).toEqual(expect.arrayContaining(['apply_start', 'step_start', 'step_finish', 'apply_finish']));
    const finish = events.find((e) => e.type === 'step_finish')!;
    expect(finish).toMatchObject({ address: 'a', action: 'create' });
    expect(typeof (finish as { elapsedMs: number }).elapsedMs).toBe('number');
  });
});

describe('recovery', () => {
  it('adopts an object a crashed create had made, and says so in the plan warnings', async () => {
    const location = new MemoryLocation();
    const first = setup({ store: new MemoryStateStore(location) });
    const state = await first.engine.state();
    // The crash: the pending record is durable and the object exists, but nothing recorded it.
    await first.store.commit(
      markPending(state.serial, {
        id: 'op-1',
        kind: 'create',
        type: 'test:index/thing:Thing',
        name: 'a',
        provider: 'test',
        inputs: { name: 'a', size: 'small', region: 'eu', tags: {}, ports: [] },
        secrets: [],
      }).change,
    );
    first.cloud.objects.set('thing-77', {
      id: 'thing-77',
      kind: 'thing',
      inputs: { name: 'a', size: 'small', region: 'eu', tags: {}, ports: [] },
      outputs: { address: 'a.example', token: 't', status: 'ready' },
      operationId: 'op-1',
    });
    const plan = await first.engine.plan([thing('a')]);
    expect(plan.warnings).toHaveLength(1);
    expect(plan.steps[0]!.action).toBe('noop');
    const after = await first.engine.state();
    expect(after.resources.a!.id).toBe('thing-77');
    expect(Object.keys(after.pending)).toEqual([]);
  });

  it('drops a pending create that left no object', async () => {
    const { engine, store } = setup();
    const state = await engine.state();
    await store.commit(
      markPending(state.serial, {
        kind: 'create',
        type: 'test:index/thing:Thing',
        name: 'a',
        provider: 'test',
        inputs: { name: 'a' },
        secrets: [],
      }).change,
    );
    const plan = await engine.plan([thing('a')]);
    expect(plan.warnings).toHaveLength(1);
    expect(plan.steps[0]!.action).toBe('create');
    expect(Object.keys((await engine.state()).pending)).toEqual([]);
  });
});

describe('refresh, import, destroy, lookup', () => {
  it('refresh records drift and forgets what is gone', async () => {
    const { engine, cloud } = setup();
    await engine.apply(await engine.plan([thing('a'), thing('b')]));
    cloud.objects.get('thing-1')!.inputs.size = 'large';
    cloud.objects.delete('thing-2');
    const r = await engine.refresh();
    expect(r.drifted).toEqual([{ address: 'a', changes: [{ path: 'size', before: 'small', after: 'large' }] }]);
    expect(r.gone).toEqual(['b']);
    const state = await engine.state();
    expect(Object.keys(state.resources)).toEqual(['a']);
    expect(state.resources.a!.inputs.size).toBe('large');
  });

  it('import adopts an object so the next plan of a matching declaration is a noop', async () => {
    const { engine, cloud } = setup();
    cloud.objects.set('thing-9', {
      id: 'thing-9',
      kind: 'thing',
      inputs: { name: 'x', size: 'large', region: 'eu', tags: {}, ports: [] },
      outputs: { address: 'x.example', token: 's3cret', status: 'ready' },
    });
    const imported = await engine.import(thing('x', { size: 'large' }), 'thing-9');
    expect(imported).toMatchObject({ address: 'x', id: 'thing-9' });
    expect(JSON.stringify(imported)).not.toContain('s3cret');
    const plan = await engine.plan([thing('x', { size: 'large' })]);
    expect(plan.steps[0]!.action).toBe('noop');
  });

  it('import refuses an ID of the wrong form, naming the field', async () => {
    const { engine } = setup();
    await expect(engine.import(thing('x'), 'nope')).rejects.toMatchObject({
      code: 'CONVERGE_VALIDATION',
      issues: [expect.objectContaining({ resource: 'x', path: ['id'] })],
    });
  });

  it('destroy deletes everything, forgets retained resources and refuses protected ones', async () => {
    const { engine, cloud } = setup();
    await engine.apply(
      await engine.plan([
        thing('a'),
        thing('b', {}, { retainOnDelete: true }),
        blob('c', { content: 'x', thingId: ref('a', 'id') }),
      ]),
    );
    const result = await engine.destroy();
    expect(result.succeeded.map((s) => `${s.action}:${s.address}`).sort()).toEqual([
      'delete:a',
      'delete:c',
      'forget:b',
    ]);
    expect(cloud.count('thing')).toBe(1);
    expect(Object.keys((await engine.state()).resources)).toEqual([]);
    const p = setup();
    await p.engine.apply(await p.engine.plan([thing('a', {}, { protect: true })]));
    await expect(p.engine.destroy()).rejects.toMatchObject({ code: 'CONVERGE_PROTECTED_RESOURCE' });
  });

  it('lookup validates args and reports not-found and ambiguity with facts', async () => {
    const { engine, cloud } = setup();
    await expect(engine.lookup('test:index/getThing:getThing', { nom: 'x' })).rejects.toMatchObject({
      code: 'CONVERGE_VALIDATION',
    });
    await expect(engine.lookup('test:index/getThing:getThing', { name: 'x' })).rejects.toMatchObject({
      code: 'CONVERGE_LOOKUP',
      reason: 'not_found',
    });
    for (const id of ['thing-1', 'thing-2'])
      cloud.objects.set(id, { id, kind: 'thing', inputs: { name: 'x' }, outputs: { address: 'x' } });
    await expect(engine.lookup('test:index/getThing:getThing', { name: 'x' })).rejects.toMatchObject({
      reason: 'ambiguous',
      matches: ['thing-1', 'thing-2'],
    });
    cloud.objects.delete('thing-2');
    await expect(engine.lookup('test:index/getThing:getThing', { name: 'x' })).resolves.toEqual({
      id: 'thing-1',
      address: 'x',
    });
  });
});

describe('secrets', () => {
  it('never shows a secret input or output in render, JSON, events or errors', async () => {
    const { engine, cloud, events } = setup();
    const plan = await engine.plan([thing('a', { password: 'hunter2-very-secret' })]);
    expect(plan.render({ color: false })).toContain('password = (sensitive value)');
    expect(plan.render()).not.toContain('hunter2');
    expect(JSON.stringify(plan)).not.toContain('hunter2');
    const result = await engine.apply(plan);
    expect(JSON.stringify(result.outputs)).not.toContain('-secret');
    cloud.failUpdate.add('a');
    const err = await engine
      .apply(await engine.plan([thing('a', { password: 'hunter2-very-secret', size: 'large' })]))
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApplyError);
    expect(err.message).not.toContain('hunter2');
    expect((err as ApplyError).result.failed[0]!.error.message).not.toContain('hunter2');
    expect(JSON.stringify(events)).not.toContain('hunter2');
    const update = await engine.plan([thing('a', { password: 'other-secret-value' })]);
    expect(update.render()).not.toContain('other-secret-value');
    expect(JSON.stringify(update)).not.toContain('hunter2');
  });
});

describe('partial creates', () => {
  it('records an object a failed create left behind as tainted, and the next plan replaces it', async () => {
    const { engine, cloud } = setup();
    cloud.failCreate.set('a', { times: 1, status: 409, afterCreate: true });
    const err = await engine.apply(await engine.plan([thing('a')])).catch((e) => e);
    expect(err).toBeInstanceOf(ApplyError);
    const state = await engine.state();
    expect(state.resources.a).toMatchObject({ id: 'thing-1', tainted: true });
    expect(Object.keys(state.pending)).toEqual([]);
    const plan = await engine.plan([thing('a')]);
    expect(plan.steps[0]).toMatchObject({ action: 'replace', cause: 'tainted' });
    expect(plan.render({ color: false })).toContain('a is tainted, so must be replaced');
    await engine.apply(plan);
    expect(cloud.count('thing')).toBe(1);
    expect((await engine.state()).resources.a!.tainted).toBeUndefined();
  });
});

describe('import with references', () => {
  it('resolves references against the state, so nothing but the object is recorded', async () => {
    const { engine, cloud } = setup();
    await engine.apply(await engine.plan([thing('a')]));
    cloud.objects.set('blob-9', {
      id: 'blob-9',
      kind: 'blob',
      inputs: { content: 'x', thingId: 'thing-1' },
      outputs: { length: 1 },
    });
    await engine.import(blob('b', { content: 'x', thingId: ref('a', 'id') }), 'blob-9');
    const state = await engine.state();
    expect(state.resources.b!.inputs).toEqual({ content: 'x', thingId: 'thing-1' });
    const plan = await engine.plan([thing('a'), blob('b', { content: 'x', thingId: ref('a', 'id') })]);
    expect(plan.hasChanges).toBe(false);
  });
});
