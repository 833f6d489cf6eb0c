// Mock providers: the real providers' resource types (schemas, defaults, validation, `check`,
// replaceOn and replaceWhen rules, secrets, keyed lists) with every operation answered in memory, as
// terraform test's mock_provider does. create fills the outputs with typed, deterministic values
// (sample.ts), read answers what was made (or the prior), update keeps the inputs it was given,
// delete forgets. Nothing is sent anywhere; nothing is shared between two `mockProviders()` calls.
import type { z } from 'zod';
import {
  defineProvider,
  type AnyLookup,
  type AnyResource,
  type Prior,
  type Provider,
  type ReadResult,
} from '../engine/provider/define.js';
import type { OperationContext } from '../engine/provider/context.js';
import type { TypedDecl, LookupCall } from '../engine/decl/helper.js';
import { LookupError } from '../engine/errors.js';
import { defOf, objectView, shapeSchema } from '../engine/validate/zod-def.js';
import { generatorOf, mockId, nounOf, Seed } from './sample.js';

/** One object a mock provider holds: what was created (or updated) under an address. */
export type MockObject = {
  /** The resource's address in the stack. */
  readonly address: string;
  /** Its type token. */
  readonly type: string;
  /** The id the mock gave it. */
  readonly id: string;
  /** The inputs it was last created or updated with (secrets in clear). */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Its outputs. */
  readonly outputs: Readonly<Record<string, unknown>>;
};

/** One call a mock provider answered. */
export type MockCall = {
  /** `create`, `read`, `update`, `delete` or `lookup`. */
  readonly operation: 'create' | 'read' | 'update' | 'delete' | 'lookup';
  /** The resource's address, or the lookup's token. */
  readonly address: string;
};

/** Something that names a resource: its address, or the declaration a typed helper made. */
export type AddressOf = string | { readonly name: string };

/**
 * What {@link mockProviders} returns: the mock providers (for `new Engine({ providers })` or the
 * `providers` option of `planChange`), and the knobs a test turns.
 */
export type Mocks = {
  /** The mock providers, one per provider given, with the same names and configurations. */
  readonly providers: readonly Provider<unknown>[];
  /** The objects the mocks hold now, by address. */
  readonly objects: ReadonlyMap<string, MockObject>;
  /** Every call answered, in order. */
  readonly calls: readonly MockCall[];
  /**
   * Fixes some outputs of one resource (terraform test's `override_resource`): its creates, updates
   * and reads answer these values over the generated ones.
   */
  override<D extends AddressOf>(target: D, outputs: OutputsOf<D>): Mocks;
  /**
   * Changes an object outside converge: the next refresh reads these inputs over the recorded ones
   * (drift), or, with `null`, finds the object gone.
   */
  drift(target: AddressOf, inputs: Readonly<Record<string, unknown>> | null): Mocks;
  /** What a lookup answers (by its token, or a call a typed lookup helper made); unanswered lookups find nothing. */
  answer<R>(lookup: string | LookupCall<z.ZodType, R>, result: R): Mocks;
};

/** The outputs `override()` takes: typed from a typed helper's declaration, else any. */
export type OutputsOf<D> =
  D extends TypedDecl<infer _I, infer O> ? { readonly [K in keyof O]?: O[K] } : Readonly<Record<string, unknown>>;

/** Internal: whether a refresh through these mocks can find anything (a drift was set). */
export const mocksDrift: unique symbol = Symbol('converge.mocksDrift');

const addressOf = (t: AddressOf): string => (typeof t === 'string' ? t : t.name);

/** The shared memory of one set of mock providers. */
class MockWorld {
  readonly byId = new Map<string, MockObject>();
  readonly objects = new Map<string, MockObject>();
  readonly calls: MockCall[] = [];
  readonly overrides = new Map<string, Readonly<Record<string, unknown>>>();
  readonly drifts = new Map<string, Readonly<Record<string, unknown>> | null>();
  readonly answers = new Map<string, unknown>();
  /** How many objects each address has had: a replacement's new object gets a new id. */
  readonly generations = new Map<string, number>();

  keep(o: MockObject): void {
    this.byId.set(o.id, o);
    this.objects.set(o.address, o);
  }

