// `npm run demo`: one stack over all three providers, with no network and no accounts. Provider A
// uses the local LXD daemon when it is usable and the in-process fake otherwise; B and C use their
// simulators on loopback. Shows the plan, the apply with live progress, a plan with no changes, a
// drift made behind the engine's back and the plan that repairs it, and destroy; cleans up always.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Engine, FileStateStore, progressReporter, type Plan, type PlanSummary, type ProgressStream } from 'converge';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';
import { startSimulator as startCivo, type CivoSimulator } from 'converge/providers/b/simulator';
import {
  startSimulator as startGcore,
  SIM_PROJECT_ID,
  SIM_REGION_ID,
  type GcoreSimulator,
} from 'converge/providers/c/simulator';
import { openLxd, type LxdSide } from './demo-lxd.js';
import { demoStack } from './demo-stack.js';

export type DemoOptions = {
  /** Where the demo writes; default process.stdout (live progress when it is a TTY). */
  readonly out?: ProgressStream;
  /** true: the local LXD daemon (fail if unusable); false: the fake; 'auto' (default): the daemon if usable. */
  readonly useRealLxd?: boolean | 'auto';
  /** For tests: fail on purpose once this phase is reached, to show the clean-up. */
  readonly failAt?: 'drift';
};

export type DemoResult = {
  readonly lxd: 'real' | 'fake';
  /** The summary of each phase's plan. */
  readonly phases: {
    readonly plan: PlanSummary;
    readonly replan: PlanSummary;
    readonly drift: PlanSummary;
    readonly repaired: PlanSummary;
    readonly destroy: PlanSummary;
  };
  /** What the drift phase changed behind the engine's back, and what the repair plan touched. */
  readonly drifted: readonly string[];
  readonly elapsedMs: number;
};

export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const out = options.out ?? process.stdout;
  const color = out.isTTY === true;
  const say = (text = '') => {
    out.write(`${text}\n`);
  };
  const phase = (n: number, title: string) =>
    say(`\n${color ? '\x1b[1m' : ''}== ${n}. ${title} ==${color ? '\x1b[0m' : ''}\n`);
  const show = (plan: Plan) => say(plan.render({ color }));
  const apply = (engine: Engine, plan: Plan) => engine.apply(plan, { onEvent: progressReporter({ stream: out }) });
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'converge-demo-'));
  const run = randomBytes(3).toString('hex');
  const names = { container: `converge-demo-${run}`, profile: `converge-demo-${run}-team`, zone: 'demo.example' };
  let lxd: LxdSide | undefined;
  let civo: CivoSimulator | undefined;
  let gcore: GcoreSimulator | undefined;
  let engine: Engine | undefined;
  try {
    lxd = await openLxd(options.useRealLxd ?? 'auto', dir);
    civo = await startCivo({ transitions: { instance: 600 }, latencyMs: 5 });
    gcore = await startGcore({ taskDurationMs: 200, latencyMs: 5 });
    const statePath = join(dir, 'state.json');
    engine = new Engine({
      providers: [
        lxd.provider,
        provb({ token: civo.token, apiEndpoint: civo.url, region: 'LON1', pollIntervalMs: 100 }),
        provc({
          apiKey: gcore.apiKey,
          baseUrl: gcore.baseUrl,
          cloudProjectId: SIM_PROJECT_ID,
          cloudRegionId: SIM_REGION_ID,
          pollingIntervalSeconds: 0.05,
          env: {},
        }),
      ],
      state: new FileStateStore(statePath),
    });

    say('converge demo: one stack across three providers');
    say(`  provider A (prova, LXD):  ${lxd.description}`);
    say(`  provider B (provb, Civo): the Civo simulator at ${civo.url}`);
    say(`  provider C (provc, Gcore): the Gcore simulator at ${gcore.baseUrl}`);
    say(`  state: ${statePath}`);

    const flavors = await engine.lookup(provc.getCloudInferenceFlavors({}));
    const gpu = flavors.items.find((f) => Number((f as Record<string, unknown>).gpu) > 0) ?? flavors.items[0]!;
    say(`\nGcore inference flavors: ${flavors.items.map((f) => f.flavorName).join(', ')}`);
    say(`  chose ${String(gpu.flavorName)} for the CDN resource's description`);
    const stack = demoStack(names, String(gpu.flavorName));

    phase(1, 'plan: what converge will do');
    const plan = await engine.plan(stack);
    show(plan);

    phase(2, 'apply, with live progress');
    const applied = await apply(engine, plan);
    const outputs = applied.outputs;
    say(
      `\n  container ${names.container} has IPv4 ${String(outputs.app?.ipv4Address)}: app.${names.zone} points at it`,
    );
    say(
      `  Civo instance has public IP ${String(outputs.web?.publicIp)}: www.${names.zone} and the CDN origin point at it`,
    );

    phase(3, 'plan again: nothing to do');
    const replan = await engine.plan(stack);
    show(replan);

    phase(4, "drift behind the engine's back, and the plan that repairs it");
    if (options.failAt === 'drift') throw new Error('failing on purpose (failAt: drift)');
    await lxd.drift(names.profile, 'changed-by-hand');
    say(
      `  LXD: set user.team of profile ${names.profile} to "changed-by-hand" through the ${lxd.kind === 'real' ? 'LXD API' : "fake's store"}`,
    );
    const record = [...civo.store.records.values()].find((r) => r.name === 'app');
    if (record) record.value = '203.0.113.66';
    say(`  Civo: pointed app.${names.zone} at 203.0.113.66 through the simulator's store\n`);
    const drift = await engine.plan(stack);
    show(drift);
    await apply(engine, drift);
    const repaired = await engine.plan(stack);
    say(`\n  after the repair: ${repaired.hasChanges ? 'still changes!' : 'no changes'}`);

    phase(5, 'destroy');
    const destroy = await engine.planDestroy();
    show(destroy);
    await apply(engine, destroy);

    const elapsedMs = Date.now() - started;
    say(`\nDone in ${(elapsedMs / 1000).toFixed(1)}s. Simulators stopped, state directory removed.`);
    return {
      lxd: lxd.kind,
      phases: {
        plan: plan.summary,
        replan: replan.summary,
        drift: drift.summary,
        repaired: repaired.summary,
        destroy: destroy.summary,
      },
      drifted: drift.steps.filter((s) => s.action !== 'noop').map((s) => s.address),
      elapsedMs,
    };
  } finally {
    await cleanUp(engine, lxd, names.container, names.profile);
    await civo?.close();
    await gcore?.close();
    await lxd?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** After a failure: destroy what the state still holds, and delete the container and profile in any case. */
async function cleanUp(
  engine: Engine | undefined,
  lxd: LxdSide | undefined,
  container: string,
  profile: string,
): Promise<void> {
  try {
    if (engine && Object.keys((await engine.state()).resources).length) await engine.destroy({ refresh: true });
  } catch {
    // Reported by the phase that failed; the container is deleted below regardless.
  }
  await lxd?.remove(container, profile);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // CONVERGE_DEMO_LXD=fake forces the LXD fake; =real insists on the local daemon.
  const choice = process.env.CONVERGE_DEMO_LXD;
  runDemo({ useRealLxd: choice === 'fake' ? false : choice === 'real' ? true : 'auto' }).catch((error: unknown) => {
    process.stderr.write(
      `\nThe demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  });
}
