// The package as a consumer gets it: `npm pack` (whose prepack builds), the tarball's contents, an
// install of the tarball into a fresh `npm init -y` project (npm 11 writes "type": "commonjs"), then
// the README's Quickstart there, cut from README.md by its code fence and run as the README says,
// and that project's `converge init` stack, which plans against the simulator. The consumer fixture
// (an ESM TypeScript program, a CommonJS script, the type checks of TypeScript 5 and of the current
// major, devDependency `typescript-next`, which also checks the declarations themselves) is a
// package of its own ("type": "module") in a folder of that project, resolving the installed
// tarball as any nested package does: one install serves both (an install cost about 5 s of CPU).
// The install pins every dependency to the repository's locked version and installs from the npm
// cache (filled by the repository's own install); only what the cache lacks comes from the registry.
// @types/node, which the consumer's and the init stack's tsconfig name, comes with the package's
// own typings (@types/pg, @types/ws), as a user's install brings it.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/providers/b/simulator/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('./consumer', import.meta.url));
const tsc5 = join(root, 'node_modules/typescript/bin/tsc');
const tscNext = join(root, 'node_modules/typescript-next/bin/tsc');

type Run = { code: number; stdout: string; stderr: string };
type PackedFile = { path: string };
type Packed = { filename: string; files: PackedFile[] };

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', ...env } },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

function versionOf(pkgDir: string): string {
  return (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Pins the scratch project's dependencies to the versions of the repository's lock file (npm
 * `overrides`), which its own install has put in the npm cache: the install then needs no registry.
 * A name locked at two versions (one nested) is left to npm.
 */
function pinToLockedVersions(manifestPath: string): void {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; dev?: boolean }>;
  };
  const versions = new Map<string, Set<string>>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    const name = path.split('node_modules/').pop();
    if (!path || !name || !entry.version) continue;
    if (entry.dev && name !== '@types/node' && name !== 'undici-types') continue;
    versions.set(name, (versions.get(name) ?? new Set()).add(entry.version));
  }
  const overrides = Object.fromEntries([...versions].filter(([, v]) => v.size === 1).map(([n, v]) => [n, [...v][0]!]));
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, overrides }, null, 2));
}

/** Every file path an `exports` map names, at any depth of conditions. */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets);
  return [];
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  license: string;
};
let work = '';
let consumer = '';
let pack: Run;
let packed: Packed;
/** The consumer checked by TypeScript 5, and compiled by the current major (its build/ programs). */
let checked5: Run;
let compiledNext: Run;
/** A fresh `npm init -y` project with the tarball installed (the Quickstart's). */
let fresh = '';
let freshInstall: Run;

/** The README's Quickstart program: the first TypeScript fence of its Quickstart section, verbatim. */
function quickstartSnippet(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Quickstart\n'));
  const m = /```ts\n([\s\S]*?)```/.exec(section.slice(0, section.indexOf('\n## ', 1)));
  if (!m) throw new Error('README.md has no ```ts fence in its Quickstart section');
  return m[1]!;
}

/** Installs the tarball into `dir`: from the npm cache alone when it holds everything, else the registry fills the gaps. */
async function installTarball(dir: string): Promise<Run> {
  const args = ['--no-audit', '--no-fund', '--ignore-scripts', join(work, packed.filename)];
  let r = await run('npm', ['install', '--offline', ...args], dir);
  if (r.code !== 0) r = await run('npm', ['install', '--prefer-offline', ...args], dir);
  if (r.code !== 0) throw new Error(`npm install of the tarball failed (${r.code}):\n${r.stderr.slice(-4000)}`);
  return r;
}

async function freshProject(): Promise<void> {
  fresh = join(work, 'fresh');
  mkdirSync(fresh);
  const init = await run('npm', ['init', '-y'], fresh);
  if (init.code !== 0) throw new Error(`npm init -y failed:\n${init.stderr}`);
  pinToLockedVersions(join(fresh, 'package.json'));
  freshInstall = await installTarball(fresh);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'converge-pack-'));
  pack = await run('npm', ['pack', '--json', '--pack-destination', work], root);
  if (pack.code !== 0) throw new Error(`npm pack failed (${pack.code}):\n${pack.stderr.slice(-4000)}`);
  // The prepack build logs to stdout before npm's JSON answer, which starts at a line '['.
  const json = pack.stdout.slice(pack.stdout.search(/^\[$/m));
  packed = (JSON.parse(json) as Packed[])[0]!;
  await freshProject();
  consumer = join(fresh, 'consumer');
  cpSync(fixture, consumer, { recursive: true });
  // At once: the check by TypeScript 5, and the programs the run tests below start, compiled by the
  // current major (its diagnostics are the test 'type-checks with the current TypeScript major').
  // The declarations' own check (skipLibCheck false: every .d.ts of the package and its
  // dependencies) is the current major's: TypeScript 5 spent 12 of its 18 s of CPU on it, and checks
  // the programs against the same declarations with --skipLibCheck, as `tsc --init` projects do.
  [checked5, compiledNext] = await Promise.all([
    run('node', [tsc5, '-p', '.', '--noEmit', '--skipLibCheck'], consumer),
    run('node', [tscNext, '-p', '.', '--singleThreaded'], consumer), // one thread: the same check for less CPU
  ]);
}, 420_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('is built by prepack: it holds the dist entry points', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toContain('dist/index.js');
    expect(paths).toContain('dist/index.cjs');
  });

  it('holds every file its exports map names', () => {
    const paths = new Set(packed.files.map((f) => f.path));
    const missing = exportTargets(manifest.exports)
      .map((t) => t.replace(/^\.\//, ''))
      .filter((t) => !paths.has(t));
    expect(missing).toEqual([]);
  });

  it('holds only package.json, the README, the licence, built code and declarations, the command and the plan schema', () => {
    const allowed =
      /^(package\.json|README\.md|LICEN[CS]E(\.md)?|dist\/.+\.(js|cjs|d\.ts|d\.cts)|bin\/converge\.mjs|schema\/plan\.v\d+\.json)$/;
    expect(packed.files.map((f) => f.path).filter((p) => !allowed.test(p))).toEqual([]);
  });

  it('holds the MIT licence that package.json names', () => {
    expect(packed.files.map((f) => f.path)).toContain('LICENSE');
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  });

  it('ships no source map (there are no sources for one to point at)', () => {
    expect(packed.files.map((f) => f.path).filter((p) => p.endsWith('.map'))).toEqual([]);
  });

  it('installs without an engine warning', () => {
    expect(`${freshInstall.stdout}\n${freshInstall.stderr}`).not.toMatch(/EBADENGINE/);
  });
});

