// Provider A's configuration (seed: remotes, acceptRemoteCertificate, generateClientCertificates,
// configDir): user arguments, then the environment (read only inside the factory), then lxc's
// config.yml in configDir (and the system-wide one), with a `local` remote on the unix socket.
import { existsSync, readFileSync, accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { z } from 'zod';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../engine/errors.js';
import { sensitive } from '../../engine/values/secret.js';
import type { OperationContext } from '../../engine/provider/context.js';
import type { Ctx, LxdClient, ServerInfo } from './client.js';

export const remoteSchema = z.object({
  name: z.string().min(1),
  address: z.string().optional(),
  protocol: z.enum(['lxd', 'simplestreams']).default('lxd'),
  password: z.string().optional(),
  token: z.string().optional(),
  default: z.boolean().default(false),
});

export const provaOptionsSchema = z.object({
  remotes: z.array(remoteSchema).optional(),
  acceptRemoteCertificate: z.boolean().optional(),
  generateClientCertificates: z.boolean().optional(),
  configDir: z.string().optional(),
  /** Unix socket of the `local` remote (default: the wire notes' search order). */
  socketPath: z.string().optional(),
  /** Interval of every state poll (instance start, network); tests make it tiny. */
  pollIntervalMs: z.number().int().positive().optional(),
  /** Seconds a single operation wait asks the server for (`/wait?timeout=`). */
  operationWaitSeconds: z.number().int().positive().optional(),
});

/** What a program passes to `prova(...)`. */
export type ProvaOptions = z.input<typeof provaOptionsSchema>;

/** @deprecated The old name of {@link ProvaOptions}; kept so existing programs type-check. */
export type ProvaArgs = ProvaOptions;

export type Remote = {
  readonly name: string;
  /** `unix:///path/to/socket` or `https://host:port`. */
  readonly address: string;
  readonly protocol: 'lxd' | 'simplestreams';
  readonly password?: string;
  readonly token?: string;
  /** Whether the remote came from the user's `remotes` (only those go into terraformConfig). */
  readonly declared: boolean;
  readonly isDefault: boolean;
};

/** The resolved settings: options, then the environment, then lxc's config.yml, then defaults. */
export type ProvaSettings = {
  readonly remotes: ReadonlyMap<string, Remote>;
  readonly defaultRemote: string;
  readonly acceptRemoteCertificate: boolean;
  readonly generateClientCertificates: boolean;
  readonly configDir: string;
  readonly pollIntervalMs: number;
  readonly operationWaitSeconds: number;
};

/** What `ctx.config` holds for provider A's handlers (made by connections.ts). */
export type ProvaConfig = {
  readonly settings: ProvaSettings;
  /** The remote's name, or the default remote's when omitted. */
  remoteName(remote?: string): string;
  /** The client of a remote (the default one when omitted), connected and trusted. */
  client(ctx: Ctx, remote?: string): Promise<LxdClient>;
  /** The server facts of a remote when an earlier request read them (for plan-time checks). */
  serverKnown(remote?: string): ServerInfo | undefined;
  close(): Promise<void>;
};

/** What provider A's handlers receive. */
export type ProvaContext = OperationContext<ProvaConfig>;

/** The Go client's socket order: $LXD_SOCKET, $LXD_DIR/unix.socket, the snap socket if writable, /var/lib/lxd. */
export function findSocket(env: Readonly<Record<string, string | undefined>>): string {
  if (env.LXD_SOCKET) return env.LXD_SOCKET;
  if (env.LXD_DIR) return join(env.LXD_DIR, 'unix.socket');
  const snap = '/var/snap/lxd/common/lxd/unix.socket';
  try {
    accessSync(snap, constants.W_OK);
    return snap;
  } catch {
    /* not a snap install */
  }
  return '/var/lib/lxd/unix.socket';
}

/** `$HOME/snap/lxd/common/config` when /var/snap/lxd exists, else `$HOME/.config/lxc`. */
export function defaultConfigDir(home = homedir()): string {
  return existsSync('/var/snap/lxd') ? join(home, 'snap/lxd/common/config') : join(home, '.config/lxc');
}

/** DetermineLXDAddress: no scheme ⇒ unix for '' or '/…', else https with port 8443 (lxd) or 443. */
export function normalizeAddress(
  address: string | undefined,
  protocol: 'lxd' | 'simplestreams',
  socket: string,
): string {
  let a = (address ?? '').trim();
  if (a === '' || a.startsWith('/')) a = `unix://${a || socket}`;
  else if (!/^[a-z]+:\/\//.test(a)) a = `https://${a}`;
  if (a.startsWith('unix:')) {
    if (protocol === 'simplestreams')
      throw new ConfigError('prova', 'remotes.address', 'must be https for a simplestreams remote');
    return a === 'unix://' ? `unix://${socket}` : a;
  }
  // Plain HTTP only to loopback: the in-process simulator (never a real daemon, which speaks TLS).
  if (/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/.test(a)) return a.replace(/\/$/, '');
  if (!a.startsWith('https:'))
    throw new ConfigError(
      'prova',
      'remotes.address',
      `must start with https: or unix: (got scheme ${a.split(':')[0]})`,
    );
  const url = new URL(a);
  const port = url.port || (protocol === 'lxd' ? '8443' : '443');
  return `https://${url.hostname}:${port}${url.pathname === '/' ? '' : url.pathname}`;
}

const staticRemotes: readonly [string, string][] = [
  ['images', 'https://images.lxd.canonical.com'],
  ['ubuntu', 'https://cloud-images.ubuntu.com/releases/'],
  ['ubuntu-daily', 'https://cloud-images.ubuntu.com/daily/'],
  ['ubuntu-minimal', 'https://cloud-images.ubuntu.com/minimal/releases/'],
  ['ubuntu-minimal-daily', 'https://cloud-images.ubuntu.com/minimal/daily/'],
];

type LxcConfigFile = { 'default-remote'?: string; remotes?: Record<string, { addr?: string; protocol?: string }> };

function readLxcConfig(dir: string): LxcConfigFile {
  const file = join(dir, 'config.yml');
  if (!existsSync(file)) return {};
  try {
    return (parseYaml(readFileSync(file, 'utf8')) as LxcConfigFile | null) ?? {};
  } catch (error) {
    throw new ConfigError('prova', 'configDir', `holds a config.yml that is not valid YAML (${file})`, {
      cause: error,
    });
  }
}

/** Resolves arguments + environment + config.yml into remotes and settings. */
export function resolveConfig(args: ProvaOptions, env: Readonly<Record<string, string | undefined>>): ProvaSettings {
  const parsed = provaOptionsSchema.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError('prova', issue.path.join('.') || 'config', issue.message);
  }
  const a = parsed.data;
  const socket = a.socketPath ?? findSocket(env);
  const configDir = a.configDir ?? defaultConfigDir(env.HOME || homedir());
  const file = readLxcConfig(configDir);
  const global = readLxcConfig(env.LXD_GLOBAL_CONF || '/etc/lxd');
  const remotes = new Map<string, Remote>();
  const put = (r: Omit<Remote, 'isDefault'>) => remotes.set(r.name, { ...r, isDefault: false });
  for (const [name, addr] of staticRemotes) put({ name, address: addr, protocol: 'simplestreams', declared: false });
  // The system-wide config.yml first, so the user's remotes of the same name win.
  for (const [name, r] of [...Object.entries(global.remotes ?? {}), ...Object.entries(file.remotes ?? {})]) {
    const protocol = r.protocol === 'simplestreams' ? 'simplestreams' : 'lxd';
    put({ name, address: normalizeAddress(r.addr, protocol, socket), protocol, declared: false });
  }
  put({ name: 'local', address: `unix://${socket}`, protocol: 'lxd', declared: false });
  let defaultRemote = file['default-remote'] && remotes.has(file['default-remote']) ? file['default-remote'] : 'local';
  if (env.LXD_SCHEME || env.LXD_PORT)
    throw new ConfigError(
      'prova',
      'LXD_SCHEME/LXD_PORT',
      'are no longer supported; set LXD_ADDR to the fully qualified address',
    );
  if (env.LXD_REMOTE || env.LXD_ADDR) {
    const name = env.LXD_REMOTE || 'default';
    put({
      name,
      address: normalizeAddress(env.LXD_ADDR, 'lxd', socket),
      protocol: 'lxd',
      password: env.LXD_PASSWORD,
      token: env.LXD_TOKEN,
      declared: false,
    });
    defaultRemote = name;
  }
  const defaults = (a.remotes ?? []).filter((r) => r.default);
  if (defaults.length > 1)
    throw new ConfigError(
      'prova',
      'remotes',
      `may mark at most one remote as default (got ${defaults.map((r) => r.name).join(', ')})`,
    );
  for (const r of a.remotes ?? []) {
    if (r.password && r.token)
      throw new ConfigError('prova', `remotes[${r.name}]`, 'takes a password or a token, not both');
    if (r.default && r.protocol !== 'lxd')
      throw new ConfigError('prova', `remotes[${r.name}].default`, 'can only be set on an lxd-protocol remote');
    put({
      name: r.name,
      address: normalizeAddress(r.address, r.protocol, socket),
      protocol: r.protocol,
      password: r.password,
      token: r.token,
      declared: true,
    });
    if (r.default) defaultRemote = r.name;
  }
  const final = new Map<string, Remote>();
  for (const [name, r] of remotes) final.set(name, { ...r, isDefault: name === defaultRemote });
  return {
    remotes: final,
    defaultRemote,
    acceptRemoteCertificate: a.acceptRemoteCertificate ?? env.LXD_ACCEPT_SERVER_CERTIFICATE === 'true',
    generateClientCertificates: a.generateClientCertificates ?? env.LXD_GENERATE_CLIENT_CERTS === 'true',
    configDir,
    pollIntervalMs: a.pollIntervalMs ?? 2000,
    operationWaitSeconds: a.operationWaitSeconds ?? 30,
  };
}

/** The configuration under the upstream provider's key names; a secret (password, token) shows as the sensitive marker. */
export function terraformConfig(s: ProvaSettings): Record<string, unknown> {
  const remote = [...s.remotes.values()]
    .filter((r) => r.declared)
    .map((r) => ({
      name: r.name,
      address: r.address,
      protocol: r.protocol,
      // The seed marks password and token secret: the key stays, the value is the sensitive marker.
      ...(r.password !== undefined ? { password: sensitive } : {}),
      ...(r.token !== undefined ? { token: sensitive } : {}),
      default: r.isDefault,
    }));
  return {
    ...(remote.length ? { remote } : {}),
    accept_remote_certificate: s.acceptRemoteCertificate,
    generate_client_certificates: s.generateClientCertificates,
    config_dir: s.configDir,
  };
}
