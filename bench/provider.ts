// The benchmarks' provider: objects in a Map, an optional fixed latency, nothing else, so what is
// measured is the engine's own overhead.
import { z } from 'zod';
import { defineProvider, defineResource } from '../src/index.js';

export function benchProvider(latencyMs = 0) {
  let next = 0;
  const objects = new Map<string, Record<string, unknown>>();
  const wait = (signal: AbortSignal) =>
    latencyMs > 0
      ? new Promise<void>((resolve, reject) => {
          const onAbort = () => {
            clearTimeout(t);
            reject(signal.reason);
          };
          const t = setTimeout(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          }, latencyMs);
          signal.addEventListener('abort', onAbort, { once: true });
        })
      : Promise.resolve();
  const node = defineResource({
    token: 'bench:index/node:Node',
    inputs: z.object({
      label: z.string(),
      size: z.number().int().default(1),
      upstream: z.string().optional(),
      tags: z.array(z.string()).default([]),
    }),
    outputs: z.object({ address: z.string() }),
    async create(ctx, inputs) {
      await wait(ctx.signal);
      const id = `n${next++}`;
      objects.set(id, inputs);
      return { id, outputs: { address: `${inputs.label}.bench` } };
    },
    async read(_ctx, id, prior) {
      return objects.has(id) ? { inputs: prior.inputs, outputs: prior.outputs } : null;
    },
    async update(_ctx, _id, _olds, news) {
      return { outputs: { address: `${news.label}.bench` } };
    },
    async delete(_ctx, id) {
      objects.delete(id);
    },
  });
  return { provider: defineProvider({ name: 'bench', resources: [node] }), objects };
}

export const NODE = 'bench:index/node:Node';
