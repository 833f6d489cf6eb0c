// A stack module with a syntax error: the command names the file, line, column and reason, and
// shows the line with a caret under the column, for JavaScript (V8's SyntaxError) and TypeScript
// (tsx's esbuild TransformError), and for a syntax error in a module the stack imports.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { converge } from './run.js';
import { describeSyntaxError, syntaxLocation } from '../../src/cli/syntax-location.js';

function project(files: Record<string, string>, type?: 'module'): string {
  const dir = mkdtempSync(join(tmpdir(), 'converge-stack-syntax-'));
  if (type) writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
// the stack loaded by tsx on its own thread, as the shipped command loads it (tests/setup/cli-launch.mjs)
const plan = (stack: string) =>
  converge(['plan'], { CONVERGE_STACK: stack, NO_COLOR: '1', CONVERGE_CLI_FROM_SOURCE: '1', CONVERGE_TEST_TSX: '1' });

describe('a stack module with a syntax error (the command)', () => {
  it('JavaScript: file, line, column and V8s reason, with the line and a caret', async () => {
    const dir = project({ 'stack.mjs': 'export default {\n  providers: [],\n  resources: [ a: 1 ],\n};\n' });
    const r = await plan(join(dir, 'stack.mjs'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`syntax error at ${join(dir, 'stack.mjs')}:3:17: Unexpected token ':'`);
    expect(r.stderr).toContain('  resources: [ a: 1 ],\n                  ^');
    expect(r.stderr).not.toContain('importing it failed');
  }, 60_000);

  it('TypeScript: file, line, column and esbuilds reason (not "Transform failed with 1 error:.")', async () => {
    const dir = project(
      { 'stack.ts': 'const n: number = 1;\nexport default {\n  providers: [],\n  resources: [ a: n ],\n};\n' },
      'module',
    );
    const r = await plan(join(dir, 'stack.ts'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`syntax error at ${join(dir, 'stack.ts')}:4:17: Expected "]" but found ":"`);
    expect(r.stderr).toContain('  resources: [ a: n ],\n                  ^');
    expect(r.stderr).not.toContain('Transform failed');
  }, 60_000);

  it('TypeScript importing a TypeScript module with the error: the imported file is named', async () => {
    const dir = project(
      {
        'stack.ts': "import { resources } from './parts.ts';\nexport default { providers: [], resources };\n",
        'parts.ts': 'export const resources: unknown[] = [\n  { name: "a" type: "x" },\n];\n',
      },
      'module',
    );
    const r = await plan(join(dir, 'stack.ts'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`syntax error at ${join(dir, 'parts.ts')}:2:\\d+: Expected "}" but found "type"`),
    );
  }, 60_000);

  it('JavaScript importing a JavaScript module with the error: its reason, and where Node tells it, its place', async () => {
    const dir = project({
      'stack.mjs': "import './parts.mjs';\nexport default {};\n",
      'parts.mjs': 'const a = 1;\nlet = ;\n',
    });
    const r = await plan(join(dir, 'stack.mjs'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Unexpected strict mode reserved word');
    // Node 20 keeps the place of an imported ES module's syntax error to itself; newer ones put it in the stack
    expect(r.stderr).toMatch(
      /syntax error at .*parts\.mjs:2:1: |a module it imports has a syntax error: .*node --check/,
    );
  }, 60_000);
});

describe('syntaxLocation', () => {
  it("reads esbuild's errors[0].location (0-based column) and text", () => {
    const e = Object.assign(
      new Error('Transform failed with 1 error:\n/x/s.ts:4:16: ERROR: Expected "]" but found ":"'),
      {
        errors: [
          {
            text: 'Expected "]" but found ":"',
            location: { file: '/x/s.ts', line: 4, column: 16, lineText: '  resources: [ a: 1 ],' },
          },
        ],
      },
    );
    const at = syntaxLocation(e, '/x/s.ts')!;
    expect(at).toEqual({
      file: '/x/s.ts',
      line: 4,
      column: 17,
      reason: 'Expected "]" but found ":"',
      source: '  resources: [ a: 1 ],',
    });
    expect(describeSyntaxError(at)).toBe(
      'syntax error at /x/s.ts:4:17: Expected "]" but found ":"\n    resources: [ a: 1 ],\n                  ^',
    );
  });

  it("reads esbuild's message when the error crossed tsx's loader thread without `errors`", () => {
    const e = new Error('Transform failed with 1 error:\n/x/s.ts:2:5: ERROR: Unexpected "="');
    expect(syntaxLocation(e, '/x/s.ts')).toMatchObject({
      file: '/x/s.ts',
      line: 2,
      column: 6,
      reason: 'Unexpected "="',
    });
  });

  it("reads V8's decorated stack (CommonJS, vm, newer Node for ES modules), tabs kept", () => {
    const e = new SyntaxError('Unexpected token');
    e.stack = 'file:///x/s.mjs:7\n\tlet = ;\n\t    ^\n\nSyntaxError: Unexpected token\n    at compile (node:internal)';
    expect(syntaxLocation(e, '/x/s.mjs')).toEqual({
      file: '/x/s.mjs',
      line: 7,
      column: 6,
      reason: 'Unexpected token',
      source: '\tlet = ;',
    });
  });

  it('is undefined for an error that is not a syntax error', () => {
    expect(syntaxLocation(new TypeError('x is not a function'), '/x/s.mjs')).toBeUndefined();
    expect(syntaxLocation(undefined, '/x/s.mjs')).toBeUndefined();
  });
});
