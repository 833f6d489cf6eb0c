// Lookups declared in the stack are nodes of the graph: read when the plan is made if their
// arguments are known then, deferred to apply (a `<= read` step with its reason) when they wait on
// values known only after apply, or dependsOn something with changes; a dependsOn on something
// unchanged does not defer (Terraform #26383, #27858). Their answers are recorded in the state, so
// a refresh-only plan shows a changed answer.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineLookup,
  defineProvider,
  defineResource,
  Engine,
  LookupError,
  lookupHelper,
  MemoryStateStore,
  resourceHelper,
  isUnknown,
} from '../../../src/index.js';

/** A tiny cloud: servers (their address known only once made) and a lookup of a server by name. */
function cloud() {
  const servers = new Map<string, { name: string; address: string; zone: string }>();
  const reads: string[] = [];
  let next = 1;
  const server = defineResource({
    token: 'mini:index/server:Server',
    inputs: z.object({ name: z.string(), zone: z.string().default('a'), peer: z.string().optional() }),
    outputs: z.object({ address: z.string() }),
    create: async (_ctx, i) => {
      const address = `10.0.0.${next++}`;
      servers.set(i.name, { name: i.name, address, zone: i.zone });
      return { id: i.name, outputs: { address } };
    },
    read: async (_ctx, id, prior) => {
      const s = servers.get(id);
      return s ? { inputs: { ...prior.inputs, zone: s.zone }, outputs: { address: s.address } } : null;
    },
    update: async (_ctx, id, _olds, news) => {
      servers.get(id)!.zone = news.zone;
      return { outputs: { address: servers.get(id)!.address } };
    },
    delete: async (_ctx, id) => {
      servers.delete(id);
    },
  });
  const getServer = defineLookup({
    token: 'mini:index/getServer:getServer',
    args: z.object({ address: z.string() }),
    run: async (_ctx, args) => {
      reads.push(args.address);
      const s = [...servers.values()].find((x) => x.address === args.address);
      if (!s) throw new LookupError('mini:index/getServer:getServer', 'not_found', [], `address ${args.address}`);
      return { name: s.name, zone: s.zone };
    },
  });
  const provider = defineProvider({ name: 'mini', resources: [server], lookups: [getServer] });
  return { servers, reads, provider, server: resourceHelper(server), getServer: lookupHelper(getServer) };
}

