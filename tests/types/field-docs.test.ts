// The typed helpers' fields carry their descriptions as TSDoc: each provider's field-docs.ts is
// generated from the same schemas as the reference pages (and is current), and an editor's hover
// — the TypeScript language service's quick info — on an input field in a helper call, and on an
// output field, shows the description the reference page has.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { generateFieldDocs } from '../../scripts/docs/field-docs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Quick info (type and documentation) at each `/*@*\/` marker of `source`, as an editor's hover shows it. */
function hover(source: string): { type: string; doc: string }[] {
  const file = join(root, 'tests/types/hover-probe.ts'); // never written: the host serves it
  const text = source.replaceAll('/*@*/', '');
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
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) =>
      f === file
        ? ts.ScriptSnapshot.fromString(text)
        : ts.sys.fileExists(f)
          ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f)!)
          : undefined,
    getCurrentDirectory: () => root,
    getCompilationSettings: () => config.options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => f === file || ts.sys.fileExists(f),
    readFile: (f) => (f === file ? text : ts.sys.readFile(f)),
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host);
  const out: { type: string; doc: string }[] = [];
  let at = source.indexOf('/*@*/');
  let shift = 0;
  while (at >= 0) {
    const info = service.getQuickInfoAtPosition(file, at - shift + 1);
    out.push({
      type: ts.displayPartsToString(info?.displayParts),
      doc: ts.displayPartsToString(info?.documentation),
    });
    shift += '/*@*/'.length;
    at = source.indexOf('/*@*/', at + 1);
  }
  return out;
}

describe("the typed helpers' TSDoc", () => {
  it('is generated from the schemas, as the reference pages are, and is current (npm run docs:providers)', async () => {
    const generated = await generateFieldDocs();
    expect(generated.size).toBe(3);
    for (const [path, text] of generated) expect(readFileSync(path, 'utf8'), path).toBe(text);
  });

  it("shows on hover: an input field of each provider's helper and an output field", () => {
    const [a, b, c, out] = hover(`
      import { prova } from 'converge/providers/a';
      import { provb } from 'converge/providers/b';
      import { provc } from 'converge/providers/c';
      prova.instance('c1', { /*@*/name: 'c1', image: 'busybox' });
      const web = provb.instance('web', { /*@*/hostname: 'web1', diskImage: 'ubuntu-jammy' });
      provc.cdnResource('site', { /*@*/cname: 'cdn.example.com', origin: 'example.com' });
      type WebOutputs = NonNullable<(typeof web)['@outputs']>;
      export const ip = (o: WebOutputs) => o./*@*/publicIp;
    `);
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
