// A provider whose objects are files in a shared directory (the "remote"), one per object, created
// with O_EXCL: a second create of the same object fails and is written to duplicates.log, so a test
// sees any object made twice. Used by the crash tests from the test process and child processes.
import { appendFileSync, existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { defineProvider, defineResource, ProviderError } from '../../../src/index.js';

export const OBJECT = 'disk:index/object:Object';

export function diskProvider(remote: string, opts: { createDelayMs?: () => number } = {}) {
  const file = (name: string) => join(remote, `${name}.obj`);
  const object = defineResource({
    token: OBJECT,
    inputs: z.object({ name: z.string().regex(/^[a-z0-9-]+$/) }).strict(),
    outputs: z.object({ path: z.string() }),
    async create(_ctx, inputs) {
      const ms = opts.createDelayMs?.() ?? 0;
      if (ms > 0) await new Promise((r) => setTimeout(r, ms));
      const id = `obj-${inputs.name}`;
      try {
        writeFileSync(file(inputs.name), JSON.stringify({ id, pid: process.pid }), { flag: 'wx' });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        appendFileSync(join(remote, 'duplicates.log'), `${inputs.name} by ${process.pid}\n`);
        throw new ProviderError({
          provider: 'disk',
          operation: 'create object',
          status: 409,
          retryable: false,
          detail: `${inputs.name} already exists`,
        });
      }
      return { id, outputs: { path: file(inputs.name) } };
    },
    async read(_ctx, id) {
      const name = id.replace(/^obj-/, '');
      return existsSync(file(name)) ? { inputs: { name }, outputs: { path: file(name) } } : null;
    },
    async delete(_ctx, id) {
      unlinkSync(file(id.replace(/^obj-/, '')));
    },
    async find(_ctx, inputs) {
      // the id follows from the name: a create killed mid-write leaves an empty file, still an object
      if (!existsSync(file(inputs.name))) return null;
      return { id: `obj-${inputs.name}`, outputs: { path: file(inputs.name) } };
    },
  });
  return defineProvider({ name: 'disk', resources: [object] });
}

export function decls(count: number) {
  return Array.from({ length: count }, (_, i) => ({ type: OBJECT, name: `o${i}`, inputs: { name: `o${i}` } }));
}
