// `converge init [dir]` writes a project a newcomer can start from — converge.stack.ts, tsconfig.json
// and package.json ("type": "module", converge as a dependency, the workflow's scripts) — whose
// stack plans against the Civo simulator with no account; it writes no file over an existing one.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import { startSimulator } from '../../src/providers/b/simulator/index.js';
import { repo, run } from './run.js';

function capture(): Io & { lines: string[]; errs: string[] } {
  const lines: string[] = [];
  const errs: string[] = [];
  return {
    out: (t) => lines.push(t),
    err: (t) => errs.push(t),
    isTTY: false,
    color: false,
    stdout: process.stdout,
    lines,
    errs,
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'converge-init-'));
  dirs.push(d);
  return d;
};

/**
 * Makes `import 'converge'` in `project` resolve to this checkout's sources (as an install of the
 * package would to its build): node_modules/converge exports the src/ entry points tsx loads.
 */
function linkSources(project: string): void {
  const pkg = join(project, 'node_modules/converge');
  mkdirSync(pkg, { recursive: true });
  symlinkSync(join(repo, 'src'), join(pkg, 'src'));
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({
      name: 'converge',
      type: 'module',
      exports: { '.': './src/index.ts', './providers/b': './src/providers/b/index.ts' },
    }),
  );
}

describe('converge init', () => {
  it('writes converge.stack.ts, tsconfig.json and a package.json of type module with converge and the scripts', async () => {
    const dir = join(scratch(), 'My Stack');
    const io = capture();
    expect(await main(['init', dir], io)).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['converge.stack.ts', 'package.json', 'tsconfig.json']);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, any>;
    const own = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
    expect(pkg).toMatchObject({
      name: 'my-stack',
      type: 'module',
      dependencies: { converge: `^${own.version}` },
      scripts: { plan: 'converge plan', apply: 'converge apply', simulator: 'converge simulator b --port 4010' },
    });
    expect(JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8'))).toMatchObject({
      compilerOptions: { module: 'NodeNext', strict: true },
    });
    expect(io.lines.join('\n')).toContain('npm run simulator');
  });

  it('refuses to write over an existing file, names it, and writes nothing', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'package.json'), '{"name":"mine"}\n');
    const io = capture();
    expect(await main(['init', dir], io)).toBe(1);
    expect(io.errs.join('\n')).toContain(
      `converge init writes no file over an existing one, and ${dir} already has package.json`,
    );
    expect(io.errs.join('\n')).toContain('Nothing was written.');
    expect(readdirSync(dir)).toEqual(['package.json']);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe('{"name":"mine"}\n');
  });

  it("writes a stack that plans against the Civo simulator with no account: 'to add'", async () => {
    const dir = scratch();
    expect(await main(['init', dir], capture())).toBe(0);
    linkSources(dir);
    const sim = await startSimulator();
    try {
      const r = await run(
        join(repo, 'bin/converge.mjs'),
        ['plan', '--detailed-exitcode'],
        {
          CONVERGE_CLI_FROM_SOURCE: '1',
          CONVERGE_SIMULATOR_URL: sim.url,
          PROVB_TOKEN: '',
          NO_COLOR: '1',
        },
        undefined,
        dir,
      );
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('Plan: 3 to add, 0 to change, 0 to replace, 0 to destroy.');
      expect(r.code).toBe(2);
    } finally {
      await sim.close();
    }
  }, 60_000);
});
