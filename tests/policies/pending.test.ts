// Values unknown at plan time (issue 27): a policy that reads one gets the typed unknown marker and
// reports the check pending; the plan shows it; apply runs the policy again on the step's resolved
// inputs right before the step's provider call. Known and passing: the step runs. Known and
// failing (mandatory): the step does not run, nothing of it is recorded, its dependents are
// skipped, and the apply result carries a PolicyViolationError. Secrets reach a policy only as the
// sensitive marker, at plan and at apply, and never appear in a message.
import { describe, expect, it } from 'vitest';
import {
  ApplyError,
  Engine,
  MemoryStateStore,
  PolicyViolationError,
  isSensitive,
  isUnknown,
  ref,
  secret,
  type Event,
  type Policy,
  type PolicyUse,
} from 'converge';
import { TestCloud, testProvider } from '../helpers/test-provider.js';
import { thing } from '../helpers/builders.js';

/** A thing must not peer with anything 'evil'; undecidable while the peer is unknown. */
const noEvilPeer: Policy = {
  name: 'no-evil-peer',
  types: ['test:index/thing:Thing'],
  resource: (step, report) => {
    const peer = step.after?.peer;
    if (isUnknown(peer)) report.pending('peer is known only after apply', { path: 'peer' });
    else if (typeof peer === 'string' && peer.startsWith('evil'))
      report(`peers with ${peer}, which is not allowed`, { path: 'peer' });
  },
};

function setup(policies: readonly PolicyUse[]) {
  const cloud = new TestCloud();
  const events: Event[] = [];
  const engine = new Engine({
    providers: [testProvider(cloud)],
    state: new MemoryStateStore(),
    retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 },
    onEvent: (e) => events.push(e),
    policies,
  });
  return { cloud, engine, events };
}

const creates = (cloud: TestCloud) => cloud.calls.filter((c) => c.op === 'create').map((c) => c.name);

describe('policies on values unknown at plan time', () => {
  it('leaves the check pending at plan and shows it', async () => {
    const { engine } = setup([{ policy: noEvilPeer, level: 'mandatory' }]);
    const plan = await engine.plan([thing('a'), thing('b', { peer: ref('a', 'address') })]);
    expect(plan.violations).toEqual([]);
    expect(plan.pendingChecks).toEqual([
      {
        policy: 'no-evil-peer',
        level: 'mandatory',
        address: 'b',
        reason: 'peer is known only after apply',
        path: 'peer',
        from: 'resource',
      },
    ]);
    expect(plan.render({ color: false })).toContain(
      '[pending, mandatory] no-evil-peer: b.peer: peer is known only after apply',
    );
  });

  it('re-checks at apply with the known value: passing, the step runs', async () => {
    const { cloud, engine } = setup([{ policy: noEvilPeer, level: 'mandatory' }]);
    const plan = await engine.plan([thing('a'), thing('b', { peer: ref('a', 'address') })]);
    const result = await engine.apply(plan);
    expect(creates(cloud)).toEqual(['a', 'b']);
    expect(result.outputs.b).toBeDefined();
    expect((await engine.state()).resources.b?.inputs.peer).toBe('a.example');
  });

  it('re-checks at apply with the known value: failing, the step and its dependents do not run', async () => {
    const { cloud, engine, events } = setup([{ policy: noEvilPeer, level: 'mandatory' }]);
    const plan = await engine.plan([
      thing('evil'),
      thing('b', { peer: ref('evil', 'address') }),
      thing('c', { peer: ref('b', 'address') }),
    ]);
    expect(plan.pendingChecks.map((c) => c.address)).toEqual(['b', 'c']);
    const err = await engine.apply(plan).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplyError);
    const { result } = err as ApplyError;
    expect(creates(cloud)).toEqual(['evil']);
    expect(result.failed.map((f) => f.address)).toEqual(['b']);
    const cause = result.failed[0]!.error as PolicyViolationError;
    expect(cause).toBeInstanceOf(PolicyViolationError);
    expect(cause.at).toBe('step');
    expect(cause.violations).toEqual([
      {
        policy: 'no-evil-peer',
        level: 'mandatory',
        address: 'b',
        message: 'peers with evil.example, which is not allowed',
        path: 'peer',
      },
    ]);
    expect(result.skipped.map((s) => s.address)).toEqual(['c']);
    const state = await engine.state();
    expect(Object.keys(state.resources)).toEqual(['evil']);
    expect(state.pending).toEqual({});
    expect(events.find((e) => e.type === 'step_fail')).toMatchObject({
      address: 'b',
      code: 'CONVERGE_POLICY_VIOLATION',
    });
  });

  it('turns an advisory failure found at apply into a warning event and runs the step', async () => {
    const { cloud, engine, events } = setup([{ policy: noEvilPeer, level: 'advisory' }]);
    await engine.apply(await engine.plan([thing('evil'), thing('b', { peer: ref('evil', 'address') })]));
    expect(creates(cloud)).toEqual(['evil', 'b']);
    expect(events.filter((e) => e.type === 'warning')).toMatchObject([
      { address: 'b', message: 'policy no-evil-peer (advisory): peers with evil.example, which is not allowed' },
    ]);
  });

  it('re-checks before an update too, and nothing of the update is recorded when it fails', async () => {
    const { cloud, engine } = setup([{ policy: noEvilPeer, level: 'mandatory' }]);
    await engine.apply(await engine.plan([thing('a'), thing('b', { peer: 'a.example' })]));
    const before = await engine.state();
    // 'evil' is new, so b's peer is unknown at plan: an update left pending.
    const plan = await engine.plan([thing('a'), thing('evil'), thing('b', { peer: ref('evil', 'address') })]);
    expect(plan.steps.find((s) => s.address === 'b')?.action).toBe('update');
    expect(plan.pendingChecks.map((c) => c.address)).toEqual(['b']);
    await expect(engine.apply(plan)).rejects.toBeInstanceOf(ApplyError);
    expect(cloud.calls.filter((c) => c.op === 'update')).toEqual([]);
    expect((await engine.state()).resources.b).toEqual(before.resources.b);
  });
});

