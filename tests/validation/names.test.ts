// Resource names with newlines or other control characters break `state list` lines, Mermaid
// labels and messages: validation refuses each such name with one issue naming the resource and
// the character, together with every other issue of the stack.
import { describe, expect, it } from 'vitest';
import { Engine, ValidationError, ref, type ResourceDecl } from 'converge';
import { testProvider, TestCloud } from '../helpers/test-provider.js';
import { thing } from '../helpers/builders.js';
import { watchedStore } from './table.js';

async function refuse(decls: unknown[]): Promise<ValidationError> {
  const { store, calls } = watchedStore();
  const engine = new Engine({ providers: [testProvider(new TestCloud())], state: store });
  const e = await engine.plan(decls as ResourceDecl[]).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(ValidationError);
  expect(calls, 'state store untouched').toEqual([]);
  return e as ValidationError;
}

describe('resource names with control characters', () => {
  it('are refused one issue per name, naming the resource and the character, with the other issues', async () => {
    const e = await refuse([
      thing('web\nserver'),
      thing('tab\tbed\t'),
      thing('bell\u0007'),
      thing('esc\u001b[31mred'),
      thing('nel\u0085x'),
      thing('sep\u2028x'),
      thing('ok'),
      thing('v', { size: 'huge' }),
      thing('m', { peer: ref('ghost', 'address') }),
    ]);
    const names = e.issues.filter((i) => i.path.join('.') === 'name');
    expect(names.map((i) => [i.resource, i.field, i.code])).toEqual([
      ['"web\\nserver"', 'declaration', 'invalid_value'],
      ['"tab\\tbed\\t"', 'declaration', 'invalid_value'],
      ['"bell\\u0007"', 'declaration', 'invalid_value'],
      ['"esc\\u001b[31mred"', 'declaration', 'invalid_value'],
      ['"nel\\u0085x"', 'declaration', 'invalid_value'],
      ['"sep\\u2028x"', 'declaration', 'invalid_value'],
    ]);
    expect(names[0]!.message).toContain('a newline (line feed) (U+000A) at position 4');
    expect(names[1]!.message).toContain('a tab (U+0009) at position 4 (and 1 more control character)');
    expect(names[2]!.message).toContain('a bell character (U+0007)');
    expect(names[3]!.message).toContain('an escape character (U+001B)');
    expect(names[4]!.message).toContain('a next-line character (U+0085)');
    expect(names[5]!.message).toContain('a line separator (U+2028)');
    // the other issues are all there too, and nothing else is said of the refused names
    expect(e.issues.map((i) => [i.resource, i.path.join('.'), i.code])).toEqual(
      expect.arrayContaining([
        ['v', 'size', 'invalid_value'],
        ['m', 'peer', 'missing_reference'],
      ]),
    );
    expect(e.issues).toHaveLength(8);
    // the error's message stays one line per issue: no raw control character gets into it
    expect([...e.message].filter((c) => c !== '\n' && /\p{Cc}|\u2028|\u2029/u.test(c))).toEqual([]);
    expect(e.message.split('\n').filter((l) => l.includes('web\\nserver'))).toHaveLength(1);
  });

  it('a reference to a refused name is not reported again as missing', async () => {
    const e = await refuse([thing('a\nb'), thing('c', { peer: ref('a\nb', 'address') })]);
    expect(e.issues.map((i) => i.code)).toEqual(['invalid_value']);
  });

  it('printable names, spaces and non-ASCII letters are accepted', async () => {
    const { store } = watchedStore();
    const engine = new Engine({ providers: [testProvider(new TestCloud())], state: store });
    await expect(engine.plan([thing('web server'), thing('café-1'), thing('日本')])).resolves.toBeDefined();
  });
});
