// The public reference: every export of 'converge' (src/index.ts), every public member of its
// classes and every field of its object types has a TSDoc description, the main entry points
// have an `@example`, and every example type-checks against the package as a consumer imports it.
// The typed helpers' fields (each provider's field-docs.ts, tests/types/field-docs.test.ts) show
// their descriptions where an editor shows them: the TypeScript language service's quick info on
// an input field in a helper call and on an output field.
// One language service answers all of it, as an editor's does: its program over src/index.ts gives
// the surface; then the examples and the hover probe join it and the next program reuses the parsed
// sources, its checker resolving the helpers' types once for the examples and the hovers (the two
// files with a program each spent about 25 s of CPU, this one about 17).
import { afterAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { publicSurface } from '../../scripts/api/surface.js';

const root = resolve(__dirname, '..', '..');
// Inside the repository (so 'zod' and the 'converge' paths resolve), in the git-ignored .converge/.
mkdirSync(join(root, '.converge'), { recursive: true });
const scratch = mkdtempSync(join(root, '.converge', 'examples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const config = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
)!;
const options: ts.CompilerOptions = { ...config.options, noEmit: true, noUnusedLocals: false };
/** Files the host serves from memory (the hover probe, never written). */
const virtual = new Map<string, string>();
const roots = [join(root, 'src/index.ts')];
let version = 1;
const service = ts.createLanguageService({
  getScriptFileNames: () => roots,
  getProjectVersion: () => String(version),
  getScriptVersion: () => '1',
  getScriptSnapshot: (f) => {
    const text = virtual.get(f) ?? (ts.sys.fileExists(f) ? ts.sys.readFile(f) : undefined);
    return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
  },
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: (f) => virtual.has(f) || ts.sys.fileExists(f),
  readFile: (f) => virtual.get(f) ?? ts.sys.readFile(f),
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
});
const surface = publicSurface(service.getProgram()!);

/** Each example of the surface as a module of its own in the scratch folder. */
const exampleFiles: string[] = [];
for (const item of surface) {
  item.examples.forEach((code, n) => {
    const file = join(scratch, `${item.name.replace(/[^A-Za-z0-9]/g, '_')}_${n}.ts`);
    writeFileSync(file, `${code}\nexport {};\n`);
    exampleFiles.push(file);
  });
}

const probe = join(root, 'tests/types/hover-probe.ts');
const probeSource = `
  import { prova } from 'converge/providers/a';
  import { provb } from 'converge/providers/b';
  import { provc } from 'converge/providers/c';
  prova.instance('c1', { /*@*/name: 'c1', image: 'busybox' });
  const web = provb.instance('web', { /*@*/hostname: 'web1', diskImage: 'ubuntu-jammy' });
  provc.cdnResource('site', { /*@*/cname: 'cdn.example.com', origin: 'example.com' });
  type WebOutputs = NonNullable<(typeof web)['@outputs']>;
  export const ip = (o: WebOutputs) => o./*@*/publicIp;
`;
virtual.set(probe, probeSource.replaceAll('/*@*/', ''));
// the examples and the probe join the program (the service's next program reuses the parsed sources)
roots.push(...exampleFiles, probe);
version++;

/** Quick info (type and documentation) at each `/*@*\/` marker of the probe, as an editor's hover shows it. */
function hovers(): { type: string; doc: string }[] {
  const out: { type: string; doc: string }[] = [];
  let at = probeSource.indexOf('/*@*/');
  let shift = 0;
  while (at >= 0) {
    const info = service.getQuickInfoAtPosition(probe, at - shift + 1);
    out.push({
      type: ts.displayPartsToString(info?.displayParts),
      doc: ts.displayPartsToString(info?.documentation),
    });
    shift += '/*@*/'.length;
    at = probeSource.indexOf('/*@*/', at + 1);
  }
  return out;
}

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
    expect(exampleFiles.length).toBeGreaterThan(0);
    const prog = service.getProgram()!;
    // only the examples' own diagnostics are asked for: the checker reads of src/ what they use
    const problems = exampleFiles
      .flatMap((f) => ts.getPreEmitDiagnostics(prog, prog.getSourceFile(f)))
      .filter((d) => d.file && exampleFiles.includes(d.file.fileName))
      .map((d) => `${d.file!.fileName.slice(scratch.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    expect(problems).toEqual([]);
  }, 180_000); // a TypeScript program over every example: seconds alone, more beside other forks
});

describe("the typed helpers' TSDoc", () => {
  it("shows on hover: an input field of each provider's helper and an output field", () => {
    const [a, b, c, out] = hovers();
    expect(a!.type).toMatch(/^\(property\) name\??: /);
    expect(a!.doc).toContain('Name of the instance; changing it renames the instance');
    expect(b!.type).toMatch(/^\(property\) hostname\??: /);
    expect(b!.doc).toContain('Fully qualified hostname, at most 63 characters');
    expect(c!.type).toMatch(/^\(property\) cname\??: /);
    expect(c!.doc).toContain('Delivery domain of the resource (cdn.example.com)');
    expect(out!.type).toMatch(/^\(property\) publicIp\??: /);
    expect(out!.doc).toContain('Public IPv4 address; empty when none');
  }, 120_000);
});
