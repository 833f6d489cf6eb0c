import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ref, ValidationError, type ResourceDecl } from 'converge';
import { setup, thing, blob } from '../helpers/builders.js';

const size = fc.constantFrom('small', 'medium', 'large');
const region = fc.constantFrom('eu', 'us');
const tags = fc.dictionary(fc.constantFrom('env', 'team', 'tier'), fc.constantFrom('a', 'b', 'c'), { maxKeys: 3 });

/** A random valid stack: things, some referencing earlier ones, plus blobs. */
const stack = fc
  .array(
    fc.record({
      size,
      region,
      tags,
      peer: fc.option(fc.nat(), { nil: undefined }),
      blob: fc.boolean(),
      protect: fc.constant(false),
    }),
    { minLength: 0, maxLength: 8 },
  )
  .map((rows): ResourceDecl[] =>
    rows.flatMap((r, i) => {
      const peer = r.peer !== undefined && i > 0 ? { peer: ref(`t${r.peer % i}`, 'address') } : {};
      const out: ResourceDecl[] = [thing(`t${i}`, { size: r.size, region: r.region, tags: r.tags, ...peer })];
      if (r.blob) out.push(blob(`b${i}`, { content: `${r.size}-${r.region}`, thingId: ref(`t${i}`, 'id') }));
      return out;
    }),
  );

describe('plan properties', () => {
  it('planning again after applying a plan gives only noops, across successive stacks', async () => {
    await fc.assert(
      fc.asyncProperty(stack, stack, async (first, second) => {
        const { engine, cloud } = setup();
        await engine.apply(await engine.plan(first));
        const again = await engine.plan(first);
        expect(again.steps.every((s) => s.action === 'noop')).toBe(true);
        await engine.apply(await engine.plan(second));
        const third = await engine.plan(second);
        expect(third.hasChanges).toBe(false);
        // Everything remote is in the state exactly once.
        const state = await engine.state();
        expect(
          Object.values(state.resources)
            .map((r) => r.id)
            .sort(),
        ).toEqual([...cloud.objects.keys()].sort());
      }),
      { numRuns: 60 },
    );
  });

  it('random invalid declarations give a ValidationError and no provider call', async () => {
    const invalidInput = fc.oneof(
      fc.record({ size: fc.string().filter((s) => !['small', 'medium', 'large'].includes(s)) }),
      fc.record({ ports: fc.array(fc.integer({ min: 65536, max: 10 ** 6 }), { minLength: 1 }) }),
      fc.record({ name: fc.constant('') }),
      fc.record({ unknownField: fc.anything() }),
      fc.record({ tags: fc.constant('not-a-map') }),
    );
    const bad = fc.oneof(
      invalidInput.map((inputs) => ({
        kind: 'input',
        make: (i: number) => thing(`x${i}`, inputs as Record<string, unknown>),
      })),
      fc.constant({
        kind: 'type',
        make: (i: number) => ({ type: 'test:index/nothing:Nothing', name: `x${i}`, inputs: {} }),
      }),
      fc.constant({ kind: 'ref', make: (i: number) => thing(`x${i}`, { peer: ref('missing', 'address') }) }),
      fc.constant({ kind: 'output', make: (i: number) => thing(`x${i}`, { peer: ref('ok0', 'nope') }) }),
    );
    await fc.assert(
      fc.asyncProperty(stack, fc.array(bad, { minLength: 1, maxLength: 4 }), async (good, bads) => {
        const { engine, cloud } = setup();
        const decls = [thing('ok0'), ...good, ...bads.map((b, i) => b.make(i))];
        const err = await engine.plan(decls).catch((e) => e);
        expect(err).toBeInstanceOf(ValidationError);
        expect((err as ValidationError).issues.length).toBeGreaterThanOrEqual(1);
        for (const i of (err as ValidationError).issues) expect(i.resource).toMatch(/^x\d+$/);
        expect(cloud.calls).toHaveLength(0);
        expect(Object.keys((await engine.state()).resources)).toHaveLength(0);
      }),
      { numRuns: 100 },
    );
  });
});
