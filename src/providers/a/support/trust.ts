// Joining an HTTPS remote: the client certificate (generated as EC P-384 when asked), the server
// certificate pinned by SHA-256 fingerprint (accepted only with acceptRemoteCertificate or a token
// whose fingerprint matches), then trust added with the remote's password or token.
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { createHash, webcrypto, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { Agent, buildConnector } from 'undici';
import { ConfigError, ProviderError } from '../../../engine/errors.js';
import { LxdClient, type Ctx } from '../client.js';
import type { Remote, ProvaSettings } from '../config.js';
import { ensureReflectMetadata } from './reflect-shim.js';

export type ClientCertificate = { readonly cert: string; readonly key: string };
export type TrustToken = {
  readonly client_name?: string;
  readonly fingerprint: string;
  readonly addresses?: string[];
  readonly secret: string;
  readonly expires_at?: string;
};

/** Lowercase hex SHA-256 of a PEM certificate's DER bytes (LXD's certificate fingerprint). */
export function certificateFingerprint(pem: string): string {
  return createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
}

/** Decodes a certificate add token (base64 JSON); undefined when it is not one. */
export function decodeTrustToken(token: string): TrustToken | undefined {
  try {
    const t = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as TrustToken;
    return typeof t.fingerprint === 'string' && typeof t.secret === 'string' ? t : undefined;
  } catch {
    return undefined;
  }
}

/** Creates client.crt / client.key (EC P-384, self-signed, client auth) in `dir`. */
export async function generateClientCertificate(dir: string): Promise<ClientCertificate> {
  const { cert: pem, key } = await createCertificate('clientAuth');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'client.crt'), pem, { mode: 0o644 });
  writeFileSync(join(dir, 'client.key'), key, { mode: 0o600 });
  return { cert: pem, key };
}

