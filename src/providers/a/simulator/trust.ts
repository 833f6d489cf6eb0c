// The fake LXD's HTTPS trust model: callers whose client certificate is not in the trust store see
// the reduced untrusted /1.0 and may only POST /1.0/certificates with the trust password or a
// certificate add token; everything else is 403, as on the daemon.
import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import type { SimRequest, SimResponse } from '../../../kit/sim/router.js';
import type { SimStore } from './store.js';
import { created, error, str, sync, type Body } from './wire.js';

export type TrustState = { fingerprint: string; certificate: string; address: string; tokens: Set<string> };

export function peerFingerprint(req: SimRequest): string | undefined {
  const raw = req.peerCertificate?.raw;
  return raw ? createHash('sha256').update(raw).digest('hex') : undefined;
}

/** The auth hook: null lets a trusted caller through; otherwise the untrusted answer. */
export function trustGate(s: SimStore, trust: TrustState, req: SimRequest): SimResponse | null {
  const fp = peerFingerprint(req);
  if (fp && s.certificates.has(fp)) return null;
  if (req.method === 'GET' && req.path === '/1.0') {
    return sync({
      api_extensions: s.options.extensions,
      api_status: 'stable',
      api_version: '1.0',
      auth: 'untrusted',
      public: false,
      auth_methods: ['tls'],
      config: {},
      client_certificate: !!fp,
    });
  }
  if (req.method === 'POST' && req.path === '/1.0/certificates' && fp) {
    const b = (req.body ?? {}) as Body;
    const secret = typeof b.trust_token === 'string' ? b.trust_token : typeof b.password === 'string' ? b.password : '';
    if (!acceptSecret(s, trust, secret)) return error(403, 'not authorized');
    s.certificates.set(fp, {
      name: str(b.name) || commonName(req.peerCertificate?.raw),
      type: 'client',
      restricted: false,
      projects: [],
      fingerprint: fp,
      certificate: pemOf(req.peerCertificate?.raw),
      description: '',
    });
    return created(`/1.0/certificates/${fp}`);
  }
  return error(403, 'not authorized');
}

/** The subject CN of a DER certificate: the daemon's name for a certificate added without one. */
function commonName(raw: Buffer | undefined): string {
  const subject = raw ? new X509Certificate(raw).subject : '';
  return /^CN=(.*)$/m.exec(subject)?.[1] ?? '';
}

/** PEM text of a DER certificate, as the trust store returns it. */
function pemOf(raw: Buffer | undefined): string {
  return raw
    ? `-----BEGIN CERTIFICATE-----\n${raw
        .toString('base64')
        .match(/.{1,64}/g)!
        .join('\n')}\n-----END CERTIFICATE-----\n`
    : '';
}

function acceptSecret(s: SimStore, trust: TrustState, secret: string): boolean {
  if (!secret) return false;
  if (s.options.trustPassword && secret === s.options.trustPassword) return true;
  try {
    const token = JSON.parse(Buffer.from(secret, 'base64').toString('utf8')) as { secret?: string };
    if (token.secret && trust.tokens.delete(token.secret)) return true;
  } catch {
    /* not a token */
  }
  return false;
}

/** Mints a certificate add token (base64 JSON) the way `lxc config trust add` does. */
export function mintToken(trust: TrustState, clientName = 'client'): string {
  const secret = randomUUID().replace(/-/g, '');
  trust.tokens.add(secret);
  return Buffer.from(
    JSON.stringify({
      client_name: clientName,
      fingerprint: trust.fingerprint,
      addresses: [trust.address],
      secret,
      expires_at: '0001-01-01T00:00:00Z',
    }),
  ).toString('base64');
}
