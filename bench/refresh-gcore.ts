// Refresh at API scale on Gcore: 2,000 CDN resources on the simulator at 20 ms a request,
// parallelism 10. The reference, measured in the same run: the per-resource ideal N / p x latency
// (one GET each, perfectly parallel). The figures: requests per resource and the ratio to that ideal.
import { Engine, MemoryStateStore } from '../src/index.js';
import { provc } from '../src/providers/c/index.js';
import { startSimulator, SIM_PROJECT_ID, SIM_REGION_ID } from '../src/providers/c/simulator/index.js';

export async function benchRefreshGcore(): Promise<Record<string, number>> {
  const N = 2000;
  const P = 10;
  const LATENCY = 20;
  const sim = await startSimulator({ taskDurationMs: 0 });
  try {
    const provider = (parallel: number) => ({
      engine: (state: MemoryStateStore) =>
        new Engine({
          providers: [
            provc({
              apiKey: sim.apiKey,
              baseUrl: sim.baseUrl,
              cloudProjectId: SIM_PROJECT_ID,
              cloudRegionId: SIM_REGION_ID,
              env: {},
            }),
          ],
          state,
          parallelism: parallel,
        }),
    });
    const origins = provc.cdnOriginGroup('origins', { name: 'origins', sources: [{ source: 'origin.example.com' }] });
    const decls = [
      origins,
      ...Array.from({ length: N }, (_, i) =>
        provc.cdnResource(`site${i}`, { cname: `site${i}.cdn.example.com`, originGroup: origins.out('originGroupId') }),
      ),
    ];
    const store = new MemoryStateStore();
    const setup = provider(50).engine(store);
    await setup.apply(await setup.plan(decls, { refresh: false }));
    const measured = provider(P).engine(store);
    sim.setLatency(LATENCY);
    sim.clearLog();
    const started = performance.now();
    const plan = await measured.plan(decls, { refresh: true });
    const ms = performance.now() - started;
    if (plan.hasChanges) throw new Error('refresh bench: the stack should plan as unchanged');
    const requests = sim.requests.length;
    const ideal = ((N + 1) / P) * LATENCY;
    return {
      refresh_2k_gcore_cdn_ms: ms,
      refresh_2k_gcore_cdn_ideal_ms: ideal,
      refresh_2k_gcore_cdn_requests_per_resource: requests / (N + 1),
      refresh_2k_gcore_cdn_ratio_to_per_resource_ideal: ms / ideal,
    };
  } finally {
    await sim.close();
  }
}
