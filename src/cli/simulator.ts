// `converge simulator a|b|c [--port <n>]`: one of the shipped simulators (the fake LXD, Civo's,
// Gcore's) on 127.0.0.1 until Ctrl-C, so the whole workflow can be tried with no account. It prints
// the endpoint, the credential and the provider options a stack module gives to reach it.
import type { Io } from './io.js';

type Flags = { readonly port?: string };

/** What a started simulator tells the user, and how it stops. */
type Started = { readonly lines: readonly string[]; close(): Promise<void> };

async function start(which: string, port: number | undefined): Promise<Started> {
  if (which === 'b') {
    const { startSimulator } = await import('../providers/b/simulator/index.js');
    const sim = await startSimulator({ port });
    return {
      lines: [
        `Civo simulator on ${sim.url}`,
        `  token: ${sim.token}`,
        '',
        'In the stack module:',
        `  provb({ apiEndpoint: '${sim.url}', token: '${sim.token}', region: 'LON1' })`,
      ],
      close: () => sim.close(),
    };
  }
  if (which === 'c') {
    const { startSimulator } = await import('../providers/c/simulator/index.js');
    const sim = await startSimulator({ port });
    return {
      lines: [
        `Gcore simulator on ${sim.baseUrl}`,
        `  API key: ${sim.apiKey}`,
        '',
        'In the stack module:',
        `  provc({ baseUrl: '${sim.baseUrl}', apiKey: '${sim.apiKey}', cloudProjectId: 1, cloudRegionId: 76 })`,
      ],
      close: () => sim.close(),
    };
  }
  if (port !== undefined) throw new TypeError('--port is for b and c: the fake LXD listens on a port of its choosing');
  const { startSimulator } = await import('../providers/a/simulator/index.js');
  const sim = await startSimulator();
  return {
    lines: [
      `Fake LXD on ${sim.address} (no credential)`,
      '',
      'In the stack module:',
      `  prova({ remotes: [{ name: 'sim', address: '${sim.address}', default: true }] })`,
    ],
    close: () => sim.close(),
  };
}

/** Runs until `stop` resolves (the command passes Ctrl-C); exit 0. */
export async function simulatorCommand(io: Io, which: string, flags: Flags, stop: Promise<void>): Promise<number> {
  if (!['a', 'b', 'c'].includes(which)) {
    io.err(`Error: invalid value for simulator: '${which}' (a: the fake LXD, b: Civo, c: Gcore)`);
    return 1;
  }
  const port = flags.port === undefined ? undefined : Number(flags.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
    io.err(`Error: invalid value for --port: '${flags.port}' (a port number)`);
    return 1;
  }
  const sim = await start(which, port);
  io.out([...sim.lines, '', 'Running until Ctrl-C.'].join('\n'));
  await stop;
  await sim.close();
  io.out('Simulator stopped.');
  return 0;
}

/** Resolves on the first Ctrl-C (SIGINT) or SIGTERM. */
export function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