// The tests of each block below start their own processes and servers: they run at once.
describe.concurrent('a consumer of the installed tarball', () => {
  it('type-checks with TypeScript 5 (ESM .ts and CommonJS .cts, against the declarations)', () => {
    expect(versionOf(join(root, 'node_modules/typescript'))).toMatch(/^5\./);
    expect(checked5.stdout + checked5.stderr).toBe('');
    expect(checked5.code).toBe(0);
  });

  it('type-checks with the current TypeScript major (the declarations themselves included)', () => {
    expect(Number(versionOf(join(root, 'node_modules/typescript-next')).split('.')[0])).toBeGreaterThan(5);
    expect(compiledNext.stdout + compiledNext.stderr).toBe('');
    expect(compiledNext.code).toBe(0);
  });

  it('runs the compiled ESM program: plan, apply and a clean re-plan against the simulator', async () => {
    const r = await run('node', ['build/esm.js'], consumer);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      summary: { create: 2 },
      networkId: 'string',
      firewallNetwork: true,
      againHasChanges: false,
      invalid: 'CONVERGE_VALIDATION',
      ref: { resource: 'net', path: 'networkId' },
      factories: ['function', 'function', 'function', 'function'],
    });
  }, 60_000);

  it('runs the CommonJS script: require() of every entry point, plan and apply', async () => {
    const r = await run('node', ['script.cjs'], consumer);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      summary: { create: 1 },
      keyId: 'string',
      isValidationError: true,
      defines: ['function', 'function'],
      factories: ['function', 'function', 'function', 'function'],
    });
  }, 60_000);
});

describe.concurrent("the README's Quickstart in a fresh `npm init -y` project", () => {
  it('is a project of type commonjs, as npm 11 writes it', () => {
    const pkg = JSON.parse(readFileSync(join(fresh, 'package.json'), 'utf8')) as { type?: string };
    expect(pkg.type ?? 'commonjs').toBe('commonjs');
    expect(`${freshInstall.stdout}\n${freshInstall.stderr}`).not.toMatch(/EBADENGINE/);
  });

  it('runs pasted verbatim as the README says (saved as quickstart.mts, `npx tsx quickstart.mts`)', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('save it as `quickstart.mts`');
    expect(readme).toContain('`npx tsx quickstart.mts`');
    writeFileSync(join(fresh, 'quickstart.mts'), quickstartSnippet());
    const r = await run('npx', ['--offline', 'tsx', 'quickstart.mts'], fresh);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Plan: 3 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect(r.stdout).toMatch(/web has public IP \d+\.\d+\.\d+\.\d+\n/);
    expect(r.stdout.trimEnd().split('\n').pop()).toBe('false'); // the plan after apply has no changes
  }, 60_000);

  it("`converge init` there writes a stack that type-checks and plans against the simulator: 'to add'", async () => {
    const bin = join(fresh, 'node_modules/.bin/converge');
    const init = await run(bin, ['init', 'stack'], fresh);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    const checked = await run('node', [tsc5, '-p', '.'], join(fresh, 'stack'));
    expect(checked.stdout + checked.stderr).toBe(''); // its tsconfig.json type-checks it against the package
    const sim = await startSimulator();
    try {
      const r = await new Promise<Run>((resolve) => {
        execFile(
          bin,
          ['plan'],
          {
            cwd: join(fresh, 'stack'),
            env: { ...process.env, NO_COLOR: '1', PROVB_TOKEN: '', CONVERGE_SIMULATOR_URL: sim.url },
          },
          (err, stdout, stderr) =>
            resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
        );
      });
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('Plan: 3 to add, 0 to change, 0 to replace, 0 to destroy.');
      expect(r.code).toBe(0);
    } finally {
      await sim.close();
    }
  }, 60_000);
});
