// Reading an LXD instance: the object (with its ETag), its outputs from the object and its state,
// and its config split into user keys and limits (the keys the server computes left out).
import { isNotFound } from '../../../kit/gone.js';
import type { LxdClient } from '../client.js';
import type { ProvaContext } from '../config.js';
import type { ExecResult } from './execs.js';
import { computedKeys } from './keys.js';
import { durationMs, networkOutputs, readState, type InstanceState, type Waits, type WireInstance } from './runtime.js';

/** Config keys the server computes (never the user's). */
export const isComputed = computedKeys(['volatile.', 'image.']);
const noOutputs = {
  status: '',
  location: '',
  ipv4Address: '',
  ipv6Address: '',
  macAddress: '',
  interfaces: {},
  execResults: {},
};

/** What a create that failed after the instance existed can still say about it (best effort). */
export async function partialOutputs(ctx: ProvaContext, client: LxdClient, name: string, project?: string) {
  if (ctx.signal.aborted) return noOutputs;
  try {
    const got = await getInstance(ctx, client, name, project);
    return got ? await readOutputs(ctx, client, got.instance, project) : noOutputs;
  } catch {
    return noOutputs;
  }
}

export async function getInstance(
  ctx: ProvaContext,
  client: LxdClient,
  name: string,
  project?: string,
): Promise<{ instance: WireInstance; etag?: string } | null> {
  try {
    const r = await client.request<WireInstance>(ctx, {
      method: 'GET',
      pathTemplate: '/1.0/instances/{name}',
      params: { name },
      operation: 'read instance',
      project,
    });
    return { instance: r.metadata, etag: r.etag };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The outputs, read from the real instance and its state. */
export async function readOutputs(
  ctx: ProvaContext,
  client: LxdClient,
  instance: WireInstance,
  project: string | undefined,
  execResults: Record<string, ExecResult> = {},
  known?: InstanceState | null,
) {
  return outputsWith(
    instance,
    known !== undefined ? known : await readState(ctx, client, instance.name, project),
    execResults,
  );
}

/** The outputs of an instance whose state is known. */
export function outputsWith(
  instance: WireInstance,
  state: InstanceState | null,
  execResults: Record<string, ExecResult>,
) {
  return {
    status: state?.status ?? instance.status,
    location: instance.location && instance.location !== 'none' ? instance.location : '',
    ...networkOutputs(instance, state),
    execResults,
  };
}

/** User config (without limits.*) and limits, split out of the server's config. */
export function splitConfig(config: Readonly<Record<string, string>>): {
  config: Record<string, string>;
  limits: Record<string, string>;
} {
  const out = { config: {} as Record<string, string>, limits: {} as Record<string, string> };
  for (const [k, v] of Object.entries(config)) {
    if (isComputed(k)) continue;
    if (k.startsWith('limits.')) out.limits[k.slice(7)] = v;
    else out.config[k] = v;
  }
  return out;
}

/** '512MiB', '1GB', '2GiB', '1073741824' → bytes; undefined for percentages and empty values. */
export function memoryBytes(v: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgtpe])?(i)?b?$/i.exec(v?.trim() ?? '');
  if (!m) return undefined;
  const power = m[2] ? 'kmgtpe'.indexOf(m[2].toLowerCase()) + 1 : 0;
  return Number(m[1]) * (m[3] ? 1024 : 1000) ** power;
}

/**
 * The waits of one operation: the instance's own `timeouts` entry, cut short to end before the
 * step's limit (so a create can still report what it made instead of being aborted).
 */
export function waitsFor(
  ctx: ProvaContext,
  i: { readonly timeouts?: Partial<Record<'create' | 'update' | 'delete' | 'read', string>> },
  op: 'create' | 'update' | 'delete' | 'read',
  startedAt = Date.now(),
): Waits {
  const own = durationMs(i.timeouts?.[op], 300_000);
  const step =
    ctx.timeoutMs === undefined
      ? Infinity
      : ctx.timeoutMs - (Date.now() - startedAt) - Math.min(2000, ctx.timeoutMs / 10);
  return { intervalMs: ctx.config.settings.pollIntervalMs, timeoutMs: Math.max(1, Math.min(own, step)) };
}

/** The user's config with the limits as `limits.*` keys, as the server stores them. */
export function mergedConfig(i: {
  readonly config: Readonly<Record<string, string>>;
  readonly limits: Readonly<Record<string, string>>;
}): Record<string, string> {
  const c: Record<string, string> = { ...i.config };
  for (const [k, v] of Object.entries(i.limits)) c[`limits.${k}`] = v;
  return c;
}
