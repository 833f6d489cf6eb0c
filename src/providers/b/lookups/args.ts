// Argument rules shared by the single lookups: which of id / name (or hostname, label) must be given.
import { z } from 'zod';
import type { CheckIssue } from '../../../engine/provider/define.js';
import type { ProvbConfig } from '../config.js';
import { checkRegion } from '../support/region.js';

/** Exactly one of `keys` is set. */
export function exactlyOne(args: Record<string, unknown>, keys: readonly string[]): CheckIssue[] {
  const set = keys.filter((k) => args[k] !== undefined && args[k] !== '');
  if (set.length === 1) return [];
  return [
    {
      path: [keys[0]!],
      code: 'invalid_value',
      message: set.length
        ? `give only one of ${keys.join(', ')} (got ${set.join(' and ')})`
        : `give one of ${keys.join(', ')}`,
    },
  ];
}

/** At least one of `keys` is set. */
export function atLeastOne(args: Record<string, unknown>, keys: readonly string[]): CheckIssue[] {
  return keys.some((k) => args[k] !== undefined && args[k] !== '')
    ? []
    : [{ path: [keys[0]!], code: 'invalid_value', message: `give at least one of ${keys.join(', ')}` }];
}

/** Regional lookups: the region rule plus the argument rule. */
export const regional =
  (rule: (args: Record<string, unknown>) => CheckIssue[]) =>
  (args: Record<string, unknown> & { region?: string }, config: ProvbConfig): CheckIssue[] => [
    ...checkRegion(args, config),
    ...rule(args),
  ];

/** "id 'abc'" or "name 'web'", for errors. */
export function criteria(args: Record<string, unknown>, keys: readonly string[], region?: string): string {
  const parts = keys.filter((k) => args[k] !== undefined && args[k] !== '').map((k) => `${k} '${String(args[k])}'`);
  return `${parts.join(' and ') || '(nothing)'}${region ? ` in ${region}` : ''}`;
}

/** The region argument every regional lookup takes. */
export const regionArg = () =>
  z.string().optional().describe("Civo region code (e.g. LON1) to search in; defaults to the provider's region.");

/** `id`, `name` (and `region` when regional) arguments, described for the object `what`. */
export function idNameArgs(what: string, rule = 'give exactly one of id and name') {
  return {
    id: z
      .string()
      .optional()
      .describe(`Id of the ${what}; ${rule}. An exact match on id or name wins, else a single partial match.`),
    name: z
      .string()
      .optional()
      .describe(`Name of the ${what}; ${rule}. Several partial matches are ambiguous (an error).`),
  };
}
