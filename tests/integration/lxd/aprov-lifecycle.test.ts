// Issue 15 (provider A against the real daemon), items 1–3: an appending InstanceFile leaves the
// file's own mode alone, an instance that never gets its IPv4 is recorded tainted and replaced, ids
// follow renames and imports store the canonical id.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApplyError, PartialCreateError } from '../../../src/index.js';
import { prova } from '../../../src/providers/a/index.js';
import { cleanupAprov, describeLxd, lxc, lxcExecOut, realEngine, n } from './lxd-env.js';

describeLxd('prova instance lifecycle against a real LXD (issue 15)', (facts) => {
  let dir: string;
  beforeAll(() => {
    cleanupAprov();
    dir = mkdtempSync(join(tmpdir(), 'aprov-'));
  });
  afterAll(() => {
    cleanupAprov();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an InstanceFile appending to a file pushed with mode 0644 plans nothing the second time and keeps the file', async () => {
    const { engine, provider } = realEngine(facts, dir);
    const box = prova.instance('box', { name: n('aprov-file1'), image: facts.image });
    const log = prova.instanceFile('log', {
      instance: n('aprov-file1'),
      targetPath: '/root/log.txt',
      content: 'appended\n',
      append: true,
    });
    try {
      await engine.apply(await engine.plan([box]));
      const local = join(dir, 'log.txt');
      writeFileSync(local, 'first\n');
      lxc(['file', 'push', '--mode', '0644', local, `${n('aprov-file1')}/root/log.txt`]);
      await engine.apply(await engine.plan([box, log]));
      const again = await engine.plan([box, log], { refresh: true });
      expect(again.steps.map((s) => s.action)).toEqual(['noop', 'noop']);
      expect(await lxcExecOut(n('aprov-file1'), ['cat', '/root/log.txt'])).toBe('first\nappended\n');
      expect((await lxcExecOut(n('aprov-file1'), ['stat', '-c', '%a', '/root/log.txt'])).trim()).toBe('644');
    } finally {
      await engine.destroy();
      await provider.close();
    }
  });

  it('an instance that never gets its IPv4 within the create timeout is recorded tainted and replaced by the next plan', async () => {
    const { engine, store, provider } = realEngine(facts, dir);
    // No profile, only a root disk: no NIC, so no address ever comes.
    const lonely = prova.instance('lonely', {
      name: n('aprov-noip'),
      image: facts.image,
      profiles: [],
      timeouts: { create: '3s' },
      devices: [{ name: 'root', type: 'disk', properties: { path: '/', pool: 'default' } }],
    });
    try {
      const err = await engine.apply(await engine.plan([lonely])).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApplyError);
      const failed = (err as ApplyError).result.failed[0]!;
      expect(failed.error).toBeInstanceOf(PartialCreateError);
      expect((failed.error as PartialCreateError).cause).toMatchObject({ code: 'CONVERGE_TIMEOUT' });
      const recorded = (await store.read()).resources.lonely!;
      expect(recorded).toMatchObject({ id: `local:default/${n('aprov-noip')}`, tainted: true });
      expect(lxc(['list', n('aprov-noip'), '--format', 'csv', '-c', 'n']).trim()).toBe(n('aprov-noip'));
      const next = await engine.plan([lonely]);
      expect(next.steps[0]).toMatchObject({ action: 'replace', cause: 'tainted' });
    } finally {
      await engine.destroy();
      await provider.close();
    }
    expect(lxc(['list', n('aprov-noip'), '--format', 'csv', '-c', 'n']).trim()).toBe('');
  });

  it('the id follows a rename made with allowRestart (local:default/<new name>)', async () => {
    const { engine, store, provider } = realEngine(facts, dir);
    try {
      await engine.apply(await engine.plan([prova.instance('c1', { name: n('aprov-c1'), image: facts.image })]));
      expect((await store.read()).resources.c1!.id).toBe(`local:default/${n('aprov-c1')}`);
      const renamed = [prova.instance('c1', { name: n('aprov-c1r'), image: facts.image, allowRestart: true })];
      await engine.apply(await engine.plan(renamed));
      await engine.refresh();
      expect((await store.read()).resources.c1!.id).toBe(`local:default/${n('aprov-c1r')}`);
      expect((await engine.plan(renamed, { refresh: true })).hasChanges).toBe(false);
    } finally {
      await engine.destroy();
      await provider.close();
    }
    expect(lxc(['list', n('aprov-c1'), '--format', 'csv', '-c', 'n']).trim()).toBe('');
  });

  it('an InstanceDevice imported as "/c2/dev" is stored under the canonical id local:default/c2/dev', async () => {
    const { engine, store, provider } = realEngine(facts, dir);
    lxc(['init', facts.image, n('aprov-c2')]);
    try {
      lxc(['config', 'device', 'add', n('aprov-c2'), 'data', 'disk', 'source=/tmp', 'path=/mnt/data']);
      const decl = prova.instanceDevice('dev', {
        instanceName: n('aprov-c2'),
        name: 'data',
        type: 'disk',
        properties: { source: '/tmp', path: '/mnt/data' },
      });
      const imported = await engine.import(decl, `/${n('aprov-c2')}/data`);
      expect(imported.id).toBe(`local:default/${n('aprov-c2')}/data`);
      expect((await store.read()).resources.dev!.id).toBe(`local:default/${n('aprov-c2')}/data`);
      expect((await engine.plan([decl], { refresh: true })).hasChanges).toBe(false);
    } finally {
      await provider.close();
      lxc(['delete', '--force', n('aprov-c2')], true);
    }
  });
});
