// A small provider over an in-memory "cloud", written with the public provider interface exactly as
// a user would write their own (see README, "Writing a provider"). Tests drive its knobs: latency,
// failures, calls seen.
import { z } from 'zod';
import {
  defineProvider,
  defineResource,
  defineLookup,
  LookupError,
  PartialCreateError,
  ProviderError,
  resourceHelper,
} from 'converge';

export type CloudObject = {
  id: string;
  kind: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  operationId?: string;
};

export class TestCloud {
  objects = new Map<string, CloudObject>();
  calls: { op: string; kind: string; id?: string; name?: string }[] = [];
  /** Calls in flight now, and the most seen at once. */
  inflight = 0;
  maxInflight = 0;
  /** name → create makes the object, then never returns until aborted (a create that times out after acting). */
  hangAfterCreate = new Set<string>();
  latencyMs = 0;
  /** name → how many times its next creates fail (status, unknown outcome). */
  failCreate = new Map<string, { times: number; status: number; afterCreate?: boolean }>();
  failUpdate = new Set<string>();
  hangCreate = new Set<string>();
  #next = 1;
  newId(kind: string): string {
    return `${kind}-${this.#next++}`;
  }
  async delay(signal: AbortSignal): Promise<void> {
    if (this.latencyMs <= 0) return;
    this.maxInflight = Math.max(this.maxInflight, ++this.inflight);
    try {
      await this.#sleep(signal);
    } finally {
      this.inflight--;
    }
  }
  async #sleep(signal: AbortSignal): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, this.latencyMs);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(t);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }
  count(kind: string): number {
    return [...this.objects.values()].filter((o) => o.kind === kind).length;
  }
}

const thingInputs = z
  .object({
    name: z.string().min(1),
    size: z.enum(['small', 'medium', 'large']).default('small'),
    region: z.string().default('eu'),
    password: z.string().optional(),
    tags: z.record(z.string(), z.string()).default({}),
    peer: z.string().optional(),
    ports: z.array(z.number().int().min(1).max(65535)).default([]),
  })
  .strict();

const thingOutputs = z.object({ address: z.string(), token: z.string(), status: z.string() });

