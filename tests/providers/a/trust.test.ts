import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, ProviderError } from '../../../src/engine/errors.js';
import {
  certificateFingerprint,
  decodeTrustToken,
  generateClientCertificate,
  loadClientCertificate,
} from '../../../src/providers/a/support/trust.js';
import { prova } from '../../../src/providers/a/index.js';
import { standaloneContext } from '../../../src/engine/provider/context.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'cvt-trust-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('trust', () => {
  it('generates an EC P-384 client certificate and key in configDir', async () => {
    const dir = tmp();
    const c = await generateClientCertificate(dir);
    const x = new X509Certificate(c.cert);
    expect(x.publicKey.asymmetricKeyDetails?.namedCurve).toBe('secp384r1');
    expect(x.checkPrivateKey((await import('node:crypto')).createPrivateKey(c.key))).toBe(true);
    expect(existsSync(join(dir, 'client.crt')) && existsSync(join(dir, 'client.key'))).toBe(true);
    expect(certificateFingerprint(c.cert)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('loads existing certificates and generates only when allowed', async () => {
    const dir = tmp();
    expect(await loadClientCertificate({ configDir: dir, generateClientCertificates: false })).toBeUndefined();
    const made = await loadClientCertificate({ configDir: dir, generateClientCertificates: true });
    expect((await loadClientCertificate({ configDir: dir, generateClientCertificates: false }))!.cert).toBe(made!.cert);
  });

  it('decodes a certificate add token', () => {
    const token = Buffer.from(
      JSON.stringify({
        client_name: 'c',
        fingerprint: 'ab'.repeat(32),
        addresses: ['127.0.0.1:8443'],
        secret: 's3',
        expires_at: '0001-01-01T00:00:00Z',
      }),
    ).toString('base64');
    expect(decodeTrustToken(token)).toMatchObject({ fingerprint: 'ab'.repeat(32), secret: 's3' });
    expect(decodeTrustToken('not a token')).toBeUndefined();
  });

  it('refuses an HTTPS remote without client certificates unless generateClientCertificates', async () => {
    const p = prova({ configDir: tmp(), remotes: [{ name: 'r', address: '127.0.0.1:1' }] });
    const err = await p.config.client(standaloneContext(p.config), 'r').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain('generateClientCertificates');
  });

  it('fails a token whose fingerprint does not match the server certificate (before sending anything)', async () => {
    const { createServer } = await import('node:https');
    const dir = tmp();
    const server = await generateClientCertificate(join(dir, 'server'));
    const https = createServer({ cert: server.cert, key: server.key }, (_req, res) => res.end('{}'));
    await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
    const port = (https.address() as { port: number }).port;
    try {
      const token = Buffer.from(
        JSON.stringify({ fingerprint: 'cd'.repeat(32), secret: 'sekret', addresses: [] }),
      ).toString('base64');
      const p = prova({
        configDir: join(dir, 'cfg'),
        generateClientCertificates: true,
        remotes: [{ name: 'r', address: `127.0.0.1:${port}`, token }],
      });
      const err = await p.config.client(standaloneContext(p.config), 'r').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).message).toContain("trust token's fingerprint");
      expect((err as ProviderError).message).not.toContain(token);
      expect(existsSync(join(dir, 'cfg', 'servercerts', 'r.crt'))).toBe(false);
      await p.close();
    } finally {
      await new Promise((r) => https.close(r));
    }
  });
});

describe('joining an HTTPS remote (simulator in TLS mode)', () => {
  const join2 = join;
  async function tlsSim(trustPassword = 'sim-pass') {
    const { startSimulator } = await import('../../../src/providers/a/simulator/index.js');
    return startSimulator({ tls: true, trustPassword });
  }

  it('refuses the unknown certificate without acceptRemoteCertificate; with it, pins it and adds trust by password', async () => {
    const sim = await tlsSim();
    const dir = tmp();
    try {
      const refused = prova({
        configDir: dir,
        generateClientCertificates: true,
        remotes: [{ name: 's', address: sim.address, password: 'sim-pass' }],
      });
      const err = await refused.config.client(standaloneContext(refused.config), 's').catch((e: unknown) => e);
      expect((err as ProviderError).vendorCode).toBe('untrusted');
      expect((err as ProviderError).message).toContain(sim.certificate!.fingerprint);
      expect(sim.store.certificates.size).toBe(0);
      await refused.close();

      const p = prova({
        configDir: dir,
        acceptRemoteCertificate: true,
        remotes: [{ name: 's', address: sim.address, password: 'sim-pass' }],
      });
      const client = await p.config.client(standaloneContext(p.config), 's');
      expect((await client.server(standaloneContext(undefined))).auth).toBe('trusted');
      expect(sim.store.certificates.size).toBe(1);
      expect(certificateFingerprint(readFileSync(join2(dir, 'servercerts', 's.crt'), 'utf8'))).toBe(
        sim.certificate!.fingerprint,
      );
      const posts = sim.requests.filter((r) => r.method === 'POST' && r.path === '/1.0/certificates');
      expect(posts.at(-1)!.body).toMatchObject({ type: 'client', password: 'sim-pass' });
      await p.close();
    } finally {
      await sim.close();
    }
  });

  it('trusts a token: pins by the token fingerprint without acceptRemoteCertificate and sends the token as password on 5.0', async () => {
    const sim = await tlsSim();
    const dir = tmp();
    try {
      const token = sim.mintToken('converge');
      const p = prova({
        configDir: dir,
        generateClientCertificates: true,
        remotes: [{ name: 's', address: sim.address, token }],
      });
      const lookup = p.lookups.get('prova:index/getInfo:getInfo')!;
      const info = (await lookup.run(standaloneContext(p.config), { remote: 's' })) as { apiExtensions: string[] };
      expect(info.apiExtensions).toContain('certificate_token');
      expect(sim.store.certificates.size).toBe(1);
      await p.close();
    } finally {
      await sim.close();
    }
  });

  it('fails with a wrong password and never puts it in the error', async () => {
    const sim = await tlsSim();
    try {
      const p = prova({
        configDir: tmp(),
        generateClientCertificates: true,
        acceptRemoteCertificate: true,
        remotes: [{ name: 's', address: sim.address, password: 'wrong-secret-pw' }],
      });
      const err = await p.config.client(standaloneContext(p.config), 's').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as Error).message).toContain('Unable to authenticate');
      expect(JSON.stringify({ m: (err as Error).message, ...(err as object) })).not.toContain('wrong-secret-pw');
      await p.close();
    } finally {
      await sim.close();
    }
  });
});
