// A lookup declared in the stack (`provb.getInstance('db', { hostname: web.out('name') })`) is a
// node of the graph like a resource: the engine serves it through this adapter, a resource type
// whose "object" is the lookup's answer. Its create and update run the lookup (at apply, when the
// plan deferred it), its read runs it again (refresh: a changed answer shows as drift), its delete
// does nothing (a lookup makes nothing). Its record in the state holds the arguments as inputs and
// the answer as outputs, so references to it resolve like references to a resource.
import { z } from 'zod';
import type { AnyLookup, AnyResource, Prior } from './define.js';
import type { OperationContext } from './context.js';

const adapters = new WeakSet<object>();

/** Every adapter's outputs: any key (the answer's shape is the lookup's own; a typed helper's `out()` names its fields). One schema for all. */
const answerSchema = z.record(z.string(), z.unknown());

/** True for the resource type that serves a declared lookup. */
export function isLookupResource(def: AnyResource): boolean {
  return adapters.has(def);
}

/** The answer as outputs: an object as it is, anything else (a list, a string) under `value`. */
export function answerOutputs(answer: unknown): Record<string, unknown> {
  return answer && typeof answer === 'object' && !Array.isArray(answer)
    ? (answer as Record<string, unknown>)
    : { value: answer };
}

/** The resource type serving lookup `def` as a declared node. */
export function lookupResource(def: AnyLookup): AnyResource {
  const run = async (ctx: OperationContext<unknown>, args: unknown) =>
    answerOutputs(await def.run({ ...ctx, operation: 'lookup' }, args));
  const adapter: AnyResource = Object.freeze({
    token: def.token,
    inputs: def.args,
    outputs: answerSchema,
    ...(def.check ? { check: def.check } : {}),
    ...(def.warnings ? { warnings: def.warnings } : {}),
    create: async (ctx: OperationContext<unknown>, args: unknown) => ({ id: def.token, outputs: await run(ctx, args) }),
    // Read again with the recorded arguments; an answer that is gone now reads as gone (the plan reads it anew).
    read: async (ctx: OperationContext<unknown>, _id: string, prior: Prior) => {
      try {
        return { inputs: prior.inputs, outputs: await run(ctx, def.args.parse(prior.inputs)) };
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code === 'CONVERGE_LOOKUP') return null;
        throw error;
      }
    },
    delete: async () => {},
    // A read has nothing to find: an interrupted one is simply read again.
    find: async (ctx: OperationContext<unknown>, args: unknown) => {
      try {
        return { id: def.token, outputs: await run(ctx, args) };
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code === 'CONVERGE_LOOKUP') return null;
        throw error;
      }
    },
  });
  adapters.add(adapter);
  return adapter;
}