/** A self-signed EC P-384 certificate and its PKCS#8 key, in memory (client or server use). */
export async function createCertificate(usage: 'clientAuth' | 'serverAuth'): Promise<ClientCertificate> {
  ensureReflectMetadata();
  const x509 = await import('@peculiar/x509');
  const crypto = webcrypto;
  const alg = { name: 'ECDSA', namedCurve: 'P-384', hash: 'SHA-384' };
  const keys = await crypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const notBefore = new Date(Date.now() - 60_000);
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
        .toString('hex')
        .replace(/^[89a-f]/, '1'),
      name: `CN=converge@${hostname()}, O=linuxcontainers.org`,
      notBefore,
      notAfter: new Date(notBefore.getTime() + 10 * 365 * 86_400_000),
      keys,
      signingAlgorithm: alg,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage[usage]]),
      ],
    },
    crypto as never,
  );
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey));
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END PRIVATE KEY-----\n`;
  return { cert: cert.toString('pem') + '\n', key };
}

/** The client certificate in configDir, generated when missing and allowed. */
export async function loadClientCertificate(
  settings: Pick<ProvaSettings, 'configDir' | 'generateClientCertificates'>,
): Promise<ClientCertificate | undefined> {
  const crt = join(settings.configDir, 'client.crt');
  const key = join(settings.configDir, 'client.key');
  if (existsSync(crt) && existsSync(key)) return { cert: readFileSync(crt, 'utf8'), key: readFileSync(key, 'utf8') };
  return settings.generateClientCertificates ? generateClientCertificate(settings.configDir) : undefined;
}

/** Fetches a server's certificate without verifying it (the one unverified handshake, before pinning). */
export function fetchServerCertificate(
  host: string,
  port: number,
  signal?: AbortSignal,
): Promise<{ pem: string; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const onAbort = () => socket.destroy(signal?.reason as Error);
    const socket = tlsConnect(
      { host, port, servername: /^[\d.]+$|:/.test(host) ? undefined : host, rejectUnauthorized: false },
      () => {
        signal?.removeEventListener('abort', onAbort);
        const raw = socket.getPeerCertificate().raw;
        socket.destroy();
        if (!raw) return reject(new Error('the server sent no certificate'));
        const pem = `-----BEGIN CERTIFICATE-----\n${raw
          .toString('base64')
          .match(/.{1,64}/g)!
          .join('\n')}\n-----END CERTIFICATE-----\n`;
        resolve({ pem, fingerprint: createHash('sha256').update(raw).digest('hex') });
      },
    );
    socket.once('error', (error: Error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** An undici Agent presenting the client certificate and accepting only the pinned server certificate. */
export function pinnedAgent(client: ClientCertificate, fingerprint: string): Agent {
  // No session resumption: a resumed TLS 1.3 session shows no peer certificate to check.
  const base = buildConnector({ cert: client.cert, key: client.key, rejectUnauthorized: false, maxCachedSessions: 0 });
  const connect: buildConnector.connector = (options, callback) => {
    base(options, (...args) => {
      const [error, socket] = args;
      if (error) return callback(error, null);
      const seen = (socket as TLSSocket).getPeerCertificate?.()?.fingerprint256?.replace(/:/g, '').toLowerCase();
      if (seen !== fingerprint) {
        socket.destroy();
        return callback(
          Object.assign(
            new Error(`server certificate fingerprint ${seen ?? '(none)'} does not match the pinned ${fingerprint}`),
            { code: 'CONVERGE_CERT_MISMATCH' },
          ),
          null,
        );
      }
      callback(null, socket);
    });
  };
  return new Agent({ connect });
}

function trustError(remote: Remote, detail: string): ProviderError {
  return new ProviderError({
    provider: 'prova',
    operation: `connect to remote ${remote.name}`,
    retryable: false,
    vendorCode: 'untrusted',
    detail,
  });
}

/** Connects to an HTTPS remote: pin (or accept) its certificate, then become trusted. */
export async function joinHttpsRemote(
  ctx: Ctx,
  remote: Remote,
  settings: ProvaSettings,
): Promise<{ client: LxdClient; agent: Agent }> {
  const certs = await loadClientCertificate(settings);
  if (!certs) {
    throw new ConfigError(
      'prova',
      `remotes[${remote.name}]`,
      `needs a client certificate, but ${settings.configDir} has no client.crt/client.key; set generateClientCertificates: true`,
    );
  }
  const pinPath = join(settings.configDir, 'servercerts', `${remote.name}.crt`);
  let pem = existsSync(pinPath) ? readFileSync(pinPath, 'utf8') : undefined;
  if (!pem) {
    const url = new URL(remote.address);
    const fetched = await fetchServerCertificate(
      url.hostname.replace(/^\[|\]$/g, ''),
      Number(url.port || 8443),
      ctx.signal,
    );
    const token = remote.token ? decodeTrustToken(remote.token) : undefined;
    if (token) {
      if (token.fingerprint.toLowerCase() !== fetched.fingerprint) {
        throw trustError(
          remote,
          `the server certificate (fingerprint ${fetched.fingerprint}) does not match the trust token's fingerprint ${token.fingerprint}`,
        );
      }
    } else if (!settings.acceptRemoteCertificate) {
      throw trustError(
        remote,
        `the server certificate (fingerprint ${fetched.fingerprint}) is not trusted; set acceptRemoteCertificate: true to accept and pin it`,
      );
    }
    pem = fetched.pem;
    mkdirSync(join(settings.configDir, 'servercerts'), { recursive: true, mode: 0o700 });
    writeFileSync(pinPath, pem, { mode: 0o644 });
  }
  const agent = pinnedAgent(certs, certificateFingerprint(pem));
  const secrets = [remote.password, remote.token].filter((s): s is string => !!s);
  const client = new LxdClient({
    remote: remote.name,
    baseUrl: remote.address,
    dispatcher: agent,
    secrets: () => secrets,
    operationWaitSeconds: settings.operationWaitSeconds,
  });
  try {
    let info = await client.server(ctx, true);
    if (info.auth !== 'trusted') {
      if (!remote.password && !remote.token)
        throw trustError(
          remote,
          'the client certificate is not trusted by the server and the remote has no password or token to add it',
        );
      const body =
        remote.token && info.api_extensions.includes('explicit_trust_token')
          ? { type: 'client', trust_token: remote.token }
          : { type: 'client', password: remote.token ?? remote.password };
      try {
        await client.request(ctx, {
          method: 'POST',
          pathTemplate: '/1.0/certificates',
          operation: 'add client certificate to trust store',
          body,
        });
      } catch (error) {
        if (!(error instanceof ProviderError) || error.status !== 403) throw error;
      }
      info = await client.server(ctx, true);
      if (info.auth !== 'trusted')
        throw trustError(remote, 'Unable to authenticate with remote server: the password or token was refused');
    }
    const version = info.environment?.server_version ?? '0';
    if (Number(version.split('.')[0]) < 4)
      throw trustError(remote, `LXD server version ${version} is older than the supported 4.0.0`);
    return { client, agent };
  } catch (error) {
    await agent.close().catch(() => {});
    throw error;
  }
}