  forget(id: string): void {
    const o = this.byId.get(id);
    this.byId.delete(id);
    if (o && this.objects.get(o.address)?.id === id) this.objects.delete(o.address);
  }
}

/**
 * Each resource definition's outputs maker, made on first use: a memo of a pure function of the
 * (frozen) definition, so a suite that calls mockProviders() per test reads each schema once.
 */
const makers = new WeakMap<AnyResource, OutputsMaker>();

/** Makes the outputs of a new object: (seed, id, inputs, override) → outputs. */
type OutputsMaker = (
  seed: Seed,
  id: string,
  inputs: Record<string, unknown>,
  override: Readonly<Record<string, unknown>> | undefined,
) => Record<string, unknown>;

/** A cheap test that a value fits a field (its base type), with zod's own parse for anything else. */
function fitsField(field: z.ZodType): (v: unknown) => boolean {
  switch (defOf(shapeSchema(field))?.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'array':
      return Array.isArray;
    case 'object':
    case 'record':
      return (v) => !!v && typeof v === 'object' && !Array.isArray(v);
    default:
      return (v) => field.safeParse(v).success;
  }
}

/**
 * How a resource type's outputs are made, read once from its schema: its id where the schema
 * names it (`id`, `<noun>Id`), an input of the same name and type where there is one, else a
 * generated value; then the test's overrides.
 */
function outputsMaker(def: AnyResource): OutputsMaker {
  const known = makers.get(def);
  if (known) return known;
  const shape = objectView(def.outputs as z.ZodType)?.shape ?? {};
  const idKey = `${nounOf(def.token)}Id`;
  const fields = Object.entries(shape).map(([k, field]) => {
    const fits = fitsField(field);
    return {
      k,
      isId: (k === 'id' || k === idKey) && fits('x'),
      fits,
      optional: defOf(field)?.type === 'optional',
      make: generatorOf(field, k),
    };
  });
  const maker: OutputsMaker = (seed, id, inputs, override) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const given = inputs[f.k];
      if (f.isId) out[f.k] = id;
      else if (given !== undefined && f.fits(given)) out[f.k] = given;
      else if (!f.optional) out[f.k] = f.make(seed);
    }
    return override ? Object.assign(out, override) : out;
  };
  makers.set(def, maker);
  return maker;
}

/** Every resource definition a mock provider holds: planChange records their creates without an apply. */
const mockDefs = new WeakSet<AnyResource>();

/** Whether `def` is a resource of a mock provider (its operations answer in memory, and never fail). */
export const isMockResource = (def: AnyResource): boolean => mockDefs.has(def);

