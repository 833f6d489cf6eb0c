// Policies at their levels (issue 27): set where a policy is used, not in it. Advisory findings are
// shown and apply goes ahead; mandatory ones make apply refuse with every violation listed, before
// anything is read or changed; disabled policies are not run at all. Policies run after every plan
// (normal, destroy, refresh-only), may come from the engine or the plan's options, and a policy's
// own bug (a throw, a promise, a malformed use) is named.
import { describe, expect, it } from 'vitest';
import {
  ConvergeError,
  Engine,
  MemoryStateStore,
  PolicyViolationError,
  type Policy,
  type PolicyUse,
  type Step,
} from 'converge';
import { TestCloud, testProvider } from '../helpers/test-provider.js';
import { thing } from '../helpers/builders.js';

/** No thing may be large. */
const noLarge: Policy = {
  name: 'no-large',
  description: 'Things are small or medium.',
  types: ['test:index/thing:Thing'],
  resource: (step, report) => {
    if (step.after?.size === 'large') report('a thing must not be large', { path: 'size' });
  },
};
/** At most two things in a stack. */
const atMostTwo: Policy = {
  name: 'at-most-two',
  stack: (plan, report) => {
    const kept = plan.steps.filter((s) => s.after !== undefined).length;
    if (kept > 2) report(`${kept} things; at most 2`);
  },
};

function setup(policies?: readonly PolicyUse[]) {
  const cloud = new TestCloud();
  const engine = new Engine({
    providers: [testProvider(cloud)],
    state: new MemoryStateStore(),
    retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 },
    ...(policies ? { policies } : {}),
  });
  return { cloud, engine };
}

const writes = (cloud: TestCloud) => cloud.calls.filter((c) => c.op !== 'read');

describe('policy levels', () => {
  it('shows an advisory violation and applies the plan anyway', async () => {
    const { cloud, engine } = setup([{ policy: noLarge, level: 'advisory' }]);
    const plan = await engine.plan([thing('a', { size: 'large' })]);
    expect(plan.violations).toEqual([
      { policy: 'no-large', level: 'advisory', address: 'a', message: 'a thing must not be large', path: 'size' },
    ]);
    await engine.apply(plan);
    expect(writes(cloud)).toEqual([{ op: 'create', kind: 'thing', name: 'a' }]);
  });

  it('refuses a plan with mandatory violations, listing every one, and changes nothing', async () => {
    const { cloud, engine } = setup([
      { policy: noLarge, level: 'mandatory' },
      { policy: atMostTwo, level: 'mandatory' },
    ]);
    const plan = await engine.plan([thing('a', { size: 'large' }), thing('b', { size: 'large' }), thing('c')]);
    const err = await engine.apply(plan).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyViolationError);
    const e = err as PolicyViolationError;
    expect(e.code).toBe('CONVERGE_POLICY_VIOLATION');
    expect(e.at).toBe('plan');
    expect(e.violations.map((v) => [v.policy, v.address, v.level])).toEqual([
      ['no-large', 'a', 'mandatory'],
      ['no-large', 'b', 'mandatory'],
      ['at-most-two', '', 'mandatory'],
    ]);
    expect(e.message).toContain('no-large: a.size: a thing must not be large');
    expect(e.message).toContain('at-most-two: (stack): 3 things; at most 2');
    expect(writes(cloud)).toEqual([]);
    expect((await engine.state()).resources).toEqual({});
  });

  it('does not run a disabled policy at all', async () => {
    let runs = 0;
    const counting: Policy = { name: 'counting', resource: () => void runs++, stack: () => void runs++ };
    const { engine } = setup([{ policy: counting, level: 'disabled' }]);
    const plan = await engine.plan([thing('a', { size: 'large' })]);
    expect(runs).toBe(0);
    expect(plan.violations).toEqual([]);
    await engine.apply(plan);
    expect(runs).toBe(0);
  });

  it("takes a plan's own policies with the engine's, a use of the same name in the plan replacing the engine's", async () => {
    const { cloud, engine } = setup([{ policy: noLarge, level: 'mandatory' }]);
    const plan = await engine.plan([thing('a', { size: 'large' }), thing('b'), thing('c')], {
      policies: [
        { policy: noLarge, level: 'advisory' },
        { policy: atMostTwo, level: 'advisory' },
      ],
    });
    expect(plan.violations.map((v) => [v.policy, v.level])).toEqual([
      ['no-large', 'advisory'],
      ['at-most-two', 'advisory'],
    ]);
    await engine.apply(plan);
    expect(writes(cloud)).toHaveLength(3);
  });

  it('runs after destroy and refresh-only plans too', async () => {
    const seen: string[] = [];
    const modes: Policy = { name: 'modes', stack: (plan) => void seen.push(plan.mode) };
    const noDeletes: Policy = {
      name: 'no-deletes',
      resource: (step: Step, report) => {
        if (step.action === 'delete') report('deleting is not allowed here');
      },
    };
    const { engine } = setup([
      { policy: modes, level: 'advisory' },
      { policy: noDeletes, level: 'mandatory' },
    ]);
    await engine.apply(await engine.plan([thing('a')]));
    const refreshOnly = await engine.plan([thing('a')], { mode: 'refresh-only' });
    expect(refreshOnly.violations).toEqual([]);
    const destroy = await engine.planDestroy();
    expect(destroy.violations).toMatchObject([{ policy: 'no-deletes', address: 'a', level: 'mandatory' }]);
    expect(seen).toEqual(['normal', 'refresh-only', 'destroy']);
    await expect(engine.destroy()).rejects.toBeInstanceOf(PolicyViolationError);
    expect(Object.keys((await engine.state()).resources)).toEqual(['a']);
  });

  it('names a policy that throws, and one that returns a promise', async () => {
    const throwing: Policy = {
      name: 'throwing',
      resource: () => {
        throw new Error('boom');
      },
    };
    const err = await setup([{ policy: throwing, level: 'advisory' }])
      .engine.plan([thing('a')])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConvergeError);
    expect((err as ConvergeError).code).toBe('CONVERGE_POLICY_ERROR');
    expect((err as Error).message).toContain("policy 'throwing' failed on a: boom");
    const asyncPolicy = { name: 'async', resource: async () => {} } as unknown as Policy;
    await expect(setup([{ policy: asyncPolicy, level: 'advisory' }]).engine.plan([thing('a')])).rejects.toThrow(
      "Expected policy 'async' to be synchronous",
    );
  });

  it('refuses a malformed use with a TypeError naming it', () => {
    expect(() => setup([noLarge as unknown as PolicyUse])).toThrow(
      'Expected `policies[0]` to be { policy, level } (the level is set where a policy is used)',
    );
    expect(() => setup([{ policy: noLarge, level: 'hard' as 'mandatory' }])).toThrow(
      "Expected `policies[0].level` to be 'advisory', 'mandatory' or 'disabled'",
    );
    expect(() =>
      setup([
        { policy: noLarge, level: 'advisory' },
        { policy: noLarge, level: 'mandatory' },
      ]),
    ).toThrow("Expected one use per policy; 'no-large' is given twice");
  });
});
