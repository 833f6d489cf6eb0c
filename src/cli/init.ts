// `converge init [dir]`: a project a newcomer can start from — a stack module (`converge.stack.ts`)
// that plans and applies against `converge simulator b` with no account (and against Civo once
// PROVB_TOKEN is set), a tsconfig.json and a package.json ("type": "module", converge as a
// dependency, scripts for the workflow). It never overwrites a file: when any of them exists it
// writes none and says which.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, relative, resolve } from 'node:path';
import type { Io } from './io.js';

/** The port the written stack expects `converge simulator b` on (its `simulator` script starts it there). */
const SIMULATOR_PORT = 4010;

const STACK = `// The stack \`converge plan\`, \`converge apply\` and \`converge destroy\` read (written by \`converge init\`).
// With no account: \`npm run simulator\` in another terminal (the Civo simulator on port ${SIMULATOR_PORT}), then
// \`npm run plan\` and \`npm run apply\`. With a Civo account: set PROVB_TOKEN to your API key and the
// same stack talks to api.civo.com.
import { FileStateStore } from 'converge';
import { provb } from 'converge/providers/b';

const onCivo = Boolean(process.env.PROVB_TOKEN);

const net = provb.network('net', { label: 'first' });
const fw = provb.firewall('fw', { name: 'first-web', networkId: net.out('networkId') });
const web = provb.instance('web', {
  hostname: 'web1',
  diskImage: 'ubuntu-jammy',
  size: 'g3.small',
  networkId: net.out('networkId'),
  firewallId: fw.out('firewallId'),
});

export default {
  providers: [
    onCivo
      ? provb({ region: 'LON1' }) // the token from PROVB_TOKEN
      : provb({
          apiEndpoint: process.env.CONVERGE_SIMULATOR_URL ?? 'http://127.0.0.1:${SIMULATOR_PORT}',
          token: 'sim-token', // what \`converge simulator b\` accepts
          region: 'LON1',
          pollIntervalMs: 200,
        }),
  ],
  state: new FileStateStore('.converge/state.json'),
  resources: [net, fw, web],
};
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['*.ts'],
};

type Manifest = { version: string; devDependencies?: Record<string, string> };

/** converge's own package.json (the installed package's, or the checkout's). */
function ownManifest(): Manifest {
  return createRequire(import.meta.url)('converge/package.json') as Manifest;
}

/** A package name from a directory name: lower case, npm's characters only. */
function packageName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name || 'my-stack';
}

function packageJson(dir: string, own: Manifest): string {
  const dev = own.devDependencies ?? {};
  const devDependencies = Object.fromEntries(
    ['typescript', '@types/node'].filter((n) => dev[n]).map((n) => [n, dev[n]!]),
  );
  return `${JSON.stringify(
    {
      name: packageName(dir),
      private: true,
      type: 'module',
      scripts: {
        simulator: `converge simulator b --port ${SIMULATOR_PORT}`,
        plan: 'converge plan',
        apply: 'converge apply',
        destroy: 'converge destroy',
      },
      dependencies: { converge: `^${own.version}` },
      ...(Object.keys(devDependencies).length ? { devDependencies } : {}),
    },
    null,
    2,
  )}\n`;
}

/** Writes the project into `dir` (default: the current directory); exit 0, or 1 when a file exists. */
export function initCommand(io: Io, dir = '.'): number {
  const root = resolve(dir);
  const files: readonly (readonly [string, () => string])[] = [
    ['converge.stack.ts', () => STACK],
    ['tsconfig.json', () => `${JSON.stringify(TSCONFIG, null, 2)}\n`],
    ['package.json', () => packageJson(root, ownManifest())],
  ];
  const present = files.map(([name]) => name).filter((name) => existsSync(join(root, name)));
  if (present.length) {
    io.err(
      `Error: converge init writes no file over an existing one, and ${root} already has ${present.join(', ')}.\n` +
        'Nothing was written. Run it in an empty directory (converge init <dir>), or move those files away.',
    );
    return 1;
  }
  mkdirSync(root, { recursive: true });
  for (const [name, text] of files) writeFileSync(join(root, name), text(), { flag: 'wx' });
  const cd = relative(process.cwd(), root);
  io.out(
    [
      `Wrote ${files.map(([name]) => name).join(', ')} in ${root}.`,
      '',
      'Next:',
      ...(cd ? [`  cd ${cd}`] : []),
      '  npm install',
      `  npm run simulator     # the Civo simulator on port ${SIMULATOR_PORT}, in another terminal`,
      '  npm run plan          # then npm run apply, npm run destroy',
      '',
      'With a Civo account, set PROVB_TOKEN instead of running the simulator.',
    ].join('\n'),
  );
  return 0;
}
