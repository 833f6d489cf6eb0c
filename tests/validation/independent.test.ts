// Several independent mistakes in one declaration set are all reported, in one ValidationError: no
// kind of mistake hides another. A table of sets that hid some before (an unknown type or a duplicate
// name hid the declaration's bad references and dependsOn, a second cycle hid behind the first, a
// field's type error hid the object's refine and the provider's check), then a property: random sets
// built from independent mistakes, each of which must be named by resource, field and path, and
// nothing else may be.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { Engine, ValidationError, defineProvider, defineResource, ref, type Issue, type ResourceDecl } from 'converge';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';
import { watchedStore } from './table.js';

const WIDGET = 'indep:index/widget:Widget';

/** A type with every kind of rule: field types, an unknown-key walk, an object-level refine, a provider check. */
const widget = defineResource({
  token: WIDGET,
  inputs: z
    .object({
      label: z.string(),
      size: z.enum(['s', 'm', 'l']).default('s'),
      min: z.number().default(0),
      max: z.number().default(10),
      peer: z.string().optional(),
      note: z.string().optional(),
      tags: z.record(z.string(), z.string()).default({}),
    })
    .refine((w) => w.min <= w.max, { message: 'max must not be below min', path: ['max'] }),
  outputs: z.object({ address: z.string() }),
  check: (w) => (w.label.startsWith('-') ? [{ path: ['label'], message: 'label must not start with -' }] : []),
  create: async () => ({ id: 'w', outputs: { address: 'a' } }),
  read: async () => null,
  delete: async () => {},
});

const engine = () =>
  new Engine({
    providers: [
      defineProvider({ name: 'indep', resources: [widget] }),
      provb({ token: 'valid-test-token', apiEndpoint: 'http://127.0.0.1:9', region: 'LON1' }),
      provc({ apiKey: 'valid-test-key', baseUrl: 'http://127.0.0.1:9', cloudProjectId: 1, cloudRegionId: 1 }),
    ],
    state: watchedStore().store,
  });

const w = (name: string, inputs: Record<string, unknown> = {}, options?: object, type = WIDGET): ResourceDecl =>
  ({ type, name, inputs: { label: name, ...inputs }, ...(options ? { options } : {}) }) as ResourceDecl;

type Where = readonly [resource: string, field: string, path: string, code: string];
const where = (i: Issue): Where => [i.resource, i.field ?? 'inputs', i.path.join('.'), i.code];

async function issuesOf(decls: readonly ResourceDecl[]): Promise<Where[]> {
  const { store, calls } = watchedStore();
  const e = await new Engine({ providers: engine().providers, state: store }).plan(decls).catch((x: unknown) => x);
  expect(e, 'a ValidationError').toBeInstanceOf(ValidationError);
  expect(calls, 'nothing read before the ValidationError').toEqual([]);
  return (e as ValidationError).issues.map(where);
}

const sorted = (xs: readonly Where[]) => [...xs].sort((a, b) => a.join('\0').localeCompare(b.join('\0')));

const table: { readonly what: string; readonly decls: ResourceDecl[]; readonly issues: Where[] }[] = [
  {
    what: "an unknown type, the declaration's bad reference and its dependsOn on nothing",
    decls: [w('a', { peer: ref('nowhere', 'id') }, { dependsOn: ['ghost'] }, 'indep:index/widgit:Widget')],
    issues: [
      ['a', 'declaration', 'type', 'unknown_type'],
      ['a', 'inputs', 'peer', 'missing_reference'],
      ['a', 'options', 'dependsOn.0', 'missing_reference'],
    ],
  },
  {
    what: "a duplicate name and the duplicate's reference to an output its target lacks",
    decls: [w('a'), w('b'), w('b', { peer: ref('a', 'adress') })],
    issues: [
      ['b', 'declaration', '', 'duplicate_name'],
      ['b', 'inputs', 'peer', 'missing_output'],
    ],
  },
  {
    what: 'a declaration without a name, and its reference to nothing',
    decls: [{ type: WIDGET, inputs: { label: 'x', peer: ref('nowhere', 'id') } } as unknown as ResourceDecl],
    issues: [
      ['[0]', 'declaration', 'name', 'invalid_type'],
      ['[0]', 'inputs', 'peer', 'missing_reference'],
    ],
  },
  {
    what: 'two cycles that share no resource',
    decls: [
      w('a', { peer: ref('b', 'address') }),
      w('b', { peer: ref('a', 'address') }),
      w('c', {}, { dependsOn: ['d'] }),
      w('d', { peer: ref('c', 'address') }),
    ],
    issues: [
      ['a', 'declaration', '', 'dependency_cycle'],
      ['c', 'declaration', '', 'dependency_cycle'],
    ],
  },
  {
    what: "a field's type error, the object's refine on other fields and the provider's check",
    decls: [w('a', { label: '-a', size: 'xl', min: 5, max: 1 })],
    issues: [
      ['a', 'inputs', 'size', 'invalid_value'],
      ['a', 'inputs', 'max', 'custom'],
      ['a', 'inputs', 'label', 'custom'],
    ],
  },
  {
    what: 'options errors beside input errors beside a cycle',
    decls: [
      w('a', { size: 1, colour: 'red' }, { protect: 'yes', timeouts: { create: 'banana' }, dependsOn: ['b'] }),
      w('b', { peer: ref('a', 'address') }),
    ],
    issues: [
      ['a', 'inputs', 'colour', 'unrecognized_keys'],
      ['a', 'inputs', 'size', 'invalid_value'],
      ['a', 'options', 'protect', 'invalid_option'],
      ['a', 'options', 'timeouts.create', 'invalid_option'],
      ['a', 'declaration', '', 'dependency_cycle'],
    ],
  },
  {
    what: "shipped providers: Civo's schema error beside its firewall rule check, Gcore's beside its certificate check",
    decls: [
      provb.firewall('fw', {
        name: 'fw',
        networkId: 1,
        ingressRules: [{ label: 'ssh', protocol: 'tcp', portRange: '22', cidrs: ['0.0.0.0/0'], action: 'allow' }],
      } as never),
      provc.cdnCertificate('cert', { name: 1, automated: true, sslCertificate: 'x' } as never),
    ],
    issues: [
      ['fw', 'inputs', 'networkId', 'invalid_type'],
      ['fw', 'inputs', 'createDefaultRules', 'invalid_value'],
      ['cert', 'inputs', 'name', 'invalid_type'],
      ['cert', 'inputs', 'sslCertificate', 'invalid_value'],
    ],
  },
  {
    what: '`options: null` beside an input error (null is refused, not read as no options)',
    decls: [{ ...w('a', { size: 'xl' }), options: null } as unknown as ResourceDecl],
    issues: [
      ['a', 'inputs', 'size', 'invalid_value'],
      ['a', 'options', '', 'invalid_option'],
    ],
  },
];

