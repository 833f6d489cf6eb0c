// What a plan shows of its policies (issue 27): a "Policy checks" section in render() and in the
// Markdown, `violations` and `pendingChecks` in the JSON (and the saved plan file, which matches
// the published schema); and a saved plan checked again where it is loaded and where it is applied,
// so a policy added after the plan was saved still blocks its apply.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Engine,
  MemoryLocation,
  MemoryStateStore,
  Plan,
  PolicyViolationError,
  isUnknown,
  ref,
  type Policy,
  type PolicyUse,
} from 'converge';
import { TestCloud, testProvider } from '../helpers/test-provider.js';
import { thing } from '../helpers/builders.js';
import { expectValidPlanFile } from '../workflow/plan-schema.js';

const noLarge: Policy = {
  name: 'no-large',
  resource: (step, report) => {
    if (step.after?.size === 'large') report('a thing must not be large', { path: 'size' });
  },
};
const regionEu: Policy = {
  name: 'region-eu',
  resource: (step, report) => {
    if (step.after && step.after.region !== 'eu') report('things live in eu', { path: 'region' });
  },
};
const knownPeer: Policy = {
  name: 'known-peer',
  resource: (step, report) => {
    if (isUnknown(step.after?.peer)) report.pending('peer is known only after apply', { path: 'peer' });
  },
};

function engineOn(cloud: TestCloud, where: MemoryLocation, policies: readonly PolicyUse[] = []) {
  return new Engine({
    providers: [testProvider(cloud)],
    state: new MemoryStateStore(where),
    retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 },
    policies,
  });
}

async function findingsPlan() {
  const engine = engineOn(new TestCloud(), new MemoryLocation(), [
    { policy: regionEu, level: 'advisory' },
    { policy: noLarge, level: 'mandatory' },
    { policy: knownPeer, level: 'mandatory' },
  ]);
  return engine.plan([thing('a', { size: 'large', region: 'us' }), thing('b', { peer: ref('a', 'address') })]);
}

describe('policy findings in the plan views', () => {
  it('render() lists violations (mandatory first), pending checks and what apply will do', async () => {
    const text = (await findingsPlan()).render({ color: false });
    const section = text.slice(text.indexOf('Policy checks:'));
    expect(section.split('\n').slice(0, 6)).toEqual([
      'Policy checks:',
      '  [mandatory] no-large: a.size: a thing must not be large',
      '  [advisory] region-eu: a.region: things live in eu',
      '  [pending, mandatory] known-peer: b.peer: peer is known only after apply',
      '',
      '1 mandatory policy failed: apply will refuse this plan. 1 check waits for values known only after apply: each runs again before its step, and a mandatory failure then stops that step.',
    ]);
    expect(text.indexOf('Policy checks:')).toBeGreaterThan(text.indexOf('Plan: 2 to add'));
  });

  it('render() has no section when no policy found anything', async () => {
    const engine = engineOn(new TestCloud(), new MemoryLocation(), [{ policy: noLarge, level: 'mandatory' }]);
    expect((await engine.plan([thing('a')])).render({ color: false })).not.toContain('Policy checks');
  });

  it('renderMarkdown() has a table of findings', async () => {
    const md = (await findingsPlan()).renderMarkdown();
    expect(md).toContain(
      [
        '#### Policy checks',
        '',
        '| level | policy | resource | finding |',
        '| --- | --- | --- | --- |',
        '| **mandatory** | no-large | `a.size` | a thing must not be large |',
        '| advisory | region-eu | `a.region` | things live in eu |',
        '| pending (mandatory) | known-peer | `b.peer` | peer is known only after apply |',
      ].join('\n'),
    );
  });

  it('toJSON() carries violations and pending checks; the saved file matches the schema', async () => {
    const plan = await findingsPlan();
    const json = plan.toJSON();
    expect(json.violations).toEqual([
      { policy: 'region-eu', level: 'advisory', address: 'a', message: 'things live in eu', path: 'region' },
      { policy: 'no-large', level: 'mandatory', address: 'a', message: 'a thing must not be large', path: 'size' },
    ]);
    expect(json.pendingChecks).toEqual([
      {
        policy: 'known-peer',
        level: 'mandatory',
        address: 'b',
        reason: 'peer is known only after apply',
        path: 'peer',
        from: 'resource',
      },
    ]);
    expectValidPlanFile(await plan.serialize({}));
  });
});

describe('saved plans and policies', () => {
  it('checks a loaded plan again: a policy added after the save blocks its apply', async () => {
    const cloud = new TestCloud();
    const where = new MemoryLocation();
    const file = join(mkdtempSync(join(tmpdir(), 'converge-policy-')), 'plan.json');
    const before = engineOn(cloud, where);
    const plan = await before.plan([thing('a', { size: 'large' })]);
    expect(plan.violations).toEqual([]);
    await plan.save(file);

    // Loaded with the policy: its findings are the policy's, now.
    const loaded = await Plan.load(file, { policies: [{ policy: noLarge, level: 'mandatory' }] });
    expect(loaded.violations).toMatchObject([{ policy: 'no-large', address: 'a', level: 'mandatory' }]);
    await expect(before.apply(loaded)).rejects.toBeInstanceOf(PolicyViolationError);

    // Loaded without, applied by an engine that has the policy: refused at apply.
    const after = engineOn(cloud, where, [{ policy: noLarge, level: 'mandatory' }]);
    const err = await after.apply(await Plan.load(file)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyViolationError);
    expect((err as PolicyViolationError).violations).toMatchObject([{ policy: 'no-large', address: 'a' }]);
    expect(cloud.calls.filter((c) => c.op === 'create')).toEqual([]);

    // The engine that saved it, with no policy, applies it.
    await before.apply(await Plan.load(file));
    expect(cloud.calls.filter((c) => c.op === 'create')).toHaveLength(1);
  });

  it('does not trust the findings written in the file', async () => {
    const cloud = new TestCloud();
    const where = new MemoryLocation();
    const engine = engineOn(cloud, where, [{ policy: noLarge, level: 'advisory' }]);
    const plan = await engine.plan([thing('a', { size: 'large' })]);
    expect(plan.violations).toHaveLength(1);
    const loaded = await Plan.parse(await plan.serialize({}));
    expect(loaded.violations).toEqual([]);
    expect(loaded.toJSON().violations).toEqual([]);
    const strict = await Plan.parse(await plan.serialize({}), { policies: [{ policy: noLarge, level: 'mandatory' }] });
    expect(strict.violations.map((v) => v.level)).toEqual(['mandatory']);
  });

  it("re-checks a loaded plan's pending checks at apply", async () => {
    const cloud = new TestCloud();
    const where = new MemoryLocation();
    const noEvil: Policy = {
      name: 'no-evil',
      resource: (step, report) => {
        const peer = step.after?.peer;
        if (isUnknown(peer)) report.pending('peer is known only after apply', { path: 'peer' });
        else if (typeof peer === 'string' && peer.startsWith('evil')) report('evil peer', { path: 'peer' });
      },
    };
    const engine = engineOn(cloud, where, [{ policy: noEvil, level: 'mandatory' }]);
    const plan = await engine.plan([thing('evil'), thing('b', { peer: ref('evil', 'address') })]);
    const loaded = await Plan.parse(await plan.serialize({}));
    const err = await engine.apply(loaded).catch((e: unknown) => e);
    expect((err as Error).name).toBe('ApplyError');
    expect(cloud.calls.filter((c) => c.op === 'create').map((c) => c.name)).toEqual(['evil']);
  });
});
