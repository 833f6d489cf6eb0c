// Provider C's configuration (seed 002): the API key, base URL, default cloud project and region,
// and the polling interval and time-out of long-running cloud operations. Arguments win over the
// PROVC_* environment variables, which win over defaults; the environment is read only here.
import type { Dispatcher } from 'undici';
import { ConfigError } from '../../engine/errors.js';
import type { OperationContext } from '../../engine/provider/context.js';
import { sensitive } from '../../engine/values/secret.js';
import type { RequestRate } from '../../kit/budget.js';
import type { GcoreClient } from './client.js';
import type { Scope } from './wire/cloud.js';

export const DEFAULT_BASE_URL = 'https://api.gcore.com';

/** What a program passes to `provc(...)`. */
export type ProvcOptions = {
  /** API key (secret); else PROVC_API_KEY. */
  readonly apiKey?: string;
  /** Base URL; a base with a path prefix works ('http://127.0.0.1:8080/prefix'). */
  readonly baseUrl?: string;
  /** Default project for cloud objects; else PROVC_CLOUD_PROJECT_ID. An explicit projectId wins. */
  readonly cloudProjectId?: number;
  /** Default region for cloud objects; else PROVC_CLOUD_REGION_ID. An explicit regionId wins. */
  readonly cloudRegionId?: number;
  /** Seconds between polls of a cloud task (fractions allowed); default 3. */
  readonly pollingIntervalSeconds?: number;
  /** Seconds before polling a task gives up; default 7200. */
  readonly pollingTimeoutSeconds?: number;
  /**
   * The account's rate limit, shared by every request of this provider instance. Gcore publishes no
   * general number; by default requests go unthrottled until a 429 (with Retry-After), then at half
   * the rate seen, climbing back.
   */
  readonly rateLimit?: RequestRate;
  /** The environment to read instead of process.env (tests). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** An undici dispatcher (proxies, custom TLS). */
  readonly dispatcher?: Dispatcher;
};

/** @deprecated The old name of {@link ProvcOptions}; kept so existing programs type-check. */
export type ProvcArgs = ProvcOptions;

/** The resolved settings: options, then the PROVC_* environment, then defaults. */
export type ProvcSettings = {
  readonly apiKey: string | undefined;
  readonly baseUrl: string;
  readonly cloudProjectId: number | undefined;
  readonly cloudRegionId: number | undefined;
  readonly pollingIntervalSeconds: number;
  readonly pollingTimeoutSeconds: number;
  readonly rateLimit?: RequestRate;
};

/** What `ctx.config` holds for provider C's handlers. */
export type ProvcConfig = { readonly settings: ProvcSettings; readonly client: GcoreClient };

/** What provider C's handlers receive. */
export type ProvcContext = OperationContext<ProvcConfig>;

const SUBJECT = 'provc';

export function resolveConfig(args: ProvcOptions = {}): ProvcSettings {
  const env = args.env ?? process.env;
  const apiKey = args.apiKey ?? (env.PROVC_API_KEY || undefined);
  const baseUrl = args.baseUrl ?? DEFAULT_BASE_URL;
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(SUBJECT, 'baseUrl', `must be an absolute URL, got '${baseUrl}'`);
  }
  const settings: ProvcSettings = {
    apiKey,
    baseUrl,
    cloudProjectId: args.cloudProjectId ?? envInt(env, 'PROVC_CLOUD_PROJECT_ID', 'cloudProjectId'),
    cloudRegionId: args.cloudRegionId ?? envInt(env, 'PROVC_CLOUD_REGION_ID', 'cloudRegionId'),
    pollingIntervalSeconds: args.pollingIntervalSeconds ?? 3,
    pollingTimeoutSeconds: args.pollingTimeoutSeconds ?? 7200,
    ...(args.rateLimit ? { rateLimit: args.rateLimit } : {}),
  };
  for (const field of ['cloudProjectId', 'cloudRegionId'] as const) {
    const v = settings[field];
    if (v !== undefined && !(Number.isInteger(v) && v > 0))
      throw new ConfigError(SUBJECT, field, `must be a positive integer, got ${v}`);
  }
  if (!(settings.pollingIntervalSeconds > 0))
    throw new ConfigError(SUBJECT, 'pollingIntervalSeconds', 'must be a number above 0');
  if (!(settings.pollingTimeoutSeconds > 0))
    throw new ConfigError(SUBJECT, 'pollingTimeoutSeconds', 'must be a number above 0');
  return settings;
}

function envInt(env: Readonly<Record<string, string | undefined>>, name: string, field: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0)
    throw new ConfigError(SUBJECT, field, `from ${name} must be a positive integer, got '${raw}'`);
  return n;
}

/** The configuration with the upstream Terraform provider's key names; the API key shows as the sensitive marker. */
export function terraformConfig(s: ProvcSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {
    base_url: s.baseUrl,
    polling_interval_seconds: s.pollingIntervalSeconds,
    polling_timeout_seconds: s.pollingTimeoutSeconds,
  };
  if (s.apiKey !== undefined) out.api_key = sensitive;
  if (s.cloudProjectId !== undefined) out.cloud_project_id = s.cloudProjectId;
  if (s.cloudRegionId !== undefined) out.cloud_region_id = s.cloudRegionId;
  return out;
}

/** Where a cloud object lives: explicit ids win over the configured defaults. */
export function resolveScope(
  s: ProvcSettings,
  projectId: number | undefined,
  regionId: number | undefined,
): Partial<Scope> {
  return { projectId: projectId ?? s.cloudProjectId, regionId: regionId ?? s.cloudRegionId };
}

/** Issues for a cloud object whose project or region cannot be resolved (checked before any request). */
export function scopeIssues(
  s: ProvcSettings,
  projectId: number | undefined,
  regionId: number | undefined,
  prefix: readonly string[] = [],
) {
  const scope = resolveScope(s, projectId, regionId);
  const issues: { path: string[]; message: string; code: string }[] = [];
  if (scope.projectId === undefined)
    issues.push({
      path: [...prefix, 'projectId'],
      code: 'missing_project',
      message: 'projectId is required: set it here, or cloudProjectId / PROVC_CLOUD_PROJECT_ID on the provider',
    });
  if (scope.regionId === undefined)
    issues.push({
      path: [...prefix, 'regionId'],
      code: 'missing_region',
      message: 'regionId is required: set it here, or cloudRegionId / PROVC_CLOUD_REGION_ID on the provider',
    });
  return issues;
}
