// The suite's warning guard (tests/setup/no-warnings.ts) judged on files made for it, in a vitest
// of its own (tests/setup/guard/): a file whose last test drops an open FileHandle fails with
// Node's DEP0137 warning (the guard once let it pass: the handle outlived its first collection),
// and a file that closes its handle passes.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'converge-guard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type FileResult = { name: string; status: string; message: string };

it('fails a file that leaves a FileHandle to the collector, even in its last test, and passes one that closes it', async () => {
  const out = join(dir, 'report.json');
  const code = await new Promise<number>((resolve) => {
    execFile(
      process.execPath,
      [
        join(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        'tests/setup/guard/vitest.config.ts',
        '--reporter=json',
        `--outputFile=${out}`,
      ],
      // not CI: the fixtures' run is judged by its report, and needs none of the suite's services
      { cwd: root, env: { ...process.env, CI: '', NODE_OPTIONS: '' }, timeout: 60_000 },
      (error) => resolve(error ? (typeof error.code === 'number' ? error.code : -1) : 0),
    );
  });
  const report = JSON.parse(readFileSync(out, 'utf8')) as { testResults: FileResult[] };
  const byFile = Object.fromEntries(report.testResults.map((f) => [f.name.split('/').pop()!, f]));
  expect(byFile['closes.fixture.ts']?.status).toBe('passed');
  expect(byFile['leak-at-end.fixture.ts']?.status).toBe('failed');
  expect(byFile['leak-at-end.fixture.ts']?.message).toContain('[DEP0137]');
  expect(code).toBe(1);
}, 90_000);
