// The shared StateStore suite, run by each store's own test file (memory, file, PostgreSQL), on
// Terraform's TestBackendStates / TestBackendStateLocks pattern: two instances on one location.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LockInfo, StateStore } from '../../src/state/store.js';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import type { ResourceState } from '../../src/state/model.js';
import type { StateChange } from '../../src/state/patch.js';
import {
  clearPending,
  markPending,
  recordDelete,
  recordOutputs,
  recordRename,
  recordResource,
} from '../../src/state/ops.js';
import { SecretsPassphraseError, StateConflictError, StateLockedError } from '../../src/engine/errors.js';

export type StoreOptions = { readonly secretsPassphrase?: string };

export type StoreHarness = {
  /** A new store instance on the harness's one location. */
  open(options?: StoreOptions): StateStore;
  /** Secrets are encrypted at rest with a passphrase (the memory store keeps them in clear). */
  readonly encryptsSecrets: boolean;
  /** Everything the location stores, as text, to look for secrets in clear. */
  rawText?(): Promise<string>;
  /** Leaves a half-written record at the end, as a crash in the middle of a write does; returns its byte length and serial. */
  appendTornRecord?(): Promise<{ readonly bytes: number; readonly serial: number }>;
  /** Leaves the lock as a holder that died without releasing it leaves it. */
  leaveDeadLock?(holder: LockInfo): Promise<void>;
  cleanup?(): Promise<void>;
};

