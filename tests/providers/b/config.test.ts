import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../src/engine/errors.js';
import { resolveConfig } from '../../../src/providers/b/config.js';
import { provb } from '../../../src/providers/b/index.js';

const dir = mkdtempSync(join(tmpdir(), 'provb-config-'));
const file = (name: string, content: string) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe('provb configuration', () => {
  it('takes the token from options before PROVB_TOKEN', () => {
    expect(resolveConfig({ token: 'a' }, { PROVB_TOKEN: 'b' }).tokenSource).toBe('token');
    expect(resolveConfig({}, { PROVB_TOKEN: 'b' }).tokenSource).toBe('PROVB_TOKEN');
  });

  it('reads the token from a CLI credentials file named by option or PROVB_CREDENTIAL_FILE', () => {
    const p = file(
      'ok.json',
      JSON.stringify({ apikeys: { main: 'tok-main', other: 'tok-other' }, meta: { current_apikey: 'main' } }),
    );
    expect(resolveConfig({ credentialsFile: p }, {}).tokenSource).toBe('credentialsFile');
    expect(resolveConfig({}, { PROVB_CREDENTIAL_FILE: p }).tokenSource).toBe('PROVB_CREDENTIAL_FILE');
  });

  it('fails on an unreadable or invalid credentials file instead of falling through', () => {
    const cases = [
      join(dir, 'does-not-exist.json'),
      file('bad.json', '{not json'),
      file('nokeys.json', JSON.stringify({ meta: { current_apikey: 'x' } })),
      file('nocurrent.json', JSON.stringify({ apikeys: { a: 'b' }, meta: {} })),
      file('nomatch.json', JSON.stringify({ apikeys: { a: 'b' }, meta: { current_apikey: 'z' } })),
    ];
    for (const p of cases) {
      const err = (() => {
        try {
          resolveConfig({ credentialsFile: p }, {});
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).field).toBe('credentialsFile');
    }
  });

  it('fails without any token', () => {
    expect(() => resolveConfig({}, {})).toThrow(ConfigError);
  });

  it('defaults the API endpoint to the vendor and reads the environment only in the factory', () => {
    process.env.PROVB_TOKEN = 'env-token';
    const p = provb({ region: 'LON1' });
    expect(p.config.apiEndpoint).toBe('https://api.civo.com');
    expect(p.config.tokenSource).toBe('PROVB_TOKEN');
  });

  it('gives terraformConfig() the upstream key names and the token as the sensitive marker', () => {
    const p = file(
      'tf.json',
      JSON.stringify({ apikeys: { main: 'secret-token-xyz' }, meta: { current_apikey: 'main' } }),
    );
    const cfg = provb({
      token: 'secret-token-abc',
      credentialsFile: p,
      region: 'FRA1',
      apiEndpoint: 'http://127.0.0.1:1',
    }).terraformConfig();
    expect(cfg).toEqual({
      api_endpoint: 'http://127.0.0.1:1',
      token: { '@converge': 'sensitive' },
      credentials_file: p,
      region: 'FRA1',
    });
    expect(JSON.stringify(cfg)).not.toContain('secret-token');
  });
});
