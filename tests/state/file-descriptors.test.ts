// A FileStateStore holds its journal open only while an operation writes it: a long-running process
// that makes a store per run and never closes it (no README example does) leaks no descriptor, and
// leaves no FileHandle to the garbage collector (Node's "Closing file descriptor N on garbage
// collection", DEP0137; the suite-wide guard in tests/setup fails on that warning).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine, FileStateStore } from 'converge';
import { recordResource } from '../../src/state/ops.js';
import { resource } from '../conformance/state-store.js';
import { TestCloud, testProvider } from '../helpers/test-provider.js';
import { thing } from '../helpers/builders.js';
import { openFiles } from '../helpers/open-files.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-fd-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Paths under `d` this process has open (tests/helpers/open-files.ts: read in the same turn). */
const openUnder = (d: string): string[] =>
  [...openFiles()!].map((f) => f.slice(f.indexOf(':') + 1)).filter((path) => path.startsWith(d));

describe.skipIf(process.platform !== 'linux')('FileStateStore file descriptors', () => {
  it('a store per run, never closed: no descriptor stays open after its operations', async () => {
    const before = (await readdir('/proc/self/fd')).length;
    for (let i = 0; i < 50; i++) {
      const path = join(dir, `run-${i}`, 'state.json');
      const store = new FileStateStore(path, { secretsPassphrase: '' });
      const lock = await store.lock({ operation: 'apply' });
      await store.read();
      await Promise.all([
        store.commit(recordResource(0, resource('a'))),
        store.commit(recordResource(1, resource('b'))),
      ]);
      await store.read();
      await store.compact();
      await lock.release();
      await store.commit(recordResource(2, resource('c')));
      expect(openUnder(join(dir, `run-${i}`))).toEqual([]);
    }
    expect(openUnder(dir)).toEqual([]);
    // other descriptors (the worker's pipes) may come and go, but not one per store
    expect((await readdir('/proc/self/fd')).length - before).toBeLessThan(10);
  });

  it('an engine planning and applying on a store per run leaves no descriptor behind', async () => {
    for (let i = 0; i < 20; i++) {
      const path = join(dir, `engine-${i}`, 'state.json');
      const engine = new Engine({
        providers: [testProvider(new TestCloud())],
        state: new FileStateStore(path, { secretsPassphrase: '' }),
      });
      await engine.apply(await engine.plan([thing('a'), thing('b', { size: 'large' })]));
      await engine.apply(await engine.plan([thing('a')]));
    }
    expect(openUnder(dir)).toEqual([]);
  });
});