describe('secrets in policy input', () => {
  const PASSWORD = 'hunter2-hunter2';

  it('shows a policy the sensitive marker, never the value, at plan and at apply', async () => {
    const seen: unknown[] = [];
    const peek: Policy = {
      name: 'peek',
      resource: (step, report) => {
        seen.push(step.after?.password);
        if (isUnknown(step.after?.peer)) report.pending('peer is known only after apply', { path: 'peer' });
        else if (step.address === 'b') report(`password is ${JSON.stringify(step.after?.password)}`);
      },
    };
    const { engine, events } = setup([{ policy: peek, level: 'advisory' }]);
    // b's password is a secret, its peer unknown at plan: the check runs again at apply on real inputs.
    const decls = [thing('a'), thing('b', { password: secret(PASSWORD), peer: ref('a', 'address') })];
    const plan = await engine.plan(decls);
    expect(plan.pendingChecks.map((c) => c.address)).toEqual(['b']);
    await engine.apply(plan);
    expect(seen).toHaveLength(3);
    expect(isSensitive(seen[1])).toBe(true);
    expect(isSensitive(seen[2])).toBe(true);
    expect(JSON.stringify([seen, plan.toJSON(), events])).not.toContain(PASSWORD);
    expect(events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message)).toEqual([
      'policy peek (advisory): password is {"@converge":"sensitive"}',
    ]);
  });

  it('scrubs a secret value out of a message a policy builds from what it knows itself', async () => {
    const leaky: Policy = {
      name: 'leaky',
      resource: (step, report) => {
        if (isUnknown(step.after?.peer)) report.pending('peer is known only after apply');
        else if (step.address === 'b') report(`password ${PASSWORD} is weak`);
      },
    };
    const { cloud, engine } = setup([{ policy: leaky, level: 'mandatory' }]);
    const err = await engine
      .apply(await engine.plan([thing('a'), thing('b', { password: secret(PASSWORD), peer: ref('a', 'address') })]))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplyError);
    const cause = (err as ApplyError).result.failed[0]!.error as PolicyViolationError;
    expect(cause.violations[0]!.message).toBe('password (sensitive) is weak');
    expect(JSON.stringify([cause.message, cause.violations, (err as Error).message])).not.toContain(PASSWORD);
    expect(creates(cloud)).toEqual(['a']);
  });
});