describe('lookups declared in the stack', () => {
  it('are deferred to apply when their arguments wait on a create, with the reason and <= read in the plan', async () => {
    const c = cloud();
    const engine = new Engine({ providers: [c.provider], state: new MemoryStateStore() });
    const web = c.server('web', { name: 'web' });
    const found = c.getServer('found', { address: web.out('address') });
    const peer = c.server('peer', { name: 'peer', peer: found.out('name') });
    const plan = await engine.plan([web, found, peer]);
    const step = plan.steps.find((s) => s.address === 'found')!;
    expect(step.lookup).toEqual({
      deferred: 'its arguments depend on values known only after apply (address ← web.address)',
    });
    expect(c.reads).toEqual([]);
    expect(isUnknown(plan.steps.find((s) => s.address === 'peer')!.after!.peer)).toBe(true);
    const text = plan.render({ color: false });
    expect(text).toContain('# found will be read during apply');
    expect(text).toContain('<= lookup "mini:index/getServer:getServer" "found" {');
    await engine.apply(plan);
    expect(c.reads).toEqual(['10.0.0.1']);
    const state = await engine.state();
    expect(state.resources.found).toMatchObject({
      inputs: { address: '10.0.0.1' },
      outputs: { name: 'web', zone: 'a' },
    });
    expect(state.resources.peer!.inputs.peer).toBe('web');
    // Planned again: everything known, nothing to do.
    expect((await engine.plan([web, found, peer])).hasChanges).toBe(false);
  });

  it('are read when the plan is made when their arguments are known, and what depends on them plans with the answer', async () => {
    const c = cloud();
    const engine = new Engine({ providers: [c.provider], state: new MemoryStateStore() });
    const web = c.server('web', { name: 'web' });
    await engine.apply(await engine.plan([web]));
    const found = c.getServer('found', { address: web.out('address') });
    const peer = c.server('peer', { name: 'peer', peer: found.out('name') });
    c.reads.length = 0;
    const plan = await engine.plan([web, found, peer]);
    expect(c.reads).toEqual(['10.0.0.1']);
    expect(plan.steps.find((s) => s.address === 'found')).toMatchObject({ action: 'noop', lookup: {} });
    expect(plan.steps.find((s) => s.address === 'peer')!.after!.peer).toBe('web');
    await engine.apply(plan);
    expect((await engine.state()).resources.found!.outputs).toEqual({ name: 'web', zone: 'a' });
  });

  it('a dependsOn on an unchanged resource does not defer; on one with changes it does, saying so', async () => {
    const c = cloud();
    const engine = new Engine({ providers: [c.provider], state: new MemoryStateStore() });
    const web = (zone: string) => c.server('web', { name: 'web', zone });
    await engine.apply(await engine.plan([web('a')]));
    const address = (await engine.state()).resources.web!.outputs.address as string;
    const found = c.getServer('found', { address }, { dependsOn: ['web'] });
    c.reads.length = 0;
    const calm = await engine.plan([web('a'), found]);
    expect(calm.steps.find((s) => s.address === 'found')!.lookup).toEqual({});
    expect(c.reads).toEqual([address]);
    await engine.apply(calm);

    c.reads.length = 0;
    const busy = await engine.plan([web('b'), found]);
    expect(busy.steps.find((s) => s.address === 'found')!.lookup).toEqual({
      deferred: 'it depends on web (dependsOn), which has changes planned',
    });
    // The plan's refresh read the recorded answer again (web still in zone a); the deferred read runs after web's update.
    expect(c.reads).toEqual([address]);
    expect(isUnknown(busy.steps.find((s) => s.address === 'found')!.after!.address)).toBe(false);
    await engine.apply(busy);
    expect(c.reads).toEqual([address, address]);
    expect((await engine.state()).resources.found!.outputs).toEqual({ name: 'web', zone: 'b' });
  });

  it('their answers are recorded, so a refresh-only plan shows an answer that changed', async () => {
    const c = cloud();
    const engine = new Engine({ providers: [c.provider], state: new MemoryStateStore() });
    const web = c.server('web', { name: 'web' });
    await engine.apply(await engine.plan([web]));
    const found = c.getServer('found', { address: web.out('address') });
    await engine.apply(await engine.plan([web, found]));
    c.servers.get('web')!.zone = 'z';
    const plan = await engine.plan([web, found], { mode: 'refresh-only' });
    const drift = plan.drift.map((d) => [d.address, d.changes.map((x) => [x.path, x.before, x.after])]);
    expect(drift).toContainEqual(['web', [['zone', 'a', 'z']]]);
    await engine.apply(plan);
    expect((await engine.state()).resources.found!.outputs).toEqual({ name: 'web', zone: 'z' });
  });

  it('removed from the stack, a lookup is forgotten, never deleted', async () => {
    const c = cloud();
    const engine = new Engine({ providers: [c.provider], state: new MemoryStateStore() });
    const web = c.server('web', { name: 'web' });
    await engine.apply(await engine.plan([web, c.getServer('found', { address: web.out('address') })]));
    const plan = await engine.plan([web]);
    expect(plan.steps.find((s) => s.address === 'found')).toMatchObject({ action: 'forget', lookup: {} });
    expect(plan.render({ color: false })).toContain('# found (a lookup) is no longer declared');
    await engine.apply(plan);
    expect(c.servers.has('web')).toBe(true);
    expect((await engine.state()).resources.found).toBeUndefined();
  });
});
