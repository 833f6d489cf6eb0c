// converge/testing's types name no test runner: a jest or node:test project without vitest (or a
// vitest project without jest's `expect`) type-checks it. The runners' typings live in their own
// subpaths, converge/testing/vitest and converge/testing/jest, which only their users load. Checked
// on the sources the published .d.ts files are built from: the modules converge/testing reaches,
// then a TypeScript program of a consumer with no ambient types and no runner to resolve.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const testing = join(root, 'src/testing');
const RUNNERS = /^(vitest|expect|jest|@vitest\/|@jest\/)/;

/** Every module of src/ the entry reaches through relative imports and exports, types included. */
function reached(entry: string): Map<string, ts.PreProcessedFileInfo> {
  const seen = new Map<string, ts.PreProcessedFileInfo>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    seen.set(file, info);
    for (const i of info.importedFiles)
      if (i.fileName.startsWith('.')) stack.push(resolve(dirname(file), i.fileName.replace(/\.js$/, '.ts')));
  }
  return seen;
}

/**
 * The problems of the files under `dir` in a program made of `roots`, by file, when no runner's
 * package can be resolved (the engine's modules they reach are read, not checked: fewer seconds).
 */
function diagnostics(roots: readonly string[], dir: string): { checked: string[]; problems: Map<string, string[]> } {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts'],
    types: ['node'], // a Node project's own; no runner's
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  host.resolveModuleNameLiterals = (literals, containing, _redirect, opts) =>
    literals.map((l) =>
      RUNNERS.test(l.text)
        ? { resolvedModule: undefined }
        : ts.resolveModuleName(l.text, containing, opts, host, undefined, undefined, ts.ModuleKind.ESNext),
    );
  const program = ts.createProgram({ rootNames: [...roots], options, host });
  const problems = new Map<string, string[]>();
  const mine = program.getSourceFiles().filter((f) => f.fileName.startsWith(dir));
  const all = mine.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]);
  for (const d of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...all]) {
    const file = d.file ? d.file.fileName : '(program)';
    problems.set(file, [...(problems.get(file) ?? []), ts.flattenDiagnosticMessageText(d.messageText, '\n')]);
  }
  return { checked: mine.map((f) => f.fileName), problems };
}

describe('converge/testing names no test runner in its types', () => {
  it('no module it reaches imports vitest or jest, or augments their types', () => {
    const files = reached(join(testing, 'index.ts'));
    expect(files.size).toBeGreaterThan(20); // the engine's modules too, not the entry alone
    const named = [...files].flatMap(([file, info]) => [
      ...info.importedFiles.filter((i) => RUNNERS.test(i.fileName)).map((i) => `${file}: imports ${i.fileName}`),
      ...(info.ambientExternalModules?.filter((m) => RUNNERS.test(m)).map((m) => `${file}: declares ${m}`) ?? []),
      ...(/namespace jest\b|declare module ['"](vitest|expect)['"]/.test(readFileSync(file, 'utf8'))
        ? [`${file}: augments a runner's types`]
        : []),
    ]);
    expect(named).toEqual([]);
    // The runners' subpaths are where their typings live.
    expect(
      reached(join(testing, 'vitest/index.ts'))
        .get(join(testing, 'vitest/index.ts'))!
        .importedFiles.map((i) => i.fileName),
    ).toContain('vitest');
    expect(
      reached(join(testing, 'jest/index.ts'))
        .get(join(testing, 'jest/index.ts'))!
        .importedFiles.map((i) => i.fileName),
    ).toContain('expect');
  });

  it('a consumer without vitest or jest type-checks it; the vitest subpath alone needs vitest', () => {
    const consumer = join(testing, 'consumer-probe.ts'); // never written: served from memory below
    const source = [
      "import { convergeMatchers, expectPlan, match, mockProviders, planChange } from './index.js';",
      "import type { Plan } from '../index.js';",
      'declare const plan: Plan;',
      "expectPlan(plan).toUpdate('web', { paths: ['size'] });",
      "expectPlan(plan).not.toCreate({ type: 'provb:index/instance:Instance', inputs: { size: match.anyValue() } });",
      'export const all = [convergeMatchers, mockProviders, planChange];',
    ].join('\n');
    const read = ts.sys.readFile;
    ts.sys.readFile = (f, e) => (f === consumer ? source : read(f, e));
    const exists = ts.sys.fileExists;
    ts.sys.fileExists = (f) => f === consumer || exists(f);
    let checked: string[];
    let found: Map<string, string[]>;
    try {
      ({ checked, problems: found } = diagnostics([consumer, join(testing, 'vitest/index.ts')], testing));
    } finally {
      ts.sys.readFile = read;
      ts.sys.fileExists = exists;
    }
    expect(checked).toEqual(
      expect.arrayContaining([consumer, join(testing, 'index.ts'), join(testing, 'matchers.ts')]),
    );
    const vitestTypes = found.get(join(testing, 'vitest/index.ts'));
    found.delete(join(testing, 'vitest/index.ts'));
    expect([...found.keys()].filter((f) => f !== consumer && !f.startsWith(testing))).toEqual([]); // checked: our files only
    expect(Object.fromEntries(found)).toEqual({});
    // The control: the same program does see a runner's typings that cannot resolve.
    expect(vitestTypes?.join('\n')).toMatch(/Cannot find module 'vitest'|Invalid module name in augmentation/);
  });
});
