import { describe, expect, it } from 'vitest';
import { ref, ValidationError, ProtectedResourceError, isUnknown } from 'converge';
import { setup, thing, blob } from '../helpers/builders.js';

describe('plan', () => {
  it('plans a create for every declared resource not in state, with defaults applied', async () => {
    const { engine } = setup();
    const plan = await engine.plan([thing('a'), thing('b', { size: 'large' })]);
    expect(plan.summary).toMatchObject({ create: 2, update: 0, replace: 0, delete: 0 });
    expect(plan.steps.map((s) => s.action)).toEqual(['create', 'create']);
    expect(plan.steps[0]!.after).toMatchObject({ name: 'a', size: 'small', region: 'eu' });
    expect(plan.hasChanges).toBe(true);
  });

  it('plans nothing but noops after the plan is applied', async () => {
    const { engine } = setup();
    const decls = [thing('a'), thing('b', { peer: ref('a', 'address') })];
    await engine.apply(await engine.plan(decls));
    const again = await engine.plan(decls);
    expect(again.steps.every((s) => s.action === 'noop')).toBe(true);
    expect(again.hasChanges).toBe(false);
  });

  it('plans an in-place update with the changed paths', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('a')]));
    const plan = await engine.plan([thing('a', { size: 'large', tags: { env: 'prod' } })]);
    expect(plan.steps[0]!.action).toBe('update');
    expect(plan.steps[0]!.changes.map((c) => c.path).sort()).toEqual(['size', 'tags.env']);
  });

  it('replaces a resource when a replaceOn input changes and names the path', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('a')]));
    const plan = await engine.plan([thing('a', { region: 'us', size: 'large' })]);
    const step = plan.steps[0]!;
    expect(step.action).toBe('replace');
    expect(step.reasons).toEqual(['region']);
    expect(step.changes.find((c) => c.path === 'region')!.forcesReplacement).toBe(true);
    expect(step.changes.find((c) => c.path === 'size')!.forcesReplacement).toBe(false);
  });

  it('replaces on a path listed in replaceOnChanges', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('a')]));
    const plan = await engine.plan([thing('a', { size: 'large' }, { replaceOnChanges: ['size'] })]);
    expect(plan.steps[0]!.action).toBe('replace');
    expect(plan.steps[0]!.reasons).toEqual(['size']);
  });

  it('replaces a resource whose type has no update when any input changes', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([blob('b', { content: 'x' })]));
    const plan = await engine.plan([blob('b', { content: 'y' })]);
    expect(plan.steps[0]!.action).toBe('replace');
    expect(plan.steps[0]!.reasons).toEqual(['content']);
  });

  it('plans a delete for a resource removed from the stack, and a forget with retainOnDelete', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('a'), thing('b', {}, { retainOnDelete: true })]));
    const plan = await engine.plan([]);
    expect(Object.fromEntries(plan.steps.map((s) => [s.address, s.action]))).toEqual({ a: 'delete', b: 'forget' });
    expect(plan.steps.find((s) => s.address === 'a')!.cause).toBe('removed');
  });

  it('does not plan changes at ignoreChanges paths', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('a', { tags: { a: '1' } })]));
    const plan = await engine.plan([thing('a', { tags: { a: '2' }, size: 'large' }, { ignoreChanges: ['tags'] })]);
    expect(plan.steps[0]!.action).toBe('update');
    expect(plan.steps[0]!.changes.filter((c) => c.scope !== 'state').map((c) => c.path)).toEqual(['size']);
    // The new option itself is a recorded change.
    expect(plan.steps[0]!.changes.filter((c) => c.scope === 'state').map((c) => c.path)).toEqual([
      'options.ignoreChanges',
    ]);
  });

  it('fails with ProtectedResourceError when a protected resource would be deleted or replaced', async () => {
    const { engine, cloud } = setup();
    await engine.apply(await engine.plan([thing('a', {}, { protect: true })]));
    const writes = () => cloud.calls.filter((c) => c.op !== 'read').length;
    const before = writes();
    await expect(engine.plan([])).rejects.toMatchObject({
      code: 'CONVERGE_PROTECTED_RESOURCE',
      address: 'a',
      action: 'delete',
    });
    await expect(engine.plan([thing('a', { region: 'us' }, { protect: true })])).rejects.toBeInstanceOf(
      ProtectedResourceError,
    );
    expect(writes()).toBe(before);
    expect(cloud.count('thing')).toBe(1);
  });

  it('shows references to outputs of resources being created as unknown', async () => {
    const { engine } = setup();
    const plan = await engine.plan([thing('a'), thing('b', { peer: ref('a', 'address') })]);
    const b = plan.steps.find((s) => s.address === 'b')!;
    expect(isUnknown(b.after!.peer)).toBe(true);
    expect(b.dependsOn).toEqual(['a']);
    expect(plan.render({ color: false })).toContain('peer = (known after apply)');
  });

  it('keeps references known when the upstream update cannot change that output', async () => {
    const { engine } = setup();
    const decls = (size: string) => [
      thing('a', { size }),
      thing('b', { peer: ref('a', 'address') }),
      thing('c', { peer: ref('a', 'status') }),
    ];
    await engine.apply(await engine.plan(decls('small')));
    const plan = await engine.plan(decls('large'));
    expect(Object.fromEntries(plan.steps.map((s) => [s.address, s.action]))).toEqual({
      a: 'update',
      b: 'noop',
      c: 'update',
    });
  });

  it('moves state under a new name through aliases, without replacement', async () => {
    const { engine, cloud } = setup();
    await engine.apply(await engine.plan([thing('old', { name: 'x' })]));
    const plan = await engine.plan([{ ...thing('new', { name: 'x' }), options: { aliases: ['old'] } }]);
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]).toMatchObject({ address: 'new', action: 'noop', movedFrom: 'old' });
    expect(plan.hasChanges).toBe(true);
    await engine.apply(plan);
    const state = await engine.state();
    expect(Object.keys(state.resources)).toEqual(['new']);
    expect(cloud.count('thing')).toBe(1);
    expect((await engine.plan([{ ...thing('new', { name: 'x' }), options: { aliases: ['old'] } }])).hasChanges).toBe(
      false,
    );
  });

  it('limits a plan to the targets and what they depend on', async () => {
    const { engine } = setup();
    const plan = await engine.plan([thing('a'), thing('b', { peer: ref('a', 'address') }), thing('c')], {
      targets: ['b'],
    });
    expect(plan.steps.map((s) => s.address)).toEqual(['a', 'b']);
  });

  it('records the lineage and serial of the state it was made against', async () => {
    const { engine } = setup();
    const state = await engine.state();
    const plan = await engine.plan([thing('a')]);
    expect(plan.lineage).toBe(state.lineage);
    expect(plan.serial).toBe(state.serial);
  });

  it('reads every resource when refreshing and plans against what is really there', async () => {
    const { engine, cloud } = setup();
    await engine.apply(await engine.plan([thing('a')]));
    const obj = [...cloud.objects.values()][0]!;
    obj.inputs.size = 'large';
    const plan = await engine.plan([thing('a')]);
    expect(plan.steps[0]!.action).toBe('update');
    expect(plan.steps[0]!.changes[0]).toMatchObject({ path: 'size', before: 'large', after: 'small' });
    expect((await engine.plan([thing('a')], { refresh: false })).hasChanges).toBe(false);
  });

  it('plans a create again for a resource deleted outside converge', async () => {
    const { engine, cloud } = setup();
    await engine.apply(await engine.plan([thing('a')]));
    cloud.objects.clear();
    const plan = await engine.plan([thing('a')]);
    expect(plan.steps[0]).toMatchObject({ action: 'create', cause: 'gone' });
  });

  it('carries plan warnings from the provider', async () => {
    const { engine } = setup();
    const plan = await engine.plan([thing('a', { size: 'medium' })]);
    expect(plan.warnings).toEqual(['a: size medium is deprecated']);
  });
});

