// The list lookups' `filters` and `sorts` (the upstream provider's datalist semantics): filters are
// ANDed, a filter keeps a record when any value matches (all values with `all`); `exact` is
// case-insensitive equality, `substring` a case-sensitive contains, `re` an unanchored search; list
// fields match on any element. Sorts compare key by key (strings by code unit, false < true), stably.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { CheckIssue } from '../../../engine/provider/define.js';

export type FieldType = 'string' | 'bool' | 'int' | 'float' | 'list';
export type FieldTypes = Readonly<Record<string, FieldType>>;
export type Row = Record<string, unknown>;

export const filterSchema = z
  .strictObject({
    key: z.string().min(1).describe("Record field to filter on; must be one of the lookup's fields."),
    values: z
      .array(z.string())
      .min(1)
      .describe(
        'Values to match (at least one), written as strings; a record is kept when any value matches (every value with `all`).',
      ),
    matchBy: z
      .enum(['exact', 'substring', 're'])
      .default('exact')
      .describe(
        'How values match: `exact` (case-insensitive equality, the default), `substring` (case-sensitive contains) or `re` (unanchored regular expression).',
      ),
    all: z
      .boolean()
      .default(false)
      .describe('When true, a record must match every value instead of any one. Default false.'),
  })
  .describe('One filter; filters are ANDed, and list fields match on any element.');
export const sortSchema = z
  .strictObject({
    key: z.string().min(1).describe('Record field to sort on; list fields cannot be sorted.'),
    direction: z.enum(['asc', 'desc']).optional().describe('Sort direction, `asc` (default) or `desc`.'),
  })
  .describe('One sort key; sorts apply in order and are stable.');
export type Filter = z.output<typeof filterSchema>;
export type Sort = z.output<typeof sortSchema>;

export const listArgs = {
  filters: z
    .array(filterSchema)
    .default([])
    .describe('Filters that records must all pass; none (the default) keeps every record.'),
  sorts: z
    .array(sortSchema)
    .default([])
    .describe('Sort keys applied in order; none (the default) keeps the API order.'),
};

const parseBool = (v: string): boolean | undefined =>
  ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)
    ? true
    : ['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)
      ? false
      : undefined;

/** Unknown keys, sorts on list fields, and values that do not parse for their field's type. */
export function checkListArgs(
  args: { filters: readonly Filter[]; sorts: readonly Sort[] },
  fields: FieldTypes,
): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const keys = Object.keys(fields);
  const sortable = keys.filter((k) => fields[k] !== 'list');
  args.filters.forEach((f, i) => {
    const type = fields[f.key];
    if (!type) {
      issues.push({
        path: ['filters', i, 'key'],
        code: 'invalid_value',
        message: `'${f.key}' is not a field; allowed: ${keys.join(', ')}`,
      });
      return;
    }
    f.values.forEach((v, j) => {
      const path = ['filters', i, 'values', j];
      if (type === 'bool' && parseBool(v) === undefined)
        issues.push({ path, code: 'invalid_value', message: `'${v}' is not a boolean` });
      if (type === 'int' && !/^[-+]?\d+$/.test(v))
        issues.push({ path, code: 'invalid_value', message: `'${v}' is not an integer` });
      if (type === 'float' && !Number.isFinite(Number(v)))
        issues.push({ path, code: 'invalid_value', message: `'${v}' is not a number` });
      if ((type === 'string' || type === 'list') && f.matchBy === 're') {
        try {
          new RegExp(v);
        } catch {
          issues.push({ path, code: 'invalid_value', message: `'${v}' is not a valid regular expression` });
        }
      }
    });
  });
  args.sorts.forEach((s, i) => {
    if (!sortable.includes(s.key))
      issues.push({
        path: ['sorts', i, 'key'],
        code: 'invalid_value',
        message: `'${s.key}' cannot be sorted on; allowed: ${sortable.join(', ')}`,
      });
  });
  return issues;
}

function matchOne(type: FieldType, value: unknown, want: string, by: Filter['matchBy']): boolean {
  if (type === 'list') return Array.isArray(value) && value.some((e) => matchOne('string', e, want, by));
  if (type === 'bool') return value === parseBool(want);
  if (type === 'int') return value === Number(want);
  if (type === 'float') return typeof value === 'number' && Math.abs(value - Number(want)) < 1e-6;
  const s = text(value);
  if (by === 'substring') return s.includes(want);
  if (by === 're') return new RegExp(want).test(s);
  return s.toLowerCase() === want.toLowerCase();
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = text(a),
    y = text(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Filters, then sorts (stable: ties keep the API order). */
export function applyListArgs(
  rows: readonly Row[],
  args: { filters: readonly Filter[]; sorts: readonly Sort[] },
  fields: FieldTypes,
): Row[] {
  let out = [...rows];
  for (const f of args.filters) {
    const type = fields[f.key]!;
    out = out.filter((r) =>
      f.all
        ? f.values.every((v) => matchOne(type, r[f.key], v, f.matchBy))
        : f.values.some((v) => matchOne(type, r[f.key], v, f.matchBy)),
    );
  }
  if (args.sorts.length) {
    out = out
      .map((r, i) => ({ r, i }))
      .sort((a, b) => {
        for (const s of args.sorts) {
          const c = compare(a.r[s.key], b.r[s.key]);
          if (c !== 0) return s.direction === 'desc' ? -c : c;
        }
        return a.i - b.i;
      })
      .map((x) => x.r);
  }
  return out;
}

/** A stable id for a list lookup's result, from its arguments. */
export function listId(token: string, args: unknown): string {
  return createHash('sha256').update(token).update(JSON.stringify(args)).digest('hex').slice(0, 16);
}

/** A listed value as the filters compare it: objects as JSON, absent as ''. */
function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean);
}
