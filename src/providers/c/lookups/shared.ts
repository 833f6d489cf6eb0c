// What the lookups share: project/region arguments and their resolution (explicit ids win over the
// provider's defaults; neither is a validation issue before any request), maxItems, the id of a
// list lookup, not-found mapping and the exactly-one rule of findOneBy.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { LookupError, ProviderError, ValidationError } from '../../../engine/errors.js';
import { defineLookup, type LookupDefinition } from '../../../engine/provider/define.js';
import { scopeIssues } from '../config.js';
import type { Scope } from '../wire/cloud.js';
import type { ProvcConfig } from '../config.js';

export const scopeArgs = {
  projectId: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Cloud project id; absent uses the provider's cloudProjectId (or PROVC_CLOUD_PROJECT_ID)."),
  regionId: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Cloud region id; absent uses the provider's cloudRegionId (or PROVC_CLOUD_REGION_ID)."),
};

/** maxItems: an integer >= 0; 0 or absent means 1000. */
export const maxItemsArg = z.number().int().min(0).optional().describe('Most items to return; 0 or absent means 1000.');
export const effectiveMax = (n: number | undefined): number => (n ? n : 1000);

type Scoped = { readonly projectId?: number; readonly regionId?: number };

export function checkScope(args: Scoped, config: ProvcConfig) {
  return scopeIssues(config.settings, args.projectId, args.regionId);
}

/** The scope a cloud lookup runs in; throws the validation issues when it cannot be resolved. */
export function requireScope(args: Scoped, config: ProvcConfig): Scope {
  const issues = scopeIssues(config.settings, args.projectId, args.regionId);
  if (issues.length) throw new ValidationError(issues.map((i) => ({ resource: '', ...i })));
  return {
    projectId: args.projectId ?? config.settings.cloudProjectId!,
    regionId: args.regionId ?? config.settings.cloudRegionId!,
  };
}

/** A stable id for a list lookup's result: its token and its arguments. */
export function listId(token: string, args: unknown): string {
  return createHash('sha256')
    .update(token)
    .update(JSON.stringify(args ?? {}))
    .digest('hex')
    .slice(0, 16);
}

/** Runs a single GET, turning the vendor's 404 into a LookupError that says what was looked for. */
export async function getOne<T>(token: string, criteria: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProviderError && error.notFound) throw new LookupError(token, 'not_found', [], criteria);
    throw error;
  }
}

/** findOneBy: exactly one object must match, else a LookupError saying how many did. */
export function exactlyOne<T extends { id?: unknown }>(token: string, items: readonly T[], criteria: string): T {
  if (items.length === 1) return items[0]!;
  if (items.length === 0) throw new LookupError(token, 'not_found', [], criteria);
  throw new LookupError(
    token,
    'ambiguous',
    items.map((i) => String(i.id)),
    criteria,
  );
}

/** 'exactly one of `a` and `b`' as a validation issue. */
export function exactlyOneOf(args: Record<string, unknown>, a: string, b: string) {
  const has = (k: string) => args[k] !== undefined;
  if (has(a) === has(b))
    return [{ path: [has(a) ? b : a], code: 'invalid_value', message: `exactly one of ${a} and ${b} must be set` }];
  return [];
}

export function describeCriteria(args: Record<string, unknown>): string {
  const parts = Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.length ? parts.join(', ') : 'the arguments';
}

/** defineLookup with ctx.config typed as the provider's configuration. */
export function provcLookup<A extends z.ZodType, R>(
  def: LookupDefinition<A, R, ProvcConfig>,
): LookupDefinition<A, R, ProvcConfig> {
  return defineLookup(def);
}