function mockResource(def: AnyResource, provider: string, world: MockWorld): AnyResource {
  let outputKeys: string[] | undefined;
  const create = async (ctx: OperationContext, inputs: Record<string, unknown>) => {
    // An index store, not push(), that the JIT keeps optimized (see engine/validate/validate.ts).
    world.calls[world.calls.length] = { operation: 'create', address: ctx.address };
    const n = world.generations.get(ctx.address) ?? 0;
    world.generations.set(ctx.address, n + 1);
    const seed = new Seed(`${provider}:${def.token}:${ctx.address}${n ? `#${n}` : ''}`);
    const id = mockId(provider, def.token, seed, inputs);
    const outputs = outputsMaker(def)(seed, id, inputs, world.overrides.get(ctx.address));
    world.keep({ address: ctx.address, type: def.token, id, inputs, outputs });
    return { id, outputs };
  };
  const readOne = (address: string, id: string, prior: Prior): ReadResult | null => {
    const drift = world.drifts.get(address);
    if (drift === null) return null;
    const known = world.byId.get(id);
    const inputs = drift ? { ...(known?.inputs ?? prior.inputs), ...drift } : (known?.inputs ?? prior.inputs);
    const override = world.overrides.get(address);
    const outputs = override
      ? { ...(known?.outputs ?? prior.outputs), ...override }
      : (known?.outputs ?? prior.outputs);
    return { inputs, outputs };
  };
  const mock: AnyResource = {
    ...def,
    create,
    read: async (ctx, id, prior) => {
      world.calls.push({ operation: 'read', address: ctx.address });
      return readOne(ctx.address, id, prior);
    },
    readMany: undefined,
    update: def.update
      ? async (ctx, id, olds, news) => {
          world.calls.push({ operation: 'update', address: ctx.address });
          const override = world.overrides.get(ctx.address);
          const outputs: Record<string, unknown> = { ...olds.outputs };
          outputKeys ??= Object.keys(objectView(def.outputs as z.ZodType)?.shape ?? {});
          for (const k of outputKeys) if (news[k] !== undefined) outputs[k] = news[k];
          Object.assign(outputs, override);
          world.drifts.delete(ctx.address);
          world.keep({ address: ctx.address, type: def.token, id, inputs: news, outputs });
          return { outputs };
        }
      : undefined,
    delete: async (ctx, id) => {
      world.calls.push({ operation: 'delete', address: ctx.address });
      world.forget(id);
      if (world.drifts.get(ctx.address) === null) world.drifts.delete(ctx.address);
    },
    existing: undefined,
    // A mock create always knows its outcome: find is asked only after a crash, and finds nothing.
    find: async () => null,
  };
  mockDefs.add(mock);
  return mock;
}

function mockLookup(def: AnyLookup, world: MockWorld): AnyLookup {
  return {
    ...def,
    run: async () => {
      world.calls.push({ operation: 'lookup', address: def.token });
      if (!world.answers.has(def.token))
        throw new LookupError(def.token, 'not_found', [], 'the arguments (no mock answer)');
      return world.answers.get(def.token);
    },
  };
}

/**
 * Mock providers made from real ones: the same names, configurations, resource types and lookups,
 * with every operation answered in memory (no network, no credentials used). Each `create` makes a
 * deterministic id in the vendor's shape and typed outputs derived from the resource's address, so
 * two runs give the same values; `override()` fixes chosen outputs, `drift()` changes an object
 * outside converge, `answer()` says what a lookup returns.
 *
 * @example
 * ```ts
 * import { Engine, MemoryStateStore } from 'converge';
 * import { provb } from 'converge/providers/b';
 * import { mockProviders } from 'converge/testing';
 *
 * const mocks = mockProviders(provb({ token: 'unused', region: 'LON1' }));
 * const net = provb.network('net', { label: 'app' });
 * mocks.override(net, { networkId: 'net-fixed' });
 * const engine = new Engine({ providers: mocks.providers, state: new MemoryStateStore() });
 * const applied = await engine.apply(await engine.plan([net]));
 * const networkId = applied.outputs.net?.networkId; // 'net-fixed'
 * ```
 */
export function mockProviders(...providers: readonly Provider<unknown>[]): Mocks {
  if (!providers.length) throw new TypeError('Expected at least one provider to mock');
  const world = new MockWorld();
  const mocked = providers.map((p) => {
    if (!p || typeof p.name !== 'string' || !(p.resources instanceof Map))
      throw new TypeError('Expected `providers` to be provider instances, e.g. provb({ token, region })');
    return defineProvider<unknown>({
      name: p.name,
      config: p.config,
      resources: [...p.resources.values()].map((r) => mockResource(r, p.name, world)),
      lookups: [...p.lookups.values()].map((l) => mockLookup(l, world)),
      terraformConfig: () => p.terraformConfig(),
      ...(p.planConfig ? { planConfig: () => p.planConfig!() } : {}),
    });
  });
  const mocks: Mocks = {
    providers: mocked,
    objects: world.objects,
    calls: world.calls,
    override(target: AddressOf, outputs: Readonly<Record<string, unknown>>) {
      world.overrides.set(addressOf(target), { ...world.overrides.get(addressOf(target)), ...outputs });
      return mocks;
    },
    drift(target, inputs) {
      world.drifts.set(addressOf(target), inputs && { ...inputs });
      return mocks;
    },
    answer(lookup, result) {
      world.answers.set(typeof lookup === 'string' ? lookup : lookup.token, result);
      return mocks;
    },
  };
  Object.defineProperty(mocks, mocksDrift, { value: () => world.drifts.size > 0, enumerable: false });
  return Object.freeze(mocks);
}
