// Issue 13: a stack over all three providers with a secret in every kind of place, and every surface
// a user or a log pipeline can reach scanned for each secret string. Zero hits.
//
// Secrets: provider credentials (A remote password, B token, C API key), seed-marked secret inputs
// (C sslPrivateKey) and outputs (B kubeconfig, database password, initial password, object-store
// secret key), secret() values (an LXD config key, a DNS record), secrets passed through ref() into
// plain fields (a TXT record = cred.secretAccessKey, an LXD file = k8s.kubeconfig, a TXT record =
// db.password) and vendor errors echoing the request (Civo and Gcore 400s quoting the body).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import {
  ApplyError,
  Engine,
  FileStateStore,
  PostgresStateStore,
  progressReporter,
  ref,
  secret,
  type Event,
  type Plan,
  type StateStore,
} from 'converge';
import { prova } from 'converge/providers/a';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';
import { startSimulator as startB } from 'converge/providers/b/simulator';
import { startSimulator as startC, SIM_PROJECT_ID, SIM_REGION_ID } from 'converge/providers/c/simulator';
import { simEnv } from '../providers/a/sim-env.js';
import { FakeTty } from '../engine/progress/fake-tty.js';
import { pgUrl, pgProblem } from './pg-env.js';

const pem = (f: string) => readFileSync(new URL(`../providers/c/fixtures/${f}`, import.meta.url), 'utf8');
const fast = { instance: 3, cluster: 3, pool: 3, database: 3, volume: 2, ip: 2, objectStore: 2, credential: 2 };
const PREFIX = 'cvt-sec13-';

/** The strings to look for: the secret, and for a multi-line one (PEM, kubeconfig) each long line and token. */
function needlesOf(s: string): string[] {
  if (!s.includes('\n')) return [s];
  const lines = s.split('\n').map((l) => l.trim());
  const tokens = lines.map((l) => /^token: (\S+)$/.exec(l)?.[1]).filter((t): t is string => !!t);
  return [s, ...tokens, ...lines.filter((l) => l.length >= 40 && !l.startsWith('-----'))];
}

type Surface = { readonly name: string; readonly text: string };

class Scanner {
  readonly surfaces: Surface[] = [];
  add(name: string, text: string): void {
    this.surfaces.push({ name, text });
  }
  /** The object as JSON and as util.inspect with depth null (showHidden too: symbol keys and non-enumerables). */
  addValue(name: string, value: unknown): void {
    this.add(`${name} (JSON)`, JSON.stringify(value) ?? '');
    this.add(`${name} (inspect)`, inspect(value, { depth: null }));
    this.add(`${name} (inspect, showHidden)`, inspect(value, { depth: null, showHidden: true }));
  }
  addPlan(name: string, plan: Plan): void {
    this.add(`${name}.render()`, plan.render({ color: false }));
    this.addValue(name, plan);
  }
  addError(name: string, error: unknown): void {
    const e = error as Error;
    this.add(`${name}.message`, e.message);
    this.add(`${name}.stack`, e.stack ?? '');
    this.add(`${name}.toString()`, String(e));
    this.addValue(name, e);
  }
  hits(secrets: readonly string[]): string[] {
    const out: string[] = [];
    for (const s of secrets)
      for (const n of needlesOf(s))
        for (const surf of this.surfaces) if (surf.text.includes(n)) out.push(`${surf.name} holds ${n.slice(0, 12)}…`);
    return [...new Set(out)];
  }
}

type StoreKind = {
  readonly kind: 'file' | 'postgres';
  open(
    passphrase: string,
  ): Promise<{ store: StateStore; snapshot(): void; raw(): Promise<string[]>; close(): Promise<void> }>;
};

