// Plan options of the workflow: replace (checked names, "replace requested"), refresh-only (records
// drift, calls no provider mutation), drift as its own section with cause 'drift', targets and
// exclude (typos are ValidationErrors with a suggestion; a warning says targeting is in effect).
import { describe, it, expect } from 'vitest';
import { ValidationError } from 'converge';
import { setup, thing } from '../helpers/builders.js';

const mutations = (calls: { op: string }[]) =>
  calls.filter((c) => c.op === 'create' || c.op === 'update' || c.op === 'delete');

async function applied(decls: ReturnType<typeof thing>[]) {
  const s = setup();
  await s.engine.apply(await s.engine.plan(decls));
  s.cloud.calls = [];
  return s;
}

describe('replace', () => {
  it('replaces a named resource with cause replace_requested, rendered as "replace requested"', async () => {
    const { engine } = await applied([thing('web')]);
    const plan = await engine.plan([thing('web')], { replace: ['web'] });
    expect(plan.steps[0]).toMatchObject({ action: 'replace', cause: 'replace_requested' });
    expect(plan.render({ color: false })).toContain('replace requested');
  });

  it('refuses a name the stack does not declare, suggesting the closest one', async () => {
    const { engine } = await applied([thing('web')]);
    const err = await engine.plan([thing('web')], { replace: ['wbe'] }).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues[0]).toMatchObject({ code: 'unknown_name', path: ['replace', 0] });
    expect(err.issues[0].suggestion).toBe('web');
  });
});

describe('refresh-only', () => {
  it('shows what changed outside converge and its apply records it without any provider mutation', async () => {
    const { engine, cloud } = await applied([thing('web'), thing('db')]);
    const [web, db] = [...cloud.objects.values()];
    web!.inputs.size = 'large';
    cloud.objects.delete(db!.id);
    const plan = await engine.plan([thing('web'), thing('db')], { mode: 'refresh-only' });
    expect(plan.mode).toBe('refresh-only');
    expect(plan.hasChanges).toBe(true);
    expect(plan.drift.map((d) => [d.address, d.action])).toEqual([
      ['db', 'delete'],
      ['web', 'update'],
    ]);
    expect(plan.render({ color: false })).toContain('Objects changed outside converge');
    cloud.calls = [];
    await engine.apply(plan);
    expect(mutations(cloud.calls)).toEqual([]);
    const state = await engine.state();
    expect(state.resources.web!.inputs.size).toBe('large');
    expect(state.resources.db).toBeUndefined();
  });

  it('has no changes when nothing drifted', async () => {
    const { engine } = await applied([thing('web')]);
    const plan = await engine.plan([thing('web')], { mode: 'refresh-only' });
    expect(plan.hasChanges).toBe(false);
    expect(plan.steps).toEqual([]);
  });
});

describe('drift', () => {
  it('lists objects changed or deleted outside converge before the actions, in JSON as drift, and repairs with cause drift', async () => {
    const { engine, cloud } = await applied([thing('web'), thing('db')]);
    const [web, db] = [...cloud.objects.values()];
    web!.inputs.size = 'large';
    cloud.objects.delete(db!.id);
    const plan = await engine.plan([thing('web'), thing('db')]);
    const json = plan.toJSON();
    expect(json.drift).toEqual([
      expect.objectContaining({ address: 'db', action: 'delete' }),
      expect.objectContaining({
        address: 'web',
        action: 'update',
        changes: [{ path: 'size', before: 'small', after: 'large' }],
      }),
    ]);
    expect(plan.steps.find((s) => s.address === 'web')).toMatchObject({ action: 'update', cause: 'drift' });
    const text = plan.render({ color: false });
    expect(text.indexOf('Objects changed outside converge')).toBeLessThan(
      text.indexOf('will perform the following actions'),
    );
  });

  it('shows secret inputs that drifted as the sensitive marker', async () => {
    const { engine, cloud } = await applied([thing('web', { password: 'hunter2-password' })]);
    [...cloud.objects.values()][0]!.inputs.password = 'changed-outside-secret';
    const plan = await engine.plan([thing('web', { password: 'hunter2-password' })]);
    const text = JSON.stringify(plan.toJSON()) + plan.render({ color: false }) + plan.renderMarkdown();
    expect(plan.drift[0]!.changes[0]!.after).toEqual({ '@converge': 'sensitive' });
    expect(text).not.toContain('changed-outside-secret');
    expect(text).not.toContain('hunter2-password');
  });

  it('is empty without refresh', async () => {
    const { engine, cloud } = await applied([thing('web')]);
    [...cloud.objects.values()][0]!.inputs.size = 'large';
    expect((await engine.plan([thing('web')], { refresh: false })).drift).toEqual([]);
  });
});

describe('targets and exclude', () => {
  it('refuses a target that names nothing in the stack or the state, with a suggestion', async () => {
    const { engine } = await applied([thing('web')]);
    const err = await engine.plan([thing('web'), thing('database')], { targets: ['databse'] }).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues[0]).toMatchObject({ code: 'unknown_name', path: ['targets', 0] });
    expect(err.issues[0].suggestion).toBe('database');
  });

  it('accepts a target only the state knows (a removed resource)', async () => {
    const { engine } = await applied([thing('web'), thing('old')]);
    const plan = await engine.plan([thing('web')], { targets: ['old'] });
    expect(plan.steps.map((s) => [s.address, s.action])).toEqual([['old', 'delete']]);
  });

  it('warns that targeting is in effect', async () => {
    const { engine } = await applied([thing('web')]);
    const plan = await engine.plan([thing('web'), thing('db')], { targets: ['db'] });
    expect(plan.warnings.some((w) => w.startsWith('targeting is in effect: this plan may be incomplete'))).toBe(true);
    expect((await engine.plan([thing('web')])).warnings.some((w) => w.startsWith('targeting'))).toBe(false);
  });

  it('exclude leaves out the resource and what depends on it', async () => {
    const { engine } = setup();
    const ref = (r: string) => ({ '@converge': 'ref', resource: r, path: 'address' });
    const plan = await engine.plan([thing('net'), thing('web', { peer: ref('net') }), thing('db')], {
      exclude: ['net'],
    });
    expect(plan.steps.map((s) => s.address)).toEqual(['db']);
    expect(plan.exclude).toEqual(['net']);
    expect(plan.warnings.some((w) => w.startsWith('targeting is in effect'))).toBe(true);
  });

  it('exclude of everything plans nothing, and an unknown exclude is refused', async () => {
    const { engine } = setup();
    expect((await engine.plan([thing('a')], { exclude: ['a'] })).steps).toEqual([]);
    await expect(engine.plan([thing('a')], { exclude: ['b'] })).rejects.toBeInstanceOf(ValidationError);
  });

  it('a targeted apply of the plan changes only the targets', async () => {
    const { engine, cloud } = setup();
    await engine.apply(await engine.plan([thing('web'), thing('db')], { exclude: ['db'] }));
    expect([...cloud.objects.values()].map((o) => o.inputs.name)).toEqual(['web']);
  });
});
