// The supported Node versions (package.json `engines`) and the install: on the Node running the
// tests (CI runs the oldest supported major), installing from the lock file warns about no
// dependency's engine range. `npm ci --dry-run` reads only the lock file, so this needs no network.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };

/** The lowest major.minor.patch of each `||` alternative of a range such as '^20.19.0 || >=24'. */
function lowerBounds(range: string): number[][] {
  return range.split('||').map((alt) => {
    const m = /(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(alt);
    if (!m) throw new Error(`Cannot read the engine range '${range}'`);
    return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
  });
}

describe('supported Node versions', () => {
  it('are stated in package.json engines', () => {
    expect(manifest.engines.node).toMatch(/\d/);
  });

  // CI must test the oldest supported major; a developer may run a newer one (skipped, reported).
  it.skipIf(!process.env.CI)('start at the Node major CI runs, so CI tests on the oldest (CI only)', () => {
    const oldest = Math.min(...lowerBounds(manifest.engines.node).map((b) => b[0]!));
    expect(Number(process.versions.node.split('.')[0])).toBe(oldest);
  });

  it('include the Node running these tests', () => {
    const [major, minor, patch] = process.versions.node.split('.').map(Number) as [number, number, number];
    const bound = lowerBounds(manifest.engines.node).find((b) => b[0] === major)!;
    expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(bound[0]! * 1e6 + bound[1]! * 1e3 + bound[2]!);
  });

  it('install from the lock file with no engine warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'converge-engines-'));
    try {
      copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
      copyFileSync(join(root, 'package-lock.json'), join(dir, 'package-lock.json'));
      const out = await new Promise<{ code: number; text: string }>((resolve) => {
        execFile(
          'npm',
          ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'],
          { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
          (err, stdout, stderr) => {
            resolve({ code: err ? 1 : 0, text: `${stdout}\n${stderr}` });
          },
        );
      });
      expect(out.code).toBe(0);
      expect(out.text).toMatch(/added \d+ packages/);
      expect(out.text.split('\n').filter((l) => l.includes('EBADENGINE'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
