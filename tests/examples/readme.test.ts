// Every code sample in the README is a region of a file that runs or compiles: the README must show
// it verbatim, and the programs behind it run here (quickstart and tour against the simulator, the
// provider and store configurations, the provider written with the public interface).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Engine, FileStateStore, MemoryStateStore, PostgresStateStore } from 'converge';

const root = join(__dirname, '..', '..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

/** A whole file without its opening comment lines, or one `// #region name` of it. */
function region(path: string, name?: string): string {
  const text = read(path);
  if (!name) {
    const lines = text.split('\n');
    while (lines[0]?.startsWith('//')) lines.shift();
    return lines.join('\n').replace(/^\n+|\n+$/g, '');
  }
  const m = new RegExp(`^[ \\t]*// #region ${name}\\n([\\s\\S]*?)^[ \\t]*// #endregion ${name}\\n`, 'm').exec(text);
  if (!m) throw new Error(`${path} has no region ${name}`);
  return m[1]!.replace(/\n+$/, '');
}

function snippets(): { tag: string; code: string }[] {
  const out: { tag: string; code: string }[] = [];
  for (const m of read('README.md').matchAll(/<!-- snippet: (\S+) -->\n+```\w*\n([\s\S]*?)\n```/g))
    out.push({ tag: m[1]!, code: m[2]! });
  return out;
}

let dir: string;
let cwd: string;
let logged: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cvt-readme-'));
  cwd = process.cwd();
  process.chdir(dir);
  logged = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    logged.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
});

describe('the README', () => {
  it('shows every code sample verbatim from the file that runs it', () => {
    const found = snippets();
    expect(found.map((s) => s.tag)).toEqual([
      'examples/quickstart.ts',
      'examples/tour.ts#setup',
      'examples/tour.ts#declare',
      'examples/tour.ts#plan',
      'examples/tour.ts#render',
      'examples/tour.ts#apply',
      'examples/tour.ts#refresh',
      'examples/tour.ts#import',
      'examples/tour.ts#destroy',
      'examples/providers.ts#prova',
      'examples/providers.ts#provb',
      'examples/providers.ts#provc',
      'examples/providers.ts#stores',
      'tests/examples/web-stack.ts#stack',
      'tests/examples/testing.test.ts#vitest',
      'tests/examples/node-test/testing.test.mts#node-test',
      'tests/examples/own-stack.test.ts#test',
      'examples/my-provider.ts#provider',
    ]);
    for (const s of found) {
      const [path, name] = s.tag.split('#');
      expect(s.code, s.tag).toBe(region(path!, name));
    }
  });

  it('quickstart: plans, prints, applies, plans again with no changes, destroys', async () => {
    await import('../../examples/quickstart.js');
    expect(logged[0]).toContain('Plan: 3 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect(logged[1]).toMatch(/^web has public IP \d+\.\d+\.\d+\.\d+$/);
    expect(logged[2]).toBe('false');
    const state = JSON.parse(readFileSync(join(dir, '.converge', 'state.json'), 'utf8')) as {
      resources?: Record<string, unknown>;
    };
    expect(Object.keys(state.resources ?? {})).toEqual([]);
  });

  it('tour: declare, plan, render, apply, refresh, import, destroy', async () => {
    const tour = await import('../../examples/tour.js');
    expect(logged[0]).toContain('bad.sizeGb');
    expect(logged[1]).toBe(
      JSON.stringify({ create: 5, read: 0, update: 0, stateOnly: 0, replace: 0, delete: 0, noop: 0, forget: 0 }),
    );
    expect(logged[2]).toContain('+ resource "provb:index/instance:Instance" "web" {');
    expect(logged[3]).toContain('dnsDomainRecordId');
    expect(logged.slice(4)).toEqual(['false', '0 0 5', 'false', '6']);
    expect(JSON.parse(tour.json).summary.create).toBe(5);
    expect(tour.same).toEqual(JSON.parse(JSON.stringify(tour.same)));
  });

  it('provider configurations build providers without touching the network', async () => {
    const p = await import('../../examples/providers.js');
    expect(p.labLxd().terraformConfig()).toMatchObject({
      remote: [{ name: 'lab', address: 'https://lxd.lab.example:8443', default: true }],
      accept_remote_certificate: true,
      generate_client_certificates: true,
    });
    expect(p.localLxd().name).toBe('prova');
    expect(p.civo().terraformConfig()).toEqual({
      api_endpoint: 'https://api.civo.com',
      token: { '@converge': 'sensitive' },
      region: 'LON1',
    });
    vi.stubEnv('PROVB_TOKEN', 'from-env');
    expect(p.civoFromEnv().config.tokenSource).toBe('PROVB_TOKEN');
    expect(p.gcore().terraformConfig()).toMatchObject({ cloud_project_id: 1, cloud_region_id: 76 });
    vi.stubEnv('PROVC_API_KEY', 'k');
    vi.stubEnv('PROVC_CLOUD_PROJECT_ID', '5');
    vi.stubEnv('PROVC_CLOUD_REGION_ID', '7');
    expect(p.gcoreFromEnv().terraformConfig()).toMatchObject({ cloud_project_id: 5, cloud_region_id: 7 });
    expect(p.stores.file()).toBeInstanceOf(FileStateStore);
    expect(p.stores.postgres()).toBeInstanceOf(PostgresStateStore);
    expect(p.stores.memory()).toBeInstanceOf(MemoryStateStore);
  });

  it('writing a provider: the example provider plans, applies, looks up, imports and destroys', async () => {
    const { mine, mineBucket, mineGetBucket } = await import('../../examples/my-provider.js');
    const api = { buckets: new Map<string, { region: string; versioning: boolean }>() };
    const engine = new Engine({ providers: [mine(api)], state: new MemoryStateStore() });
    const logs = mineBucket('logs', { name: 'logs', versioning: true });
    await engine.apply(await engine.plan([logs]));
    expect(await engine.lookup(mineGetBucket({ name: 'logs' }))).toEqual({
      name: 'logs',
      region: 'eu',
      versioning: true,
    });
    const moved = await engine.plan([mineBucket('logs', { name: 'logs', region: 'us', versioning: true })]);
    expect(moved.steps[0]).toMatchObject({ action: 'replace', reasons: ['region'] });
    api.buckets.set('old', { region: 'eu', versioning: false });
    await engine.import(mineBucket('old', { name: 'old' }), 'old');
    expect((await engine.plan([logs, mineBucket('old', { name: 'old' })])).hasChanges).toBe(false);
    await engine.destroy();
    expect(api.buckets.size).toBe(0);
  });
});
