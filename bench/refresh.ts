// Refresh at API scale: 2,000 Civo instances on the simulator at 20 ms a request, parallelism 10.
// The reference, measured in the same run: the per-resource ideal N / p x latency (one GET each,
// perfectly parallel). The figures: requests per resource and the ratio to that ideal.
import { Engine, MemoryStateStore } from '../src/index.js';
import { provb } from '../src/providers/b/index.js';
import { startSimulator } from '../src/providers/b/simulator/index.js';

export async function benchRefresh(): Promise<Record<string, number>> {
  const N = 2000;
  const P = 10;
  const LATENCY = 20;
  // The account's quota is raised to hold the 2,000 instances (a new account's is 16).
  const big = 1_000_000;
  const sim = await startSimulator({
    transitions: { instance: 0 },
    quota: { instance_count: big, cpu_core: big, ram_mb: big * 1024, disk_gb: big, public_ip_address: big },
  });
  // The 2,000 creates of the setup are not measured: the advertised limit is raised so they do not
  // wait for Civo's 600 requests a minute (the measured refresh makes 20 requests).
  sim.store.rateLimitPerMinute = 1_000_000;
  try {
    const engine = new Engine({
      providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 1 })],
      state: new MemoryStateStore(),
      parallelism: 50,
    });
    const decls = Array.from({ length: N }, (_, i) =>
      provb.instance(`vm${i}`, { hostname: `vm${i}`, diskImage: 'ubuntu-jammy', firewallId: '' }),
    );
    await engine.apply(await engine.plan(decls, { refresh: false }));
    const measured = new Engine({
      providers: [provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1' })],
      state: engine.store,
      parallelism: P,
    });
    sim.setLatency(LATENCY);
    sim.clearLog();
    const started = performance.now();
    const plan = await measured.plan(decls, { refresh: true });
    const ms = performance.now() - started;
    if (plan.hasChanges) throw new Error('refresh bench: the stack should plan as unchanged');
    const requests = sim.requests.length;
    const ideal = (N / P) * LATENCY;
    return {
      refresh_2k_civo_ms: ms,
      refresh_2k_civo_ideal_ms: ideal,
      refresh_2k_civo_requests_per_resource: requests / N,
      refresh_2k_civo_ratio_to_per_resource_ideal: ms / ideal,
    };
  } finally {
    await sim.close();
  }
}
