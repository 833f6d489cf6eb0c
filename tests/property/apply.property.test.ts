// Invariants of apply over random stacks and random edits (options, renames, replacements,
// removals, objects made outside converge): applying a plan and planning again gives no changes,
// and no object that existed before an apply is deleted unless that plan's steps say so.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ref, type ResourceDecl, type ResourceOptions } from 'converge';
import { setup, thing } from '../helpers/builders.js';

type Row = {
  size: string;
  region: string;
  peer?: number;
  peerById: boolean;
  cbd: boolean;
  retain: boolean;
  dependsOn?: number;
  alias: boolean;
};

const row = fc.record({
  size: fc.constantFrom('small', 'large'),
  region: fc.constantFrom('eu', 'us'),
  peer: fc.option(fc.nat(), { nil: undefined }),
  peerById: fc.boolean(),
  cbd: fc.boolean(),
  retain: fc.boolean(),
  dependsOn: fc.option(fc.nat(), { nil: undefined }),
  alias: fc.boolean(),
});

/** Row i is resource t<i> (or r<i>, renamed from t<i> through an alias, when `renamed` and it asks for it). */
function stackOf(rows: readonly (Row | null)[], renamed: boolean): ResourceDecl[] {
  const names = rows.map((r, i) => (r && renamed && r.alias ? `r${i}` : `t${i}`));
  const out: ResourceDecl[] = [];
  rows.forEach((r, i) => {
    if (!r) return;
    const earlier = names.slice(0, i).filter((_, j) => rows[j]);
    const options: ResourceOptions = {
      ...(r.cbd ? { createBeforeDestroy: true } : {}),
      ...(r.retain ? { retainOnDelete: true } : {}),
      ...(r.dependsOn !== undefined && earlier.length ? { dependsOn: [earlier[r.dependsOn % earlier.length]!] } : {}),
      ...(names[i] !== `t${i}` ? { aliases: [`t${i}`] } : {}),
      ...(r.peerById ? { replaceOnChanges: ['peer'] } : {}),
    };
    const peer =
      r.peer !== undefined && earlier.length
        ? { peer: ref(earlier[r.peer % earlier.length]!, r.peerById ? 'id' : 'address') }
        : {};
    out.push(thing(names[i]!, { name: `t${i}`, size: r.size, region: r.region, ...peer }, options));
  });
  return out;
}

describe('apply properties', () => {
  it('after any edit, apply then plan gives no changes, and nothing is deleted that the plan did not say', async () => {
    const edit = fc.record({
      keep: fc.boolean(),
      region: fc.option(fc.constantFrom('eu', 'us'), { nil: undefined }),
      size: fc.option(fc.constantFrom('small', 'large'), { nil: undefined }),
      retain: fc.option(fc.boolean(), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 7 }),
        fc.array(edit, { minLength: 7, maxLength: 7 }),
        fc.boolean(),
        fc.nat(3),
        async (rows, edits, rename, foreign) => {
          const { engine, cloud } = setup({ parallelism: 3 });
          // Objects made outside converge, some with the names the stack uses.
          for (let k = 0; k < foreign; k++)
            cloud.objects.set(`theirs-${k}`, {
              id: `theirs-${k}`,
              kind: 'thing',
              inputs: { name: `t${k}` },
              outputs: {},
            });
          const first = stackOf(rows, false);
          await engine.apply(await engine.plan(first));
          expect((await engine.plan(first)).hasChanges).toBe(false);

          const edited = rows.map((r, i) => {
            const e = edits[i]!;
            if (!e.keep && i % 2 === 1) return null;
            return {
              ...r,
              ...(e.region ? { region: e.region } : {}),
              ...(e.size ? { size: e.size } : {}),
              ...(e.retain !== undefined ? { retain: e.retain } : {}),
            };
          });
          const second = stackOf(edited, rename);
          const plan = await engine.plan(second);
          const allowed = new Set(
            plan.steps
              .filter((s) => (s.action === 'delete' || s.action === 'replace') && !s.retainOld)
              .map((s) => s.id!),
          );
          const before = new Set(cloud.objects.keys());
          await engine.apply(plan);
          const after = new Set(cloud.objects.keys());
          for (const id of before)
            if (!after.has(id)) expect(allowed.has(id), `deleted ${id}, which the plan did not delete`).toBe(true);
          for (let k = 0; k < foreign; k++) expect(after.has(`theirs-${k}`)).toBe(true);

          const again = await engine.plan(second);
          expect(again.hasChanges, JSON.stringify(again.steps.filter((s) => s.action !== 'noop'))).toBe(false);
          const state = await engine.state();
          expect(Object.keys(state.pending)).toEqual([]);
          expect(Object.keys(state.deposed)).toEqual([]);
          // Every object converge recorded exists, exactly once.
          const recorded = Object.values(state.resources).map((r) => r.id);
          expect(new Set(recorded).size).toBe(recorded.length);
          for (const id of recorded) expect(after.has(id)).toBe(true);
        },
      ),
      {
        numRuns: Number(process.env.CONVERGE_PROPERTY_RUNS ?? 150),
        seed: Number(process.env.CONVERGE_PROPERTY_SEED ?? 20261123),
      },
    );
  });
});
