// `npm run bench`: runs every benchmark in its own process, prints a table (figure, value, target,
// verdict) and writes bench/results.json, an object mapping each figure's name to a number.
// `npm run bench -- fleet pg` runs only the parts named (plan, apply, durable, pg, ratelimit, state,
// refresh, refresh-gcore, policy, testing, instances, lxd, fleet) and updates their figures in
// results.json, keeping the others'. The fleet part needs PostgreSQL (else it gives no figures) and
// takes minutes: 1,000 stacks made, then checked for drift three times.
import { execFileSync } from 'node:child_process';
import { writeFileSync, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const targets: Record<string, [string, number]> = {
  plan_10k_ms: ['<', 1000],
  plan_100k_ms: ['<', 10_000],
  plan_100k_rss_mb: ['<', 1024],
  apply_10k_overhead_ms_per_step: ['<', 0.05],
  apply_latency_ratio_to_ideal: ['<=', 1.1],
  apply_10k_durable_ms_per_step: ['<', 0.1],
  state_step_ratio_100k_to_1k: ['<=', 2],
  state_naive_to_journal_ratio: ['>=', 10],
  lxd_serial_ratio_to_lxc: ['<=', 1.05],
  lxd_parallel10_ratio_to_lxc: ['<=', 0.8],
  apply_10k_pg_ms_per_step: ['<=', 0.15],
  outputs_1k_pg_read_ms: ['<=', 20],
  ratelimited_apply_failed_steps: ['<=', 0],
  ratelimited_apply_throughput_ratio: ['>=', 0.9],
  refresh_2k_civo_requests_per_resource: ['<=', 0.02],
  refresh_2k_civo_ratio_to_per_resource_ideal: ['<=', 0.1],
  refresh_2k_gcore_cdn_requests_per_resource: ['<=', 0.02],
  refresh_2k_gcore_cdn_ratio_to_per_resource_ideal: ['<=', 0.1],
  destroy_to_create_durable_ratio: ['<=', 1.2],
  refresh_100_lxd_ratio_to_per_instance: ['<=', 0.5],
  policy_10k_ms: ['<=', 50],
  testing_1k_change_ms: ['<=', 100],
  plan_10k_4_instances_ratio_to_1: ['<=', 1.1],
  fleet_scaling_4_to_1: ['>=', 2.5],
  fleet_enqueue_to_start_ms: ['<=', 50],
  fleet_queue_cost_ms_per_run: ['<=', 5],
  fleet_account_budget_failed_steps: ['<=', 0],
  fleet_account_budget_ratio: ['>=', 0.9],
  fleet_1k_stacks_failed_runs: ['<=', 0],
};
const only = new Set(process.argv.slice(2));
const want = (part: string) => only.size === 0 || only.has(part);

function run(...args: string[]): Record<string, number> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(here, 'child.ts'), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

const results: Record<string, number> = {};
if (want('plan'))
  for (const n of [1000, 10_000, 100_000]) {
    const r = run('plan', String(n));
    const label = n === 1000 ? '1k' : n === 10_000 ? '10k' : '100k';
    results[`plan_${label}_ms`] = r.ms!;
    if (n === 100_000) results.plan_100k_rss_mb = r.rssMb!;
  }
if (want('apply')) Object.assign(results, run('apply'));
if (want('durable')) Object.assign(results, run('durable'));
if (want('pg') && existsSync(join(here, 'pg.ts'))) Object.assign(results, run('pg'));
if (want('ratelimit') && existsSync(join(here, 'ratelimit.ts'))) Object.assign(results, run('ratelimit'));
if (want('state') && existsSync(join(here, 'state.ts'))) Object.assign(results, run('state'));
if (want('refresh')) Object.assign(results, run('refresh'));
if (want('refresh-gcore')) Object.assign(results, run('refresh-gcore'));
if (want('policy')) Object.assign(results, run('policy'));
if (want('testing')) Object.assign(results, run('testing'));
if (want('instances')) Object.assign(results, run('instances'));
if (want('lxd') && existsSync(join(here, 'lxd.ts'))) Object.assign(results, run('lxd'));
if (want('fleet')) Object.assign(results, run('fleet'));

const rows = Object.entries(results).map(([name, value]) => {
  const t = targets[name];
  const ok = !t ? '' : t[0] === '<' ? value < t[1] : t[0] === '<=' ? value <= t[1] : value >= t[1];
  return {
    figure: name,
    value: Number(value.toFixed(4)),
    target: t ? `${t[0]} ${t[1]}` : '',
    verdict: t ? (ok ? 'ok' : 'MISSED') : '',
  };
});
const w = Math.max(...rows.map((r) => r.figure.length));
process.stdout.write(`${'figure'.padEnd(w)}  ${'value'.padStart(12)}  ${'target'.padEnd(9)}  verdict\n`);
for (const r of rows)
  process.stdout.write(`${r.figure.padEnd(w)}  ${String(r.value).padStart(12)}  ${r.target.padEnd(9)}  ${r.verdict}\n`);
const kept: Record<string, number> = existsSync(join(here, 'results.json'))
  ? (JSON.parse(readFileSync(join(here, 'results.json'), 'utf8')) as Record<string, number>)
  : {};
writeFileSync(join(here, 'results.json'), `${JSON.stringify({ ...kept, ...results }, null, 2)}\n`);
process.stdout.write(`\nwrote ${join('bench', 'results.json')}\n`);
