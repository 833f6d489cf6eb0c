// Test support: a fake LXD on a unix socket in a temp dir, a prova provider pointed at it, and a
// standalone context with tiny poll intervals and retries.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prova, type ProvaOptions, type ProvaConfig } from '../../../src/providers/a/index.js';
import {
  startSimulator,
  type LxdSimulator,
  type LxdSimulatorOptions,
} from '../../../src/providers/a/simulator/index.js';
import { standaloneContext, type OperationContext, type Report } from '../../../src/engine/provider/context.js';
import type { Provider } from '../../../src/engine/provider/define.js';

export type SimEnv = {
  readonly sim: LxdSimulator;
  readonly provider: Provider<ProvaConfig>;
  readonly ctx: OperationContext<ProvaConfig>;
  readonly reports: Report[];
  readonly dir: string;
  res(token: string): NonNullable<ReturnType<Provider<ProvaConfig>['resources']['get']>>;
  close(): Promise<void>;
};

export async function simEnv(options: LxdSimulatorOptions = {}, args: ProvaOptions = {}): Promise<SimEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'cvt-prova-'));
  const sim = await startSimulator({ socketPath: join(dir, 'unix.socket'), ...options });
  const provider = prova({
    socketPath: sim.socketPath,
    configDir: join(dir, 'config'),
    pollIntervalMs: 2,
    operationWaitSeconds: 5,
    ...args,
  });
  const reports: Report[] = [];
  const ctx = standaloneContext(provider.config, {
    retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 5 },
    report: (r) => reports.push(r),
  });
  return {
    sim,
    provider,
    ctx,
    reports,
    dir,
    res: (token) => {
      const r = provider.resources.get(token);
      if (!r) throw new Error(`no resource ${token}`);
      return r;
    },
    close: async () => {
      await provider.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
