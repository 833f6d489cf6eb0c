// The public reference: every export of 'converge' (src/index.ts), every public member of its
// classes and every field of its object types has a TSDoc description, the main entry points
// have an `@example`, and every example type-checks against the package as a consumer imports it.
import { afterAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { program, publicSurface } from '../../scripts/api/surface.js';

const root = resolve(__dirname, '..', '..');
const surfaceProgram = program();
const surface = publicSurface(surfaceProgram);
// Inside the repository (so 'zod' and the 'converge' paths resolve), in the git-ignored .converge/.
mkdirSync(join(root, '.converge'), { recursive: true });
const scratch = mkdtempSync(join(root, '.converge', 'examples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The exports a newcomer starts from; each shows how it is used. */
const main = [
  'Engine', 'Engine.plan', 'Engine.apply', 'Engine.refresh', 'Engine.import', 'Engine.destroy', 'Engine.lookup',
  'MemoryStateStore', 'FileStateStore', 'PostgresStateStore',
  'ValidationError', 'ApplyError', 'StalePlanError', 'StateLockedError', 'ProtectedResourceError', 'LookupError',
  'ProviderError', 'TimeoutError', 'PartialCreateError',
  'defineResource', 'defineProvider', 'defineLookup', 'secret', 'ref', 'Event',
];

describe('TSDoc of the public surface', () => {
  it('finds the exports of src/index.ts, their members and fields', () => {
    const names = new Set(surface.map((i) => i.name));
    for (const n of ['Engine', 'Engine.plan', 'EngineOptions.providers', 'ValidationError.issues', 'StepFailEvent.code']) expect(names.has(n), n).toBe(true);
  });

  it('describes every export, public member and field', () => {
    expect(surface.filter((i) => !i.description).map((i) => `${i.name} (${i.at})`)).toEqual([]);
  });

  it('gives each main entry point an @example', () => {
    const byName = new Map(surface.map((i) => [i.name, i]));
    expect(main.filter((n) => !byName.get(n)?.hasExample)).toEqual([]);
  });

  it('has examples that type-check against the package', () => {
    const files: string[] = [];
    for (const item of surface) {
      item.examples.forEach((code, n) => {
        const file = join(scratch, `${item.name.replace(/[^A-Za-z0-9]/g, '_')}_${n}.ts`);
        writeFileSync(file, `${code}\nexport {};\n`);
        files.push(file);
      });
    }
    expect(files.length).toBeGreaterThan(0);
    const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    // The surface's program lends its parsed sources; only the examples' own diagnostics are asked
    // for (all of them there are: those of other files were filtered out), so the checker reads of
    // src/ what the examples use, not all of it.
    const prog = ts.createProgram({
      rootNames: files,
      options: { ...parsed.options, noEmit: true, noUnusedLocals: false },
      oldProgram: surfaceProgram,
    });
    const problems = files
      .flatMap((f) => ts.getPreEmitDiagnostics(prog, prog.getSourceFile(f)))
      .filter((d) => d.file && files.includes(d.file.fileName))
      .map((d) => `${d.file!.fileName.slice(scratch.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    expect(problems).toEqual([]);
  }, 180_000); // a TypeScript program over every example: half a minute alone, more beside other forks
});
