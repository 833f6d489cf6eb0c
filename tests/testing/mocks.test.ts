// mockProviders(): the three shipped providers' resource types with every operation answered in
// memory. A stack of each provider's typed helpers plans and applies with no network; the outputs
// are typed, in the vendor's shape and the same on every run; validation, check rules, replaceOn
// and replaceWhen are the real ones; override() fixes outputs, drift() changes an object outside.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Engine, MemoryStateStore, ValidationError, LookupError } from 'converge';
import { prova } from 'converge/providers/a';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';
import { convergeMatchers, mockProviders, planChange, planStack } from 'converge/testing';
import 'converge/testing/vitest'; // types the matchers on vitest's expect
import { civo, stack } from './stack.js';

expect.extend(convergeMatchers);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/;
const all3 = () => mockProviders(prova(), civo(), provc({ apiKey: '1$unused', cloudProjectId: 1, cloudRegionId: 76 }));

function threeProviders() {
  const net = provb.network('net', { label: 'app' });
  const fw = provb.firewall('fw', { name: 'app-fw', networkId: net.out('networkId') });
  const web = provb.instance('web', {
    hostname: 'web',
    diskImage: 'ubuntu-jammy',
    networkId: net.out('networkId'),
    firewallId: fw.out('firewallId'),
  });
  const box = prova.instance('box', { name: 'box', image: 'images:alpine/3.20', limits: { memory: '1GiB' } });
  const cdn = provc.cdnResource('cdn', { cname: 'cdn.example.com', origin: 'origin.example.com' });
  return { net, fw, web, box, cdn, all: [net, fw, web, box, cdn] };
}

async function applyWith(mocks: ReturnType<typeof all3>) {
  const engine = new Engine({ providers: mocks.providers, state: new MemoryStateStore() });
  return engine.apply(await engine.plan(threeProviders().all));
}