describe('several independent mistakes in one set', () => {
  for (const row of table)
    it(`reports them all: ${row.what}`, async () => {
      expect(sorted(await issuesOf(row.decls))).toEqual(sorted(row.issues));
    });
});

/** One mistake that touches nothing else: what it adds to a declaration, and the issue it must give. */
type Mistake = {
  readonly inputs?: Record<string, unknown>;
  readonly options?: Record<string, unknown>;
  /** Judged only when the type is known (schema, refine, check). */
  readonly typed?: boolean;
  readonly field: string;
  readonly path: string;
};

const MISTAKES: Record<string, Mistake> = {
  type: { inputs: { size: 'xl' }, typed: true, field: 'inputs', path: 'size' },
  key: { inputs: { colour: 'red' }, typed: true, field: 'inputs', path: 'colour' },
  refine: { inputs: { min: 9, max: 1 }, typed: true, field: 'inputs', path: 'max' },
  check: { inputs: { label: '-x' }, typed: true, field: 'inputs', path: 'label' },
  notJson: { inputs: { note: new Date(0) }, field: 'inputs', path: 'note' },
  reserved: {
    inputs: JSON.parse('{"tags":{"__proto__":"x"}}') as Record<string, unknown>,
    field: 'inputs',
    path: 'tags.__proto__',
  },
  ref: { inputs: { peer: ref('nowhere', 'id') }, field: 'inputs', path: 'peer' },
  timeout: { options: { timeouts: { create: 'banana' } }, field: 'options', path: 'timeouts.create' },
  dependsOn: { options: { dependsOn: ['ghost'] }, field: 'options', path: 'dependsOn.0' },
  option: { options: { protekt: true }, field: 'options', path: 'protekt' },
};

describe('random sets of independent mistakes', () => {
  it('names every mistake of every declaration and nothing else, before anything is read', async () => {
    const decl = fc.record({
      mistakes: fc.subarray(Object.keys(MISTAKES), { minLength: 1 }),
      badType: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(decl, { minLength: 1, maxLength: 4 }), fc.nat({ max: 2 }), async (specs, cycles) => {
        const decls: ResourceDecl[] = [];
        const expected: Where[] = [];
        specs.forEach((spec, i) => {
          const name = `r${i}`;
          let inputs: Record<string, unknown> = { label: name };
          let options: Record<string, unknown> = {};
          for (const k of spec.mistakes) {
            const m = MISTAKES[k]!;
            inputs = { ...inputs, ...m.inputs };
            options = { ...options, ...m.options };
            if (!m.typed || !spec.badType) expected.push([name, m.field, m.path, '']);
          }
          if (spec.badType) expected.push([name, 'declaration', 'type', '']);
          const type = spec.badType ? 'indep:index/widgit:Widget' : WIDGET;
          decls.push({ type, name, inputs, options } as ResourceDecl);
        });
        for (let c = 0; c < cycles; c++) {
          decls.push(w(`c${c}a`, { peer: ref(`c${c}b`, 'address') }), w(`c${c}b`, { peer: ref(`c${c}a`, 'address') }));
          expected.push([`c${c}a`, 'declaration', '', '']);
        }
        const got = (await issuesOf(decls)).map(([r, f, p]) => [r, f, p, ''] as Where);
        expect(sorted(got)).toEqual(sorted(expected));
      }),
      { numRuns: 200, seed: 20260224 },
    );
  });
});
