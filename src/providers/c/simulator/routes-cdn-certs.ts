// CDN certificate routes: /cdn/sslData (server certificates: uploaded PEM plus private key, or
// Let's Encrypt) and /cdn/sslCertificates (trusted CAs). Certificates are parsed for real (issuer,
// subject, SANs, validity), a key must match its certificate, and the key is never answered.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import type { Route, SimRequest, SimResponse } from '../../../kit/sim/router.js';
import { cdnErrors, cdnFieldError, cdnList, cdnNotFound, ok } from './answers.js';
import type { Wire } from './fixtures.js';
import { iso, type SimStore } from './store.js';

type Parsed = {
  cert_issuer: string;
  cert_subject_cn: string;
  cert_subject_alt: string;
  validity_not_before: string;
  validity_not_after: string;
};

function parseCertificate(pem: string): Parsed | undefined {
  try {
    const c = new X509Certificate(pem);
    const cn = (dn: string) => /(?:^|\n)CN=([^\n]*)/.exec(dn)?.[1] ?? '';
    const sans = (c.subjectAltName ?? '')
      .split(/,\s*/)
      .filter((s) => s.startsWith('DNS:'))
      .map((s) => s.slice(4))
      .join(',');
    return {
      cert_issuer: cn(c.issuer) || c.issuer.replace(/\n/g, ', '),
      cert_subject_cn: cn(c.subject),
      cert_subject_alt: sans,
      validity_not_before: iso(Date.parse(c.validFrom)),
      validity_not_after: iso(Date.parse(c.validTo)),
    };
  } catch {
    return undefined;
  }
}

function keyMatches(certPem: string, keyPem: string): boolean {
  try {
    return new X509Certificate(certPem).checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    return false;
  }
}

const ownCert = z.object({
  name: z.string().min(1),
  sslCertificate: z.string().min(1),
  sslPrivateKey: z.string().min(1),
  validate_root_ca: z.boolean().optional(),
});
const addSsl = z.union([ownCert, z.object({ name: z.string().min(1), automated: z.literal(true) })]);

const inUse = (s: SimStore, field: 'sslData' | 'proxy_ssl_ca', id: number) =>
  [...s.cdn.resources.values()].some((r) => r[field] === id);

function certBody(s: SimStore, w: Wire): Wire {
  return { ...w, hasRelatedResources: inUse(s, 'sslData', Number(w.id)) };
}

function saveCert(s: SimStore, req: SimRequest, id: number | undefined): SimResponse {
  const b = req.body as z.output<typeof addSsl>;
  if ([...s.cdn.certificates.values()].some((c) => c.name === b.name && c.id !== id))
    return cdnFieldError('name', 'SSL certificate with this name already exists.');
  let fields: Parsed;
  if ('automated' in b) {
    fields = {
      cert_issuer: "Let's Encrypt",
      cert_subject_cn: '',
      cert_subject_alt: '',
      validity_not_before: '',
      validity_not_after: '',
    };
  } else {
    const parsed = parseCertificate(b.sslCertificate);
    if (!parsed) return cdnFieldError('sslCertificate', 'Invalid certificate.');
    if (!keyMatches(b.sslCertificate, b.sslPrivateKey))
      return cdnFieldError('sslPrivateKey', 'The private key does not match the certificate.');
    fields = parsed;
  }
  const newId = id ?? s.nextCdnId();
  const w: Wire = {
    id: newId,
    name: b.name,
    automated: 'automated' in b,
    deleted: false,
    sslCertificateChain: '',
    ...fields,
  };
  s.cdn.certificates.set(newId, w);
  // The vendor's quirk: the create answer says deleted: true, a GET says false.
  return id === undefined ? ok({ ...certBody(s, w), deleted: true }, 201) : ok(certBody(s, w));
}

const caAdd = z.object({ name: z.string().min(1), sslCertificate: z.string().min(1) });
const caChange = z.object({ name: z.string().min(1) });

