// A plan's fields are listed once (plan/view.ts): util.inspect, toJSON and a saved plan's reload
// all show the same fields in the same order, and a plan's destroy is said once, by its mode.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ValidationError, type Plan, type PlanOptions } from 'converge';
import { PLAN_FIELDS } from '../../src/engine/plan/view.js';
import { planInputOf } from '../../src/engine/plan/json.js';
import { setup, thing } from '../helpers/builders.js';

async function planned(kind: 'normal' | 'destroy' | 'refresh-only' | 'targeted') {
  const { engine } = setup();
  await engine.apply(await engine.plan([thing('web'), thing('db')]));
  if (kind === 'destroy') return engine.planDestroy();
  if (kind === 'refresh-only') return engine.plan([thing('web'), thing('db')], { mode: 'refresh-only' });
  if (kind === 'targeted') return engine.plan([thing('web'), thing('db')], { exclude: ['db'] });
  return engine.plan([thing('web'), thing('db', { size: 'large' })]);
}

describe('the plan field list', () => {
  it.each(['normal', 'destroy', 'refresh-only', 'targeted'] as const)(
    '%s: toJSON writes formatVersion then every field, in order',
    async (kind) => {
      const plan = await planned(kind);
      expect(Object.keys(plan.toJSON())).toEqual(['formatVersion', ...PLAN_FIELDS]);
    },
  );

  it.each(['normal', 'destroy', 'refresh-only', 'targeted'] as const)(
    '%s: util.inspect shows every field (exclude included)',
    async (kind) => {
      const plan = await planned(kind);
      const text = inspect(plan, { depth: 0 });
      for (const field of PLAN_FIELDS) expect(text).toContain(`${field}:`);
      if (kind === 'targeted') expect(inspect(plan, { depth: 2 })).toMatch(/exclude: \[ 'db' \]/);
    },
  );

  it.each(['normal', 'destroy', 'refresh-only', 'targeted'] as const)(
    '%s: a plan read back from its JSON has the same fields',
    async (kind) => {
      const plan = await planned(kind);
      const text = await plan.serialize({ allowPlaintextSecrets: true });
      const { Plan } = await import('converge');
      const back = await Plan.parse(text);
      expect(back.toJSON()).toEqual(plan.toJSON());
      // What is read back is the plan's own fields, unchanged; what the plan computes is not.
      const input = planInputOf(plan.toJSON()) as Record<string, unknown>;
      for (const [field, value] of Object.entries(input)) expect(value, field).toEqual(plan[field as keyof Plan]);
      expect(Object.keys(input)).toEqual(
        expect.arrayContaining(['mode', 'lineage', 'serial', 'createdAt', 'targets', 'exclude']),
      );
      for (const computed of ['destroy', 'hasChanges', 'summary', 'steps']) expect(input).not.toHaveProperty(computed);
    },
  );
});

describe('destroy said once, by the mode', () => {
  it.each([
    ['normal', 'normal', false],
    ['destroy', 'destroy', true],
    ['refresh-only', 'refresh-only', false],
  ] as const)('a %s plan has mode %s and destroy %s', async (kind, mode, destroy) => {
    const plan = await planned(kind);
    expect([plan.mode, plan.destroy, plan.toJSON().mode, plan.toJSON().destroy]).toEqual([
      mode,
      destroy,
      mode,
      destroy,
    ]);
  });

  it.each([
    [{ mode: 'refresh-only' }, "a destroy plan has mode 'destroy'; it cannot also be refresh-only"],
    [{ mode: 'destroy' }, "mode must be 'normal' or 'refresh-only'"],
  ])('planDestroy(%j) is refused before anything is read', async (options, message) => {
    const { engine, cloud } = setup();
    cloud.calls = [];
    const err = await engine.planDestroy(options as unknown as PlanOptions).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues).toMatchObject([{ path: ['mode'], code: 'invalid_value', message }]);
    expect(cloud.calls).toEqual([]);
  });

  it("planDestroy({ mode: 'normal' }) is a destroy plan", async () => {
    const { engine } = setup();
    const plan = await engine.planDestroy({ mode: 'normal' } as PlanOptions);
    expect([plan.mode, plan.destroy]).toEqual(['destroy', true]);
  });
});