export function testProvider(cloud: TestCloud, name = 'test') {
  const fail = (op: string, status: number, outcomeUnknown: boolean) =>
    new ProviderError({
      provider: name,
      operation: op,
      method: 'POST',
      pathTemplate: '/things',
      status,
      retryable: status >= 500 || status === 429,
      outcomeUnknown,
      detail: `injected ${status}`,
    });
  const thing = defineResource({
    token: `${name}:index/thing:Thing`,
    inputs: thingInputs,
    outputs: thingOutputs,
    replaceOn: ['region'],
    secrets: ['password', 'token'],
    computedOnUpdate: ['status'],
    check: (inputs) =>
      inputs.size === 'large' && inputs.region === 'tiny'
        ? [{ path: ['size'], message: "size 'large' is not offered in region 'tiny'" }]
        : [],
    warnings: (inputs) => (inputs.size === 'medium' ? ['size medium is deprecated'] : []),
    async create(ctx, inputs) {
      cloud.calls.push({ op: 'create', kind: 'thing', name: inputs.name });
      await cloud.delay(ctx.signal);
      if (cloud.hangAfterCreate.has(inputs.name)) {
        const id = cloud.newId('thing');
        cloud.objects.set(id, {
          id,
          kind: 'thing',
          inputs: { ...inputs },
          outputs: { address: `${inputs.name}.example`, token: `tok-${id}`, status: 'building' },
          operationId: ctx.operationId,
        });
        await new Promise((_r, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }),
        );
      }
      if (cloud.hangCreate.has(inputs.name))
        await new Promise((_r, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }),
        );
      const f = cloud.failCreate.get(inputs.name);
      if (f && f.times > 0) {
        f.times--;
        if (f.afterCreate) {
          const id = cloud.newId('thing');
          const outputs = { address: `${inputs.name}.example`, token: `tok-${id}`, status: 'ready' };
          cloud.objects.set(id, { id, kind: 'thing', inputs: { ...inputs }, outputs, operationId: ctx.operationId });
          // A refusal after the object exists is a partial create; a 5xx leaves the outcome unknown.
          if (f.status < 500)
            throw new PartialCreateError(ctx.address, id, outputs, { cause: fail('create thing', f.status, false) });
        }
        throw fail('create thing', f.status, f.status >= 500);
      }
      const id = cloud.newId('thing');
      const outputs = { address: `${inputs.name}.example`, token: `tok-${id}-secret`, status: 'ready' };
      cloud.objects.set(id, { id, kind: 'thing', inputs: { ...inputs }, outputs, operationId: ctx.operationId });
      return { id, outputs };
    },
    async read(ctx, id) {
      cloud.calls.push({ op: 'read', kind: 'thing', id });
      await cloud.delay(ctx.signal);
      const o = cloud.objects.get(id);
      return o ? { inputs: { ...o.inputs }, outputs: { ...o.outputs } } : null;
    },
    async update(ctx, id, _olds, news) {
      cloud.calls.push({ op: 'update', kind: 'thing', id, name: news.name });
      await cloud.delay(ctx.signal);
      if (cloud.failUpdate.has(news.name))
        throw new ProviderError({
          provider: name,
          operation: 'update thing',
          method: 'PUT',
          pathTemplate: '/things/{id}',
          status: 422,
          retryable: false,
          detail: `refused: password ${news.password ?? ''}`,
        });
      const o = cloud.objects.get(id);
      if (!o)
        throw new ProviderError({
          provider: name,
          operation: 'update thing',
          status: 404,
          notFound: true,
          retryable: false,
          detail: 'no such thing',
        });
      o.inputs = { ...news };
      o.outputs = { ...o.outputs, address: `${news.name}.example`, status: 'updated' };
      return { outputs: { ...o.outputs } };
    },
    async delete(ctx, id) {
      cloud.calls.push({
        op: 'delete',
        kind: 'thing',
        id,
        name: cloud.objects.get(id)?.inputs.name as string | undefined,
      });
      await cloud.delay(ctx.signal);
      if (!cloud.objects.delete(id))
        throw new ProviderError({
          provider: name,
          operation: 'delete thing',
          status: 404,
          notFound: true,
          retryable: false,
          detail: 'no such thing',
        });
    },
    // Exact, as with a vendor that tags objects at creation: only the object this create made.
    async find(_ctx, inputs, hint) {
      cloud.calls.push({ op: 'find', kind: 'thing', name: inputs.name });
      const o = [...cloud.objects.values()].find(
        (x) => x.kind === 'thing' && x.inputs.name === inputs.name && x.operationId === hint.operationId,
      );
      return o ? { id: o.id, outputs: { ...o.outputs } } : null;
    },
    importId: (id) => {
      if (!/^thing-\d+$/.test(id)) throw new Error(`import id '${id}' is not of the form thing-<n>`);
      return id;
    },
  });

  const blob = defineResource({
    token: `${name}:index/blob:Blob`,
    inputs: z.object({ content: z.string(), thingId: z.string().optional() }).strict(),
    outputs: z.object({ length: z.number() }),
    async create(ctx, inputs) {
      cloud.calls.push({ op: 'create', kind: 'blob', name: inputs.content });
      await cloud.delay(ctx.signal);
      const id = cloud.newId('blob');
      const outputs = { length: inputs.content.length };
      cloud.objects.set(id, { id, kind: 'blob', inputs: { ...inputs }, outputs });
      return { id, outputs };
    },
    async read(_ctx, id) {
      const o = cloud.objects.get(id);
      return o ? { inputs: { ...o.inputs }, outputs: { ...o.outputs } } : null;
    },
    async delete(_ctx, id) {
      cloud.calls.push({
        op: 'delete',
        kind: 'blob',
        id,
        name: cloud.objects.get(id)?.inputs.content as string | undefined,
      });
      cloud.objects.delete(id);
    },
  });

  // Ids the vendor hands out as numbers (as Gcore does): outputs.id is a number, the state's id a string.
  const numbered = defineResource({
    token: `${name}:index/numbered:Numbered`,
    inputs: z.object({ label: z.string(), parentId: z.number().int().optional() }).strict(),
    outputs: z.object({ id: z.number().int() }),
    async create(ctx, inputs) {
      cloud.calls.push({ op: 'create', kind: 'numbered', name: inputs.label });
      const id = cloud.newId('num');
      const outputs = { id: Number(id.slice(4)) };
      cloud.objects.set(id, { id, kind: 'numbered', inputs: { ...inputs }, outputs });
      return { id, outputs };
    },
    async read(_ctx, id) {
      const o = cloud.objects.get(id);
      return o ? { inputs: { ...o.inputs }, outputs: { ...o.outputs } } : null;
    },
    async delete(_ctx, id) {
      cloud.calls.push({
        op: 'delete',
        kind: 'numbered',
        id,
        name: cloud.objects.get(id)?.inputs.label as string | undefined,
      });
      cloud.objects.delete(id);
    },
  });

  const getThing = defineLookup({
    token: `${name}:index/getThing:getThing`,
    args: z.object({ name: z.string() }).strict(),
    async run(_ctx, args) {
      const matches = [...cloud.objects.values()].filter((o) => o.kind === 'thing' && o.inputs.name === args.name);
      if (matches.length === 0)
        throw new LookupError(`${name}:index/getThing:getThing`, 'not_found', [], `name '${args.name}'`);
      if (matches.length > 1)
        throw new LookupError(
          `${name}:index/getThing:getThing`,
          'ambiguous',
          matches.map((m) => m.id),
          `name '${args.name}'`,
        );
      return { id: matches[0]!.id, address: matches[0]!.outputs.address as string };
    },
  });

  const provider = defineProvider({ name, config: { cloud }, resources: [thing, blob, numbered], lookups: [getThing] });
  return { ...provider, thing: resourceHelper(thing), blob: resourceHelper(blob) };
}

export const THING = 'test:index/thing:Thing';
export const BLOB = 'test:index/blob:Blob';
export const NUMBERED = 'test:index/numbered:Numbered';
