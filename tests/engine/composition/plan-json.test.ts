// The machine-readable plan carries what provider instances and declared lookups add to a step:
// the instance a step goes through, a move between instances (from, to), a lookup's facts
// (read when the plan was made, or deferred and why), all in the one step field list (view.ts)
// and described by the published schema; a deferred read is counted apart from the adds
// (summary.read, "1 to read", Terraform's `<= read`), in the text, the Markdown and the snapshot.
import { afterEach, describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore, Plan } from '../../../src/index.js';
import { planSnapshot } from '../../../src/testing/index.js';
import { STEP_FIELDS } from '../../../src/engine/plan/view.js';
import { provb } from '../../../src/providers/b/index.js';
import { startSimulator, type CivoSimulator } from '../../../src/providers/b/simulator/index.js';
import { expectValidPlanFile, expectValidPlanJSON, planFileSchema } from '../../workflow/plan-schema.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function civo(token: string): Promise<CivoSimulator> {
  const sim = await startSimulator({ token });
  closers.push(() => sim.close());
  return sim;
}

/** Two Civo accounts (two instances of provider B) with 'net' and 'main-net' made in the default one. */
async function stack() {
  const [main, other] = [await civo('token-main'), await civo('token-ops')];
  const ops = provb({ name: 'ops', token: other.token, apiEndpoint: other.url, region: 'LON1' });
  const engine = new Engine({
    providers: [provb({ token: main.token, apiEndpoint: main.url, region: 'LON1' }), ops],
    state: new MemoryStateStore(),
  });
  await engine.apply(
    await engine.plan([provb.network('net', { label: 'net' }), provb.network('main-net', { label: 'main-net' })]),
  );
  const opsNet = ops.network('ops-net', { label: 'ops-net' });
  const decls = [
    provb.network('main-net', { label: 'main-net' }),
    provb.network('net', { label: 'net' }, { provider: 'ops' }), // moved to the other account
    opsNet,
    provb.getNetwork('known', { label: 'main-net' }), // its argument known: read as the plan is made
    ops.getNetwork('found', { id: opsNet.out('id') }), // its argument known only after apply: deferred
  ];
  return { engine, decls, other };
}

const byAddress = (steps: readonly { address: string }[]) => new Map(steps.map((s) => [s.address, s]));

describe('the plan JSON of a stack with two instances of provider B, a move and two lookups', () => {
  it('carries each step’s instance, the move between instances and the lookup facts, valid against the schema', async () => {
    const { engine, decls, other } = await stack();
    const plan = await engine.plan(decls);
    const json = JSON.parse(JSON.stringify(plan)) as ReturnType<Plan['toJSON']>;
    expectValidPlanJSON(json);
    const steps = byAddress(json.steps);
    expect(steps.get('main-net')).toMatchObject({ action: 'noop' });
    expect(steps.get('main-net')).not.toHaveProperty('instance');
    expect(steps.get('net')).toMatchObject({
      instance: 'ops',
      action: 'replace',
      cause: 'provider_changed',
      providerChange: { from: 'provb (default instance)', to: "provb 'ops'" },
    });
    expect(steps.get('ops-net')).toMatchObject({ instance: 'ops', action: 'create', cause: 'new' });
    expect(steps.get('ops-net')).not.toHaveProperty('providerChange');
    expect(steps.get('ops-net')).not.toHaveProperty('lookup');
    // Read as the plan was made: the lookup's facts say so ({}: not deferred), through the default instance.
    expect(steps.get('known')).toMatchObject({ action: 'noop', lookup: {} });
    expect(steps.get('known')).not.toHaveProperty('instance');
    expect(steps.get('found')).toMatchObject({
      instance: 'ops',
      lookup: { deferred: 'its arguments depend on values known only after apply (id ← ops-net.id)' },
    });
    // A deferred read is not an add.
    expect(json.summary).toMatchObject({ create: 1, read: 1, replace: 1, noop: 2, delete: 0 });
    // Every step's keys are fields of the one list, in its order.
    for (const s of json.steps) {
      const keys = Object.keys(s);
      expect(keys.filter((k) => !(STEP_FIELDS as readonly string[]).includes(k))).toEqual([]);
      expect(keys).toEqual(STEP_FIELDS.filter((k) => keys.includes(k)));
    }
    // The deferred lookup asked nothing yet: the ops account, where nothing is recorded, was not asked for networks.
    expect(other.requests.filter((r) => r.path.includes('/networks'))).toEqual([]);

    // The plan file holds the same JSON, valid, and loads back to it.
    const text = await plan.serialize({ allowPlaintextSecrets: true });
    expectValidPlanFile(text);
    expect((await Plan.parse(text)).toJSON()).toEqual(json);

    await engine.apply(plan);
    const state = await engine.state();
    expect(state.resources.found).toMatchObject({ instance: 'ops', outputs: { label: 'ops-net' } });
    expect(state.resources.net!.instance).toBe('ops');
    expect((await engine.plan(decls)).hasChanges).toBe(false);
  });

  it('counts the deferred read apart in the summary line, draws it with <=, and names the instance', async () => {
    const { engine, decls } = await stack();
    const plan = await engine.plan(decls);
    const text = plan.render({ color: false });
    expect(text).toContain('Plan: 1 to add, 0 to change, 1 to replace, 0 to destroy, 1 to read.');
    expect(text).toContain('<= lookup "provb:index/getNetwork:getNetwork" "found" {');
    expect(text).toContain("# ops-net will be created\n  # (through provider instance provb 'ops')");
    expect(text).toContain("# (provider instance changed from provb (default instance) to provb 'ops')");
    const md = plan.renderMarkdown();
    expect(md).toContain('**Plan: 1 to add, 0 to change, 1 to replace, 0 to destroy, 1 to read.**');
    expect(md).toContain('<code>&lt;=</code> <b>found</b>: will be read during apply');
    expect(md).toContain("<code>+</code> <b>ops-net</b>: will be created (through provider instance provb 'ops')");
    expect(plan.toMermaid()).toContain('["#lt;= found<br/>');
    const snap = planSnapshot(plan);
    expect(snap.split('\n')[0]).toBe(
      'Plan: 1 to add, 0 to change, 1 to replace, 0 to destroy, 1 to read, 0 to forget.',
    );
  });

  it('the schema describes every step field the plan writes, and each count of the summary', () => {
    const step = planFileSchema.definitions.step!.properties;
    expect(Object.keys(step).sort()).toEqual([...STEP_FIELDS].sort());
    const summary = planFileSchema.definitions.plan!.properties.summary as {
      required: string[];
      properties: Record<string, unknown>;
    };
    expect(Object.keys(summary.properties)).toEqual(expect.arrayContaining(['read', 'stateOnly']));
    expect(summary.required).not.toContain('read'); // absent in files written before reads were counted
  });
});