describe('plan validation', () => {
  it('reports every invalid input at once, naming resource and path, and calls no provider', async () => {
    const { engine, cloud } = setup();
    const err = await engine
      .plan([
        thing('a', { size: 'huge' }),
        thing('b', { ports: [80, 70000] }),
        { type: 'test:index/nope:Nope', name: 'c', inputs: {} },
        thing('a'),
        thing('d', { peer: ref('zzz', 'address') }),
        thing('e', { peer: ref('a', 'nonexistent') }),
        thing('f', { region: 'tiny', size: 'large' }),
      ])
      .catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const found = (err as ValidationError).issues.map((i) => [i.resource, i.path.join('.'), i.code]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['c', 'type', 'unknown_type'],
        ['a', '', 'duplicate_name'],
        ['d', 'peer', 'missing_reference'],
        ['e', 'peer', 'missing_output'],
      ]),
    );
    expect(cloud.calls).toHaveLength(0);
  });

  it('reports schema problems of every resource together', async () => {
    const { engine, cloud } = setup();
    const err = await engine
      .plan([
        thing('a', { size: 'huge' }),
        thing('b', { ports: [80, 70000] }),
        thing('f', { region: 'tiny', size: 'large' }),
        thing('g', { bogus: 1 }),
      ])
      .catch((e) => e);
    const found = (err as ValidationError).issues.map((i) => [i.resource, i.path.join('.')]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['a', 'size'],
        ['b', 'ports.1'],
        ['f', 'size'],
        ['g', 'bogus'],
      ]),
    );
    expect(cloud.calls).toHaveLength(0);
  });

  it('names the cycle', async () => {
    const { engine } = setup();
    const err = await engine
      .plan([
        thing('a', { peer: ref('b', 'address') }),
        thing('b', { peer: ref('c', 'address') }),
        thing('c', {}, { dependsOn: ['a'] }),
      ])
      .catch((e) => e);
    const issue = (err as ValidationError).issues.find((i) => i.code === 'dependency_cycle')!;
    expect([
      ['a', 'b', 'c', 'a'],
      ['b', 'c', 'a', 'b'],
      ['c', 'a', 'b', 'c'],
    ]).toContainEqual(issue.cycle);
  });

  it('rejects malformed options and timeouts', async () => {
    const { engine } = setup();
    const err = await engine
      .plan([
        thing('a', {}, { timeouts: { create: 'soon' } } as never),
        thing('b', {}, { protect: 'yes' } as never),
        thing('c', {}, { dependsOn: ['nope'] }),
      ])
      .catch((e) => e);
    expect((err as ValidationError).issues.map((i) => [i.resource, `${i.field}:${i.path.join('.')}`, i.code])).toEqual(
      expect.arrayContaining([
        ['a', 'options:timeouts.create', 'invalid_option'],
        ['b', 'options:protect', 'invalid_option'],
        ['c', 'options:dependsOn.0', 'missing_reference'],
      ]),
    );
  });

  it('throws a TypeError for a bad parallelism', async () => {
    const { Engine, MemoryStateStore } = await import('converge');
    expect(() => new Engine({ providers: [], state: new MemoryStateStore(), parallelism: 0 })).toThrow(TypeError);
  });
});
