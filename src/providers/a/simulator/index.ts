// The in-process fake LXD (provider A's simulator): the LXD wire API on a unix socket or loopback,
// with sync/async answers, operations, ETags, instance state transitions and fake addresses on
// 198.18.0.0/24, the auth groups and identities LXD 5.0 lacks, and optionally HTTPS with the trust
// handshake (password or token). Imports src/kit and provider A's certificate helper only.
import { X509Certificate } from 'node:crypto';
import { startRouter, type SimServer } from '../../../kit/sim/router.js';
import { createServerCertificate } from './certificate.js';
import { mintToken, trustGate, type TrustState } from './trust.js';
import type { FaultOptions } from '../../../kit/sim/faults.js';
import { routes } from './routes.js';
import { SimStore, type SimOptions } from './store.js';
import { error } from './wire.js';

export type LxdSimulatorOptions = SimOptions & {
  /** Serve on this unix socket instead of loopback. */
  readonly socketPath?: string;
  readonly latencyMs?: number;
  readonly faults?: FaultOptions;
  readonly seed?: number;
  /** Serve HTTPS on loopback with a fresh self-signed certificate and LXD's trust handshake. */
  readonly tls?: boolean;
};

export type LxdSimulator = SimServer & {
  readonly store: SimStore;
  /** The address a `prova` remote uses: `unix:///path`, `http://127.0.0.1:port` or `https://…`. */
  readonly address: string;
  /** TLS mode: the server certificate (PEM) and its SHA-256 fingerprint. */
  readonly certificate?: { readonly pem: string; readonly fingerprint: string };
  /** TLS mode: mints a one-use certificate add token. */
  mintToken(clientName?: string): string;
};

export async function startSimulator(options: LxdSimulatorOptions = {}): Promise<LxdSimulator> {
  const store = new SimStore(options);
  const cert = options.tls ? await createServerCertificate() : undefined;
  const trust: TrustState | undefined = cert
    ? {
        certificate: cert.cert,
        fingerprint: new X509Certificate(cert.cert).fingerprint256.replace(/:/g, '').toLowerCase(),
        address: '',
        tokens: new Set(),
      }
    : undefined;
  const server = await startRouter<SimStore>({
    routes,
    state: store,
    notFound: () => error(404, 'not found'),
    // The daemon answers a method a known endpoint lacks with 501, e.g. DELETE /1.0/profiles.
    methodNotAllowed: () => error(501, 'not implemented'),
    invalid: (_req, issues) => error(400, issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')),
    faultResponse: (kind) => (kind === '429' ? error(429, 'Too many requests') : error(500, 'Internal server error')),
    latencyMs: options.latencyMs,
    faults: options.faults,
    seed: options.seed,
    listen: options.socketPath && !cert ? { socketPath: options.socketPath } : undefined,
    ...(cert && trust
      ? {
          tls: { cert: cert.cert, key: cert.key, requestCert: true, rejectUnauthorized: false },
          auth: (req) => trustGate(store, trust, req),
        }
      : {}),
  });
  if (trust) {
    trust.address = `127.0.0.1:${server.port}`;
    store.serverCertificate = { pem: trust.certificate, fingerprint: trust.fingerprint };
  }
  return Object.assign(server, {
    store,
    address: server.socketPath ? `unix://${server.socketPath}` : server.url,
    certificate: trust ? { pem: trust.certificate, fingerprint: trust.fingerprint } : undefined,
    mintToken: (clientName?: string) => {
      if (!trust) throw new TypeError('Expected the simulator to run with `tls: true` to mint trust tokens');
      return mintToken(trust, clientName);
    },
  });
}

export { SimStore } from './store.js';
export type { SimOptions } from './store.js';
