// Composition semantics as a table (the style of semantics.test.ts): provider instances and
// lookups declared in the stack. Each row is one rule, and cites the Terraform or Pulumi behaviour
// it follows, or says where converge differs on purpose (README, "Provider instances" and
// "Lookups in the stack").
import { describe, expect, it } from 'vitest';
import { Engine, isUnknown, MemoryStateStore, ref, ValidationError, type Provider, type ResourceDecl } from 'converge';
import { TestCloud, testProvider, THING } from '../../helpers/test-provider.js';

const LOOKUP = 'test:index/getThing:getThing';
type World = { engine: Engine; main: TestCloud; ops: TestCloud; store: MemoryStateStore };
type Row = { readonly name: string; readonly cite: string; readonly run: (w: World) => Promise<void> };

const thing = (name: string, provider?: string, inputs: Record<string, unknown> = {}): ResourceDecl => ({
  type: THING,
  name,
  inputs: { name, ...inputs },
  ...(provider ? { options: { provider } } : {}),
});
const lookup = (name: string, inputs: Record<string, unknown>, options?: ResourceDecl['options']): ResourceDecl => ({
  type: LOOKUP,
  name,
  inputs,
  ...(options ? { options } : {}),
});
/** A named instance of the test provider, over its own cloud (its own "account"). */
const named = (cloud: TestCloud, instanceName: string): Provider<unknown> =>
  ({ ...testProvider(cloud), instanceName }) as Provider<unknown>;
const names = (cloud: TestCloud) => [...cloud.objects.values()].map((o) => o.inputs.name).sort();

const rows: Row[] = [
  {
    name: 'a declaration that names no instance is made by the default one',
    cite: "Terraform: a resource without `provider` uses the provider's default (unaliased) configuration; Pulumi: the default provider",
    run: async ({ engine, main, ops }) => {
      await engine.apply(await engine.plan([thing('a')]));
      expect([names(main), names(ops)]).toEqual([['a'], []]);
    },
  },
  {
    name: 'options.provider chooses a named instance',
    cite: 'Terraform: `provider = aws.west` (an alias); Pulumi: the `provider` resource option',
    run: async ({ engine, main, ops }) => {
      await engine.apply(await engine.plan([thing('a'), thing('b', 'ops')]));
      expect([names(main), names(ops)]).toEqual([['a'], ['b']]);
    },
  },
  {
    name: 'moving a resource to another instance replaces it: created through the new one, deleted through the old',
    cite: "Pulumi: a changed provider reference replaces the resource; differs from Terraform, which keeps the object's id and reads it through the new configuration",
    run: async ({ engine, main, ops }) => {
      await engine.apply(await engine.plan([thing('a')]));
      const plan = await engine.plan([thing('a', 'ops')]);
      expect(plan.steps[0]).toMatchObject({ action: 'replace', cause: 'provider_changed', reasons: ['provider'] });
      await engine.apply(plan);
      expect([names(main), names(ops)]).toEqual([[], ['a']]);
    },
  },
  {
    name: 'an instance removed while objects it made are recorded: the plan fails naming the instance it needs',
    cite: 'Terraform #25682 fails with "Provider configuration not present"; converge also names the settings the instance had, and never guesses another account',
    run: async ({ engine, main, store }) => {
      await engine.apply(await engine.plan([thing('b', 'ops')]));
      const without = new Engine({ providers: [testProvider(main)], state: store });
      const e = await without.plan([]).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).issues.map((i) => [i.resource, i.code])).toEqual([['b', 'missing_instance']]);
      expect((e as ValidationError).issues[0]!.message).toContain("made by test 'ops'");
    },
  },
  {
    name: 'a lookup whose arguments are known is read when the plan is made, and what uses it plans with its answer',
    cite: 'Terraform: a data source with known configuration is read during plan',
    run: async ({ engine }) => {
      await engine.apply(await engine.plan([thing('a')]));
      const plan = await engine.plan([
        thing('a'),
        lookup('found', { name: 'a' }),
        thing('b', undefined, { peer: ref('found', 'address') }),
      ]);
      expect(plan.steps.find((s) => s.address === 'b')!.after!.peer).toBe('a.example');
      expect(plan.steps.find((s) => s.address === 'found')!.lookup).toEqual({});
    },
  },
  {
    name: 'a lookup whose arguments wait on a create is read during apply, and what uses it sees unknowns until then',
    cite: 'Terraform: a data source whose configuration is unknown is deferred to apply ("<= read (data resources)")',
    run: async ({ engine }) => {
      // a's address is an output of its create: known only after apply.
      const plan = await engine.plan([
        thing('a'),
        lookup('found', { name: ref('a', 'address') }),
        thing('b', undefined, { peer: ref('found', 'address') }),
      ]);
      expect(plan.steps.find((s) => s.address === 'found')!.lookup!.deferred).toMatch(/name ← a\.address/);
      expect(isUnknown(plan.steps.find((s) => s.address === 'b')!.after!.peer)).toBe(true);
    },
  },
  {
    name: 'dependsOn on a lookup whose targets have no changes does not defer it',
    cite: 'Differs from Terraform 0.13-0.14 (#26383, #27858), where depends_on on a data source deferred it to apply on every plan',
    run: async ({ engine }) => {
      await engine.apply(await engine.plan([thing('a')]));
      const plan = await engine.plan([thing('a'), lookup('found', { name: 'a' }, { dependsOn: ['a'] })]);
      expect(plan.steps.find((s) => s.address === 'found')).toMatchObject({ action: 'noop', lookup: {} });
      expect(plan.hasChanges).toBe(false);
    },
  },
  {
    name: 'dependsOn on a lookup whose target has changes defers it, and the plan says why',
    cite: 'Terraform: a data source depending on a resource with planned changes is read during apply',
    run: async ({ engine }) => {
      await engine.apply(await engine.plan([thing('a')]));
      const plan = await engine.plan([
        thing('a', undefined, { size: 'large' }),
        lookup('found', { name: 'a' }, { dependsOn: ['a'] }),
      ]);
      expect(plan.steps.find((s) => s.address === 'found')!.lookup).toEqual({
        deferred: 'it depends on a (dependsOn), which has changes planned',
      });
    },
  },
  {
    name: 'a lookup removed from the stack is forgotten, never deleted',
    cite: 'Terraform: a data source removed from the configuration is dropped from the state',
    run: async ({ engine, main }) => {
      await engine.apply(await engine.plan([thing('a')]));
      await engine.apply(await engine.plan([thing('a'), lookup('found', { name: 'a' })]));
      const plan = await engine.plan([thing('a')]);
      expect(plan.steps.find((s) => s.address === 'found')).toMatchObject({ action: 'forget' });
      await engine.apply(plan);
      expect(names(main)).toEqual(['a']);
    },
  },
];

describe('composition semantics', () => {
  for (const row of rows)
    it(`${row.name} (${row.cite})`, async () => {
      const main = new TestCloud();
      const ops = new TestCloud();
      const store = new MemoryStateStore();
      const engine = new Engine({ providers: [testProvider(main), named(ops, 'ops')], state: store, parallelism: 1 });
      await row.run({ engine, main, ops, store });
    });
});
