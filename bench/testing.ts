// converge/testing at the size of a large stack: 1,000 Civo resources (a network, 99 firewalls, 900
// instances behind them) planned, applied to memory through the mocks, edited (one instance grown,
// one firewall rule opened) and planned again, then 10 matcher assertions on that plan. The figure
// is the median of 5 runs after one warm-up run in the same process; `testing_1k_change_cpu_ms`
// is the median CPU time (user + system) of the same runs, steadier than wall time on a shared machine.
import { provb } from '../src/providers/b/index.js';
import { expectPlan, mockProviders, planChange } from '../src/testing/index.js';

function stack(edited: boolean) {
  const net = provb.network('net', { label: 'bench' });
  const out: ReturnType<typeof provb.network | typeof provb.firewall | typeof provb.instance>[] = [net];
  const fws = Array.from({ length: 99 }, (_, i) =>
    provb.firewall(`fw-${i}`, {
      name: `fw-${i}`,
      networkId: net.out('networkId'),
      createDefaultRules: false,
      ingressRules: [
        { protocol: 'tcp', portRange: '22', cidrs: [edited && i === 7 ? '0.0.0.0/0' : '10.0.0.0/8'], action: 'allow' },
      ],
    }),
  );
  out.push(...fws);
  for (let i = 0; i < 900; i++)
    out.push(
      provb.instance(`web-${i}`, {
        hostname: `web-${i}`,
        diskImage: 'ubuntu-jammy',
        size: edited && i === 42 ? 'g3.large' : 'g3.medium',
        networkId: net.out('networkId'),
        firewallId: fws[i % 99]!.out('firewallId'),
      }),
    );
  return out;
}

async function once(): Promise<[wall: number, cpu: number]> {
  const base = stack(false);
  const edit = stack(true);
  const mocks = mockProviders(provb({ token: 'unused', region: 'LON1' }));
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const plan = await planChange(base, edit, { providers: mocks });
  const e = expectPlan(plan);
  e.toUpdate('web-42', { paths: ['size'] });
  e.toUpdate('fw-7', { paths: ['ingressRules[0].cidrs'] });
  e.toChangeOnly(['web-42', 'fw-7']);
  e.not.toReplace('web-42');
  e.not.toCreate('web-0');
  e.not.toDelete('web-899');
  e.not.toHaveDrift();
  e.not.toHaveNoChanges();
  e.not.toUpdate('net');
  e.not.toForget('fw-0');
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return [wall, (cpu.user + cpu.system) / 1000];
}

export async function benchTesting(): Promise<Record<string, number>> {
  await once();
  const runs: [number, number][] = [];
  for (let i = 0; i < 5; i++) runs.push(await once());
  const median = (k: 0 | 1) => runs.map((r) => r[k]).sort((a, b) => a - b)[2]!;
  return { testing_1k_change_ms: median(0), testing_1k_change_cpu_ms: median(1) };
}
