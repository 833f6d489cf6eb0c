// Provider B configuration: token (else PROVB_TOKEN), credentials file (else PROVB_CREDENTIAL_FILE,
// the Civo CLI's JSON format), API endpoint and default region. The environment is read only by
// resolveConfig, which the factory calls.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { sensitive } from '../../engine/values/secret.js';
import { ConfigError } from '../../engine/errors.js';
import type { OperationContext } from '../../engine/provider/context.js';
import { CivoClient } from './client.js';

/** How long each kind of wait may take by default (support/wait.ts); `waitLimitsMs` overrides any. */
export const WAIT_LIMITS_MS = Object.freeze({
  instance: 20 * 60_000,
  cluster: 30 * 60_000,
  pool: 30 * 60_000,
  database: 30 * 60_000,
  volume: 10 * 60_000,
  ip: 5 * 60_000,
  loadBalancer: 15 * 60_000,
  objectStore: 10 * 60_000,
  credential: 5 * 60_000,
  delete: 15 * 60_000,
});
export type WaitKind = keyof typeof WAIT_LIMITS_MS;
import type { RequestRate } from '../../kit/budget.js';

/** What a program passes to `provb(...)`. */
export type ProvbOptions = {
  /** API token; else PROVB_TOKEN; else the credentials file. */
  readonly token?: string;
  /** Path to a Civo CLI credentials file; else PROVB_CREDENTIAL_FILE. */
  readonly credentialsFile?: string;
  /** Base URL of the API; default https://api.civo.com. */
  readonly apiEndpoint?: string;
  /** Default region (LON1, FRA1, ...); resources and lookups without one must name theirs. */
  readonly region?: string;
  /** Interval between readiness polls; default 3000 ms, as the vendor's provider waits. */
  readonly pollIntervalMs?: number;
  /** Deadlines of readiness and deletion waits by kind, in ms, over the defaults of wait.ts (a step timeout still wins). */
  readonly waitLimitsMs?: Partial<Record<WaitKind, number>>;
  /**
   * The account's rate limit, shared by every request of this provider instance. Civo publishes no
   * number; by default requests go unthrottled until the API says otherwise (x-ratelimit-remaining 0
   * until x-ratelimit-reset, or 429 with Retry-After), then at half the rate seen, climbing back.
   */
  readonly rateLimit?: RequestRate;
};

export type TokenSource = 'token' | 'PROVB_TOKEN' | 'credentialsFile' | 'PROVB_CREDENTIAL_FILE';

/** What `ctx.config` holds for provider B's handlers: the resolved settings and the one client. */
export type ProvbConfig = {
  readonly apiEndpoint: string;
  readonly region: string | undefined;
  readonly credentialsFile: string | undefined;
  readonly tokenSource: TokenSource;
  readonly pollIntervalMs: number;
  readonly waitLimitsMs: Partial<Record<WaitKind, number>> | undefined;
  readonly client: CivoClient;
};

/** What provider B's handlers receive. */
export type ProvbContext = OperationContext<ProvbConfig>;

export const defaultApiEndpoint = 'https://api.civo.com';
const MAX_FILE_BYTES = 20 * 1024 * 1024;
const SUBJECT = 'provb';

/** Resolves options, then the environment, then defaults. Throws ConfigError for a bad credentials file or no token. */
export function resolveConfig(options: ProvbOptions, env: Readonly<Record<string, string | undefined>>): ProvbConfig {
  const credentialsFile = options.credentialsFile ?? (env.PROVB_CREDENTIAL_FILE || undefined);
  let token: string | undefined;
  let tokenSource: TokenSource;
  if (options.token) {
    token = options.token;
    tokenSource = 'token';
  } else if (env.PROVB_TOKEN) {
    token = env.PROVB_TOKEN;
    tokenSource = 'PROVB_TOKEN';
  } else if (credentialsFile) {
    token = readCredentialsFile(credentialsFile, options.credentialsFile ? 'credentialsFile' : 'PROVB_CREDENTIAL_FILE');
    tokenSource = options.credentialsFile ? 'credentialsFile' : 'PROVB_CREDENTIAL_FILE';
  } else {
    throw new ConfigError(
      SUBJECT,
      'token',
      'is not set; pass `token` or `credentialsFile`, or set PROVB_TOKEN or PROVB_CREDENTIAL_FILE',
    );
  }
  const apiEndpoint = options.apiEndpoint ?? defaultApiEndpoint;
  if (!/^https?:\/\//.test(apiEndpoint)) throw new ConfigError(SUBJECT, 'apiEndpoint', 'must be an http(s) URL');
  const pollIntervalMs = options.pollIntervalMs ?? 3000;
  if (!Number.isFinite(pollIntervalMs) || pollIntervalMs < 0)
    throw new TypeError('Expected `pollIntervalMs` to be a number from 0 and up');
  for (const [k, v] of Object.entries(options.waitLimitsMs ?? {})) {
    if (!(k in WAIT_LIMITS_MS))
      throw new TypeError(`Expected \`waitLimitsMs\` keys among ${Object.keys(WAIT_LIMITS_MS).join(', ')}, got '${k}'`);
    if (!(typeof v === 'number' && Number.isFinite(v) && v > 0))
      throw new TypeError(`Expected \`waitLimitsMs.${k}\` to be a number of ms above 0`);
  }
  const region = options.region || undefined;
  const secret = token;
  return {
    apiEndpoint,
    region,
    credentialsFile,
    tokenSource,
    pollIntervalMs,
    waitLimitsMs: options.waitLimitsMs,
    client: new CivoClient({ baseUrl: apiEndpoint, token: () => secret, rateLimit: options.rateLimit }),
  };
}

/** Reads `{"apikeys": {name: token}, "meta": {"current_apikey": name}}`; any problem is a ConfigError. */
export function readCredentialsFile(path: string, field: string): string {
  const full = path.startsWith('~') ? homedir() + path.slice(1) : path;
  let text: string;
  try {
    if (statSync(full).size > MAX_FILE_BYTES)
      throw new ConfigError(SUBJECT, field, `names a file larger than 20 MB (${path})`);
    text = readFileSync(full, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(
      SUBJECT,
      field,
      `names a file that cannot be read (${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(
      SUBJECT,
      field,
      `names a file that is not JSON (${path}); expected {"apikeys": {...}, "meta": {"current_apikey": ...}}`,
    );
  }
  const p = parsed as { apikeys?: Record<string, unknown>; meta?: { current_apikey?: unknown } };
  if (!p || typeof p.apikeys !== 'object' || p.apikeys === null)
    throw new ConfigError(SUBJECT, field, `names a file without "apikeys" (${path})`);
  const current = p.meta?.current_apikey;
  if (typeof current !== 'string' || !current)
    throw new ConfigError(SUBJECT, field, `names a file without "meta.current_apikey" (${path})`);
  const key = p.apikeys[current];
  if (typeof key !== 'string' || !key)
    throw new ConfigError(SUBJECT, field, `names a file with no API key called "${current}" (${path})`);
  return key;
}

/**
 * The configuration under the upstream provider's key names. The token is a secret in the seed: its
 * key stays (when the token came from the configuration), its value is the sensitive marker, as in
 * provider A and C. `credentials_file` names the file, not its content.
 */
export function terraformConfig(config: ProvbConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { api_endpoint: config.apiEndpoint };
  if (config.tokenSource === 'token' || config.tokenSource === 'PROVB_TOKEN') out.token = sensitive;
  if (config.credentialsFile) out.credentials_file = config.credentialsFile;
  if (config.region) out.region = config.region;
  return out;
}
