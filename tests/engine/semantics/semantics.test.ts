// converge's plan/apply semantics as a table: one row per scenario, each a sequence of stages
// (declare, plan, apply), asserting the actions planned and the exact order of provider calls at
// apply (parallelism 1, so the order is the graph's). Each row cites the Terraform or Pulumi
// behaviour it follows, or says where converge differs (README, "How converge plans").
import { describe, expect, it } from 'vitest';
import {
  ApplyError,
  Engine,
  MemoryStateStore,
  ProtectedResourceError,
  ref,
  type Event,
  type ResourceDecl,
  type ResourceOptions,
} from 'converge';
import { TestCloud, testProvider, THING, BLOB, NUMBERED } from '../../helpers/test-provider.js';

type Stage = {
  readonly decls: readonly ResourceDecl[] | 'destroy';
  readonly plan?: { readonly targets?: readonly string[]; readonly refresh?: boolean };
  /** Changes made outside converge before planning. */
  readonly outside?: (cloud: TestCloud) => void;
  /** address → action, for every step that is not a noop. */
  readonly actions?: Readonly<Record<string, string>>;
  /** The provider calls apply makes, in order ('create a', 'delete b', ...); reads are left out. */
  readonly calls?: readonly string[];
  /** What the plan or apply must throw instead. */
  readonly throws?: new (...args: never[]) => Error;
  readonly check?: (world: World) => void | Promise<void>;
};
type Row = {
  readonly name: string;
  readonly cite: string;
  readonly parallelism?: number;
  readonly stages: readonly Stage[];
};
type World = { engine: Engine; cloud: TestCloud; events: Event[] };

const thing = (name: string, inputs: Record<string, unknown> = {}, options?: ResourceOptions): ResourceDecl => ({
  type: THING,
  name,
  inputs: { name, ...inputs },
  ...(options ? { options } : {}),
});
const blob = (name: string, inputs: Record<string, unknown>, options?: ResourceOptions): ResourceDecl => ({
  type: BLOB,
  name,
  inputs,
  ...(options ? { options } : {}),
});
const numbered = (name: string, inputs: Record<string, unknown>): ResourceDecl => ({
  type: NUMBERED,
  name,
  inputs: { label: name, ...inputs },
});
const dependent = (name: string, on: string, options: ResourceOptions = {}) =>
  thing(name, { peer: ref(on, 'id') }, { replaceOnChanges: ['peer'], ...options });

