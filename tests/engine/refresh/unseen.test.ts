// Absence in a listing is never proof: whatever a provider's `readMany` answers for an object (null,
// or nothing at all), the engine reads that object alone with `read` before it calls it gone, in a
// plan and in engine.refresh(). One read per missing object, none when the listing shows them all.
// (The engines here run 2 reads at once: a type with no more objects than that is read one by one.)
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Engine, MemoryStateStore, defineProvider, defineResource, resourceHelper, type ReadResult } from 'converge';

/** A cloud whose listing can be told to miss objects that exist (as a shifted page does). */
function listedCloud() {
  const objects = new Map<string, string>();
  const reads: string[] = [];
  const listings: string[][] = [];
  /** Ids the next listings skip although they exist; `null`: answered null rather than left out. */
  const skip = new Map<string, 'null' | 'absent'>();
  let next = 1;
  const result = (label: string): ReadResult => ({ inputs: { label }, outputs: { label } });
  const item = defineResource({
    token: 'listed:index/item:Item',
    inputs: z.object({ label: z.string() }).strict(),
    outputs: z.object({ label: z.string() }),
    async create(_ctx, inputs) {
      const id = `item-${next++}`;
      objects.set(id, inputs.label);
      return { id, outputs: { label: inputs.label } };
    },
    async read(_ctx, id) {
      reads.push(id);
      const label = objects.get(id);
      return label === undefined ? null : result(label);
    },
    async readMany(_ctx, items) {
      listings.push(items.map((i) => i.id));
      const out = new Map<string, ReadResult | null>();
      for (const { id } of items) {
        const label = objects.get(id);
        if (skip.get(id) === 'absent') continue;
        if (label === undefined || skip.get(id) === 'null') out.set(id, null);
        else out.set(id, result(label));
      }
      return out;
    },
    async delete(_ctx, id) {
      objects.delete(id);
    },
  });
  const provider = defineProvider({ name: 'listed', config: undefined, resources: [item] });
  return { objects, reads, listings, skip, provider, item: resourceHelper(item) };
}

const decls = (c: ReturnType<typeof listedCloud>) => [0, 1, 2, 3].map((i) => c.item(`i${i}`, { label: `l${i}` }));

describe('refresh by the listing: a missing object is read alone before it is gone', () => {
  it('reads nothing alone when the listing shows every object', async () => {
    const c = listedCloud();
    const engine = new Engine({ providers: [c.provider], state: new MemoryStateStore(), parallelism: 2 });
    await engine.apply(await engine.plan(decls(c)));
    c.reads.length = 0;
    c.listings.length = 0;
    const plan = await engine.plan(decls(c));
    expect(plan.steps.every((s) => s.action === 'noop')).toBe(true);
    expect(c.listings).toHaveLength(1);
    expect(c.reads).toEqual([]);
  });

  it('keeps objects a listing missed (answered null or left out) and plans only the truly deleted one', async () => {
    const c = listedCloud();
    const engine = new Engine({ providers: [c.provider], state: new MemoryStateStore(), parallelism: 2 });
    await engine.apply(await engine.plan(decls(c)));
    const ids = Object.fromEntries(Object.values((await engine.state()).resources).map((r) => [r.name, r.id]));
    c.skip.set(ids.i0!, 'null');
    c.skip.set(ids.i1!, 'absent');
    c.objects.delete(ids.i2!);
    c.reads.length = 0;

    const plan = await engine.plan(decls(c));
    expect(Object.fromEntries(plan.steps.map((s) => [s.address, [s.action, s.cause]]))).toEqual({
      i0: ['noop', 'unchanged'],
      i1: ['noop', 'unchanged'],
      i2: ['create', 'gone'],
      i3: ['noop', 'unchanged'],
    });
    // One read per object the listing did not show, nothing for the ones it did.
    expect(c.reads.sort()).toEqual([ids.i0, ids.i1, ids.i2].sort());

    c.reads.length = 0;
    const refreshed = await engine.refresh();
    expect(refreshed.gone).toEqual(['i2']);
    expect([...refreshed.unchanged].sort()).toEqual(['i0', 'i1', 'i3']);
    expect(c.reads.sort()).toEqual([ids.i0, ids.i1, ids.i2].sort());
    expect(Object.keys((await engine.state()).resources).sort()).toEqual(['i0', 'i1', 'i3']);
  });

  it('reads a type one by one when it has no more objects than reads run at once, and lists it when it has more', async () => {
    const c = listedCloud();
    const state = new MemoryStateStore();
    const wide = new Engine({ providers: [c.provider], state, parallelism: 4 });
    await wide.apply(await wide.plan(decls(c)));
    c.reads.length = 0;
    expect((await wide.plan(decls(c))).hasChanges).toBe(false);
    // 4 objects, 4 reads at once: one round of reads, no listing (it would return the whole region's)
    expect(c.listings).toEqual([]);
    expect(c.reads).toHaveLength(4);

    const narrow = new Engine({ providers: [c.provider], state, parallelism: 3 });
    c.reads.length = 0;
    expect((await narrow.plan(decls(c))).hasChanges).toBe(false);
    expect(c.listings).toHaveLength(1);
    expect(c.listings[0]).toHaveLength(4);
    expect(c.reads).toEqual([]);
  });
});
