// CloudFloatingIp.find recovers through the task list: the create_fip task of this operation (its
// data carries the operation tag) names the floating IP it made. A floating IP that existed before
// the create started is never found; a lost create answer never makes a second floating IP.
import { describe, expect, it } from 'vitest';
import { Engine, MemoryStateStore, ProviderError, TimeoutError, isCannotTell, type FindHint } from 'converge';
import { provc } from 'converge/providers/c';
import { startSimulator } from 'converge/providers/c/simulator';
import { cloudFloatingIp, OPERATION_TAG } from '../../../src/providers/c/resources/cloud-floating-ip.js';
import { failure, makeProvider, useHarness, type Harness } from './helpers/harness.js';

const inputs = (extra: Record<string, unknown> = {}) => cloudFloatingIp.inputs.parse(extra);
const ctxOf = (h: Harness, operation: 'create' | 'find' | 'delete', operationId?: string) => ({
  ...h.ctx(operation, 'fip'),
  ...(operationId ? { operationId } : {}),
});
/** The first DELETE's answer was lost: later requests go through, and its delete task has finished. */
const lostThenGone = (h: Harness) => {
  h.sim.setFaults(undefined);
  h.sim.store.settle(Date.now() + 60_000);
};
const after = (h: Harness, operationId: string): FindHint => ({
  startedAt: new Date((h.sim.requests.at(-1)?.at ?? Date.now()) + 1).toISOString(),
  operationId,
});

describe('CloudFloatingIp find', () => {
  const h = useHarness();

  it('writes the operation id in a tag that read and outputs hide', async () => {
    const r = await cloudFloatingIp.create(ctxOf(h(), 'create', 'op-1'), inputs({ tags: { env: 'dev' } }));
    expect(h().sim.requests.find((x) => x.method === 'POST')?.body).toEqual({
      tags: { env: 'dev', [OPERATION_TAG]: 'op-1' },
    });
    expect(r.outputs.tags).toEqual([{ key: 'env', value: 'dev', readOnly: false }]);
    const read = await cloudFloatingIp.read(h().ctx(), r.id, {
      inputs: inputs({ tags: { env: 'dev' } }),
      outputs: r.outputs,
    });
    expect(read?.inputs).toEqual({ tags: { env: 'dev' } });
  });

  it('never answers with a floating IP that existed before the create started, even one with the same inputs', async () => {
    await cloudFloatingIp.create(ctxOf(h(), 'create', 'stack-a'), inputs());
    await cloudFloatingIp.create(h().ctx('create'), inputs());
    expect(await cloudFloatingIp.find!(ctxOf(h(), 'find', 'stack-b'), inputs(), after(h(), 'stack-b'))).toBeNull();
    const q = new URLSearchParams(h().sim.requests.at(-1)!.query);
    expect(q.get('task_type')).toBe('create_fip');
    expect(q.get('from_timestamp')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
  });

  it('after a lost create answer, waits for the task and answers the floating IP it made', async () => {
    h().sim.store.taskDurationMs = 80;
    const hint = after(h(), 'op-2');
    h().sim.setFaults({ rate: 1, kinds: ['drop_after'], methods: ['POST'] });
    const lost = await failure(h(), cloudFloatingIp.create(ctxOf(h(), 'create', 'op-2'), inputs({ tags: { a: '1' } })));
    h().sim.setFaults(undefined);
    expect(lost).toMatchObject({ outcomeUnknown: true });
    expect(h().sim.store.floatingIps.size).toBe(0);
    const found = await cloudFloatingIp.find!(ctxOf(h(), 'find', 'op-2'), inputs({ tags: { a: '1' } }), hint);
    if (!found || isCannotTell(found)) throw new Error(`expected the floating IP, got ${JSON.stringify(found)}`);
    expect([...h().sim.store.floatingIps.keys()]).toEqual([found.id]);
    expect(found.outputs).toMatchObject({ floatingIpId: found.id, tags: [{ key: 'a', value: '1', readOnly: false }] });
  });

  it('answers null when the create never reached the API, or its task ended in ERROR', async () => {
    const hint = after(h(), 'op-3');
    h().sim.setFaults({ rate: 1, kinds: ['drop'], methods: ['POST'] });
    await failure(h(), cloudFloatingIp.create(ctxOf(h(), 'create', 'op-3'), inputs()));
    h().sim.setFaults(undefined);
    expect(await cloudFloatingIp.find!(ctxOf(h(), 'find', 'op-3'), inputs(), hint)).toBeNull();
    h().sim.store.failNextTask('No free public IPs', 'create_fip');
    const hint4 = after(h(), 'op-4');
    await failure(h(), cloudFloatingIp.create(ctxOf(h(), 'create', 'op-4'), inputs()));
    expect(await cloudFloatingIp.find!(ctxOf(h(), 'find', 'op-4'), inputs(), hint4)).toBeNull();
  });

  it('waits for a running task no longer than the polling time-out', async () => {
    h().sim.store.taskDurationMs = 60_000;
    const hint = after(h(), 'op-6');
    h().sim.setFaults({ rate: 1, kinds: ['drop_after'], methods: ['POST'] });
    await failure(h(), cloudFloatingIp.create(ctxOf(h(), 'create', 'op-6'), inputs()));
    h().sim.setFaults(undefined);
    const quick = makeProvider(h().sim, { pollingIntervalSeconds: 0.005, pollingTimeoutSeconds: 0.05 });
    const e = await failure(
      h(),
      cloudFloatingIp.find!({ ...ctxOf(h(), 'find', 'op-6'), config: quick.config }, inputs(), hint),
    );
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.limitMs).toBe(50);
  });

  // A delete answered not found is absorbed in one layer, the engine's delete step: the handler
  // throws what the vendor says, and an apply counts it done.
  it('rejects a delete whose answer was lost and whose retry meets 404 as not found, the IP gone', async () => {
    const r = await cloudFloatingIp.create(h().ctx('create'), inputs());
    h().sim.setFaults({ rate: 1, kinds: ['drop_after'], methods: ['DELETE'] });
    // The first DELETE starts the delete task and its answer is lost; by the retry the IP is gone.
    const ctx = { ...h().ctx('delete'), report: () => lostThenGone(h()) };
    const gone = await failure(h(), cloudFloatingIp.delete(ctx, r.id, { inputs: inputs(), outputs: r.outputs }));
    expect(gone).toBeInstanceOf(ProviderError);
    expect(gone).toMatchObject({ notFound: true, status: 404 });
    expect(h().sim.store.floatingIps.size).toBe(0);
    expect(
      h()
        .sim.requests.filter((x) => x.method === 'DELETE')
        .map((x) => x.fault ?? x.status),
    ).toEqual(['drop_after', 404]);
  });

  it('counts a delete whose answer was lost and whose retry meets 404 as done', async () => {
    const engine = new Engine({
      providers: [h().provider],
      state: new MemoryStateStore(),
      retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 5 },
      onEvent: (e) => {
        h().events.push(e);
        if (e.type === 'retry') lostThenGone(h());
      },
    });
    expect((await engine.apply(await engine.plan([provc.cloudFloatingIp('fip', {})]))).failed).toEqual([]);
    h().sim.setFaults({ rate: 1, kinds: ['drop_after'], methods: ['DELETE'] });
    // Removed from the stack: the first DELETE's answer is lost; by the retry the IP is gone.
    const result = await engine.apply(await engine.plan([]));
    expect(result.succeeded.map((s) => [s.address, s.action])).toEqual([['fip', 'delete']]);
    expect((await engine.state()).resources).toEqual({});
    expect(h().sim.store.floatingIps.size).toBe(0);
    expect(
      h()
        .sim.requests.filter((x) => x.method === 'DELETE')
        .map((x) => x.fault ?? x.status),
    ).toEqual(['drop_after', 404]);
  });
});