const rows: Row[] = [
  {
    name: 'a chain of references: an in-place update whose output changes updates what refers to it',
    cite: 'Terraform: a computed attribute of an updated resource is unknown in the plan; dependents update after it',
    stages: [
      { decls: [thing('a'), thing('b', { peer: ref('a', 'status') })], calls: ['create a', 'create b'] },
      {
        decls: [thing('a', { size: 'large' }), thing('b', { peer: ref('a', 'status') })],
        actions: { a: 'update', b: 'update' },
        calls: ['update a', 'update b'],
      },
    ],
  },
  {
    name: 'an update whose reference resolves to the recorded value calls no provider',
    cite: 'Terraform: a planned update whose values turn out unchanged is applied as a no-op',
    stages: [
      { decls: [thing('a'), thing('b', { peer: ref('a', 'address') }), thing('c', { peer: ref('a', 'status') })] },
      {
        decls: [
          thing('a', { size: 'large' }),
          thing('b', { peer: ref('a', 'address') }),
          thing('c', { peer: ref('a', 'status') }),
        ],
        actions: { a: 'update', c: 'update' },
        calls: ['update a', 'update c'],
      },
      {
        decls: [
          thing('a', { tags: { x: '1' } }),
          thing('b', { peer: ref('a', 'address') }),
          thing('c', { peer: ref('a', 'status') }),
        ],
        actions: { a: 'update', c: 'update' },
        calls: ['update a'],
        check: async ({ engine }) =>
          expect(
            (
              await engine.plan([
                thing('a', { tags: { x: '1' } }),
                thing('b', { peer: ref('a', 'address') }),
                thing('c', { peer: ref('a', 'status') }),
              ])
            ).hasChanges,
          ).toBe(false),
      },
    ],
  },
  {
    name: 'a delete-first replacement cascades: destroys in reverse dependency order, then creates',
    cite: 'Terraform: delete b, delete a, create a, create b (destroy edges reversed, replace = destroy then create)',
    stages: [
      { decls: [thing('a'), dependent('b', 'a')], calls: ['create a', 'create b'] },
      {
        decls: [thing('a', { region: 'us' }), dependent('b', 'a')],
        actions: { a: 'replace', b: 'replace' },
        calls: ['delete b', 'delete a', 'create a', 'create b'],
      },
    ],
  },
  {
    name: 'a create-first replacement deletes the old object only after its dependents moved to the new one',
    cite: 'Terraform create_before_destroy: create a, then dependents, then destroy the deposed a',
    stages: [
      { decls: [thing('a'), dependent('b', 'a')] },
      {
        decls: [thing('a', { region: 'us' }, { createBeforeDestroy: true }), dependent('b', 'a')],
        actions: { a: 'replace', b: 'replace' },
        calls: ['create a', 'delete b', 'create b', 'delete a'],
      },
    ],
  },
  {
    name: 'createBeforeDestroy propagates to a replaced dependency',
    cite: 'Terraform: create_before_destroy on b forces it on a when both are replaced (else a cycle)',
    stages: [
      { decls: [thing('a'), dependent('b', 'a', { createBeforeDestroy: true })] },
      {
        decls: [thing('a', { region: 'us' }), dependent('b', 'a', { createBeforeDestroy: true })],
        actions: { a: 'replace', b: 'replace' },
        calls: ['create a', 'create b', 'delete b', 'delete a'],
        check: async ({ engine }) => {
          const s = await engine.state();
          expect(Object.keys(s.deposed)).toEqual([]);
        },
      },
    ],
  },
  {
    name: 'a create-first replacement with an updated dependent updates it before deleting the old object',
    cite: 'Terraform create_before_destroy: dependents are updated to the new object before the deposed one is destroyed',
    stages: [
      { decls: [thing('a'), thing('b', { peer: ref('a', 'id') })] },
      {
        decls: [thing('a', { region: 'us' }, { createBeforeDestroy: true }), thing('b', { peer: ref('a', 'id') })],
        actions: { a: 'replace', b: 'update' },
        calls: ['create a', 'update b', 'delete a'],
      },
    ],
  },
  {
    name: 'a create-first replacement in a chain a <- b <- c deletes the old a after c is updated too',
    cite: 'Terraform create_before_destroy (docs/destroying.md): the deposed object is destroyed after every dependent is updated, not only the direct ones',
    stages: [
      { decls: [thing('a'), thing('b', { peer: ref('a', 'id') }), thing('c', { peer: ref('b', 'status') })] },
      {
        decls: [
          thing('a', { region: 'us' }, { createBeforeDestroy: true }),
          thing('b', { peer: ref('a', 'id') }),
          thing('c', { peer: ref('b', 'status') }),
        ],
        actions: { a: 'replace', b: 'update', c: 'update' },
        calls: ['create a', 'update b', 'update c', 'delete a'],
      },
    ],
  },
  {
    name: 'a state-only update keeps its outputs known: what refers to them is not updated',
    cite: 'Terraform: a lifecycle or depends_on change alone plans no change of the object, so its attributes stay known; converge records it in the state only',
    stages: [
      { decls: [thing('a'), thing('b', { peer: ref('a', 'status') })], calls: ['create a', 'create b'] },
      {
        decls: [thing('a', {}, { protect: true }), thing('b', { peer: ref('a', 'status') })],
        actions: { a: 'update' },
        calls: [],
      },
      {
        decls: [thing('a', {}, { retainOnDelete: true }), thing('b', { peer: ref('a', 'status') })],
        actions: { a: 'update' },
        calls: [],
      },
    ],
  },
  {
    name: 'removing a middle resource: what referred to it moves off first, then it is deleted',
    cite: 'Terraform: a destroy waits for the updates of resources that referenced it',
    stages: [
      { decls: [thing('a'), thing('b', { peer: ref('a', 'address') }), thing('c', { peer: ref('b', 'address') })] },
      {
        decls: [thing('a'), thing('c', { peer: ref('a', 'address') })],
        actions: { b: 'delete', c: 'update' },
        calls: ['update c', 'delete b'],
      },
    ],
  },
  {
    name: 'protect added later is recorded without a provider call, and then refuses the destroy',
    cite: 'Pulumi: changing protect is an update of the state alone; a protected resource cannot be deleted',
    stages: [
      { decls: [thing('a')] },
      {
        decls: [thing('a', {}, { protect: true })],
        actions: { a: 'update' },
        calls: [],
        check: async ({ engine }) => expect((await engine.state()).resources.a!.options.protect).toBe(true),
      },
      { decls: 'destroy', throws: ProtectedResourceError },
    ],
  },
  {
    name: 'protect lifted later is recorded, and then the removal deletes',
    cite: 'Pulumi: unprotect, then delete',
    stages: [
      { decls: [thing('a', {}, { protect: true })] },
      { decls: [], throws: ProtectedResourceError },
      { decls: [thing('a')], actions: { a: 'update' }, calls: [] },
      { decls: [], actions: { a: 'delete' }, calls: ['delete a'] },
    ],
  },
  {
    name: 'retainOnDelete added later is recorded, and the removal forgets instead of deleting',
    cite: 'Pulumi retainOnDelete: removed from the state, left in the cloud',
    stages: [
      { decls: [thing('a')] },
      { decls: [thing('a', {}, { retainOnDelete: true })], actions: { a: 'update' }, calls: [] },
      { decls: [], actions: { a: 'forget' }, calls: [], check: ({ cloud }) => expect(cloud.count('thing')).toBe(1) },
    ],
  },
  {
    name: 'dependsOn added later is recorded and orders the destroy',
    cite: 'Terraform depends_on: destroy in reverse order of the recorded dependencies',
    stages: [
      { decls: [thing('a'), thing('b')] },
      { decls: [thing('a'), thing('b', {}, { dependsOn: ['a'] })], actions: { b: 'update' }, calls: [] },
      { decls: 'destroy', actions: { a: 'delete', b: 'delete' }, calls: ['delete b', 'delete a'] },
    ],
  },
  {
    name: 'ignoreChanges hides a change from an update',
    cite: 'Terraform ignore_changes: the update sends the prior value at the ignored path',
    stages: [
      { decls: [thing('a', { tags: { k: '1' } })] },
      {
        decls: [thing('a', { tags: { k: '2' }, size: 'large' }, { ignoreChanges: ['tags'] })],
        actions: { a: 'update' },
        calls: ['update a'],
        check: ({ cloud }) => expect([...cloud.objects.values()][0]!.inputs.tags).toEqual({ k: '1' }),
      },
    ],
  },
  {
    name: 'ignoreChanges does not apply to a replacement: the new object is made from the declaration',
    cite: 'Terraform: ignore_changes affects updates only; a replacement uses the configuration',
    stages: [
      { decls: [thing('a', { tags: { k: '1' } })] },
      {
        decls: [thing('a', { tags: { k: '2' }, region: 'us' }, { ignoreChanges: ['tags'] })],
        actions: { a: 'replace' },
        calls: ['delete a', 'create a'],
        check: ({ cloud }) => expect([...cloud.objects.values()][0]!.inputs.tags).toEqual({ k: '2' }),
      },
    ],
  },
  {
    name: 'drift: a change made outside is planned back',
    cite: 'Terraform: refresh, then plan the difference to the configuration',
    stages: [
      { decls: [thing('a')] },
      {
        decls: [thing('a')],
        outside: (c) => {
          [...c.objects.values()][0]!.inputs.size = 'large';
        },
        actions: { a: 'update' },
        calls: ['update a'],
      },
    ],
  },
  {
    name: 'drift: an object deleted outside is created again, and its dependents follow',
    cite: 'Terraform: a resource gone on refresh is planned for creation',
    stages: [
      { decls: [thing('a'), dependent('b', 'a')] },
      {
        decls: [thing('a'), dependent('b', 'a')],
        outside: (c) => {
          c.objects.delete('thing-1');
        },
        actions: { a: 'create', b: 'replace' },
        calls: ['create a', 'delete b', 'create b'],
      },
    ],
  },
  {
    name: 'a rename through aliases moves the record without a provider call',
    cite: 'Pulumi aliases / Terraform moved blocks',
    stages: [
      { decls: [thing('old-name', { name: 'x' })] },
      {
        decls: [thing('new-name', { name: 'x' }, { aliases: ['old-name'] })],
        calls: [],
        check: async ({ engine, cloud }) => {
          expect(Object.keys((await engine.state()).resources)).toEqual(['new-name']);
          expect(cloud.count('thing')).toBe(1);
        },
      },
    ],
  },
  {
    name: 'a rename through aliases with a change updates the object under its new name',
    cite: 'Pulumi aliases with an input change: an update, no replacement',
    stages: [
      { decls: [thing('old-name', { name: 'x' })] },
      {
        decls: [thing('new-name', { name: 'x', size: 'large' }, { aliases: ['old-name'] })],
        actions: { 'new-name': 'update' },
        calls: ['update x'],
      },
    ],
  },
  {
    name: 'targets plan the named resources and what they depend on, nothing else',
    cite: 'Terraform -target: the targets and their dependencies',
    stages: [
      {
        decls: [thing('a'), thing('b', { peer: ref('a', 'address') }), thing('c')],
        plan: { targets: ['b'] },
        actions: { a: 'create', b: 'create' },
        calls: ['create a', 'create b'],
      },
    ],
  },
  {
    name: 'a targeted destroy deletes the targets and everything that depends on them, dependents first',
    cite: 'Terraform destroy -target: the targets and their dependents',
    stages: [
      {
        decls: [
          thing('a'),
          thing('b', { peer: ref('a', 'address') }),
          thing('c', { peer: ref('b', 'address') }),
          thing('d'),
        ],
      },
      {
        decls: 'destroy',
        plan: { targets: ['a'] },
        actions: { a: 'delete', b: 'delete', c: 'delete' },
        calls: ['delete c', 'delete b', 'delete a'],
        check: async ({ engine }) => expect(Object.keys((await engine.state()).resources)).toEqual(['d']),
      },
    ],
  },
  {
    name: 'a refused create records nothing and never looks for (or adopts) an existing object',
    cite: 'Terraform/Pulumi: a failed create is an error; converge additionally never calls find after a definite refusal',
    stages: [
      {
        decls: [thing('a')],
        outside: (c) => {
          c.objects.set('theirs', { id: 'theirs', kind: 'thing', inputs: { name: 'a' }, outputs: {} });
          c.failCreate.set('a', { times: 1, status: 409 });
        },
        throws: ApplyError,
        calls: ['create a'],
        check: async ({ engine, cloud }) => {
          expect(cloud.calls.some((c) => c.op === 'find')).toBe(false);
          expect((await engine.state()).resources).toEqual({});
          expect(cloud.objects.has('theirs')).toBe(true);
        },
      },
      { decls: [thing('a')], actions: { a: 'create' }, calls: ['create a'] },
      {
        decls: [],
        actions: { a: 'delete' },
        calls: ['delete a'],
        check: ({ cloud }) => expect(cloud.objects.has('theirs')).toBe(true),
      },
    ],
  },
  {
    name: 'a create whose answer is lost is looked for and adopted, never made twice',
    cite: 'converge: find after an unknown outcome (Terraform loses such objects; Pulumi leaves a pending operation)',
    stages: [
      {
        decls: [thing('a')],
        outside: (c) => c.failCreate.set('a', { times: 1, status: 502, afterCreate: true }),
        actions: { a: 'create' },
        calls: ['create a', 'find a'],
        check: async ({ engine, cloud }) => {
          expect(cloud.count('thing')).toBe(1);
          expect((await engine.plan([thing('a')])).hasChanges).toBe(false);
        },
      },
    ],
  },
  {
    name: 'a create that made its object and then timed out is recorded tainted and replaced by the next plan',
    cite: 'Terraform: a create that fails after the object exists taints it',
    stages: [
      {
        decls: [thing('a', {}, { timeouts: { create: '30ms' } })],
        outside: (c) => c.hangAfterCreate.add('a'),
        throws: ApplyError,
        calls: ['create a', 'find a'],
        check: async ({ engine, cloud }) => {
          expect((await engine.state()).resources.a!.tainted).toBe(true);
          cloud.hangAfterCreate.clear();
        },
      },
      {
        decls: [thing('a', {}, { timeouts: { create: '30ms' } })],
        actions: { a: 'replace' },
        calls: ['delete a', 'create a'],
      },
    ],
  },
  {
    name: 'a replacement that changes the type deletes the old object through the old type',
    cite: 'Terraform: a resource whose type changes is destroyed by its old provider schema',
    stages: [
      { decls: [thing('x', { name: 'x' })] },
      {
        decls: [blob('x', { content: 'c' })],
        actions: { x: 'replace' },
        calls: ['delete x', 'create c'],
        check: ({ cloud }) => expect(cloud.count('thing')).toBe(0),
      },
    ],
  },
  {
    name: 'names that are Object.prototype members are ordinary names',
    cite: 'converge: names are keys of maps, never of plain objects',
    stages: [
      {
        decls: [thing('constructor'), thing('toString', { peer: ref('constructor', 'address') }), thing('__proto__')],
        actions: { constructor: 'create', toString: 'create', ['__proto__']: 'create' },
      },
      {
        decls: [thing('constructor'), thing('toString', { peer: ref('constructor', 'address') }), thing('__proto__')],
        actions: {},
      },
      {
        decls: [thing('hasOwnProperty', { name: '__proto__' }, { aliases: ['__proto__'] })],
        actions: { constructor: 'delete', toString: 'delete' },
        calls: ['delete toString', 'delete constructor'],
      },
    ],
  },
  {
    name: "ref(x, 'id') means the same at plan and apply (an output named id wins over the state's id)",
    cite: 'Terraform: an attribute reference has one type',
    stages: [
      { decls: [numbered('p', {}), numbered('c', { parentId: ref('p', 'id') })] },
      { decls: [numbered('p', {}), numbered('c', { parentId: ref('p', 'id') })], actions: {} },
    ],
  },
];

