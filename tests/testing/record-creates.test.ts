// planChange() records the first plan's creates through mocks without the apply machinery
// (src/testing/record-creates.ts). The state it leaves must be the one a real apply through the same
// mocks records: the same resources (ids, inputs, outputs, secrets, options, dependencies,
// timestamps), outputs, no pending or deposed record; and the mocks hold the same objects.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Engine, MemoryStateStore, defineProvider, defineResource, ref, secret, type ResourceDecl } from 'converge';
import { prova } from 'converge/providers/a';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';
import { mockProviders, planChange, expectPlan } from 'converge/testing';
import { recordCreates } from '../../src/testing/record-creates.js';
import { isMockResource } from '../../src/testing/mock.js';

const CLOCK = Date.parse('2026-03-04T05:06:07.000Z');
const now = () => CLOCK;

const mocks = () =>
  mockProviders(
    prova(),
    provb({ token: 'unused', region: 'LON1' }),
    provc({ apiKey: '1$unused', cloudProjectId: 1, cloudRegionId: 76 }),
  );

function stack(): ResourceDecl[] {
  const net = provb.network('net', { label: 'app' });
  const fw = provb.firewall('fw', {
    name: 'app-fw',
    networkId: net.out('networkId'),
    createDefaultRules: false,
    ingressRules: [{ protocol: 'tcp', portRange: '22', cidrs: ['10.0.0.0/8'], action: 'allow' }],
  });
  const web = provb.instance(
    'web',
    {
      hostname: 'web',
      diskImage: 'ubuntu-jammy',
      size: 'g3.medium',
      networkId: net.out('networkId'),
      firewallId: fw.out('firewallId'),
      script: secret('#!/bin/sh\necho hello'),
    },
    { protect: true, timeouts: { create: '10m' }, ignoreChanges: ['tags'] },
  );
  const box = prova.instance('box', { name: 'box', image: 'images:alpine/3.20', limits: { memory: '1GiB' } });
  const cdn = provc.cdnResource(
    'cdn',
    { cname: 'cdn.example.com', origin: 'origin.example.com' },
    { dependsOn: ['box'] },
  );
  return [net, fw, web, box, cdn];
}

async function applied(way: 'apply' | 'record') {
  const m = mocks();
  const store = new MemoryStateStore();
  const engine = new Engine({ providers: m.providers, state: store, now });
  const plan = await engine.plan(stack(), { outputs: { netId: ref('net', 'networkId'), region: 'LON1' } });
  if (way === 'apply') await engine.apply(plan);
  else expect(await recordCreates(plan, store, isMockResource, now)).toBe(true);
  const { serial: _s, lineage: _l, ...state } = await store.read();
  const objects = [...m.objects.values()].sort((a, b) => a.address.localeCompare(b.address));
  const calls = m.calls.map((c) => `${c.operation} ${c.address}`).sort();
  return { state, objects, calls };
}

describe('recordCreates (planChange without an apply)', () => {
  it('leaves the state a real apply through the same mocks leaves', async () => {
    const real = await applied('apply');
    const recorded = await applied('record');
    expect(Object.keys(real.state.resources).sort()).toEqual(['box', 'cdn', 'fw', 'net', 'web']);
    expect(real.state.resources.web!.secrets).toContain('inputs.script');
    expect(real.state.resources.web!.options).toMatchObject({ protect: true });
    expect(real.state.resources.cdn!.dependencies).toEqual(['box']);
    expect(real.state.outputs?.netId).toBeDefined();
    expect(recorded).toEqual(real);
  });

  it('declines a plan that is not only creates, and planChange then applies it the real way', async () => {
    const m = mocks();
    const store = new MemoryStateStore();
    const engine = new Engine({ providers: m.providers, state: store });
    await engine.apply(await engine.plan(stack()));
    const edited = stack().map((d) => (d.name === 'net' ? { ...d, inputs: { label: 'renamed' } } : d));
    const update = await engine.plan(edited);
    const before = await store.read();
    expect(await recordCreates(update, store, isMockResource)).toBe(false);
    expect(await store.read()).toBe(before);

    // From a state holding the stack, planChange's first plan is that update: applied, then the edit planned.
    const plan = await planChange(edited, stack(), { providers: mocks(), state: before });
    expectPlan(plan).toUpdate('net', { paths: ['label'] });
    expectPlan(plan).toChangeOnly(['net']);
  });

  it('declines creates through providers that are not mocks', async () => {
    const thing = defineResource({
      token: 'mine:index/thing:Thing',
      inputs: z.object({ label: z.string() }),
      outputs: z.object({}),
      create: async () => ({ id: 't-1', outputs: {} }),
      read: async (_ctx, _id, prior) => prior,
      delete: async () => {},
    });
    const store = new MemoryStateStore();
    const engine = new Engine({ providers: [defineProvider({ name: 'mine', resources: [thing] })], state: store });
    const plan = await engine.plan([{ type: thing.token, name: 't', inputs: { label: 'x' } }]);
    expect(plan.steps.map((s) => s.action)).toEqual(['create']);
    expect(await recordCreates(plan, store, isMockResource)).toBe(false);
    expect((await store.read()).resources).toEqual({});
  });
});