function caBody(s: SimStore, w: Wire): Wire {
  return { ...w, hasRelatedResources: inUse(s, 'proxy_ssl_ca', Number(w.id)) };
}

const byId = <T>(map: Map<number, T>, req: SimRequest, key: string) => map.get(Number(req.params[key]));

export function cdnCertificateRoutes(): Route<SimStore>[] {
  return [
    {
      method: 'GET',
      path: '/cdn/sslData',
      handler: (req, s) =>
        cdnList(
          req,
          [...s.cdn.certificates.values()]
            .filter((c) => req.query.get('automated') === null || String(c.automated) === req.query.get('automated'))
            .map((c) => certBody(s, c)),
        ),
    },
    { method: 'POST', path: '/cdn/sslData', body: addSsl, handler: (req, s) => saveCert(s, req, undefined) },
    {
      method: 'GET',
      path: '/cdn/sslData/:ssl_id',
      handler: (req, s) => {
        const w = byId(s.cdn.certificates, req, 'ssl_id');
        return w ? ok(certBody(s, w)) : cdnNotFound();
      },
    },
    {
      method: 'PUT',
      path: '/cdn/sslData/:ssl_id',
      body: ownCert,
      handler: (req, s) =>
        byId(s.cdn.certificates, req, 'ssl_id') ? saveCert(s, req, Number(req.params.ssl_id)) : cdnNotFound(),
    },
    {
      method: 'DELETE',
      path: '/cdn/sslData/:ssl_id',
      handler: (req, s) => {
        const id = Number(req.params.ssl_id);
        if (!s.cdn.certificates.has(id)) return cdnNotFound();
        if (inUse(s, 'sslData', id))
          return cdnErrors('The certificate is used by CDN resources and cannot be deleted.');
        s.cdn.certificates.delete(id);
        return { status: 204 };
      },
    },

    {
      method: 'GET',
      path: '/cdn/sslCertificates',
      handler: (req, s) =>
        cdnList(
          req,
          [...s.cdn.caCertificates.values()].map((c) => caBody(s, c)),
        ),
    },
    {
      method: 'POST',
      path: '/cdn/sslCertificates',
      body: caAdd,
      handler: (req, s) => {
        const b = req.body as z.output<typeof caAdd>;
        if ([...s.cdn.caCertificates.values()].some((c) => c.name === b.name))
          return cdnFieldError('name', 'CA certificate with this name already exists.');
        const parsed = parseCertificate(b.sslCertificate);
        if (!parsed) return cdnFieldError('sslCertificate', 'Invalid certificate.');
        const id = s.nextCdnId();
        const w: Wire = { id, name: b.name, deleted: false, sslCertificateChain: b.sslCertificate, ...parsed };
        s.cdn.caCertificates.set(id, w);
        return ok(caBody(s, w), 201);
      },
    },
    {
      method: 'GET',
      path: '/cdn/sslCertificates/:id',
      handler: (req, s) => {
        const w = byId(s.cdn.caCertificates, req, 'id');
        return w ? ok(caBody(s, w)) : cdnNotFound();
      },
    },
    {
      method: 'PUT',
      path: '/cdn/sslCertificates/:id',
      body: caChange,
      handler: (req, s) => {
        const w = byId(s.cdn.caCertificates, req, 'id');
        if (!w) return cdnNotFound();
        w.name = (req.body as z.output<typeof caChange>).name;
        return ok(caBody(s, w));
      },
    },
    {
      method: 'DELETE',
      path: '/cdn/sslCertificates/:id',
      handler: (req, s) => {
        const id = Number(req.params.id);
        if (!s.cdn.caCertificates.has(id)) return cdnNotFound();
        if (inUse(s, 'proxy_ssl_ca', id))
          return cdnErrors('The CA certificate is used by CDN resources and cannot be deleted.');
        s.cdn.caCertificates.delete(id);
        return { status: 204 };
      },
    },
  ];
}