describe('plan and apply semantics', () => {
  for (const row of rows) {
    it(`${row.name} (${row.cite})`, async () => {
      const cloud = new TestCloud();
      const events: Event[] = [];
      const engine = new Engine({
        providers: [testProvider(cloud)],
        state: new MemoryStateStore(),
        parallelism: row.parallelism ?? 1,
        retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 2 },
        onEvent: (e) => events.push(e),
      });
      const world = { engine, cloud, events };
      for (const [i, stage] of row.stages.entries()) {
        stage.outside?.(cloud);
        cloud.calls.length = 0;
        const planning =
          stage.decls === 'destroy'
            ? engine.planDestroy({ refresh: true, ...stage.plan })
            : engine.plan(stage.decls, stage.plan);
        let error: unknown;
        try {
          const plan = await planning;
          if (stage.actions)
            expect(
              Object.fromEntries(plan.steps.filter((s) => s.action !== 'noop').map((s) => [s.address, s.action])),
              `stage ${i}: actions`,
            ).toEqual(stage.actions);
          cloud.calls.length = 0;
          await engine.apply(plan);
        } catch (e) {
          error = e;
        }
        if (stage.throws) expect(error, `stage ${i}: throws`).toBeInstanceOf(stage.throws);
        else if (error) throw error instanceof Error ? error : new Error('a stage threw a non-Error', { cause: error });
        if (stage.calls)
          expect(
            cloud.calls.filter((c) => c.op !== 'read').map((c) => `${c.op} ${c.name}`),
            `stage ${i}: calls`,
          ).toEqual(stage.calls);
        await stage.check?.(world);
      }
    });
  }

  it('honours parallelism (Terraform -parallelism, Pulumi --parallel)', async () => {
    const cloud = new TestCloud();
    cloud.latencyMs = 15;
    const engine = new Engine({ providers: [testProvider(cloud)], state: new MemoryStateStore(), parallelism: 3 });
    await engine.apply(
      await engine.plan(
        Array.from({ length: 9 }, (_, i) => thing(`t${i}`)),
        { refresh: false },
      ),
    );
    expect(cloud.maxInflight).toBe(3);
    expect(cloud.count('thing')).toBe(9);
  });
});
