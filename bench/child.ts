// One benchmark case in its own process (so memory figures are its own): prints one JSON line.
import { benchPlan, benchApply, benchApplyDurable } from './engine.js';

const kind = process.argv[2];
const result =
  kind === 'plan'
    ? await benchPlan(Number(process.argv[3]))
    : kind === 'apply'
      ? await benchApply()
      : kind === 'durable'
        ? await benchApplyDurable()
        : kind === 'pg'
          ? await (await import('./pg.js')).benchPg()
          : kind === 'ratelimit'
            ? await (await import('./ratelimit.js')).benchRateLimit()
            : kind === 'state'
              ? await (await import('./state.js')).benchState()
              : kind === 'refresh'
                ? await (await import('./refresh.js')).benchRefresh()
                : kind === 'refresh-gcore'
                  ? await (await import('./refresh-gcore.js')).benchRefreshGcore()
                  : kind === 'instances'
                    ? await (await import('./instances.js')).benchInstances()
                    : kind === 'policy'
                      ? await (await import('./policy.js')).benchPolicy()
                      : kind === 'fleet'
                        ? await (await import('./fleet.js')).benchFleet()
                        : kind === 'testing'
                          ? await (await import('./testing.js')).benchTesting()
                          : kind === 'lxd'
                            ? await (await import('./lxd.js').catch(() => ({ benchLxd: async () => ({}) }))).benchLxd()
                            : (() => {
                                throw new Error(`unknown bench ${kind}`);
                              })();
process.stdout.write(`${JSON.stringify(result)}\n`);
