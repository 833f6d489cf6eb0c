// decl/resolve.ts resolveInputs: references become values through `lookup`, secret() values are
// unwrapped, and each path where a secret lands (a secret(), or a reference `isSecretRef` calls
// secret) is noted once, relative to the inputs; resolveDeclared, the same against a RecordSource.
import { describe, expect, it } from 'vitest';
import { ref, secret, type Ref } from 'converge';
import { recordSource, resolveDeclared, resolveInputs, type RecordSource } from '../../src/engine/decl/resolve.js';
import { unknown } from '../../src/engine/values/unknown.js';

const values: Record<string, unknown> = { 'db.address': '10.0.0.5', 'db.password': 'hunter2', 'net.id': 'n-1' };
const lookup = (r: Ref) => values[`${r.resource}.${r.path}`];
const secretRefs = (r: Ref) => r.path === 'password';

const cases: { what: string; inputs: unknown; value: unknown; secrets: string[] }[] = [
  { what: 'no references: the same value', inputs: { a: 1, b: ['x'] }, value: { a: 1, b: ['x'] }, secrets: [] },
  { what: 'a reference at the top', inputs: { host: ref('db', 'address') }, value: { host: '10.0.0.5' }, secrets: [] },
  {
    what: 'references inside lists and objects',
    inputs: { nics: [{ net: ref('net', 'id') }], hosts: [ref('db', 'address'), 'x'] },
    value: { nics: [{ net: 'n-1' }], hosts: ['10.0.0.5', 'x'] },
    secrets: [],
  },
  {
    what: 'a secret() is unwrapped and its path noted',
    inputs: { pw: secret('s3cret') },
    value: { pw: 's3cret' },
    secrets: ['pw'],
  },
  {
    what: 'a secret() inside a list element',
    inputs: { users: [{ key: secret('k') }] },
    value: { users: [{ key: 'k' }] },
    secrets: ['users[0].key'],
  },
  {
    what: 'a secret() holding an object is one path, not one per leaf',
    inputs: { creds: secret({ user: 'u', pw: secret('p') }) },
    value: { creds: { user: 'u', pw: 'p' } },
    secrets: ['creds'],
  },
  {
    what: 'a reference to a secret output lands a secret path',
    inputs: { pw: ref('db', 'password'), host: ref('db', 'address') },
    value: { pw: 'hunter2', host: '10.0.0.5' },
    secrets: ['pw'],
  },
  {
    what: 'a reference inside a secret() is covered by the secret()',
    inputs: { conn: secret({ pw: ref('db', 'password') }) },
    value: { conn: { pw: 'hunter2' } },
    secrets: ['conn'],
  },
  {
    what: 'a key with a dot is written exactly',
    inputs: { config: { 'user.key': secret('v') } },
    value: { config: { 'user.key': 'v' } },
    secrets: ['config["user.key"]'],
  },
  { what: 'scalars and null pass through', inputs: null, value: null, secrets: [] },
];

describe('resolveInputs', () => {
  for (const c of cases)
    it(c.what, () => {
      const r = resolveInputs(c.inputs, lookup, secretRefs);
      expect(r.value).toEqual(c.value);
      expect(r.secrets).toEqual(c.secrets);
    });

  it('keeps the identity of what holds no reference or secret, and copies only along a changed path', () => {
    const untouched = { list: [1, 2], deep: { x: 1 } };
    const inputs = { untouched, changed: { host: ref('db', 'address') } };
    const r = resolveInputs(inputs, lookup);
    expect(r.value).not.toBe(inputs);
    expect((r.value as typeof inputs).untouched).toBe(untouched);
    expect(resolveInputs(untouched, lookup).value).toBe(untouched);
  });

  it('without isSecretRef no reference is secret', () => {
    expect(resolveInputs({ pw: ref('db', 'password') }, lookup).secrets).toEqual([]);
  });
});

// resolveDeclared against a RecordSource: the one resolution plan, apply and import share, each
// supplying its source (planned values, the apply's ledger, the state).
const record = (outputs: Record<string, unknown>, secrets: string[] = []) => ({
  id: 'id-1',
  inputs: { size: 1 },
  outputs,
  secrets,
});
const records: Record<string, ReturnType<typeof record>> = {
  db: record({ address: '10.0.0.5', password: 'hunter2' }, ['outputs.password']),
  net: record({ id: 'n-1' }),
};

describe('resolveDeclared', () => {
  const missingIsUnknown = recordSource(
    (n) => records[n],
    () => unknown,
  );

  it('reads each reference from its record (output, else input) and appends landed secret paths to the given ones', () => {
    const r = resolveDeclared(
      { host: ref('db', 'address'), pw: ref('db', 'password'), size: ref('db', 'size'), key: secret('k') },
      missingIsUnknown,
      ['outputs.token'],
    );
    expect(r.value).toEqual({ host: '10.0.0.5', pw: 'hunter2', size: 1, key: 'k' });
    expect(r.secrets).toEqual(['outputs.token', 'inputs.pw', 'inputs.key']);
    expect(r.allUnknown).toBe(false);
  });

  it('a path already secret is not added twice', () => {
    expect(resolveDeclared({ pw: ref('db', 'password') }, missingIsUnknown, ['inputs.pw']).secrets).toEqual([
      'inputs.pw',
    ]);
  });

  it('a reference to a missing record reads what the source says: unknown (plan, import) or a throw (apply)', () => {
    const r = resolveDeclared({ net: ref('gone', 'id') }, missingIsUnknown);
    expect(r.value).toEqual({ net: unknown });
    expect(r.allUnknown).toBe(true);
    const strict = recordSource(
      (n) => records[n],
      (x) => {
        throw new Error(`no ${x.resource}`);
      },
    );
    expect(() => resolveDeclared({ net: ref('gone', 'id') }, strict)).toThrow('no gone');
  });

  it('a source of planned values decides secrets by its own paths', () => {
    const planned: RecordSource = { valueOf: () => unknown, secretsOf: (n) => (n === 'net' ? ['outputs.id'] : []) };
    const r = resolveDeclared({ net: ref('net', 'id'), host: ref('db', 'address') }, planned);
    expect(r.value).toEqual({ net: unknown, host: unknown });
    expect(r.secrets).toEqual(['inputs.net']);
    expect(r.allUnknown).toBe(true);
  });
});
