// Rate-limit benchmark: 2,000 DNS domain creates (one request each) against the Civo simulator
// limiting the account to 50 requests/s (burst 50), parallelism 10. Figures: failed steps, and the
// requests the simulator served per second divided by its limit; beside them the same with no rate
// configured (the budget learns from the vendor's headers and 429s), over 500 creates.
import { Engine, MemoryStateStore } from '../src/index.js';
import { provb } from '../src/providers/b/index.js';
import { startSimulator } from '../src/providers/b/simulator/index.js';

const LIMIT = { requestsPerSecond: 50, burst: 50 };

async function run(
  n: number,
  configured: boolean,
): Promise<{ failed: number; ratio: number; throttled: number; seconds: number }> {
  const sim = await startSimulator({ rateLimit: LIMIT });
  try {
    const provider = provb({
      token: sim.token,
      apiEndpoint: sim.url,
      region: 'LON1',
      ...(configured ? { rateLimit: LIMIT } : {}),
    });
    const engine = new Engine({ providers: [provider], state: new MemoryStateStore(), parallelism: 10 });
    const decls = Array.from({ length: n }, (_, i) => ({
      type: 'provb:index/dnsDomainName:DnsDomainName',
      name: `d${i}`,
      inputs: { name: `bench-${i}.example.com` },
    }));
    const plan = await engine.plan(decls, { refresh: false });
    sim.clearLog();
    const t0 = performance.now();
    const result = await engine.apply(plan).catch((e) => e.result);
    const seconds = (performance.now() - t0) / 1000;
    const served = sim.requests.filter((r) => !r.throttled).length;
    return {
      failed: result.failed.length,
      ratio: served / seconds / LIMIT.requestsPerSecond,
      throttled: sim.requests.length - served,
      seconds,
    };
  } finally {
    await sim.close();
  }
}

export async function benchRateLimit(): Promise<Record<string, number>> {
  const main = await run(2000, true);
  const learned = await run(500, false);
  return {
    ratelimited_apply_failed_steps: main.failed,
    ratelimited_apply_throughput_ratio: main.ratio,
    ratelimited_apply_429s: main.throttled,
    ratelimited_unconfigured_apply_failed_steps: learned.failed,
    ratelimited_unconfigured_throughput_ratio: learned.ratio,
    ratelimited_unconfigured_429s: learned.throttled,
  };
}
