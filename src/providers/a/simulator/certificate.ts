// The fake LXD's server certificate: self-signed EC P-384 for server auth, with the subject
// alternative names the daemon puts in its own (DNS:<host>, IP:127.0.0.1, IP:::1), so clients that
// verify a pinned certificate against the address they dial (the `lxc` client does) accept it.
import { webcrypto } from 'node:crypto';
import { hostname } from 'node:os';
import { ensureReflectMetadata } from '../support/reflect-shim.js';

export type ServerCertificate = { readonly cert: string; readonly key: string };

export async function createServerCertificate(): Promise<ServerCertificate> {
  ensureReflectMetadata();
  const x509 = await import('@peculiar/x509');
  const alg = { name: 'ECDSA', namedCurve: 'P-384', hash: 'SHA-384' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const notBefore = new Date(Date.now() - 60_000);
  const host = hostname();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
        .toString('hex')
        .replace(/^[89a-f]/, '1'),
      name: `CN=root@${host}, O=linuxcontainers.org`,
      notBefore,
      notAfter: new Date(notBefore.getTime() + 10 * 365 * 86_400_000),
      keys,
      signingAlgorithm: alg,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([
          { type: 'dns', value: host },
          { type: 'ip', value: '127.0.0.1' },
          { type: 'ip', value: '::1' },
        ]),
      ],
    },
    webcrypto as never,
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END PRIVATE KEY-----\n`;
  return { cert: `${cert.toString('pem')}\n`, key };
}