export function resource(name: string, extra: Partial<ResourceState> = {}): ResourceState {
  return {
    type: 'test:index/thing:Thing',
    name,
    provider: 'test',
    id: `id-${name}`,
    inputs: { size: 1 },
    outputs: { address: `${name}.example` },
    dependencies: [],
    options: {},
    secrets: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

export function describeStateStore(name: string, makeStore: () => Promise<StoreHarness>): void {
  describe(`${name} (StateStore conformance)`, () => {
    let harness: StoreHarness;
    let opened: StateStore[];
    const open = (options?: StoreOptions): StateStore => {
      const s = harness.open(options);
      opened.push(s);
      return s;
    };
    /** Commits in order without awaiting each, as the engine does, then awaits them all. */
    const commitAll = (store: StateStore, changes: StateChange[]) => Promise.all(changes.map((c) => store.commit(c)));

    beforeEach(async () => {
      vi.stubEnv('CONVERGE_SECRETS_PASSPHRASE', '');
      harness = await makeStore();
      opened = [];
    });
    afterEach(async () => {
      for (const s of opened) await s.close().catch(() => {});
      await harness.cleanup?.();
      vi.unstubAllEnvs();
    });

    it('reads an empty state with a lineage and serial 0', async () => {
      const s = await open().read();
      expect(s.serial).toBe(0);
      expect(typeof s.lineage).toBe('string');
      expect(s.lineage.length).toBeGreaterThan(0);
      expect(s.resources).toEqual({});
      expect(s.pending).toEqual({});
    });

    it('reads back a committed resource, from the same and from another instance', async () => {
      const a = open();
      const s0 = await a.read();
      await a.commit(recordResource(s0.serial, resource('web', { inputs: { size: 2, tags: ['a', 'b'] } })));
      const fromA = await a.read();
      const fromB = await open().read();
      for (const s of [fromA, fromB]) {
        expect(s.lineage).toBe(s0.lineage);
        expect(s.serial).toBe(1);
        expect(s.resources.web).toEqual(resource('web', { inputs: { size: 2, tags: ['a', 'b'] } }));
      }
    });

    it('raises the serial by one on every commit', async () => {
      const a = open();
      let serial = (await a.read()).serial;
      for (const n of ['a', 'b', 'c']) {
        await a.commit(recordResource(serial, resource(n)));
        const s = await a.read();
        expect(s.serial).toBe(serial + 1);
        serial = s.serial;
      }
      expect(Object.keys((await open().read()).resources).sort()).toEqual(['a', 'b', 'c']);
    });

    it('refuses a commit whose base serial is stale with StateConflictError', async () => {
      const a = open();
      await a.read();
      await a.commit(recordResource(0, resource('one')));
      const err = await a.commit(recordResource(0, resource('two'))).catch((e) => e);
      expect(err).toBeInstanceOf(StateConflictError);
      expect(err).toMatchObject({ code: 'CONVERGE_STATE_CONFLICT', expectedSerial: 0, actualSerial: 1 });
      expect(Object.keys((await a.read()).resources)).toEqual(['one']);
    });

    it('refuses a stale commit from a second instance that another instance got ahead of', async () => {
      const a = open();
      const b = open();
      await a.read();
      const seenByB = await b.read();
      await a.commit(recordResource(0, resource('from-a')));
      const err = await b.commit(recordResource(seenByB.serial, resource('from-b'))).catch((e) => e);
      expect(err).toBeInstanceOf(StateConflictError);
      const s = await open().read();
      expect(s.serial).toBe(1);
      expect(Object.keys(s.resources)).toEqual(['from-a']);
    });

    it('keeps commits issued without awaiting in call order', async () => {
      const a = open();
      await a.read();
      const changes = Array.from({ length: 60 }, (_, i) => recordResource(i, resource(`r${i}`, { inputs: { i } })));
      await commitAll(a, changes);
      const s = await open().read();
      expect(s.serial).toBe(60);
      expect(Object.keys(s.resources)).toHaveLength(60);
      expect(s.resources.r59.inputs).toEqual({ i: 59 });
    });

    it('gives a second instance StateLockedError naming the holder, at once', async () => {
      const a = open();
      const b = open();
      const lock = await a.lock({ operation: 'apply' });
      expect(lock.info).toMatchObject({ pid: process.pid, operation: 'apply' });
      const started = Date.now();
      const err = await b.lock({ operation: 'refresh' }).catch((e) => e);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(err).toBeInstanceOf(StateLockedError);
      expect(err).toMatchObject({
        code: 'CONVERGE_STATE_LOCKED',
        pid: process.pid,
        operation: 'apply',
        since: lock.info.since,
        lockId: lock.info.id,
      });
      expect(err.host).toBe(lock.info.host);
      await lock.release();
      const again = await b.lock({ operation: 'refresh' });
      await again.release();
    });

    it('lets a waiting lock request through once the holder releases, within its timeout', async () => {
      const a = open();
      const b = open();
      const lock = await a.lock({ operation: 'apply' });
      setTimeout(() => void lock.release(), 30);
      const got = await b.lock({ operation: 'destroy', timeoutMs: 5_000 });
      expect(got.info.operation).toBe('destroy');
      const err = await a.lock({ operation: 'apply', timeoutMs: 40 }).catch((e) => e);
      expect(err).toBeInstanceOf(StateLockedError);
      expect(err.operation).toBe('destroy');
      await got.release();
    });

    it('persists pending operations and their clearing', async () => {
      const a = open();
      await a.read();
      const { change, pending } = markPending(0, {
        kind: 'create',
        type: 'test:index/thing:Thing',
        name: 'db',
        provider: 'test',
        inputs: { size: 3 },
        secrets: [],
      });
      await a.commit(change);
      const seen = await open().read();
      expect(seen.pending[pending.id]).toEqual(pending);
      await a.commit(recordResource(1, resource('db'), pending.id));
      const after = await open().read();
      expect(after.pending).toEqual({});
      expect(after.resources.db.id).toBe('id-db');
      const again = markPending(2, {
        kind: 'delete',
        type: 'test:index/thing:Thing',
        name: 'db',
        provider: 'test',
        inputs: {},
        resourceId: 'id-db',
        secrets: [],
      });
      await commitAll(a, [again.change, clearPending(3, again.pending.id)]);
      expect((await open().read()).pending).toEqual({});
    });

    it('replays every kind of change on a fresh instance after reopening', async () => {
      const a = open();
      const lineage = (await a.read()).lineage;
      await commitAll(a, [
        recordResource(0, resource('a')),
        recordResource(1, resource('b')),
        recordResource(2, resource('a', { outputs: { address: 'new' } })),
        recordDelete(3, 'b'),
        recordRename(4, resource('c'), 'a'),
      ]);
      const s = await open().read();
      expect(s).toMatchObject({ lineage, serial: 5 });
      expect(Object.keys(s.resources)).toEqual(['c']);
      expect(s.resources.c).toEqual(resource('c'));
    });

    it('keeps every acknowledged commit when the writer dies before compacting', async () => {
      const a = open();
      await a.read();
      await commitAll(a, [recordResource(0, resource('x')), recordResource(1, resource('y'))]);
      // no compact(), no close(): the process "died"; a new instance picks up from what is stored
      const b = open();
      expect((await b.read()).serial).toBe(2);
      await b.commit(recordResource(2, resource('z')));
      await b.compact();
      const s = await open().read();
      expect(s.serial).toBe(3);
      expect(Object.keys(s.resources).sort()).toEqual(['x', 'y', 'z']);
    });

    it('compacts without changing what is read, and write() replaces the whole state', async () => {
      const a = open();
      await a.read();
      await commitAll(a, [recordResource(0, resource('x')), recordResource(1, resource('y'))]);
      await a.compact();
      await a.compact();
      const s = await open().read();
      expect(s.serial).toBe(2);
      const replaced = { ...s, serial: 3, resources: { only: resource('only') } };
      const stale = await a.write(replaced, 1).catch((e) => e);
      expect(stale).toBeInstanceOf(StateConflictError);
      await a.write(replaced, 2);
      const t = await open().read();
      expect(t.serial).toBe(3);
      expect(Object.keys(t.resources)).toEqual(['only']);
    });

    it('ignores a torn last record after a crash and keeps committing', async ({ skip }) => {
      if (!harness.appendTornRecord) skip();
      const a = open();
      await a.read();
      await commitAll(a, [recordResource(0, resource('x')), recordResource(1, resource('y'))]);
      await harness.appendTornRecord!();
      const b = open();
      const s = await b.read();
      expect(s.serial).toBe(2);
      await b.commit(recordResource(2, resource('z')));
      const t = await open().read();
      expect(t.serial).toBe(3);
      expect(Object.keys(t.resources).sort()).toEqual(['x', 'y', 'z']);
    });

    it('warns that it dropped a torn tail, naming its size and the record it started, once', async ({ skip }) => {
      if (!harness.appendTornRecord) skip();
      const a = open();
      await a.read();
      await commitAll(a, [recordResource(0, resource('x')), recordResource(1, resource('y'))]);
      const torn = await harness.appendTornRecord!();
      const b = open();
      await b.read();
      const warnings = b.takeWarnings?.() ?? [];
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(` ${torn.bytes} bytes `);
      expect(warnings[0]).toContain(`serial ${torn.serial}`);
      await b.read();
      await b.commit(recordResource(2, resource('z')));
      expect(b.takeWarnings?.() ?? []).toEqual([]);
      const c = open();
      await c.read();
      expect(c.takeWarnings?.() ?? []).toEqual([]);
    });

    it('warns when it takes over a lock whose holder died without releasing it, naming that holder', async ({
      skip,
    }) => {
      if (!harness.leaveDeadLock) skip();
      const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
      const dead: LockInfo = {
        id: 'left-by-a-killed-run',
        pid: deadPid,
        host: hostname(),
        operation: 'destroy',
        since: '2026-01-01T00:00:00.000Z',
      };
      await harness.leaveDeadLock!(dead);
      const lock = await open().lock({ operation: 'apply' });
      expect(lock.info.operation).toBe('apply');
      expect(lock.warnings).toHaveLength(1);
      expect(lock.warnings[0]).toContain(`pid ${deadPid} `);
      expect(lock.warnings[0]).toContain(' destroy ');
      await lock.release();
      const next = await open().lock({ operation: 'apply' });
      expect(next.warnings).toEqual([]);
      await next.release();
    });

    describe('stack outputs', () => {
      const apiUrl = { name: 'apiUrl', value: 'http://10.0.0.7', secret: false };
      const dbPassword = { name: 'dbPassword', value: 'out-secret-93', secret: true };

      it('records outputs with the serial and reads them back alone, without the lock', async () => {
        const a = open();
        await a.read();
        const empty = await (a.readOutputs ? a.readOutputs() : undefined);
        if (empty) expect(empty).toMatchObject({ exists: false, serial: 0, outputs: {} });
        await commitAll(a, [recordResource(0, resource('web')), recordOutputs(1, [apiUrl], [])]);
        await a.compact();
        const lock = await a.lock({ operation: 'apply' }); // another stack reads while this one is locked
        try {
          const b = open();
          const snap = await b.readOutputs!();
          expect(snap).toMatchObject({ exists: true, serial: 2, outputs: { apiUrl } });
          expect(snap.lineage).toBe((await b.read()).lineage);
          expect((await b.read()).outputs).toEqual({ apiUrl });
        } finally {
          await lock.release();
        }
        // a change and a removal in one commit, read before and after the journal is folded
        await a.commit(
          recordOutputs(
            2,
            [
              { ...apiUrl, value: 'http://10.0.0.8' },
              { name: 'n', value: 3, secret: false },
            ],
            [],
          ),
        );
        expect((await open().readOutputs!()).outputs.apiUrl?.value).toBe('http://10.0.0.8');
        await a.commit(recordOutputs(3, [], ['apiUrl']));
        const after = await open().readOutputs!();
        expect(after.serial).toBe(4);
        expect(after.outputs).toEqual({ n: { name: 'n', value: 3, secret: false } });
        await a.compact();
        expect((await open().readOutputs!()).outputs).toEqual({ n: { name: 'n', value: 3, secret: false } });
        expect((await open().read()).resources.web).toEqual(resource('web'));
      });

      it('seals a secret output at rest and opens it with the passphrase only', async ({ skip }) => {
        if (!harness.encryptsSecrets) skip();
        const a = open({ secretsPassphrase: 'correct horse' });
        await a.read();
        await commitAll(a, [recordOutputs(0, [apiUrl, dbPassword], [])]);
        if (harness.rawText) {
          const raw = await harness.rawText();
          expect(raw).not.toContain('out-secret-93');
          expect(raw).toContain('http://10.0.0.7');
        }
        await a.compact();
        if (harness.rawText) expect(await harness.rawText()).not.toContain('out-secret-93');
        const snap = await open({ secretsPassphrase: 'correct horse' }).readOutputs!();
        expect(snap.outputs).toEqual({ apiUrl, dbPassword });
        const missing = await open().readOutputs!().catch((e) => e);
        expect(missing).toBeInstanceOf(SecretsPassphraseError);
      });
    });

    describe('secrets at rest', () => {
      const secretRes = () =>
        resource('cluster', {
          inputs: { size: 1, password: 'hunter2-pw' },
          outputs: { kubeconfig: 'apiVersion: v1 # kube-secret-42', address: '10.0.0.1' },
          secrets: ['inputs.password', 'outputs.kubeconfig'],
        });

      it('stores secret values so that only the same passphrase reads them back', async ({ skip }) => {
        if (!harness.encryptsSecrets) skip();
        const a = open({ secretsPassphrase: 'correct horse' });
        await a.read();
        const pend = markPending(1, {
          kind: 'create',
          type: 't',
          name: 'p',
          provider: 'test',
          inputs: { token: 'pending-tok-7' },
          secrets: ['inputs.token'],
        });
        await commitAll(a, [recordResource(0, secretRes()), pend.change]);
        if (harness.rawText) {
          const raw = await harness.rawText();
          expect(raw).toContain('"@converge":"encrypted"');
          for (const secret of ['hunter2-pw', 'kube-secret-42', 'pending-tok-7']) expect(raw).not.toContain(secret);
          expect(raw).toContain('10.0.0.1');
        }
        const s = await open({ secretsPassphrase: 'correct horse' }).read();
        expect(s.resources.cluster).toEqual(secretRes());
        expect(s.pending[pend.pending.id].inputs).toEqual({ token: 'pending-tok-7' });
        const wrong = await open({ secretsPassphrase: 'wrong horse' })
          .read()
          .catch((e) => e);
        expect(wrong).toBeInstanceOf(SecretsPassphraseError);
        expect(wrong.reason).toBe('wrong');
        expect(String(wrong.message)).not.toContain('correct horse');
        const missing = await open()
          .read()
          .catch((e) => e);
        expect(missing).toBeInstanceOf(SecretsPassphraseError);
        expect(missing.reason).toBe('missing');
        await a.compact();
        if (harness.rawText) expect(await harness.rawText()).not.toContain('hunter2-pw');
        expect((await open({ secretsPassphrase: 'correct horse' }).read()).resources.cluster).toEqual(secretRes());
      });

      it('stores secrets in clear without a passphrase, warning once', async ({ skip }) => {
        if (!harness.encryptsSecrets) skip();
        const a = open();
        await a.read();
        await a.commit(recordResource(0, resource('plain')));
        expect(a.takeWarnings?.() ?? []).toEqual([]);
        await a.commit(recordResource(1, secretRes()));
        const first = a.takeWarnings!();
        expect(first).toHaveLength(1);
        expect(first[0]).toContain('CONVERGE_SECRETS_PASSPHRASE');
        expect(first[0]).not.toContain('hunter2-pw');
        await a.commit(recordResource(2, { ...secretRes(), name: 'cluster2' }));
        expect(a.takeWarnings!()).toEqual([]);
        expect((await open().read()).resources.cluster).toEqual(secretRes());
      });
    });
  });
}
