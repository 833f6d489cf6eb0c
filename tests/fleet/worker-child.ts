// A fleet worker process for the multi-process tests: opens the fleet named by the environment
// (FLEET_SCHEMA, CONVERGE_TEST_PG_URL), works runs until SIGTERM (stop: runs in flight finish their
// current steps and go back to the queue) or a second SIGTERM (abort), then exits. Bundled by esbuild.
// The tests' timings (a dead worker seen within seconds: supervision and the sweep every second,
// heartbeats every 10 s) unless FLEET_DEFAULT_TIMINGS=1 (the bench: a fleet as deployed, the
// library's defaults).
import { Fleet } from '../../src/fleet/index.js';

const defaults = process.env.FLEET_DEFAULT_TIMINGS === '1';
const fleet = await Fleet.open({
  connectionString: process.env.CONVERGE_TEST_PG_URL,
  schema: process.env.FLEET_SCHEMA,
  ...(defaults ? {} : { heartbeatSeconds: 10, superviseSeconds: 1 }),
  poolSize: 12,
  retryLimit: Number(process.env.FLEET_RETRY_LIMIT ?? 5),
});
// a cold process's first import of a stack module (providers, undici, zod: seconds of CPU on a busy
// 2-core machine, the event loop blocked) is paid before taking runs, so timings measure the queue
if (process.env.FLEET_PRELOAD) await import(process.env.FLEET_PRELOAD);
const stop = new AbortController();
const abort = new AbortController();
process.on('SIGTERM', () => (stop.signal.aborted ? abort.abort() : stop.abort()));
process.stdout.write('ready\n');
await fleet.work({
  concurrency: Number(process.env.FLEET_CONCURRENCY ?? 4),
  accountConcurrency: Number(process.env.FLEET_ACCOUNT_CONCURRENCY ?? 4),
  stopSignal: stop.signal,
  signal: abort.signal,
  ...(defaults ? {} : { sweepIntervalMs: 1000 }),
});
await fleet.close();
