// Where an object lives: the resource's or lookup's `region`, else the provider's default. Without
// either, plan-time validation reports `missing_region` on ['region'].
import type { CheckIssue } from '../../../engine/provider/define.js';
import { ConfigError } from '../../../engine/errors.js';
import type { ProvbConfig, ProvbContext } from '../config.js';

/** The check every regional resource and lookup runs. */
export function checkRegion(inputs: { readonly region?: string }, config: ProvbConfig): CheckIssue[] {
  if (inputs.region || config.region) return [];
  return [
    {
      path: ['region'],
      code: 'missing_region',
      message:
        'no region is set here and the provider has no default region; set `region` here or in provb({ region })',
    },
  ];
}

/** The effective region, upper-cased (the API compares codes case-insensitively). */
export function regionOf(ctx: ProvbContext, inputs: { readonly region?: string }): string {
  const region = inputs.region || ctx.config.region;
  if (!region)
    throw new ConfigError('provb', 'region', `is not set for ${ctx.address} and the provider has no default region`);
  return region.toUpperCase();
}

/** The region an object recorded with `prior` inputs lives in (imports use the provider default). */
export function priorRegion(ctx: ProvbContext, prior: { readonly inputs: Record<string, unknown> }): string {
  return regionOf(ctx, { region: prior.inputs.region as string | undefined });
}

/**
 * For imports the vendor resolves by scanning (volumes, node pools): `get` in the effective region,
 * else in every other region. Returns the object and where it was found, or null.
 */
export async function scanRegions<T>(
  ctx: ProvbContext,
  first: string,
  get: (region: string) => Promise<T | null>,
): Promise<{ value: T; region: string } | null> {
  const here = await get(first);
  if (here !== null || ctx.operation !== 'import') return here === null ? null : { value: here, region: first };
  for (const r of await ctx.config.client.regions(ctx)) {
    const code = String(r.code).toUpperCase();
    if (code === first) continue;
    const there = await get(code);
    if (there !== null) return { value: there, region: code };
  }
  return null;
}

/**
 * The plan-time check of the token, the endpoint and the default region: one authenticated read
 * (GET /v2/regions). A bad token fails with Civo's 401, a dead endpoint with the refused
 * connection, and a default region Civo does not list with a ConfigError naming the ones it does.
 */
export async function verifyAccess(ctx: ProvbContext): Promise<void> {
  const regions = (await ctx.config.client.regions(ctx)).map((r) => String(r.code).toUpperCase());
  const region = ctx.config.region?.toUpperCase();
  if (region && !regions.includes(region))
    throw new ConfigError(
      'provb',
      'region',
      `"${ctx.config.region}" is not a Civo region (Civo lists ${regions.join(', ')})`,
    );
}
