// FileStateStore behaviour beyond the shared suite: file modes, atomic writes, the journal's group
// commit and damage handling, compaction after a crash, and the lock file.
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile, appendFile, copyFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileStateStore } from '../../src/state/stores/file.js';
import { recordResource } from '../../src/state/ops.js';
import { StateCorruptError, StateLockedError, SecretsPassphraseError } from '../../src/engine/errors.js';
import { resource } from '../conformance/state-store.js';

let dir: string;
let path: string;
const stores: FileStateStore[] = [];
function store(options?: ConstructorParameters<typeof FileStateStore>[1]): FileStateStore {
  const s = new FileStateStore(path, options);
  stores.push(s);
  return s;
}

beforeEach(async () => {
  vi.stubEnv('CONVERGE_SECRETS_PASSPHRASE', '');
  dir = await mkdtemp(join(tmpdir(), 'converge-fs-'));
  path = join(dir, 'deep', 'er', 'state.json');
});
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close().catch(() => {});
  await rm(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe('FileStateStore files', () => {
  it('creates the parent directory and writes state, journal and lock with mode 0600', async () => {
    const s = store();
    await s.read();
    const lock = await s.lock({ operation: 'apply' });
    expect((await stat(`${path}.lock`)).mode & 0o777).toBe(0o600);
    await s.commit(recordResource(0, resource('a')));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(`${path}.journal`)).mode & 0o777).toBe(0o600);
    await s.compact();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await lock.release();
    await expect(stat(`${path}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('leaves no temporary files behind and keeps the state file plain JSON', async () => {
    const s = store();
    await s.read();
    await Promise.all([0, 1, 2].map((i) => s.commit(recordResource(i, resource(`r${i}`)))));
    await s.compact();
    expect((await readdir(join(dir, 'deep', 'er'))).sort()).toEqual(['state.json', 'state.json.journal']);
    const json = JSON.parse(await readFile(path, 'utf8'));
    expect(json).toMatchObject({ version: 2, serial: 3 });
    expect(Object.keys(json.resources)).toEqual(['r0', 'r1', 'r2']);
    expect((await stat(`${path}.journal`)).size).toBe(0);
  });

  it('appends a small record per commit without rewriting the state file', async () => {
    const s = store();
    const base = await s.read();
    const big: Record<string, ReturnType<typeof resource>> = {};
    for (let i = 0; i < 2000; i++) big[`r${i}`] = resource(`r${i}`);
    await s.write({ ...base, serial: 1, resources: big }, 0);
    const before = await stat(path, { bigint: true });
    await s.commit(recordResource(1, resource('one-more')));
    const after = await stat(path, { bigint: true });
    expect(after.mtimeNs).toBe(before.mtimeNs);
    expect(after.ino).toBe(before.ino);
    expect((await stat(`${path}.journal`)).size).toBeLessThan(1000);
    expect(Object.keys((await store().read()).resources)).toHaveLength(2001);
  });
});

describe('FileStateStore journal', () => {
  it('groups commits that arrive while an fsync is in flight into one write', async () => {
    const flushes: number[] = [];
    const s = store({ onFlush: (n) => flushes.push(n) });
    await s.read();
    await Promise.all(Array.from({ length: 300 }, (_, i) => s.commit(recordResource(i, resource(`r${i}`)))));
    expect(flushes.reduce((a, b) => a + b, 0)).toBe(300);
    expect(flushes.length).toBeLessThan(300);
    expect(Math.max(...flushes)).toBeGreaterThan(1);
    expect((await store().read()).serial).toBe(300);
  });

  it('truncates a torn tail before appending, so it never becomes a corrupt middle record', async () => {
    const s = store();
    await s.read();
    await s.commit(recordResource(0, resource('a')));
    await appendFile(`${path}.journal`, '99 deadbeef {"baseSerial":1,"ser');
    const t = store();
    expect((await t.read()).serial).toBe(1);
    await t.commit(recordResource(1, resource('b')));
    const text = await readFile(`${path}.journal`, 'utf8');
    expect(text).not.toContain('deadbeef');
    expect((await store().read()).serial).toBe(2);
  });

  it('ignores a zero-filled tail left by a crash', async () => {
    const s = store();
    await s.read();
    await s.commit(recordResource(0, resource('a')));
    await appendFile(`${path}.journal`, Buffer.alloc(512));
    expect((await store().read()).serial).toBe(1);
  });

  it('reports a corrupt record followed by valid ones as StateCorruptError', async () => {
    const s = store();
    await s.read();
    for (let i = 0; i < 3; i++) await s.commit(recordResource(i, resource(`r${i}`)));
    const text = await readFile(`${path}.journal`, 'utf8');
    const lines = text.split('\n');
    lines[1] = lines[1].replace('"r1"', '"rX"');
    await writeFile(`${path}.journal`, lines.join('\n'));
    const err = await store()
      .read()
      .catch((e) => e);
    expect(err).toBeInstanceOf(StateCorruptError);
    expect(err.code).toBe('CONVERGE_STATE_CORRUPT');
  });

  it('reports a state file that is not JSON as StateCorruptError', async () => {
    const s = store();
    await s.read();
    await s.commit(recordResource(0, resource('a')));
    await writeFile(path, '{"version":1,"lin');
    await expect(store().read()).rejects.toBeInstanceOf(StateCorruptError);
  });

  it('reads correctly when a crash came between compaction writing the file and emptying the journal', async () => {
    const s = store();
    await s.read();
    for (let i = 0; i < 3; i++) await s.commit(recordResource(i, resource(`r${i}`)));
    await copyFile(`${path}.journal`, `${path}.old`);
    await s.compact();
    await copyFile(`${path}.old`, `${path}.journal`);
    const t = store();
    const state = await t.read();
    expect(state.serial).toBe(3);
    expect(Object.keys(state.resources)).toHaveLength(3);
    await t.commit(recordResource(3, resource('r3')));
    expect((await store().read()).serial).toBe(4);
  });

  it('sees a commit made by another instance before refusing or accepting its own', async () => {
    const a = store();
    const b = store();
    await a.read();
    await b.read();
    await a.commit(recordResource(0, resource('a')));
    await a.compact();
    await b.commit(recordResource(1, resource('b')));
    expect(Object.keys((await store().read()).resources).sort()).toEqual(['a', 'b']);
  });
});

describe('FileStateStore secrets', () => {
  it('takes the passphrase from CONVERGE_SECRETS_PASSPHRASE', async () => {
    vi.stubEnv('CONVERGE_SECRETS_PASSPHRASE', 'from-env');
    const s = store();
    await s.read();
    await s.commit(
      recordResource(0, resource('db', { inputs: { password: 'pw-in-env-test' }, secrets: ['inputs.password'] })),
    );
    await s.compact();
    expect(await readFile(path, 'utf8')).not.toContain('pw-in-env-test');
    expect(s.takeWarnings()).toEqual([]);
    expect((await store({ secretsPassphrase: 'from-env' }).read()).resources.db.inputs.password).toBe('pw-in-env-test');
  });

  it('refuses a wrong passphrase even before any secret is stored', async () => {
    const s = store({ secretsPassphrase: 'one' });
    await s.read();
    await s.commit(recordResource(0, resource('plain')));
    const err = await store({ secretsPassphrase: 'two' })
      .read()
      .catch((e) => e);
    expect(err).toBeInstanceOf(SecretsPassphraseError);
    expect(err.reason).toBe('wrong');
  });

  it('seals the secrets of a clear state once a passphrase is given', async () => {
    const s = store();
    await s.read();
    await s.commit(
      recordResource(0, resource('db', { inputs: { password: 'was-clear-pw' }, secrets: ['inputs.password'] })),
    );
    const t = store({ secretsPassphrase: 'now' });
    await t.read();
    await t.commit(recordResource(1, resource('other')));
    expect(await readFile(path, 'utf8')).not.toContain('was-clear-pw');
    expect((await store({ secretsPassphrase: 'now' }).read()).resources.db.inputs.password).toBe('was-clear-pw');
  });
});

describe('FileStateStore lock file', () => {
  function deadPid(): number {
    const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    return Number(r.stdout.toString());
  }

  it('takes over a lock left by a dead process on this host, with a warning', async () => {
    const pid = deadPid();
    await mkdir(join(dir, 'deep', 'er'), { recursive: true });
    await writeFile(
      `${path}.lock`,
      JSON.stringify({ id: 'old', pid, host: hostname(), operation: 'apply', since: '2026-01-01T00:00:00Z' }),
    );
    const lock = await store().lock({ operation: 'refresh' });
    expect(lock.warnings).toHaveLength(1);
    expect(lock.warnings[0]).toContain(String(pid));
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8')).id).toBe(lock.info.id);
    await lock.release();
  });

  it('does not take over a lock of a live process, nor one from another host', async () => {
    await store()
      .lock({ operation: 'x' })
      .then((l) => l.release());
    for (const holder of [
      { id: 'live', pid: process.ppid, host: hostname(), operation: 'apply', since: '2026-01-01T00:00:00Z' },
      { id: 'remote', pid: deadPid(), host: 'some-other-host', operation: 'destroy', since: '2026-01-01T00:00:00Z' },
    ]) {
      await writeFile(`${path}.lock`, JSON.stringify(holder));
      const err = await store()
        .lock({ operation: 'apply' })
        .catch((e) => e);
      expect(err).toBeInstanceOf(StateLockedError);
      expect(err).toMatchObject({ pid: holder.pid, host: holder.host, operation: holder.operation, lockId: holder.id });
    }
  });

  it('uses lockTimeoutMs as the default wait', async () => {
    const a = store();
    const lock = await a.lock({ operation: 'apply' });
    setTimeout(() => void lock.release(), 30);
    const got = await store({ lockTimeoutMs: 5000 }).lock({ operation: 'plan' });
    expect(got.info.operation).toBe('plan');
    await got.release();
  });

  it('releases its locks on close', async () => {
    const a = store();
    await a.lock({ operation: 'apply' });
    await a.close();
    const l = await store().lock({ operation: 'apply' });
    await l.release();
  });
});