const fileKind: StoreKind = {
  kind: 'file',
  open: async (passphrase) => {
    const dir = mkdtempSync(join(tmpdir(), 'cvt-secrets-'));
    const store = new FileStateStore(join(dir, 'state.json'), { secretsPassphrase: passphrase });
    const snaps: string[] = [];
    const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : '');
    return {
      store,
      // The journal exists only during an apply (compact folds it): read it at every event.
      snapshot: () => {
        snaps.push(read(store.journalPath));
      },
      raw: async () => [...snaps, read(store.path), read(store.journalPath)],
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const pgKind: StoreKind = {
  kind: 'postgres',
  open: async (passphrase) => {
    const stack = `cvt-sec13-${randomBytes(5).toString('hex')}`;
    const store = new PostgresStateStore({ connectionString: pgUrl!, stack, secretsPassphrase: passphrase });
    const admin = new pg.Client({ connectionString: pgUrl! });
    await admin.connect();
    const rows = async () => {
      const r = await admin.query(
        `SELECT (SELECT coalesce(json_agg(data), '[]') FROM converge_resources WHERE stack = $1)::text ||
                (SELECT coalesce(json_agg(data), '[]') FROM converge_pending WHERE stack = $1)::text ||
                (SELECT coalesce(json_agg(data), '[]') FROM converge_deposed WHERE stack = $1)::text AS t`,
        [stack],
      );
      return String(r.rows[0].t);
    };
    const snaps: Promise<string>[] = [];
    let last: Promise<unknown> = Promise.resolve();
    return {
      store,
      // One query at a time on the connection (pg must never be handed a query while one runs), in
      // event order, so each reads the rows as they are at that point of the apply.
      snapshot: () => {
        const p = last.then(rows);
        last = p.catch(() => {});
        snaps.push(p);
      },
      raw: async () => [...(await Promise.all(snaps)), await rows()],
      close: async () => {
        await store.close();
        for (const t of ['converge_resources', 'converge_pending', 'converge_deposed', 'converge_stacks'])
          await admin.query(`DELETE FROM ${t} WHERE stack = $1`, [stack]).catch(() => {});
        await admin.end();
      },
    };
  },
};

async function runStack(kind: StoreKind): Promise<{ scanned: number; hits: string[]; secrets: number }> {
  const passphrase = `pass-${randomBytes(12).toString('hex')}`;
  const remotePassword = `remote-pw-${randomBytes(12).toString('hex')}`;
  const mine = `mine-${randomBytes(12).toString('hex')}`;
  const mine2 = `mine2-${randomBytes(12).toString('hex')}`;
  const a = await simEnv({}, { remotes: [{ name: 'spare', address: '127.0.0.1:1', password: remotePassword }] });
  const b = await startB({ transitions: fast, token: `tok-${randomBytes(12).toString('hex')}` });
  const c = await startC({ taskDurationMs: 6, apiKey: `123$${randomBytes(12).toString('hex')}` });
  const pb = provb({ token: b.token, apiEndpoint: b.url, region: 'LON1', pollIntervalMs: 1 });
  const pc = provc({
    apiKey: c.apiKey,
    baseUrl: c.baseUrl,
    cloudProjectId: SIM_PROJECT_ID,
    cloudRegionId: SIM_REGION_ID,
    pollingIntervalSeconds: 0.002,
    pollingTimeoutSeconds: 5,
    env: {},
  });
  const st = await kind.open(passphrase);
  const scan = new Scanner();
  const events: Event[] = [];
  const engine = new Engine({
    providers: [a.provider, pb, pc],
    state: st.store,
    retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 5 },
    onEvent: (e) => {
      events.push(e);
      st.snapshot();
    },
  });
  const tty = new FakeTty(120);
  const plain: string[] = [];
  const reporters = () => [
    progressReporter({ stream: tty, mode: 'tty', intervalMs: 0 }),
    progressReporter({ stream: { write: (s: string) => plain.push(s), isTTY: false }, mode: 'plain', intervalMs: 0 }),
  ];
  const applyWith = async (plan: Plan) => {
    const rs = reporters();
    try {
      return await engine.apply(plan, { onEvent: (e) => rs.forEach((r) => r(e)) });
    } finally {
      rs.forEach((r) => r.close());
    }
  };

  const fw = provb.firewall('fw', { name: 'sec-fw' });
  const base = [
    prova.instance('box', {
      name: `${PREFIX}box`,
      image: 'busybox',
      config: { 'environment.APP_TOKEN': secret(mine) },
    }),
    prova.instanceFile(
      'kube',
      { instance: `${PREFIX}box`, targetPath: '/etc/kubeconfig', content: ref('k8s', 'kubeconfig') },
      { dependsOn: ['box'] },
    ),
    fw,
    provb.kubernetesCluster('k8s', {
      name: 'sk',
      firewallId: fw.out('firewallId'),
      pools: { label: 'main', nodeCount: 1, size: 'g4s.kube.small' },
      writeKubeconfig: true,
    }),
    provb.instance('web', {
      hostname: 'sweb',
      diskImage: 'ubuntu-jammy',
      firewallId: fw.out('firewallId'),
      writePassword: true,
    }),
    provb.database('db', { name: 'sdb', engine: 'postgresql', version: '14', size: 'g3.db.small', nodes: 1 }),
    provb.objectStoreCredential('cred', { name: 'scred' }),
    provb.dnsDomainName('domain', { name: 'secrets.example' }),
    provb.dnsDomainRecord('txt', {
      domainId: ref('domain', 'dnsDomainNameId'),
      type: 'txt',
      name: 'key',
      value: ref('cred', 'secretAccessKey'),
    }),
    provc.cdnCertificate('cert', { name: 'site', sslCertificate: pem('cdn.crt'), sslPrivateKey: pem('cdn.key') }),
  ];
  const secrets: string[] = [
    passphrase,
    remotePassword,
    mine,
    mine2,
    b.token,
    c.apiKey,
    pem('cdn.key'),
    pem('other.key'),
  ];
  try {
    // 1. Everything succeeds.
    const plan1 = await engine.plan(base);
    scan.addPlan('plan1', plan1);
    const result = await applyWith(plan1);
    scan.addValue('result', result);
    for (const [r, p] of [
      ['k8s', 'kubeconfig'],
      ['web', 'initialPassword'],
      ['db', 'password'],
      ['cred', 'secretAccessKey'],
    ] as const) {
      const v = result.secret(r, p);
      expect(typeof v === 'string' && v.length >= 8, `${r}.${p} is a real secret`).toBe(true);
      secrets.push(v as string);
    }
    expect(result.secret('box', 'config')).toEqual({ 'environment.APP_TOKEN': mine });
    scan.addPlan('plan1-again', await engine.plan(base));

    // 2. Vendors echo the request in their 400s: new resources fail, their errors are scanned.
    b.use({
      method: 'POST',
      path: '/v2/dns/:id/records',
      handler: (req) => ({
        status: 400,
        body: { code: 'invalid_value', reason: `bad record ${JSON.stringify(req.body)}` },
      }),
    });
    c.use({
      method: 'POST',
      path: '/cdn/sslData',
      handler: (req) => ({
        status: 400,
        body: { errors: { sslPrivateKey: [`not a key: ${(req.body as { sslPrivateKey?: string }).sslPrivateKey}`] } },
      }),
    });
    const failing = [
      ...base,
      provb.dnsDomainRecord('txt2', {
        domainId: ref('domain', 'dnsDomainNameId'),
        type: 'txt',
        name: 'db',
        value: ref('db', 'password'),
      }),
      provb.dnsDomainRecord('txt3', {
        domainId: ref('domain', 'dnsDomainNameId'),
        type: 'txt',
        name: 'mine',
        value: secret(mine2),
      }),
      provc.cdnCertificate('bad', { name: 'bad', sslCertificate: pem('cdn.crt'), sslPrivateKey: pem('other.key') }),
    ];
    const plan2 = await engine.plan(failing);
    scan.addPlan('plan2', plan2);
    const thrown = await applyWith(plan2).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(ApplyError);
    const applyError = thrown as ApplyError;
    expect(applyError.result.failed.map((f) => f.address).sort()).toEqual(['bad', 'txt2', 'txt3']);
    scan.addError('ApplyError', applyError);
    scan.addValue('ApplyError.result', applyError.result);
    for (const f of applyError.result.failed) {
      expect((f.error as { status?: number }).status, `${f.address} keeps its facts`).toBe(400);
      let e: unknown = f.error;
      for (let depth = 0; e instanceof Error && depth < 5; depth++, e = e.cause)
        scan.addError(`${f.address} error (cause depth ${depth})`, e);
    }
    b.resetHandlers();
    c.resetHandlers();

    // 3. A direct error a caller sees: a lookup the vendor refuses with an echo of the credentials.
    const lookupError = await engine.lookup(provb.getDnsDomainName({ name: 'nope.example' })).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (lookupError) scan.addError('lookup error', lookupError);

    // 4. Everything goes.
    const destroyPlan = await engine.planDestroy();
    scan.addPlan('destroy plan', destroyPlan);
    scan.addValue('destroy result', await applyWith(destroyPlan));

    for (const p of [a.provider, pb, pc]) {
      scan.addValue(`provider ${p.name}`, p);
      scan.addValue(`provider ${p.name}.terraformConfig()`, p.terraformConfig());
    }
    events.forEach((e, i) => scan.addValue(`event ${i} ${e.type}`, e));
    scan.add('progress (TTY writes)', tty.writes.join(''));
    scan.add('progress (TTY screen)', tty.screen().join('\n'));
    scan.add('progress (plain)', plain.join(''));
    (await st.raw()).forEach((t, i) => scan.add(`${kind.kind} store bytes ${i}`, t));
    return { scanned: scan.surfaces.length, hits: scan.hits(secrets), secrets: secrets.length };
  } finally {
    await st.close();
    await Promise.allSettled([a.close(), b.close(), c.close(), pb.close(), pc.close()]);
  }
}

describe('secrets on every surface (issue 13)', () => {
  it('a stack over A (fake), B and C with a file state and a passphrase leaks no secret anywhere', async () => {
    const { scanned, hits, secrets } = await runStack(fileKind);
    console.log(
      `secrets surfaces (file store): ${scanned} surfaces scanned for ${secrets} secrets, ${hits.length} hits`,
    );
    expect(hits).toEqual([]);
    expect(scanned).toBeGreaterThan(100);
  }, 60_000);

  if (pgProblem && process.env.CI === 'true') {
    it('has a PostgreSQL server to scan (required in CI)', () => {
      throw new Error(`PostgreSQL is required in CI: ${pgProblem}`);
    });
  } else if (pgProblem) {
    console.warn(`\n!!! SKIPPING the PostgreSQL secrets scan: ${pgProblem}\n`);
    it.skip('the same stack with a PostgreSQL state (needs a server)', () => {});
  } else {
    it('the same stack with a PostgreSQL state and a passphrase leaks no secret in its rows nor anywhere else', async () => {
      const { scanned, hits, secrets } = await runStack(pgKind);
      console.log(
        `secrets surfaces (PostgreSQL store): ${scanned} surfaces scanned for ${secrets} secrets, ${hits.length} hits`,
      );
      expect(hits).toEqual([]);
      expect(scanned).toBeGreaterThan(100);
    }, 60_000);
  }
});
