// Every kind of plan the engine makes, saved, matches the published schema (schema/plan.v1.json):
// creates, updates, replacements (both orders), deletions, forgets, moves, deposed objects, drift,
// refresh-only, destroy, targets, exclude, sealed and clear. Random successive stacks add variety.
import { describe, it, expect, vi } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Plan, type ResourceDecl } from 'converge';
import { setup, thing, blob } from '../helpers/builders.js';
import { expectValidPlanFile } from './plan-schema.js';

const ref = (r: string, path = 'address') => ({ '@converge': 'ref', resource: r, path });
const PASS = 'schema-pass';
// Each plan is saved and loaded back under the passphrase: the load derives again the keys the save
// derived (same salt), once each here (tests/helpers/memo-scrypt.ts).
vi.mock('node:crypto', async (original) => (await import('../helpers/memo-scrypt.js')).memoizeScrypt(await original()));
// The forks run file after file (isolate: false): src/ may already be loaded, bound to the real
// node:crypto, by a file before this one. Loaded again here, under the mock (hoisted above the imports).
vi.hoisted(() => vi.resetModules());

async function check(plan: Plan, sealed = true): Promise<void> {
  const text = await plan.serialize(sealed ? { passphrase: PASS } : { allowPlaintextSecrets: true });
  expectValidPlanFile(text);
  // A plan saved without a key is loaded without one (given one, an unsigned plan is refused).
  const back = await Plan.parse(text, sealed ? { passphrase: PASS } : {});
  expect(back.toJSON()).toEqual(JSON.parse(JSON.stringify(plan.toJSON())));
}

describe('plan file schema', () => {
  it('is shipped with the package (package.json files)', () => {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'));
    expect(pkg.files).toContain('schema');
  });

  it('validates plans of every action, cause and mode', async () => {
    const { engine, cloud } = setup();
    await check(await engine.plan([]), false);
    const base = [
      thing('net'),
      thing('web', { peer: ref('net'), password: 'pw-123456' }),
      thing('old'),
      blob('b', { content: 'x', thingId: ref('net', 'id') }),
      thing('kept', {}, { retainOnDelete: true }),
    ];
    const first = await engine.plan(base);
    await check(first);
    await check(first, false);
    await engine.apply(first);
    [...cloud.objects.values()][1]!.inputs.size = 'large';
    const next: ResourceDecl[] = [
      thing('net', { region: 'us' }, { createBeforeDestroy: true }),
      thing('web2', { peer: ref('net'), password: 'pw-654321' }, { aliases: ['web'], protect: true }),
      blob('b', { content: 'y', thingId: ref('net', 'id') }),
    ];
    await check(await engine.plan(next));
    await check(await engine.plan(next, { replace: ['b'] }));
    await check(await engine.plan(next, { targets: ['b'] }));
    await check(await engine.plan(next, { exclude: ['net'] }));
    await check(await engine.plan(base, { mode: 'refresh-only' }));
    await check(await engine.plan(next, { refresh: false }));
    await check(await engine.planDestroy());
    await engine.apply(await engine.plan(next));
    await check(await engine.plan(next));
  });

  it('validates the plans of random successive stacks', async () => {
    const names = ['a', 'b', 'c', 'd'];
    const declArb = fc.record({
      present: fc.subarray(names),
      size: fc.constantFrom('small', 'medium', 'large'),
      region: fc.constantFrom('eu', 'us'),
      peer: fc.option(fc.constantFrom(...names), { nil: undefined }),
      cbd: fc.boolean(),
      password: fc.option(fc.constantFrom('pw-aaaa', 'pw-bbbb'), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(declArb, { minLength: 1, maxLength: 4 }), async (stacks) => {
        const { engine } = setup();
        for (const s of stacks) {
          const decls = s.present.map((n, i) =>
            thing(
              n,
              {
                size: s.size,
                region: i === 0 ? s.region : 'eu',
                ...(s.peer && s.peer !== n && s.present.includes(s.peer) && s.present.indexOf(s.peer) < i
                  ? { peer: ref(s.peer) }
                  : {}),
                ...(s.password ? { password: s.password } : {}),
              },
              s.cbd ? { createBeforeDestroy: true } : undefined,
            ),
          );
          const plan = await engine.plan(decls);
          await check(plan);
          await engine.apply(plan);
        }
      }),
      { numRuns: 12 },
    );
  });
});
