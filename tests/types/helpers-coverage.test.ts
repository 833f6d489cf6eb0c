// Every resource and lookup each provider serves has a typed helper that builds its token.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prova } from 'converge/providers/a';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';

const dir = mkdtempSync(join(tmpdir(), 'cvt-helpers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The tokens the helpers of one provider build, found by calling each helper. Every helper takes a
 * name first and declares a node of the stack; a lookup helper also takes its arguments alone and
 * then answers a call for `engine.lookup()`, which is how lookups are told from resources.
 */
function helperTokens(helpers: Record<string, unknown>): { resources: Set<string>; lookups: Set<string> } {
  const resources = new Set<string>();
  const lookups = new Set<string>();
  for (const fn of Object.values(helpers)) {
    if (typeof fn !== 'function') continue;
    const declared = (fn as (n: string, i: object) => { type?: string })('x', {});
    const call = (fn as (a: object) => { token?: string })({});
    if (call.token) {
      // A lookup declared in the stack is a node of the lookup's own token.
      expect(declared.type).toBe(call.token);
      lookups.add(call.token);
    } else if (declared.type) resources.add(declared.type);
  }
  return { resources, lookups };
}

describe('typed helpers', () => {
  const providers = [
    ['prova', prova({ socketPath: join(dir, 'none.socket'), configDir: join(dir, 'lxc') }), prova],
    ['provb', provb({ token: 'not-a-real-token' }), provb],
    ['provc', provc({ apiKey: 'not-a-real-key', env: {} }), provc],
  ] as const;

  for (const [name, provider, helpers] of providers) {
    it(`exist for every resource and lookup of ${name}`, () => {
      const made = helperTokens(helpers as unknown as Record<string, unknown>);
      expect([...made.resources].sort()).toEqual([...provider.resources.keys()].sort());
      expect([...made.lookups].sort()).toEqual([...provider.lookups.keys()].sort());
    });
  }

  it('build plain declarations: out() is not enumerable, so JSON is the data alone', () => {
    const fw = provb.firewall('fw', { name: 'fw' });
    const web = provb.instance('web', { diskImage: 'ubuntu-jammy', firewallId: fw.out('firewallId') });
    expect(JSON.parse(JSON.stringify(web))).toEqual({
      type: 'provb:index/instance:Instance',
      name: 'web',
      inputs: { diskImage: 'ubuntu-jammy', firewallId: { '@converge': 'ref', resource: 'fw', path: 'firewallId' } },
    });
  });
});