describe('mockProviders', () => {
  it('plans and applies a stack of the three providers with no network, ids in each vendor shape', async () => {
    const mocks = all3();
    const result = await applyWith(mocks);
    expect(result.failed).toEqual([]);
    expect(result.outputs.net!.networkId).toMatch(UUID); // Civo: UUIDs, the network's id as its networkId
    expect(result.outputs.fw!.networkId).toBe(result.outputs.net!.networkId); // a reference carried through
    expect(result.outputs.web!.publicIp).toMatch(/^10\.\d+\.\d+\.\d+$/);
    expect(mocks.objects.get('cdn')!.id).toMatch(/^\d{6}$/); // Gcore: numbers
    expect(mocks.objects.get('box')!.id).toBe('box'); // LXD: names
    expect(mocks.calls.map((c) => `${c.operation} ${c.address}`).sort()).toEqual([
      'create box',
      'create cdn',
      'create fw',
      'create net',
      'create web',
    ]);
  });

  it('gives the same ids and outputs on every run (derived from the address)', async () => {
    const [a, b] = [await applyWith(all3()), await applyWith(all3())];
    expect(a.outputs).toEqual(b.outputs);
    const other = await planChange([provb.network('other', { label: 'app' })], [], { providers: all3() });
    expect(other.steps[0]!.id).not.toBe(a.outputs.net!.networkId);
  });

  it("fills outputs with values of the schema's types (fixed timestamps), typed for references", async () => {
    const mocks = all3();
    await applyWith(mocks);
    const web = mocks.objects.get('web')!.outputs;
    expect(typeof web.cpuCores).toBe('number');
    expect(web.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expectTypeOf(threeProviders().web.out('publicIp')).toExtend<{ readonly '@type'?: string | undefined }>();
  });

  it('validates with the real schemas and check rules before any call', async () => {
    const mocks = all3();
    const bad = [
      provb.firewall('fw', {
        name: 'fw',
        createDefaultRules: true,
        ingressRules: [{ cidrs: ['0.0.0.0/0'], action: 'allow' }],
      }),
      provc.cdnResource('cdn', { cname: 'cdn.example.com' } as never),
    ];
    const err = await planStack(bad, { providers: mocks }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues.map((i) => `${i.resource} ${i.path.join('.')}`).sort()).toEqual([
      'cdn originGroup', // neither origin nor originGroup
      'fw createDefaultRules', // the provider's own rule: no default rules beside explicit ones
      'fw ingressRules.0.portRange', // and its rule that every tcp rule names its ports
    ]);
    expect(mocks.calls).toEqual([]);
  });

  it('keeps replaceOn and replaceWhen: a new image or a smaller size replaces, a larger one updates', async () => {
    const base = stack().all;
    expect(
      await planChange(base, stack({ diskImage: 'debian-12' }).all, { providers: mockProviders(civo()) }),
    ).toReplace('web', {
      because: 'diskImage',
    });
    expect(await planChange(base, stack({ size: 'g3.small' }).all, { providers: mockProviders(civo()) })).toReplace(
      'web',
      {
        because: 'size',
      },
    );
    expect(await planChange(base, stack({ size: 'g3.large' }).all, { providers: mockProviders(civo()) })).toUpdate(
      'web',
      {
        paths: ['size'],
      },
    );
  });

  it('updates keep the inputs given, deletes forget, a replacement gets a new id', async () => {
    const mocks = mockProviders(civo());
    const engine = new Engine({ providers: mocks.providers, state: new MemoryStateStore() });
    await engine.apply(await engine.plan(stack({ webs: 2 }).all));
    const firstId = mocks.objects.get('web')!.id;
    await engine.apply(await engine.plan(stack({ webs: 2, size: 'g3.large' }).all));
    expect(mocks.objects.get('web')!.inputs.size).toBe('g3.large');
    await engine.apply(await engine.plan(stack({ webs: 1, size: 'g3.large', diskImage: 'debian-12' }).all));
    expect(mocks.objects.has('web-1')).toBe(false);
    expect(mocks.objects.get('web')!.id).not.toBe(firstId);
    expect(await engine.plan(stack({ webs: 1, size: 'g3.large', diskImage: 'debian-12' }).all)).toHaveNoChanges();
  });

  it('answers lookups as told, and otherwise finds nothing', async () => {
    const mocks = mockProviders(civo()).answer(provb.getNetwork({ label: 'default' }), {
      id: 'n-1',
      label: 'default',
    } as never);
    const engine = new Engine({ providers: mocks.providers, state: new MemoryStateStore() });
    expect(await engine.lookup(provb.getNetwork({ label: 'default' }))).toEqual({ id: 'n-1', label: 'default' });
    await expect(engine.lookup(provb.getSshKey({ name: 'nobody' }))).rejects.toBeInstanceOf(LookupError);
  });
});

describe('override', () => {
  it('fixes outputs of one resource, which references then carry (terraform test override_resource)', async () => {
    const { all, net } = stack();
    const mocks = mockProviders(civo()).override(net, { networkId: 'net-fixed' });
    const engine = new Engine({ providers: mocks.providers, state: new MemoryStateStore() });
    const result = await engine.apply(await engine.plan(all));
    expect(result.outputs.net!.networkId).toBe('net-fixed');
    expect(mocks.objects.get('fw')!.inputs.networkId).toBe('net-fixed');
    expect(mocks.objects.get('web')!.inputs.networkId).toBe('net-fixed');
  });

  it('applies to the outputs an existing object reads back', async () => {
    const mocks = mockProviders(civo());
    const { all } = stack();
    await planChange(all, all, { providers: mocks });
    mocks.override('web', { publicIp: '203.0.113.7' }).drift('net', {});
    const plan = await planChange(all, all, { providers: mocks });
    expect(plan).toHaveNoChanges();
    expect(mocks.objects.get('web')!.outputs.publicIp).toBe('203.0.113.7');
  });
});

describe('planStack and planChange with a state to start from', () => {
  it('plan against a recorded state (a value, or a store kept for the test): read answers the prior', async () => {
    const engine = new Engine({ providers: mockProviders(civo()).providers, state: new MemoryStateStore() });
    await engine.apply(await engine.plan(stack().all));
    const recorded = await engine.state();
    // Fresh mocks know none of these objects: they read back what the state recorded.
    expect(await planStack(stack().all, { providers: mockProviders(civo()), state: recorded })).toHaveNoChanges();
    const store = new MemoryStateStore();
    await store.write(recorded, (await store.read()).serial);
    const grown = await planChange(stack().all, stack({ size: 'g3.large' }).all, {
      providers: mockProviders(civo()),
      state: store,
    });
    expect(grown).toChangeOnly(['web']);
    expect(Object.keys((await store.read()).resources).sort()).toEqual(['fw', 'net', 'web']);
  });
});
