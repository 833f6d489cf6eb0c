// HTTPS remotes against the real daemon: an untrusted server certificate is refused unless
// acceptRemoteCertificate; accepted, it is pinned; trust is added with the password; client
// certificates are generated (EC P-384) when asked.
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ProviderError } from '../../../src/engine/errors.js';
import { certificateFingerprint, generateClientCertificate } from '../../../src/providers/a/support/trust.js';
import { describeLxd, lxc, realEnv, type RealEnv } from './lxd-env.js';

describeLxd('prova over HTTPS against a real LXD', (facts) => {
  const envs: RealEnv[] = [];
  const added: string[] = [];
  const remote = (extra: Record<string, unknown> = {}) => ({
    remotes: [{ name: 'cvt-https', address: `https://${facts.https}`, ...extra }],
  });
  const make = (args: Parameters<typeof realEnv>[1]) => {
    const e = realEnv(facts, args);
    envs.push(e);
    return e;
  };
  afterAll(async () => {
    for (const fp of added) lxc(['query', '-X', 'DELETE', `/1.0/certificates/${fp}`], true);
    for (const e of envs) await e.close();
  });
  const serverFingerprint = () =>
    (JSON.parse(lxc(['query', '/1.0'])) as { environment: { certificate_fingerprint: string } }).environment
      .certificate_fingerprint;
  const trusted = () =>
    (JSON.parse(lxc(['query', '/1.0/certificates?recursion=1'])) as { fingerprint: string }[]).map(
      (c) => c.fingerprint,
    );

  it('refuses an untrusted server certificate without acceptRemoteCertificate, and pins nothing', async () => {
    const env = make({ ...remote({ password: facts.trustPassword }), generateClientCertificates: true });
    const err = await env.provider.config.client(env.ctx, 'cvt-https').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).vendorCode).toBe('untrusted');
    expect((err as ProviderError).message).toContain(serverFingerprint());
    expect((err as ProviderError).message).not.toContain(facts.trustPassword);
    expect(existsSync(join(env.dir, 'config', 'servercerts', 'cvt-https.crt'))).toBe(false);
  });

  it('generates client certificates, accepts and pins the server certificate, and adds trust by password', async () => {
    const env = make({
      ...remote({ password: facts.trustPassword }),
      generateClientCertificates: true,
      acceptRemoteCertificate: true,
    });
    const client = await env.provider.config.client(env.ctx, 'cvt-https');
    const crt = readFileSync(join(env.dir, 'config', 'client.crt'), 'utf8');
    expect(new X509Certificate(crt).publicKey.asymmetricKeyDetails?.namedCurve).toBe('secp384r1');
    const fp = certificateFingerprint(crt);
    added.push(fp);
    expect(trusted()).toContain(fp);
    const pinned = readFileSync(join(env.dir, 'config', 'servercerts', 'cvt-https.crt'), 'utf8');
    expect(certificateFingerprint(pinned)).toBe(serverFingerprint());
    const info = (await env.provider.lookups
      .get('prova:index/getInfo:getInfo')!
      .run(env.ctx, { remote: 'cvt-https' })) as { apiExtensions: string[] };
    expect(info.apiExtensions).toContain('etag');
    expect((await client.server(env.ctx)).auth).toBe('trusted');
  });

  it('refuses a server whose certificate does not match the pinned one', async () => {
    const env = make({ ...remote(), generateClientCertificates: true });
    const other = await generateClientCertificate(join(env.dir, 'other'));
    mkdirSync(join(env.dir, 'config', 'servercerts'), { recursive: true });
    writeFileSync(join(env.dir, 'config', 'servercerts', 'cvt-https.crt'), other.cert);
    const err = await env.provider.config.client(env.ctx, 'cvt-https').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(String((err as Error).message)).toMatch(/connection failed/);
  });

  it('fails to authenticate with a wrong password, without leaking it', async () => {
    const env = make({
      ...remote({ password: 'not-the-password' }),
      generateClientCertificates: true,
      acceptRemoteCertificate: true,
    });
    const err = await env.provider.config.client(env.ctx, 'cvt-https').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).message).toContain('Unable to authenticate');
    expect((err as ProviderError).message).not.toContain('not-the-password');
    expect(trusted()).not.toContain(
      certificateFingerprint(readFileSync(join(env.dir, 'config', 'client.crt'), 'utf8')),
    );
  });
});