describe('CloudFloatingIp under lost answers (fault injection)', () => {
  it('leaves exactly one floating IP per declaration in each of 50 seeded runs', async () => {
    const decls = () => ['a', 'b', 'c'].map((n) => provc.cloudFloatingIp(n, { tags: { name: n } }));
    const duplicates: string[] = [];
    let lostAnswers = 0;
    for (let seed = 1; seed <= 50; seed++) {
      const sim = await startSimulator({
        seed,
        taskDurationMs: 4,
        faults: { rate: 0.4, kinds: ['drop_after', 'drop', '500'], methods: ['POST'] },
      });
      try {
        const engine = new Engine({
          providers: [makeProvider(sim)],
          state: new MemoryStateStore(),
          retry: { retries: 6, minTimeoutMs: 1, maxTimeoutMs: 2 },
        });
        // An apply whose creates kept failing is run again, as a user would; it must not duplicate.
        for (let attempt = 0; attempt < 4; attempt++) {
          const ok = await engine.apply(await engine.plan(decls())).then(
            () => true,
            () => false,
          );
          if (ok) break;
        }
        lostAnswers += sim.requests.filter((r) => r.fault === 'drop_after').length;
        const ips = [...sim.store.floatingIps.values()];
        const perName = ['a', 'b', 'c'].map(
          (n) =>
            ips.filter((o) =>
              (o.tags as { key: string; value: string }[]).some((t) => t.key === 'name' && t.value === n),
            ).length,
        );
        if (perName.join() !== '1,1,1') duplicates.push(`seed ${seed}: ${perName.join()}`);
        const state = await engine.state();
        expect(
          Object.values(state.resources)
            .map((r) => r.id)
            .sort(),
          `seed ${seed}`,
        ).toEqual(ips.map((o) => String(o.id)).sort());
        expect((await engine.plan(decls(), { refresh: true })).hasChanges, `seed ${seed}`).toBe(false);
      } finally {
        await sim.close();
      }
    }
    expect(duplicates).toEqual([]);
    expect(lostAnswers).toBeGreaterThan(20);
  }, 60_000);
});
